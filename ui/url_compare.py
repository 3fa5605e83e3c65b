"""The Compare page's two link formats: two rankings of the same judged documents, and two runs of the sample.

Part of :mod:`ui.url_state`'s interface (it re-exports them; pages call ``url_state.*``), kept apart for size: the
rankings as ``judged``/``order_a``/``order_b`` (or ``lists_unlinked=N``), the runs as ``run_a``, ``run_b``,
``resamples``, ``boot_seed``, ``confidence``, ``ties``, ``missing`` (or ``runs_unlinked=1``). Read with the rules of
:mod:`ui.url_rules`; a warning names what is wrong, never the link's text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ui.url_codecs import RankingLink, decode_documents, decode_order, encode_documents, encode_order
from ui.url_rules import MAX_NAME_CHARS, LinkError, format_number, parse_int

# --- the Compare page's two rankings -----------------------------------------------------------------------------

@dataclass(frozen=True)
class ComparedLists:
    """Two rankings of the same judged documents: the documents in their table's order (which breaks the ideal
    order's ties) and each ranking as document names."""

    names: tuple[str, ...]
    grades: tuple[float, ...]
    order_a: tuple[str, ...]
    order_b: tuple[str, ...]


def compared_lists_link(lists: ComparedLists) -> RankingLink:
    """``judged``/``order_a``/``order_b`` for two rankings; ``lists_unlinked=N`` and the reason when they cannot fit."""
    count = len(lists.names)
    if too_many := RankingLink.too_many(count, unlinked_key="lists_unlinked", whose="their"):
        return too_many
    if any(len(name) > MAX_NAME_CHARS for name in lists.names):  # the reader refuses them: never write what it refuses
        return RankingLink({"lists_unlinked": str(count)}, f"a document's name is longer than {MAX_NAME_CHARS} "
                                                           "characters")
    row = {name: position for position, name in enumerate(lists.names)}
    params = {"judged": encode_documents(lists.names, lists.grades),
              "order_a": encode_order([row[name] for name in lists.order_a]),
              "order_b": encode_order([row[name] for name in lists.order_b])}
    return RankingLink.checked(params, count=count, unlinked_key="lists_unlinked", whose="their")


def compared_lists_from_params(params: Mapping[str, str]) -> tuple[ComparedLists | None, str | None]:
    """(the link's two rankings or None for the default, a warning or None).

    Only the form is checked here (names, exact grades, each ranking naming every document once); the page checks
    the grades under the link's gain as it checks an edit."""
    if "lists_unlinked" in params:
        return None, ("The link was copied from rankings too long to fit in a link, so the example rankings are "
                      "shown.")
    if not any(name in params for name in ("judged", "order_a", "order_b")):
        return None, None
    try:
        names, grades = decode_documents(str(params.get("judged", "")))
        if not names:
            raise LinkError("it has no documents")
        if len(set(names)) != len(names):
            raise LinkError("two documents have the same name")
        orders = {}
        for side in ("a", "b"):
            try:
                orders[side] = tuple(names[row] for row in decode_order(str(params.get(f"order_{side}", "")), len(names)))
            except LinkError as error:
                raise LinkError(f"ranking {side.upper()}: {error}") from None
    except LinkError as error:
        return None, f"The link's rankings could not be used ({error}), so the example rankings are shown."
    return ComparedLists(names, grades, orders["a"], orders["b"]), None


# --- the Compare page's two runs ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ComparedRuns:
    """What decides every figure of a runs comparison: the two runs (by name), the bootstrap's resamples, seed and
    confidence level, and the Dataset page's tie and missing-query rules the runs are evaluated with."""

    run_a: str
    run_b: str
    resamples: int
    seed: int
    confidence: float
    ties: str
    missing: str


@dataclass(frozen=True)
class RunsChoices:
    """What the page offers (a link may hold nothing else): the runs, the number inputs' ranges, the levels, the
    rules, and the defaults a link's absent parameters keep."""

    run_names: tuple[str, ...]
    resamples: tuple[int, int]
    seeds: tuple[int, int]
    confidences: tuple[float, ...]
    ties: tuple[str, ...]
    missing: tuple[str, ...]
    defaults: ComparedRuns


# A link of uploaded runs says so: it cannot carry the files, and naming their runs would expose private file names.
UPLOADED_RUNS_LINK = {"runs_unlinked": "1"}


def compared_runs_params(runs: ComparedRuns) -> dict[str, str]:
    """The parameters of a comparison of the bundled sample's runs (all of them: a link never leans on defaults that
    a later version could change)."""
    return {"run_a": runs.run_a, "run_b": runs.run_b, "resamples": str(runs.resamples), "boot_seed": str(runs.seed),
            "confidence": format_number(runs.confidence), "ties": runs.ties, "missing": runs.missing}


def _listed(values: Sequence[str]) -> str:
    return ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else "".join(values)


def compared_runs_from_params(params: Mapping[str, str],
                              choices: RunsChoices) -> tuple[ComparedRuns | None, str | None]:
    """(the link's comparison or None for the default, a warning or None).

    An absent parameter keeps its default; one the page does not offer refuses the whole comparison (showing the
    rest with a default in its place would show figures the sender never saw). The warning names each refused
    parameter and what it may be, never the link's text."""
    if "runs_unlinked" in params:
        return None, ("The link was copied from a comparison of uploaded runs, which a link cannot carry, so the "
                      "bundled sample's runs are shown with the default options.")
    names = ("run_a", "run_b", "resamples", "boot_seed", "confidence", "ties", "missing")
    if not any(name in params for name in names):
        return None, None
    problems: list[str] = []
    picked = {}
    default = choices.defaults
    for side, name in (("A", "run_a"), ("B", "run_b")):
        picked[name] = params.get(name, getattr(default, name))
        if picked[name] not in choices.run_names:
            problems.append(f"run {side} is not one of the bundled sample's runs ({_listed(choices.run_names)})")
    for name, label, (low, high), fallback in (("resamples", "the number of resamples", choices.resamples,
                                                default.resamples), ("boot_seed", "the seed", choices.seeds, default.seed)):
        picked[name] = parse_int(params[name], low=low, high=high, digits=len(str(high))) if name in params else fallback
        if picked[name] is None:
            problems.append(f"{label} is not a whole number from {low:,} to {high:,}")
    levels = {format_number(level): level for level in choices.confidences}
    picked["confidence"] = levels.get(params["confidence"]) if "confidence" in params else default.confidence
    if picked["confidence"] is None:
        problems.append(f"the confidence level is not {_listed(list(levels))}")
    for name, label, allowed in (("ties", "tie", choices.ties), ("missing", "missing-query", choices.missing)):
        picked[name] = params.get(name, getattr(default, name))
        if picked[name] not in allowed:
            problems.append(f"the {label} rule is not one of {_listed(list(allowed))}")
    if problems:
        return None, (f"The link's comparison of runs could not be used ({'; '.join(problems)}), so the default "
                      "comparison is shown.")
    return ComparedRuns(picked["run_a"], picked["run_b"], picked["resamples"], picked["boot_seed"],
                        picked["confidence"], picked["ties"], picked["missing"]), None

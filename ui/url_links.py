"""The share-link formats of the settings, the Playground's documents and the Why-differ page's texts.

Pure functions from state to parameters and back (no Streamlit): :mod:`ui.url_state` describes the whole format,
mirrors it to and from the URL, and re-exports these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

from ui.ranking import Ranking
from ui.settings_model import GAIN_LABELS, LOG_BASES, MAX_K, ZERO_IDCG_LABELS, MetricSettings
from ui.url_codecs import RankingLink, decode_documents, encode_documents, read_gain_table
from ui.url_rules import (
    MAX_LINK_DOCUMENTS,
    MAX_PARAM_CHARS,
    LinkError,
    choice,
    format_number,
    parse_int,
    parse_number,
    parse_text,
)

# The Why-differ page's fields (its widgets' names) -> their parameters.
WHY_DIFFER_PARAMS = {"grades": "g", "scores": "s", "extra": "x", "ids": "d", "k": "cut", "from_1": "a",
                     "number_1": "ra", "from_2": "b", "number_2": "rb"}
MAX_TEXT_CHARS = 40_000  # one field of the Why-differ page (its own limit on typed text)
PLAYGROUND_URL = "/"  # the default page is served at the root (and "/playground" by a hidden alias of it)


# --- settings ------------------------------------------------------------------------------------------------

def settings_params(settings: MetricSettings) -> dict[str, str]:
    """The parameters that describe ``settings`` (in every share link)."""
    params = {"gain": settings.gain, "base": settings.log_base, "z": settings.zero_idcg}
    if settings.k is not None:
        params["k"] = str(settings.k)
    if settings.gain == "custom":
        params["gt"] = ",".join(f"{format_number(g)}:{format_number(v)}" for g, v in settings.gain_table)
    return params


def settings_from_link(params: Mapping[str, str]) -> tuple[MetricSettings, str | None]:
    """Settings a link describes, and the warning saying which parameters kept their default and why (None: all
    read). A gain table that reads but is refused says ndcg_core's reason, not that it could not be read."""
    settings, problems, refusal = _read_settings(params)
    sentences = [f"The link's {', '.join(problems)} could not be read, so the default was used."] if problems else []
    if refusal:
        sentences.append(f"The link's gain table was refused, so the default table is used: {refusal}")
    return settings, " ".join(sentences) or None


def _read_settings(params: Mapping[str, str]) -> tuple[MetricSettings, list[str], str | None]:
    """(settings, unreadable parameters, ndcg_core's reason for refusing a gain table that reads)."""
    problems: list[str] = []
    defaults = MetricSettings()
    gain = choice(params, "gain", list(GAIN_LABELS), problems, "gain") or defaults.gain
    base = choice(params, "base", list(LOG_BASES), problems, "log base") or defaults.log_base
    zero = choice(params, "z", list(ZERO_IDCG_LABELS), problems, "“NDCG when IDCG = 0” rule") or defaults.zero_idcg
    k = defaults.k
    if params.get("k") not in (None, ""):
        k = parse_int(params.get("k"), low=1, high=MAX_K)
        if k is None:
            problems.append("cutoff k")
    table, refusal = defaults.gain_table, None
    if params.get("gt") is not None:
        parsed, refusal = read_gain_table(params["gt"])
        if parsed is not None:
            table = parsed
        elif refusal is None:
            problems.append("gain table")
    return MetricSettings(gain=gain, gain_table=table, log_base=base, k=k, zero_idcg=zero), problems, refusal


# --- the Playground's documents -------------------------------------------------------------------------------

def ranking_link(ranking: Ranking, *, scores: Sequence[float] | None = None, tie_rule: str | None = None) -> RankingLink:
    """``docs``/``extra`` for a ranking (``sc``/``tie`` in score mode); a list too big for a link gets
    ``unlinked=N`` and the real reason."""
    count = len(ranking.names) + len(ranking.extra_names)
    if too_many := RankingLink.too_many(count, unlinked_key="unlinked", whose="its"):
        return too_many
    params = {"docs": encode_documents(ranking.names, ranking.grades)}
    if ranking.extra_names:
        params["extra"] = encode_documents(ranking.extra_names, ranking.extra_grades)
    if ranking.tie_groups is not None:
        params["tg"] = ",".join(str(group) for group in ranking.tie_groups)
    if scores is not None:
        params["sc"] = ",".join(format_number(score) for score in scores)
        params["tie"] = tie_rule or "average"
    return RankingLink.checked(params, count=count, unlinked_key="unlinked", whose="its")


def groups_are_neighbours(labels: Sequence[int]) -> bool:
    """Whether each label's positions are next to each other, as tied scores of a run always are. ndcg_core averages
    the gains of neighbouring positions with one label only, so a link's ``tg=1,2,1`` gave unaveraged figures under
    a note saying the first and last documents' gains were averaged."""
    seen: set[int] = set()
    for index, label in enumerate(labels):
        if label in seen and labels[index - 1] != label:
            return False
        seen.add(label)
    return True


def ranking_from_params(params: Mapping[str, str]) -> tuple[Ranking | None, str | None]:
    """(the link's ranking or None for the default, a warning or None)."""
    if "unlinked" in params:
        return None, ("The link was copied from a list too long to fit in a link, so the example list is shown. "
                      "Download the table as CSV to share long lists.")
    if "docs" not in params and "extra" not in params:
        return None, None
    try:
        names, grades = decode_documents(str(params.get("docs", "")))
        extra_names, extra_grades = decode_documents(str(params.get("extra", "")))
        if not names:
            raise LinkError("it has no ranked documents")
        tie_groups = None
        if "tg" in params:
            tie_groups = tuple(parse_int(group, low=0, high=MAX_LINK_DOCUMENTS) for group in str(params["tg"]).split(","))
            if len(tie_groups) != len(names) or None in tie_groups:
                raise LinkError("its tie groups are not one whole number per ranked document")
            if not groups_are_neighbours(tie_groups):
                raise LinkError("the documents of one of its tie groups are not next to each other")
    except LinkError as error:
        return None, f"The link's document list could not be used ({error}), so the example list is shown."
    return Ranking(names, grades, extra_names, extra_grades, tie_groups), None


def scores_from_params(params: Mapping[str, str], n_documents: int) -> tuple[tuple[float, ...] | None, str, str | None]:
    """(the link's scores or None, its tie rule, a warning or None): score mode's ``sc`` and ``tie``."""
    from ndcg_core import TIE_RULES

    rule = params.get("tie", "average")
    if rule not in TIE_RULES:
        return None, "average", "The link's tie rule could not be read, so score mode is off."
    if "sc" not in params:
        return None, rule, None
    text = str(params["sc"])
    try:
        if len(text) > MAX_PARAM_CHARS:
            raise LinkError(f"they are longer than {MAX_PARAM_CHARS:,} characters")
        chunks = text.split(",")
        if len(chunks) != n_documents:
            raise LinkError("there is not one score per ranked document")
        scores = tuple(parse_number(chunk, f"score {position}", negative=True)
                       for position, chunk in enumerate(chunks, start=1))
    except LinkError as error:
        return None, rule, f"The link's scores could not be used ({error}), so score mode is off."
    return scores, rule, None


def playground_link(ranking: Ranking, settings: MetricSettings) -> str:
    """A root-relative URL ('/?gain=...&docs=...') that opens the Playground on this ranking and settings."""
    return link(PLAYGROUND_URL, {**settings_params(settings), **ranking_link(ranking).params})


def link(path: str, params: Mapping[str, str]) -> str:
    """``path?params`` with ':' and ',' left readable."""
    return f"{path}?{urlencode(dict(params), safe=':,')}"


# --- the Why-differ page's texts ---------------------------------------------------------------------------

def why_differ_texts(params: Mapping[str, str]) -> tuple[dict[str, str] | None, str | None]:
    """(the link's texts by field, or None when it has none; a problem, or None).

    Only the form is checked here (length, no control characters); the page checks the content as it checks
    typed text, so a link can never hold what could not be typed."""
    linked = {name: params[param] for name, param in WHY_DIFFER_PARAMS.items() if param in params}
    if not linked:
        return None, None
    texts = {name: parse_text(value, limit=MAX_TEXT_CHARS) for name, value in linked.items()}
    unusable = [name for name, text in texts.items() if text is None]
    if unusable:
        return None, f"the field “{unusable[0]}” is too long or holds control characters"
    return {name: texts.get(name) or "" for name in WHY_DIFFER_PARAMS}, None


def why_differ_params(texts: Mapping[str, str]) -> dict[str, str | None]:
    """The parameters for the page's texts: every non-empty field, stripped; the empty ones absent (None)."""
    return {param: (str(texts.get(name, "")).strip() or None) for name, param in WHY_DIFFER_PARAMS.items()}

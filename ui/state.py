"""The Playground's canonical state: one ranking in ``st.session_state``, mirrored to the URL.

The ranking is the single source of truth for the order: the data editor, the drag list, the
charts and the table are all drawn from it, so sorting the editor by a column header never changes
the ranking. Other pages open a list in the Playground with :func:`open_in_playground` or link to it
with :func:`playground_link`.

URL format (compact, human-readable): ``docs=D1:3,D2:1`` and ``extra=D7:3`` where each name is
percent-encoded (so commas and colons inside names survive) and each grade is a plain number.
The Playground is the default page, so its links are '/?gain=...&docs=...'.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlencode

import streamlit as st

import ndcg_core
from ui.settings import MetricSettings, current_settings, set_settings, settings_to_params

RANKING_KEY = "playground"
INITIAL_KEY = "playground_initial"
REVISION_KEY = "playground_revision"
BASE_KEY = "playground_editor_base"
EDITED_KEY = "playground_edited"  # True while the canonical ranking is the editors' base plus their edits
WARNING_KEY = "playground_url_warning"
PLAYGROUND_PAGE = "pages/playground.py"
# The Playground is the app's default page, which Streamlit serves at the root: "/playground" would show
# "Page not found" (before running the main page anyway), so links point at "/".
PLAYGROUND_URL = "/"

MAX_LINK_DOCUMENTS = 1_000  # a link with more documents is refused (and the page stops mirroring to the URL)
MAX_PARAM_CHARS = 30_000  # browsers and proxies get unreliable beyond ~32 k characters of URL
MAX_NAME_CHARS = 200


@dataclass(frozen=True)
class Ranking:
    """Documents in ranked order with their grades, plus judged documents that are not ranked.

    ``tie_groups`` (one label per ranked document, or None) marks documents whose scores tied in the run
    this list was opened from, under the "average" tie rule: ``ndcg_core.evaluate`` averages their gains, so
    the Playground shows the Dataset's figure. Any reorder or edit gives a plain list (None).
    """

    names: tuple[str, ...]
    grades: tuple[float, ...]
    extra_names: tuple[str, ...] = ()
    extra_grades: tuple[float, ...] = ()
    tie_groups: tuple[int, ...] | None = None

    def ideal_relevances(self) -> list[float]:
        """Every judged grade: the ranked ones and the extra ones (what IDCG is computed from)."""
        return list(self.grades) + list(self.extra_grades)

    def reordered(self, perm: Sequence[int]) -> Ranking:
        """The ranking with position i holding the document that was at ``perm[i]``."""
        return Ranking(
            tuple(self.names[i] for i in perm), tuple(self.grades[i] for i in perm), self.extra_names, self.extra_grades
        )


# 000_0bdd5abdb117b00b.txt: "rank a list of 5 documents with grades G = [3, 1, 2, 0, 2]".
DEFAULT_RANKING = Ranking(names=("D1", "D2", "D3", "D4", "D5"), grades=(3.0, 1.0, 2.0, 0.0, 2.0))


def make_ranking(names, grades, extra_names=(), extra_grades=(), tie_groups=None) -> Ranking:
    """A Ranking from any sequences (grades become floats)."""
    return Ranking(
        tuple(str(n) for n in names), tuple(float(g) for g in grades),
        tuple(str(n) for n in extra_names), tuple(float(g) for g in extra_grades),
        None if tie_groups is None else tuple(int(g) for g in tie_groups),
    )


# --- session state -----------------------------------------------------------------------------------------

def current_ranking() -> Ranking:
    """The Playground's ranking; on a session's first visit it comes from the URL (or the default example)."""
    if RANKING_KEY not in st.session_state:
        ranking, problem = ranking_from_params(st.query_params)
        if problem:
            st.session_state[WARNING_KEY] = problem
        st.session_state[RANKING_KEY] = ranking
        st.session_state[INITIAL_KEY] = ranking
        st.session_state[BASE_KEY] = ranking
    return st.session_state[RANKING_KEY]


def set_ranking(ranking: Ranking) -> None:
    """Replace the canonical ranking (reorder, button, opened list); the editors restart from it."""
    st.session_state[RANKING_KEY] = ranking
    st.session_state[BASE_KEY] = ranking
    st.session_state[EDITED_KEY] = False
    st.session_state.pop(WARNING_KEY, None)  # a bad link's warning stays until the user changes the list
    st.session_state[REVISION_KEY] = st.session_state.get(REVISION_KEY, 0) + 1


def set_edited_ranking(ranking: Ranking) -> None:
    """The ranking as the editors' edits make it: the editors keep their widget state (no restart).

    The data editors show :func:`editor_base` plus the user's edits; the canonical ranking is that
    result whenever it is valid. Restarting the editors after every edit would drop a cell the user is
    already typing into, so only reorders and buttons (which change rows' positions) restart them.
    """
    st.session_state[RANKING_KEY] = ranking
    st.session_state[EDITED_KEY] = True
    st.session_state.pop(WARNING_KEY, None)


def is_edited() -> bool:
    """Whether the canonical ranking currently includes edits made in the editors."""
    return bool(st.session_state.get(EDITED_KEY, False))


def editor_base() -> Ranking:
    """The ranking the editors were last (re)started from; their edit state is relative to it."""
    if not is_edited():
        return current_ranking()  # no edits: the base is the canonical ranking itself
    return st.session_state.get(BASE_KEY) or current_ranking()


def initial_ranking() -> Ranking:
    """What 'Reset' goes back to: the example, the link's list, or the list another page opened."""
    return st.session_state.get(INITIAL_KEY, DEFAULT_RANKING)


def revision() -> int:
    """Counter bumped whenever the editors restart from a new base (their widget keys include it)."""
    return st.session_state.get(REVISION_KEY, 0)


def open_in_playground(
    names: Sequence[str],
    grades: Sequence[float],
    *,
    extra_names: Sequence[str] = (),
    extra_grades: Sequence[float] = (),
    settings: MetricSettings | None = None,
    tie_groups: Sequence[int] | None = None,
) -> None:
    """Load this list (and optionally these settings and tie groups) into the Playground and switch to it."""
    ranking = make_ranking(names, grades, extra_names, extra_grades, tie_groups)
    set_ranking(ranking)
    st.session_state[INITIAL_KEY] = ranking
    if settings is not None:
        set_settings(settings)
    st.switch_page(PLAYGROUND_PAGE)


def playground_list() -> tuple[list[str], list[float], list[str], list[float]]:
    """(names, grades, extra names, extra grades) of the Playground's current ranking."""
    ranking = st.session_state.get(RANKING_KEY, DEFAULT_RANKING)
    return list(ranking.names), list(ranking.grades), list(ranking.extra_names), list(ranking.extra_grades)


# --- URL encoding --------------------------------------------------------------------------------------------

def _format_grade(grade: float) -> str:
    return f"{grade:.10g}"


def encode_documents(names: Sequence[str], grades: Sequence[float]) -> str:
    """'D1:3,D2:1' with percent-encoded names."""
    return ",".join(f"{quote(str(n), safe='')}:{_format_grade(float(g))}" for n, g in zip(names, grades, strict=True))


def decode_documents(text: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Inverse of :func:`encode_documents`; raises ValueError with a plain reason when malformed."""
    if len(text) > MAX_PARAM_CHARS:
        raise ValueError(f"it is longer than {MAX_PARAM_CHARS:,} characters")
    if text == "":
        return (), ()
    chunks = text.split(",")
    if len(chunks) > MAX_LINK_DOCUMENTS:
        raise ValueError(f"it has more than {MAX_LINK_DOCUMENTS:,} documents")
    names, grades = [], []
    # Reasons name positions, never the link's own text: a warning renders markdown, a link is untrusted.
    for position, chunk in enumerate(chunks, start=1):
        parts = chunk.split(":")
        if len(parts) != 2:
            raise ValueError(f"entry {position} is not of the form name:grade")
        name = unquote(parts[0])
        if not name.strip() or len(name) > MAX_NAME_CHARS:
            raise ValueError(f"the name of entry {position} is empty or longer than {MAX_NAME_CHARS} characters")
        try:
            grade = float(parts[1])
        except ValueError:
            raise ValueError(f"the grade of entry {position} is not a number") from None
        if not math.isfinite(grade) or grade < 0:
            raise ValueError(f"the grade of entry {position} is not a finite, non-negative number")
        names.append(name)
        grades.append(grade)
    return tuple(names), tuple(grades)


def ranking_params(ranking: Ranking) -> dict[str, str]:
    """Query parameters for a ranking ({} when it is too long for a link)."""
    if len(ranking.names) + len(ranking.extra_names) > MAX_LINK_DOCUMENTS:
        return {}
    params = {"docs": encode_documents(ranking.names, ranking.grades)}
    if ranking.extra_names:
        params["extra"] = encode_documents(ranking.extra_names, ranking.extra_grades)
    if any(len(value) > MAX_PARAM_CHARS for value in params.values()):
        return {}
    return params


def ranking_from_params(params: Mapping[str, str]) -> tuple[Ranking, str | None]:
    """The ranking a link describes, or the default example plus a plain-words warning when it is unusable."""
    if "docs" not in params and "extra" not in params:
        return DEFAULT_RANKING, None
    try:
        names, grades = decode_documents(str(params.get("docs", "")))
        extra_names, extra_grades = decode_documents(str(params.get("extra", "")))
        if not names:
            raise ValueError("it has no ranked documents")
        ranking = Ranking(names, grades, extra_names, extra_grades)
        # The link's grades must also work with the link's settings (e.g. exponential gain overflow).
        ndcg_core.evaluate(list(grades), ideal_relevances=ranking.ideal_relevances(), **_safe_kwargs())
    except (ValueError, ndcg_core.InvalidInput) as error:
        reason = str(error).splitlines()[0][:200]
        return DEFAULT_RANKING, f"The link's document list could not be used ({reason}), so the example list is shown."
    return ranking, None


def _safe_kwargs() -> dict:
    kwargs = current_settings().kwargs()
    kwargs["zero_idcg"] = "zero"  # a list of all-zero grades is a valid link even under the 'refuse' rule
    return kwargs


def playground_link(
    names: Sequence[str],
    grades: Sequence[float],
    *,
    extra_names: Sequence[str] = (),
    extra_grades: Sequence[float] = (),
    settings: MetricSettings | None = None,
) -> str:
    """A root-relative URL ('/?docs=...') that opens the Playground (the default page) on this list and settings."""
    return link_from_params(ranking_params(make_ranking(names, grades, extra_names, extra_grades)), settings)


def link_from_params(ranking_parameters: Mapping[str, str], settings: MetricSettings | None = None) -> str:
    """:func:`playground_link` for query parameters already made by :func:`ranking_params`."""
    params = settings_to_params(settings if settings is not None else current_settings())
    params.update(ranking_parameters)
    return f"{PLAYGROUND_URL}?{urlencode(params, safe=':,')}"


def mirror_to_url(ranking: Ranking, params: Mapping[str, str] | None = None) -> bool:
    """Keep the URL's docs/extra parameters equal to the ranking; False when the list is too long for a URL.

    ``params``, when given, must be ``ranking_params(ranking)`` (the share link encodes the list only once).
    """
    params = ranking_params(ranking) if params is None else params
    for name in ("docs", "extra"):
        value = params.get(name)
        if value is None:
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != value:
            st.query_params[name] = value
    return bool(params)


def url_warning() -> str | None:
    """The warning left by an unusable link (shown until the list changes)."""
    return st.session_state.get(WARNING_KEY)

"""Every page's URL state in one place: the share-link format, one set of parsing rules, the warnings, one write.

**Format.** Settings: ``gain`` (exponential|linear|custom), ``base`` (2|e|10), ``k`` (1..100000, absent = whole
list), ``z`` (zero|one|skip|error), ``gt`` (custom gain table ``grade:gain,...``). Playground: ``docs`` and
``extra`` (``name:grade,...``, names percent-encoded), ``tg`` (tie groups of a list opened from a run), or ``unlinked=N`` when N documents are too many for a
link; in score mode ``sc`` (one score per ranked document, in ``docs`` order, any finite number) and ``tie`` (the
tie rule, one of ``ndcg_core.TIE_RULES``). Step by step: ``list`` (a worked example's key), ``pos``. Quiz: ``seed``. Compare: ``compare``
(lists|runs), ``slide=1``; its two rankings: ``judged`` (the documents, ``name:grade,...`` in their table's order) with
``order_a`` and ``order_b`` (each ranking as rows of ``judged``, ``2,0,1``), or ``lists_unlinked=N`` when N documents
are too many for a link; its two runs (bundled sample only): ``run_a``, ``run_b``, ``resamples``, ``boot_seed``,
``confidence`` (0.9|0.95|0.99), ``ties`` and ``missing`` (the Dataset page's rules, which the comparison uses) and
``flip_query`` (the flip grid's query), or ``runs_unlinked=1`` when the runs were uploaded. Conventions: ``case``, ``rows`` (``name:grade:score:score_2:ranked,...``). Dataset
(sample data only): ``run``, ``ties``, ``missing``, ``query``, or ``data_unlinked=1`` for uploaded files. Why do my numbers differ: the typed texts under
:data:`WHY_DIFFER_PARAMS` (``g`` grades, ``s`` scores, ``x`` judged-not-ranked, ``d`` ids, ``cut``, ``a``/``ra``
and ``b``/``rb`` the two numbers and where they came from), each checked by the page like typed text. Live class
(not managed: they say who you are and stay until the page replaces them): ``join`` (a join link's class code),
``code`` with ``student`` (a student's token), ``teacher`` (the secret) or ``screen`` (the projector's view-only token).
Every page: ``present=1`` (Present mode, see :mod:`ui.present`; ``0`` or absent = off).

**Rules.** Every value is read with :mod:`ui.url_rules` (ASCII digits only, length limits, finite numbers, exact
number text), so anything unusable falls back to the default and leaves a warning that names the parameter,
never quoting the link's (untrusted) text.

**Writing.** Pages :func:`publish` their parameters during a run; ``app.py`` calls :func:`flush` once at the
end, which writes the URL only when it differs, with one ``st.query_params.from_dict`` call. Streamlit 1.67's
frontend turns every query-string message into a ``history.pushState`` (``replaceState`` only while
replaying Back/Forward), so one write per run is at most one history entry per user action, and a rerun that
changes nothing adds none.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import streamlit as st

from ui import session
from ui.url_codecs import (  # noqa: F401 - the list formats are part of this module's interface
    CONVENTIONS_COLUMNS,
    MAX_LINK_ROWS,
    MAX_ROWS_CHARS,
    RankingLink,
    decode_answers,
    decode_documents,
    decode_order,
    decode_rows,
    encode_answers,
    encode_documents,
    encode_order,
    encode_rows,
    parse_gain_table,
    read_gain_table,
)
from ui.url_compare import (  # noqa: F401 - the Compare page's link formats are part of this module's interface
    UPLOADED_RUNS_LINK,
    ComparedLists,
    ComparedRuns,
    RunsChoices,
    compared_lists_from_params,
    compared_lists_link,
    compared_runs_from_params,
    compared_runs_params,
)
from ui.url_links import (  # noqa: F401 - the link formats are part of this module's interface
    MAX_TEXT_CHARS,
    PLAYGROUND_URL,
    WHY_DIFFER_PARAMS,
    link,
    playground_link,
    ranking_from_params,
    ranking_link,
    scores_from_params,
    settings_from_link,
    settings_params,
    why_differ_params,
    why_differ_texts,
)
from ui.url_rules import (  # noqa: F401 - the rules are part of this module's interface (pages call url_state.*)
    MAX_INT_DIGITS,
    MAX_LINK_DOCUMENTS,
    MAX_NAME_CHARS,
    MAX_NUMBER_CHARS,
    MAX_PARAM_CHARS,
    LinkError,
    choice,
    format_number,
    parse_flag,
    parse_int,
    parse_number,
    parse_text,
)

SETTINGS_PARAMS = ("gain", "base", "k", "z", "gt")
# The Compare page's two rankings: not the Playground's ``docs``, which a Playground opened later would read as its list.
COMPARE_LISTS_PARAMS = ("judged", "order_a", "order_b", "lists_unlinked")
# The Compare page's two runs. Their tie and missing-query rules are the Dataset page's ``ties`` and ``missing``: the
# same choices (the comparison evaluates the runs with the Dataset page's rules), so the two pages read them alike.
COMPARE_RUNS_PARAMS = ("run_a", "run_b", "resamples", "boot_seed", "confidence", "flip_query", "runs_unlinked")
PAGE_PARAMS = ("docs", "extra", "tg", "sc", "tie", "unlinked", "list", "pos", "seed", "answers", "compare", "slide", "case", "rows",
               "run", "ties", "missing", "query", "data_unlinked", *COMPARE_LISTS_PARAMS, *COMPARE_RUNS_PARAMS)
APP_PARAMS = ("present",)  # the app's own switches, on every page
MANAGED = frozenset(SETTINGS_PARAMS + PAGE_PARAMS + tuple(WHY_DIFFER_PARAMS.values()) + APP_PARAMS)
LIVE_PARAMS = ("join", "code", "student", "teacher", "screen")
STREAMLIT_PARAMS = ("embed", "embed_options")  # Streamlit's own (an app embedded in another page)
KNOWN = MANAGED | frozenset(LIVE_PARAMS + STREAMLIT_PARAMS)
LIVE_PAGE = "live_class"  # the url_path of the page that reads LIVE_PARAMS
NAMES_SCOPE = "link names"  # the warning about parameters no page reads, or given twice
_SESSION_KEY = "url_state"


# --- reading, warnings and the one write per run ----------------------------------------------------------

@dataclass
class UrlSession:
    """This session's URL bookkeeping: parameters published during the run, and warnings per page."""

    pending: dict[str, str | None] = field(default_factory=dict)
    warnings: dict[str, str] = field(default_factory=dict)
    page: str | None = None  # the url_path of the page this run draws
    first_run_done: bool = False
    names_page: str | None = None  # the page the link with unread parameter names opened
    # The last write (its parameters) and the address the browser reported when it was made: a run whose browser
    # still reports that older address asked before the write arrived, so it is no proof of what the bar shows.
    written: dict[str, str] | None = None
    written_over: dict[str, str] | None = None
    answer_unseen: bool = False  # this run's request predates the last write (see answer_unseen())


def _session() -> UrlSession:
    return session.page_state(_SESSION_KEY, UrlSession)


def params() -> dict[str, str]:
    """The URL's parameters as text (the last value of a repeated one)."""
    return st.query_params.to_dict()


def warn(scope: str, message: str | None) -> None:
    """Keep (or with None, drop) the link warning of ``scope`` (a page, or "settings")."""
    if message is None:
        _session().warnings.pop(scope, None)
    else:
        _session().warnings[scope] = message


def add_warning(scope: str, message: str) -> None:
    """Add ``message`` to ``scope``'s link warning (a link can hold several values that cannot be used)."""
    earlier = warning(scope)
    if earlier is None or message not in earlier:
        warn(scope, message if earlier is None else f"{earlier} {message}")


def warning(scope: str) -> str | None:
    return _session().warnings.get(scope)


def show_warning(scope: str) -> None:
    """Show ``scope``'s link warning, if any (it stays until the state it is about changes)."""
    if message := warning(scope):
        st.warning(message, icon=":material/link_off:")


def start(page: str | None = None) -> None:
    """Forget what the previous run published (app.py calls it first in every full run, with the page it draws)."""
    _session().pending = {}
    _session().page = page
    url_session = _session()
    current = st.query_params.to_dict()
    url_session.answer_unseen = _before_last_write(current) and current != url_session.written


def _before_last_write(current: Mapping[str, str]) -> bool:
    """Whether the browser reports the address from before this session's last write (its request was sent before
    that write arrived)."""
    url_session = _session()
    return url_session.written is not None and current == url_session.written_over


def answer_unseen() -> bool:
    """Whether this run was asked for before the previous run's answer reached the browser: the request carries
    the address from before that run's write (sent with its last figures), as a second tap 0.1 s after the first
    does. For such a person the two actions are one change: the figures in between were never on screen."""
    return _session().answer_unseen


def unread_names(names: Sequence[str], counts: Mapping[str, int]) -> str | None:
    """Why a link's parameter names would go unread: names no page reads (with the nearest known name, as a
    typo such as "dosc" or "GAIN" for "docs" or "gain" silently gave other numbers) and names given more than once
    (``counts``: how often each is given). None when every name is read once."""
    import difflib

    unknown = [name for name in names if name not in KNOWN]
    parts = []
    if unknown:
        words = []
        for name in unknown[:5]:
            near = difflib.get_close_matches(name.lower(), sorted(KNOWN), n=1, cutoff=0.6)
            words.append(f"“{name[:40]}”" + (f" (did you mean “{near[0]}”?)" if near else ""))
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        parts.append(f"The link has parameters this app does not read, left out: {', '.join(words)}{more}.")
    repeated = [name for name in names if counts.get(name, 1) > 1 and name in KNOWN]
    if repeated:
        parts.append(f"The link gives {', '.join(f'“{name}”' for name in repeated[:5])} more than once: the last "
                     "value is used.")
    return " ".join(parts) or None


def check_names(page: str) -> None:
    """On a tab's first run, warn about the link's unread or repeated parameter names; show that warning on the
    page the link opened (app.py calls it before the page runs), until another page is opened."""
    url_session = _session()
    if not url_session.first_run_done:
        names = list(st.query_params.keys())
        problem = unread_names(names, {name: len(st.query_params.get_all(name)) for name in names})
        if problem:
            warn(NAMES_SCOPE, problem)
            url_session.names_page = page
    if url_session.names_page != page:
        warn(NAMES_SCOPE, None)
    show_warning(NAMES_SCOPE)


def publish(values: Mapping[str, str | None]) -> None:
    """Declare this run's value of some managed parameters (None = absent); written by :func:`flush`."""
    _session().pending.update(values)


def publish_at_once(values: Mapping[str, str]) -> None:
    """:func:`publish`, and on a tab's first run (which writes nothing, see :func:`flush`) put ``values`` in the
    address bar at once, replacing the history entry (no second entry): for state a reload cannot rebuild, such as
    the Quiz's random seed (the address said ``/quiz`` until the first answer, so a reload drew other questions
    and a copied address gave each student another quiz). The next run's write then finds it there."""
    publish(values)
    if _session().first_run_done:
        return
    script = f"""<script>
(() => {{
  const url = new URL(window.location.href);
  for (const [name, value] of Object.entries({json.dumps(dict(values))})) url.searchParams.set(name, value);
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url.href);
}})();
</script>"""
    st.sidebar.html(script, unsafe_allow_javascript=True)  # in the sidebar: no gap in the page's own column


def flush(*, partial: bool = False) -> None:
    """Write the published parameters to the URL in one message, only if it changes.

    A full flush (end of a run, from app.py) also removes managed parameters nobody published in this run
    (another page's). ``partial`` (inside a fragment, where app.py does not run) only updates what was published.
    """
    if not _session().first_run_done:
        # A tab's first run leaves the address as it was opened: its write would reach the browser before
        # ui/history.py's script is in place, as a second history entry for the same page (one Back then stayed
        # on the page). The next action writes the whole state, replacing the entry. Only a link with a value the
        # page could not read (it warned) is corrected at once, so the address bar never shows the bad value.
        _session().first_run_done = not partial  # a fragment inside the first run is still the first run
        if not _session().warnings:
            return
    current = st.query_params.to_dict()
    # A full write keeps the parameters nobody manages that are read (Streamlit's own; the Live class's on its own
    # page only: a teacher's or student's secret must not ride along to another page's address, as it did after
    # Back from the Live class, where Streamlit's rerun kept the previous page's parameters); those no page reads
    # go (check_names said so), so the address shows what the page uses.
    on_live_page = _session().page == LIVE_PAGE
    desired = dict(current) if partial else {name: value for name, value in current.items()
                                             if name not in MANAGED and name in KNOWN
                                             and (on_live_page or name not in LIVE_PARAMS)}
    for name, value in _session().pending.items():
        if value is None:
            desired.pop(name, None)
        else:
            desired[name] = value
    url_session = _session()
    # A run the browser asked for before the previous run's write reached it (a double tap: the second tap's
    # request carries the address from before the first tap's write) reports that older address. If this run's
    # state is that address again (the second tap undid the first), the two are equal, yet the bar is about to
    # show the first tap's write: write this state again, or a reload or a copied address opens the other list.
    overtaken = _before_last_write(current) and desired != url_session.written
    if desired != current or overtaken:
        st.query_params.from_dict(desired)
        url_session.written, url_session.written_over = dict(desired), dict(current)


def page_address(default: str) -> str:
    """This page's address without its query string (``st.context.url``, absolute), for a link to copy; ``default``
    (a root-relative path) when the browser's address is unknown (AppTest)."""
    url = str(getattr(st.context, "url", None) or "")
    return url.split("?", 1)[0] if url.startswith("http") else default


def live_params() -> dict[str, str]:
    """The Live class's parameters present in the URL (empty values left out)."""
    current = params()
    return {name: current[name] for name in LIVE_PARAMS if current.get(name)}


def open_live(values: Mapping[str, str]) -> None:
    """Replace the Live class's parameters now (joining or starting a session moves the tab to its address).

    Written at once, not at the end of the run: the caller reruns straight away, before app.py's flush.
    """
    publish({name: values.get(name) for name in LIVE_PARAMS})
    flush(partial=True)


def restore_choice(key: str, param: str, allowed: Sequence[str], *, scope: str, label: str) -> None:
    """On a session's first visit, a widget's value from the URL; an unusable one leaves a warning for ``scope``."""
    value = params().get(param)
    if session.has(key) or value is None:
        return
    if value in allowed:
        session.set_widget(key, value)
    else:
        add_warning(scope, f"The link's {label} could not be read, so the default is shown.")

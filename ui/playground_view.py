"""Pieces of the Playground page: the order buttons, the deltas, the extra-documents note, the share link.

The page (pages/playground.py) stays a thin script that calls these in order. All edits go through
the canonical :class:`ui.ranking.Ranking`; widgets are drawn from it, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

import ndcg_core
from ui import ghost, state, url_state
from ui.copy_link import copy_link
from ui.formatting import TIE_RULE_LABELS, compact
from ui.formatting import fixed as figure
from ui.messages import user_message, zero_idcg_refused
from ui.metric_cards import OTHER_SETTINGS
from ui.playground_edits import (  # noqa: F401 - the page calls the editors through this module
    LIST_KEY,
    apply_edits,
    apply_pending_changes,
    extra_editor,
    ranking_editor,
    show_duplicate_names,
    show_edit_error,
)
from ui.ranking import Ranking, evaluate
from ui.settings import current_settings
from ui.settings_model import ZERO_IDCG_SETTING, MetricSettings, zero_idcg_words
from ui.widgets import isolated, names_list, plain

# --- order buttons -----------------------------------------------------------------------------------------------

def _reorder(kind: str) -> None:
    if kind != "reset":  # a grade typed and left by a click on the button is applied first, then reordered
        apply_edits(current_settings())
    ranking = state.current_ranking()
    grades = np.asarray(ranking.grades, dtype=float)
    n = len(grades)
    if kind == "ideal":
        perm = ndcg_core.ideal_order(grades)
    elif kind == "worst":
        perm = ndcg_core.worst_order(grades)
    elif kind == "reverse":
        perm = np.arange(n)[::-1]
    elif kind == "shuffle":
        perm = state.playground().rng.permutation(n)
    else:
        state.set_ranking(state.initial_ranking())
        return
    refused = state.playground().edit_error
    state.set_ranking(ranking.reordered(perm.tolist()))
    state.playground().edit_error = refused  # a refused edit still says so after the reorder


ORDER_BUTTONS = (
    ("ideal", "Ideal order", ":material/trending_down:", "Sort by grade, highest first: NDCG becomes 1."),
    ("worst", "Worst order", ":material/trending_up:", "Sort by grade, lowest first: the smallest DCG this list can have."),
    ("reverse", "Reverse", ":material/swap_vert:", "Turn the ranking upside down."),
    ("shuffle", "Shuffle", ":material/shuffle:", "A random order (the same sequence of shuffles in every session)."),
    ("reset", "Reset", ":material/restart_alt:", "Back to the list the page started with (names, grades and order)."),
)


def order_buttons(ranking: Ranking, settings: MetricSettings, after: Callable[[], None] | None = None) -> None:
    """The order buttons in one row; ``after`` draws one more control at its end (the "Predict first" switch)."""
    with st.container(horizontal=True, vertical_alignment="center"):  # one block, not a column per button
        for kind, label, icon, help_text in ORDER_BUTTONS:
            st.button(
                label, key=f"playground_{kind}", on_click=_reorder, args=(kind,), icon=icon, width="stretch",
                help=ideal_help(ranking, settings) if kind == "ideal" else help_text,
            )
        if after is not None:
            after()


def ideal_help(ranking: Ranking, settings: MetricSettings) -> str:
    """What "Ideal order" gives on this list: NDCG 1, or (judged documents outside the ranking grade higher, or no
    document is relevant) the figure it reaches instead, and why. It promised 1 where it reached 0.8170."""
    best = evaluate(ranking.reordered(ndcg_core.ideal_order(np.asarray(ranking.grades, dtype=float)).tolist()),
                    **settings.kwargs())
    if best.idcg == 0:
        return (f"Sort by grade, highest first. No judged document is relevant (IDCG = 0), so NDCG is what the "
                f"“{ZERO_IDCG_SETTING}” setting gives: {figure(best.ndcg)}.")
    if abs(best.ndcg - 1) <= 1e-12:
        return ORDER_BUTTONS[0][3]
    return (f"Sort by grade, highest first: the largest DCG this list can have. NDCG reaches {figure(best.ndcg)}, not "
            f"1: {short_of_ideal(best)}.")


def short_of_ideal(best: ndcg_core.ListResult) -> str:
    """Why the ranking in its best order stays below its ideal list, read from ndcg_core's result: judged documents
    outside the ranking with higher grades take the ideal's first places, and/or the ideal list has more places
    than the ranking (one per judged document) that the ranking cannot fill. (It said "higher grades" of an extra
    document graded below every ranked one.)"""
    ranked = best.table["relevance"].to_numpy()[: best.depth]
    reasons = []
    if (best.ideal_relevances[: ranked.size] > ranked).any():
        reasons.append("judged documents outside the ranking have higher grades than some in it, and the ideal list "
                       "(IDCG) puts them first")
    if best.ideal_depth > best.depth:
        why = "one per judged document" if best.ideal_depth == best.ideal_relevances.size else f"k = {best.k}"
        reasons.append(f"the ideal list counts {best.ideal_depth} places ({why}) and the ranking fills only "
                       f"{best.depth}")
    return "; and ".join(reasons) or "the ideal list holds judged documents the ranking did not return"


# --- deltas --------------------------------------------------------------------------------------------------------

def previous_metrics(ranking: Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> dict | None:
    """The metrics shown before the latest change (of order, grades or settings), for the cards' deltas.

    They include each position's contribution, for the chart's ghost bars (ui.ghost). A reorder that continues the
    one before it (a second press before the first one's answer arrived) keeps the figures from before the first,
    unless the first one's run was cut short before it drew anything (its figures are then the ones to keep); so
    does any change asked for before the previous run's answer arrived (``url_state.answer_unseen``).
    """
    playground = state.playground()
    now = {"cg": result.cg, "dcg": result.dcg, "idcg": result.idcg, "ndcg": result.ndcg, **ghost.snapshot(result)}
    last = playground.last
    continued = last is not None and playground.continued_from is not None and last[0] is playground.continued_from
    # A second tap on an order button (or a second edit) sent before the first one's figures reached the browser:
    # they were never shown, so the deltas stay against the figures before the first (a double tap on Reverse said
    # "NDCG −0.3965" beside the list as it was).
    continued = continued or (last is not None and url_state.answer_unseen())
    if last is not None and (last[0] is not ranking or last[1] != settings) and not continued:
        # Figures under other settings (k, gain, log base) are a different measure of the same ranking: the cards
        # say what they were, without the green or red arrow of a better or worse ranking (ui.metric_cards).
        playground.previous = {**last[2], OTHER_SETTINGS: last[1] != settings}
    playground.last = (ranking, settings, now)
    return playground.previous


# --- tie note --------------------------------------------------------------------------------------------------

def tie_note(ranking: Ranking) -> None:
    """Say which documents' gains are averaged (a list opened from the Dataset page under the "average" rule)."""
    if ranking.tie_groups is None:
        return
    groups: dict[int, list[str]] = {}
    for name, group in zip(ranking.names, ranking.tie_groups, strict=True):
        groups.setdefault(group, []).append(name)
    tied = [names for names in groups.values() if len(names) > 1]
    if not tied:
        return
    shown = "; ".join(plain(names_list(names, limit=6)) for names in tied[:5])
    st.info(
        f"Tied scores in the run: {shown}. As on the Dataset page (Tied scores: “{TIE_RULE_LABELS['average']}”), "
        "each tied document gets "
        "the mean gain of its group, the expected DCG over every order of the tie. Moving or editing a document "
        "ends the averaging: the list is then taken exactly as shown.",
        icon=":material/balance:",
    )


# --- extra documents note -------------------------------------------------------------------------------------

def extra_words(ranking: Ranking) -> str:
    """The extra judged documents in one line (Present mode hides their table, but IDCG counts them)."""
    listed = ", ".join(f"{plain(isolated(name))} (grade {compact(grade)})"
                       for name, grade in zip(ranking.extra_names, ranking.extra_grades, strict=True))
    return f"Also judged, not in the ranking: {listed}. The ideal list (IDCG) includes them."


def extra_note(ranking: Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> None:
    """What the extra judged documents change: IDCG and NDCG with and without them, in words, under every rule.

    Without them the ideal list can have IDCG = 0 (no ranked document relevant) even when the page's own
    result is defined: that case is described, never evaluated under the "Refuse" rule.
    """
    if not ranking.extra_names:
        st.caption("No extra judged documents: the ideal list is the ranking's own grades, sorted.")
        return
    # Under "Refuse" the core would refuse an IDCG of 0: ask under "zero" and tell that case in words below.
    rule = "zero" if settings.zero_idcg == "error" else settings.zero_idcg
    without = evaluate(ranking.without_extra(), **{**settings.kwargs(), "zero_idcg": rule})
    if without.idcg == 0 and result.idcg == 0:
        st.caption("The extra judged documents do not change IDCG: no document, ranked or extra, is relevant, so "
                   f"IDCG is 0 either way ({zero_idcg_words(settings.zero_idcg)}).")
    elif without.idcg == 0:
        if settings.zero_idcg == "error":
            then = "so NDCG would be 0/0, which this rule refuses to compute"
        elif settings.zero_idcg == "skip":
            then = "so NDCG would be 0/0, which this rule leaves undefined (n/a)"
        else:
            then = f"so NDCG would be 0/0, which this rule reports as {figure(without.ndcg)}"
        st.info(
            f"Without the extra judged documents IDCG would be 0 (no ranked document is relevant), {then} "
            f"({zero_idcg_words(settings.zero_idcg)}). With them IDCG is {figure(result.idcg)} and NDCG is "
            f"{figure(result.ndcg)}: no relevant judged document is in the ranking shown here.",
            icon=":material/info:",
        )
    elif abs(without.idcg - result.idcg) > 1e-12 and abs(without.ndcg - result.ndcg) <= 1e-12:
        st.info(f"The extra judged documents raise IDCG from {figure(without.idcg)} to {figure(result.idcg)}; NDCG "
                f"stays {figure(result.ndcg)}, as DCG is 0.", icon=":material/info:")
    elif abs(without.idcg - result.idcg) > 1e-12:
        st.info(
            f"The extra judged documents raise IDCG from {figure(without.idcg)} to {figure(result.idcg)}, so NDCG "
            # Not "the ranking missed them": a query opened from the Dataset page brings its top 1,000 documents, and
            # a relevant document the run ranked lower is an extra judged document here.
            f"drops from {figure(without.ndcg)} to {figure(result.ndcg)}: relevant judged documents are not in the "
            "ranking shown here.",
            icon=":material/info:",
        )
    else:
        st.caption(
            f"The extra judged documents do not change IDCG ({figure(result.idcg)}): they are no better than the "
            "ranked documents that the ideal list already counts."
        )


# --- share link ------------------------------------------------------------------------------------------------------

def publish_ranking(ranking: Ranking) -> url_state.RankingLink:
    """Put the ranking in the URL (``docs``/``extra``, or ``unlinked`` when it cannot fit), before anything else."""
    return state.publish_list(ranking)


def share_link(link: url_state.RankingLink, settings: MetricSettings) -> None:
    if link.problem is not None:
        st.caption(
            f"This list cannot be shared as a link: {link.problem}. The address bar says so (opening it shows the "
            "example list with a note); download the table as CSV instead."
        )
        return
    relative = url_state.link(url_state.PLAYGROUND_URL, {**url_state.settings_params(settings), **link.params})
    copy_link(_absolute(relative), key="playground_share_link", label="Share link of this list")
    st.caption("Opening the link restores this list, its order and the settings.")


def evaluation_problem(ranking: Ranking, settings: MetricSettings, error: ndcg_core.InvalidInput) -> None:
    """Why the numbers cannot be shown, in the sidebar's words, and the hint that fits that reason."""
    st.error(f"NDCG cannot be computed with these settings: {user_message(error)}", icon=":material/error:")
    if zero_idcg_refused(ranking.grades, ranking.ideal_relevances(), settings):
        st.caption(f"Change “{ZERO_IDCG_SETTING}” in the sidebar, or give a document a positive grade here:")
    else:
        st.caption("Change the grades here (or the gain in the sidebar):")


def _absolute(relative: str) -> str:
    try:
        url = st.context.url or ""
    except AttributeError:
        url = ""
    if url.startswith("http"):
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        base_path = parts.path.rsplit("/", 1)[0] if parts.path.endswith("playground") else parts.path.rstrip("/")
        return f"{parts.scheme}://{parts.netloc}{base_path}{relative}"
    return relative

"""The Playground's score mode: type a score per document, and the ranking is the order of the scores.

* :func:`rank_by_scores` - the ranking (and its scores) in score order, from ``ndcg_core.score_order`` under the
  chosen tie rule; under "average" the tied documents carry their tie groups, so ``ndcg_core.evaluate`` averages
  their gains (scikit-learn's value). The app never sorts by itself.
* :func:`controls` - the "Rank by scores" toggle and the tie rule (both in the Playground's typed state and link).
* :func:`tie_section` - the tie band of the scored list (min / expected / max, each library's value marked), or
  the run's tie note and band for a list opened from the Dataset page.

Dragging (or an order button) in score mode means "this order, not the scores'": score mode turns off and a
notice says so (``ui.state.set_ranking``); turning it on again re-ranks by the scores, which followed their
documents.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

import ndcg_core
from ui import playground_view, session, state, tie_band_section
from ui.formatting import TIE_RULE_LABELS, fixed
from ui.messages import user_message
from ui.ranking import Ranking, make_ranking
from ui.settings_model import MetricSettings
from ui.widgets import plain

TOGGLE_KEY = "playground_score_mode"
RULE_KEY = "playground_tie_rule"


def in_entry_order(ranking: Ranking, scores: Sequence[float], entry: Sequence[str] | None) -> tuple[Ranking, tuple]:
    """``ranking`` and its ``scores`` back in the order the documents were entered (``entry``: their names; a name
    not in it, a document added since, after them in its current place). Unchanged when names repeat."""
    names = list(ranking.names)
    if not entry or len(set(names)) != len(names):
        return ranking, tuple(scores)
    place = {name: i for i, name in enumerate(entry)}
    order = sorted(range(len(names)), key=lambda i: (place.get(names[i], len(place)), i))
    return (make_ranking([names[i] for i in order], [ranking.grades[i] for i in order], ranking.extra_names,
                         ranking.extra_grades), tuple(float(scores[i]) for i in order))


def rank_by_scores(ranking: Ranking, scores: Sequence[float], tie_rule: str, *,
                   entry: Sequence[str] | None = None) -> tuple[Ranking, tuple[float, ...]]:
    """``ranking``'s documents in the order of ``scores`` (aligned with it), and the scores in that order.

    ``entry``: the documents' names in the order they were entered, which "Input order" keeps inside a tie. The
    shown ranking is already some tie rule's order: "Input order" after "best case" kept the best case's order
    (0.9854 instead of 0.9305 for scores 1, 1, 1, 0 on grades 3, 0, 2, 1), so each rule starts from the entry order.
    """
    ranking, scores = in_entry_order(ranking, scores, entry)
    order = ndcg_core.score_order(ranking.grades, scores, ties=tie_rule, doc_ids=ranking.names)
    groups = order.tie_groups if tie_rule == "average" and order.tied else None
    ranked = make_ranking([ranking.names[i] for i in order.order], [ranking.grades[i] for i in order.order],
                          ranking.extra_names, ranking.extra_grades, groups)
    return ranked, tuple(float(scores[i]) for i in order.order)


def _position_scores(n: int, tie_groups: Sequence[int] | None = None) -> tuple[float, ...]:
    """Scores that keep the shown order: n for the first document down to 1 for the last; a list opened from a
    run with tied scores (``tie_groups``) keeps its ties: one score per group, the first group highest."""
    if tie_groups is not None:
        last = max(tie_groups)
        return tuple(float(last + 1 - group) for group in tie_groups)
    return tuple(float(n - i) for i in range(n))


def _toggle() -> None:
    playground = state.playground()
    ranking = playground.ranking  # with the editors' edits; the editors restart from it below
    if not session.widget(TOGGLE_KEY):
        playground.score_mode = False
        playground.score_notice = None
        # The order stays as shown and is taken exactly as shown (no tie averaging); the editors lose the column.
        plain = make_ranking(ranking.names, ranking.grades, ranking.extra_names, ranking.extra_grades)
        state.set_ranking(plain, scores=playground.scores)
        return
    scores = playground.scores
    if scores is None or len(scores) != len(ranking.names):
        scores = _position_scores(len(ranking.names), ranking.tie_groups)
    playground.score_mode = True
    playground.entry_names = tuple(ranking.names)  # the order shown now is the input order of its ties
    ranked, ranked_scores = rank_by_scores(ranking, scores, playground.tie_rule)
    state.set_ranking(ranked, scores=ranked_scores)


def _rule_changed() -> None:
    playground = state.playground()
    rule = session.widget(RULE_KEY) or "average"
    playground.tie_rule = rule
    if playground.score_mode and playground.scores is not None:
        ranked, scores = rank_by_scores(playground.ranking, playground.scores, rule, entry=playground.entry_names)
        state.set_ranking(ranked, scores=scores)


def controls() -> None:
    """The toggle and the tie rule; the widgets follow the typed state (a link or another page may set it)."""
    playground = state.playground()
    session.set_widget(TOGGLE_KEY, playground.score_mode)
    session.set_widget(RULE_KEY, playground.tie_rule)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.toggle("Rank by scores", key=TOGGLE_KEY, on_change=_toggle,
                  help="Type a score per document (any numbers, higher ranks first): the ranking becomes the order "
                       "of the scores, and equal scores show how far the tie rule alone can move NDCG.")
        if playground.score_mode:
            st.selectbox("Tie rule (documents with equal scores)", list(TIE_RULE_LABELS), key=RULE_KEY,
                         format_func=TIE_RULE_LABELS.get, on_change=_rule_changed, width=320)
    if playground.score_notice:
        st.info(playground.score_notice, icon=":material/toggle_off:")
    if playground.score_mode:
        st.caption("Score mode: edit the Score column in the table; the ranked list is always in score order "
                   f"(ties: {TIE_RULE_LABELS[playground.tie_rule].lower()}). Dragging a document or an order "
                   "button sets the order by hand, which turns score mode off.")


def tie_section(ranking: Ranking, settings: MetricSettings, result: ndcg_core.ListResult) -> None:
    """In score mode the band of the typed scores; otherwise the run's tie note and band (a list from a run)."""
    playground = state.playground()
    if not playground.score_mode or playground.scores is None:
        playground_view.tie_note(ranking)
        tie_band_section.show_for_ranking(ranking.names, ranking.grades, ranking.tie_groups,
                                          extra_grades=ranking.extra_grades, k=settings.k)
        return
    scores = list(playground.scores)
    judged = ranking.ideal_relevances() if ranking.extra_grades else None
    try:
        band = ndcg_core.tie_band(ranking.grades, scores, k=settings.k, gain=settings.gain_spec(),
                                  log_base=settings.kwargs()["log_base"], ideal_relevances=judged,
                                  zero_idcg="zero" if settings.zero_idcg == "error" else settings.zero_idcg)
    except ndcg_core.InvalidInput as error:
        st.caption(f"The tie band cannot be computed for these grades: {plain(user_message(error))}")
        return
    with st.container(border=True):
        if band.tied_groups == 0:
            st.markdown(f"**Tie band**: no two scores tie, so every tie rule gives this order: NDCG = "
                        f"{fixed(result.ndcg)}. Give two documents the same score to see a band.")
            return
        st.markdown(
            f"**Tie band with the sidebar's settings**: {band.tied_documents} documents share a score "
            f"({band.orders:,} orders of the ties). Worst order **{fixed(band.low)}** · expected (average over the "
            f"orders) **{fixed(band.expected)}** · best order **{fixed(band.high)}**. This page's NDCG under "
            f"“{TIE_RULE_LABELS[playground.tie_rule]}”: **{fixed(result.ndcg)}**."
        )
        tie_band_section.show(ranking.grades, scores, k=settings.k, judged=judged, doc_ids=list(ranking.names),
                              key="playground_score_band")

"""The Playground's session state: one :class:`PlaygroundState` in ``st.session_state``, restored from the URL.

The ranking is the single source of truth for the order: the data editor, the drag list, the charts and
the table are all drawn from it, so sorting the editor by a column header never changes the ranking.
Other pages read it with :func:`playground_list` and open a list in it with :func:`open_in_playground`
(never by its keys). The link format lives in :mod:`ui.url_state`; the model in :mod:`ui.ranking`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from ui import session, url_state
from ui.predict_model import Feedback
from ui.ranking import DEFAULT_RANKING, Ranking, make_ranking
from ui.settings import MetricSettings, current_settings, set_settings

RANKING_KEY = "playground"  # the PlaygroundState's key
PLAYGROUND_PAGE = "pages/playground.py"
SCOPE = "playground"  # its link warnings' scope in ui.url_state

__all__ = ["DEFAULT_RANKING", "PlaygroundState", "Ranking", "current_ranking", "make_ranking", "open_in_playground",
           "playground_list", "set_ranking"]


@dataclass
class RevealState:
    """Predict-first mode (ui/predict.py): what the learner has seen, and the verdict on their last guess."""

    on: bool = False  # the "Predict first" toggle
    seen: tuple | None = None  # (ranking, settings, metrics) whose numbers were last shown
    feedback: Feedback | None = None  # the latest guess, judged; shown until the next change
    reveals: int = 0  # guesses judged so far (the keyboard focus goes to each new verdict once)


@dataclass
class PlaygroundState:
    """Everything the Playground remembers between runs."""

    ranking: Ranking = DEFAULT_RANKING
    initial: Ranking = DEFAULT_RANKING  # what Reset goes back to: the example, the link's or another page's list
    base: Ranking = DEFAULT_RANKING  # the ranking the editors were last (re)started from
    revision: int = 0  # bumped when the editors restart (their widget keys include it)
    # the revision an added or deleted row started: the new Grades table takes back a keyboard focus the old one had
    rows_revision: int | None = None
    edited: bool = False  # True while `ranking` is the editors' base plus their edits
    edit_error: str | None = None
    last: tuple | None = None  # (ranking, settings, metrics) last shown, for the cards' deltas
    previous: dict | None = None  # metrics shown before the latest change
    # The list a reorder that continued the one before it (a double press) was applied to: if that list's figures
    # were the last shown, both reorders are one change for the deltas (ui.playground_view.previous_metrics).
    continued_from: Ranking | None = None
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(2024))  # Shuffle's sequence
    # Score mode (ui.score_mode): the ranking is the order of typed scores under ``tie_rule``.
    score_mode: bool = False
    scores: tuple[float, ...] | None = None  # one per ranked document, aligned with ``ranking`` (kept when off)
    base_scores: tuple[float, ...] | None = None  # aligned with ``base``: the score editor's starting point
    tie_rule: str = "average"
    score_notice: str | None = None  # why score mode was turned off (a drag or an order button)
    entry_names: tuple[str, ...] | None = None  # score mode: the documents in the order entered ("Input order")
    highlight: int | None = None  # the linked views' highlighted rank, 1-based (ui/linked.py)
    list_select_seq: int = 0  # the last row click of the ranked list already applied
    reveal: RevealState = field(default_factory=RevealState)

    @classmethod
    def of(cls, ranking: Ranking, scores: tuple[float, ...] | None = None, tie_rule: str = "average",
           entry_names: tuple[str, ...] | None = None) -> PlaygroundState:
        """A fresh state showing ``ranking`` (Reset goes back to it); with ``scores``, in score mode."""
        return cls(ranking=ranking, initial=ranking, base=ranking, score_mode=scores is not None, scores=scores,
                   base_scores=scores, tie_rule=tie_rule, entry_names=entry_names)


def _from_url() -> PlaygroundState:
    params = url_state.params()
    ranking, problem = url_state.ranking_from_params(params)
    url_state.warn(SCOPE, problem)
    if ranking is None:
        return PlaygroundState.of(DEFAULT_RANKING)
    scores, tie_rule, score_problem = url_state.scores_from_params(params, len(ranking.names))
    if score_problem:
        url_state.warn(SCOPE, score_problem)
    if scores is None:
        return PlaygroundState.of(ranking)
    from ui.score_mode import rank_by_scores  # the link's order is re-derived from its scores by ndcg_core

    ranked, ranked_scores = rank_by_scores(ranking, scores, tie_rule)  # the link lists its documents in entry order
    return PlaygroundState.of(ranked, ranked_scores, tie_rule, entry_names=tuple(ranking.names))


def playground() -> PlaygroundState:
    """The session's Playground state; on its first visit it comes from the URL (or the default example)."""
    return session.page_state(RANKING_KEY, _from_url)


def current_ranking() -> Ranking:
    return playground().ranking


def set_ranking(ranking: Ranking, *, scores: tuple[float, ...] | None = None) -> None:
    """Replace the canonical ranking (reorder, button, opened list); the editors restart from it.

    ``scores`` (aligned with ``ranking``) keeps score mode on: the caller ranked by them (ui.score_mode).
    Without them a new order was chosen by hand, so score mode turns off (the scores follow their documents
    by name, for when it is turned on again) and says why.
    """
    state = playground()
    if scores is None:
        scores = _carried_scores(state.ranking, ranking, state.scores)
        if state.score_mode:
            state.score_mode = False
            state.score_notice = (
                "Score mode is off: you chose an order by hand (a drag or an order button), and a typed order "
                "overrides the scores. Turn “Rank by scores” on again to go back to the order of the scores."
                if scores is not None or set(ranking.names) == set(state.ranking.names) else None)
    else:
        state.score_notice = None
    state.scores = state.base_scores = scores
    state.ranking = state.base = ranking
    state.edited = False
    state.edit_error = None
    state.revision += 1
    url_state.warn(SCOPE, None)  # a bad link's warning stays until the user changes the list


def _carried_scores(old: Ranking, new: Ranking, scores: tuple[float, ...] | None) -> tuple[float, ...] | None:
    """The scores of ``old``'s documents in ``new``'s order, matched by name (None when names repeat or differ)."""
    if scores is None or len(set(old.names)) != len(old.names) or sorted(old.names) != sorted(new.names):
        return None
    by_name = dict(zip(old.names, scores, strict=True))
    return tuple(by_name[name] for name in new.names)


def set_edited_ranking(ranking: Ranking, *, scores: tuple[float, ...] | None = None, restart: bool = False) -> None:
    """The ranking as the editors' edits make it: the editors keep their widget state (unless ``restart``).

    The data editors show :func:`editor_base` plus the user's edits; restarting them after every edit would
    drop a cell the user is already typing into, so only reorders, buttons and (``restart``) added or deleted
    rows restart them: after those the table's Rank column, drawn from the base, would show the old positions.
    A restart keeps score mode as it is (unlike :func:`set_ranking`), and the edits become the new base.
    """
    state = playground()
    state.scores = scores if scores is not None else _carried_scores(state.ranking, ranking, state.scores)
    state.ranking = ranking
    state.edited = not restart
    if restart:
        state.base, state.base_scores = ranking, state.scores
        state.revision += 1
    url_state.warn(SCOPE, None)


def is_edited() -> bool:
    return playground().edited


def editor_base() -> Ranking:
    """The ranking the editors were last (re)started from; their edit state is relative to it."""
    state = playground()
    return state.base if state.edited else state.ranking


def editor_scores() -> tuple[float, ...] | None:
    """The scores of :func:`editor_base`'s documents (score mode's editor column)."""
    state = playground()
    return state.base_scores if state.edited else state.scores


def score_link_args() -> dict:
    """``scores`` and ``tie_rule`` for :func:`ui.url_state.ranking_link`: present only in score mode."""
    state = playground()
    if not state.score_mode or state.scores is None:
        return {}
    return {"scores": state.scores, "tie_rule": state.tie_rule}


def _linked_ranking(ranking: Ranking | None) -> tuple[Ranking, dict]:
    """The ranking a link writes, and its score arguments: in score mode the documents in their entry order (the
    link's order is their input order; the shown order is re-derived from the scores when it is opened)."""
    args = score_link_args()
    shown = current_ranking()
    if ranking is not None and ranking != shown:
        return ranking, args
    if not args:
        return shown, args
    from ui.score_mode import in_entry_order

    entered, scores = in_entry_order(shown, args["scores"], playground().entry_names)
    return entered, {**args, "scores": scores}


def initial_ranking() -> Ranking:
    return playground().initial


def revision() -> int:
    return playground().revision


def open_in_playground(
    names: Sequence[str],
    grades: Sequence[float],
    *,
    extra_names: Sequence[str] = (),
    extra_grades: Sequence[float] = (),
    settings: MetricSettings | None = None,
    tie_groups: Sequence[int] | None = None,
    reason: str = "The list was opened in the Playground with its own convention",
) -> None:
    """Load this list (and optionally these settings and tie groups) into the Playground and switch to it."""
    ranking = make_ranking(names, grades, extra_names, extra_grades, tie_groups)
    set_ranking(ranking)
    opened = playground()
    opened.initial = ranking
    # Another list, not a change of this one: no deltas or ghost bars against the list shown before, and Predict
    # first does not ask how NDCG moved from an unrelated list.
    opened.last, opened.previous = None, None
    opened.reveal.seen, opened.reveal.feedback = None, None
    if settings is not None:
        set_settings(settings, reason=reason)
    st.switch_page(PLAYGROUND_PAGE)


def playground_list() -> tuple[list[str], list[float], list[str], list[float]]:
    """(names, grades, extra names, extra grades) of the Playground's current ranking (for other pages; on a
    session's first visit the link's list, as the Playground itself would restore it)."""
    ranking = current_ranking()
    return list(ranking.names), list(ranking.grades), list(ranking.extra_names), list(ranking.extra_grades)


def publish_list(ranking: Ranking | None = None) -> url_state.RankingLink:
    """Put the Playground's list (default: the current one) in the URL: ``docs``/``extra`` (``sc``/``tie`` in score
    mode), or ``unlinked`` when it cannot fit. The Playground does it, and Step by step while it walks that list,
    so a reload or a shared address walks the same list."""
    linked, args = _linked_ranking(ranking)
    link = url_state.ranking_link(linked, **args)
    url_state.publish({"docs": None, "extra": None, "tg": None, "sc": None, "tie": None, "unlinked": None,
                       **link.params})
    return link


def playground_link(names, grades, *, extra_names=(), extra_grades=(), settings: MetricSettings | None = None) -> str:
    """A root-relative URL that opens the Playground on this list and these settings (default: the session's)."""
    settings = settings if settings is not None else current_settings()
    return url_state.playground_link(make_ranking(names, grades, extra_names, extra_grades), settings)


def dataset_run_choices() -> tuple[str, str]:
    """(tied scores, missing queries): the Dataset page's choices, for other pages (Compare's runs)."""
    return session.widget("dataset_ties", "trec_eval"), session.widget("dataset_missing", "ignore")

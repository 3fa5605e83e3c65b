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
from ui.ranking import DEFAULT_RANKING, Ranking, make_ranking
from ui.settings import MetricSettings, current_settings, set_settings

RANKING_KEY = "playground"  # the PlaygroundState's key
PLAYGROUND_PAGE = "pages/playground.py"
SCOPE = "playground"  # its link warnings' scope in ui.url_state

__all__ = ["DEFAULT_RANKING", "PlaygroundState", "Ranking", "current_ranking", "make_ranking", "open_in_playground",
           "playground_list", "set_ranking"]


@dataclass
class PlaygroundState:
    """Everything the Playground remembers between runs."""

    ranking: Ranking = DEFAULT_RANKING
    initial: Ranking = DEFAULT_RANKING  # what Reset goes back to: the example, the link's or another page's list
    base: Ranking = DEFAULT_RANKING  # the ranking the editors were last (re)started from
    revision: int = 0  # bumped when the editors restart (their widget keys include it)
    edited: bool = False  # True while `ranking` is the editors' base plus their edits
    edit_error: str | None = None
    last: tuple | None = None  # (ranking, settings, metrics) last shown, for the cards' deltas
    previous: dict | None = None  # metrics shown before the latest change
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(2024))  # Shuffle's sequence

    @classmethod
    def of(cls, ranking: Ranking) -> PlaygroundState:
        """A fresh state showing ``ranking`` (Reset goes back to it)."""
        return cls(ranking=ranking, initial=ranking, base=ranking)


def _from_url() -> PlaygroundState:
    ranking, problem = url_state.ranking_from_params(url_state.params())
    url_state.warn(SCOPE, problem)
    return PlaygroundState.of(ranking or DEFAULT_RANKING)


def playground() -> PlaygroundState:
    """The session's Playground state; on its first visit it comes from the URL (or the default example)."""
    return session.page_state(RANKING_KEY, _from_url)


def current_ranking() -> Ranking:
    return playground().ranking


def set_ranking(ranking: Ranking) -> None:
    """Replace the canonical ranking (reorder, button, opened list); the editors restart from it."""
    state = playground()
    state.ranking = state.base = ranking
    state.edited = False
    state.edit_error = None
    state.revision += 1
    url_state.warn(SCOPE, None)  # a bad link's warning stays until the user changes the list


def set_edited_ranking(ranking: Ranking) -> None:
    """The ranking as the editors' edits make it: the editors keep their widget state (no restart).

    The data editors show :func:`editor_base` plus the user's edits; restarting them after every edit would
    drop a cell the user is already typing into, so only reorders and buttons restart them.
    """
    state = playground()
    state.ranking = ranking
    state.edited = True
    url_state.warn(SCOPE, None)


def is_edited() -> bool:
    return playground().edited


def editor_base() -> Ranking:
    """The ranking the editors were last (re)started from; their edit state is relative to it."""
    state = playground()
    return state.base if state.edited else state.ranking


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
    playground().initial = ranking
    if settings is not None:
        set_settings(settings, reason=reason)
    st.switch_page(PLAYGROUND_PAGE)


def playground_list() -> tuple[list[str], list[float], list[str], list[float]]:
    """(names, grades, extra names, extra grades) of the Playground's current ranking (for other pages)."""
    ranking = session.widget(RANKING_KEY, None)
    ranking = ranking.ranking if isinstance(ranking, PlaygroundState) else DEFAULT_RANKING
    return list(ranking.names), list(ranking.grades), list(ranking.extra_names), list(ranking.extra_grades)


def playground_link(names, grades, *, extra_names=(), extra_grades=(), settings: MetricSettings | None = None) -> str:
    """A root-relative URL that opens the Playground on this list and these settings (default: the session's)."""
    settings = settings if settings is not None else current_settings()
    return url_state.playground_link(make_ranking(names, grades, extra_names, extra_grades), settings)


def dataset_run_choices() -> tuple[str, str]:
    """(tied scores, missing queries): the Dataset page's choices, for other pages (Compare's runs)."""
    return session.widget("dataset_ties", "trec_eval"), session.widget("dataset_missing", "ignore")

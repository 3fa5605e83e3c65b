"""Which list the Step by step page walks: the Playground's current list or a worked example's.

A worked example brings its convention along: :func:`example_settings` gives the sidebar settings that
reproduce it, and :func:`open_walkthrough` loads it (list and convention) into the Step by step page.
Document names can come from users, so they are shown as plain text (tables, escaped markdown), never
interpreted as markdown or HTML.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

import ndcg_core
from ui import session, url_state
from ui.formatting import fixed
from ui.messages import document_title
from ui.ranking import Ranking, evaluate
from ui.settings import LOG_BASES, MetricSettings, current_settings, set_settings, setting_changes
from ui.state import current_ranking, playground_list, publish_list

PLAYGROUND_SOURCE = "playground"
SOURCE_KEY = "step_source"
POSITION_KEY = "step_position"
PLAYING_KEY = "step_playing"
SCOPE = "step_by_step"  # the page's link warnings in ui.url_state


@dataclass(frozen=True)
class WalkList(Ranking):
    """A ranking to walk through (a :class:`ui.ranking.Ranking`: ranked documents plus judged-but-unranked ones),
    with the words that say where it came from."""

    label: str = ""


def worked_examples() -> tuple:
    return tuple(getattr(ndcg_core, "WORKED_EXAMPLES", ()))


def example_by_key(key: str):
    return next((example for example in worked_examples() if example.key == key), None)


def example_ranked(example) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """An example's documents and grades in ranked order (ranked by its scores when it has them)."""
    names, grades = tuple(example.documents), tuple(float(g) for g in example.grades)
    if getattr(example, "scores", None):
        order = example.result().table["item"].to_numpy()
        names, grades = tuple(names[j] for j in order), tuple(grades[j] for j in order)
    return names, grades


def example_settings(example, base: MetricSettings | None = None) -> MetricSettings:
    """The sidebar settings that reproduce an example's convention (keeping the zero-IDCG rule)."""
    base = base or current_settings()
    gain = example.gain
    zero_idcg = getattr(example, "zero_idcg", base.zero_idcg)
    common = {"log_base": _log_base_key(example.log_base), "k": example.k, "zero_idcg": zero_idcg}
    if isinstance(gain, dict):
        table = tuple(sorted((float(g), float(v)) for g, v in gain.items()))
        return replace(base, gain="custom", gain_table=table, **common)
    return replace(base, gain=gain, **common)


def _log_base_key(log_base: float) -> str:
    return min(LOG_BASES, key=lambda key: abs(LOG_BASES[key] - float(log_base)))


def walk_list_for(source: str) -> WalkList:
    """The list for a source key: the Playground's current list or a worked example."""
    example = example_by_key(source) if source != PLAYGROUND_SOURCE else None
    if example is not None:
        names, grades = example_ranked(example)
        return WalkList(names, grades, tuple(example.extra_documents), tuple(float(g) for g in example.extra_grades),
                        label=f"{example.title} ({document_title(example.source)})")
    names, grades, extra_names, extra_grades = playground_list()
    return WalkList(tuple(names), tuple(grades), tuple(extra_names), tuple(extra_grades),
                    label="the Playground's current list")


def source_label(source: str) -> str:
    if source == PLAYGROUND_SOURCE:
        return "The Playground's current list"
    example = example_by_key(source)
    return f"{example.source[:3]} · {example.title}" if example is not None else source


def open_walkthrough(example) -> None:
    """Load a worked example (list and convention) into the step-by-step page and go there."""
    set_settings(example_settings(example), reason=f"Walking the worked example “{example.title}”")
    session.set_widget(SOURCE_KEY, example.key)
    session.set_widget(POSITION_KEY, 1)
    session.set_widget(PLAYING_KEY, False)
    st.switch_page("pages/step_by_step.py")


def choose_source() -> str:
    """The 'which list' selector; when a worked example is picked its convention goes to the sidebar."""
    options = [PLAYGROUND_SOURCE, *(example.key for example in worked_examples())]
    if session.widget(SOURCE_KEY) not in options:
        session.set_widget(SOURCE_KEY, _source_from_url(options))

    def picked() -> None:
        url_state.warn(SCOPE, None)
        session.set_widget(POSITION_KEY, 1)
        session.set_widget(PLAYING_KEY, False)
        example = example_by_key(session.widget(SOURCE_KEY))
        if example is not None:
            set_settings(example_settings(example), reason=f"Walking the worked example “{example.title}”")

    source = st.selectbox(
        "List to walk through",
        options,
        format_func=source_label,
        key=SOURCE_KEY, persist_state="session",
        on_change=picked,
        help="The Playground's list (edit it there), or one of the documents' worked examples. Picking an example "
        "also sets the sidebar to the example's convention.",
    )
    url_state.publish({"list": None if source == PLAYGROUND_SOURCE else source})
    if source == PLAYGROUND_SOURCE:
        publish_list()  # the list walked is in the address: a reload or a shared link walks it again
    return source


def convention_note(source: str, settings: MetricSettings) -> None:
    """Say when the sidebar no longer has the walked example's convention, with a button that restores it.

    Walking 000's "NDCG@5 with gain 2^G - 1" after switching the sidebar to linear gain read "Walking … with gain
    2^G - 1 … · linear gain" and ended on an NDCG the document never printed (0.9494 for its 0.9508), with
    nothing saying the walk had left the example's convention.
    """
    example = example_by_key(source)
    if example is None:
        return
    wanted = example_settings(example, base=settings)
    if wanted == settings:
        return
    st.warning("The sidebar's settings are not this example's convention, so the figures below are not the "
               f"document's. Yours → the example's: {setting_changes(settings, wanted)}.", icon=":material/tune:")
    st.button("Use the example's convention", key="walk_example_convention", icon=":material/restart_alt:",
              on_click=set_settings, args=(wanted,), kwargs={"reason": f"Walking the worked example “{example.title}”"})


def _source_from_url(options: list[str]) -> str:
    wanted = url_state.params().get("list")
    if wanted is not None and wanted not in options:
        url_state.warn(SCOPE, "The link's list (a worked example) was not found, so the Playground's list is walked.")
    return wanted if wanted in options else PLAYGROUND_SOURCE


def averaged_ties_note(source: str, settings: MetricSettings, *, reveal: bool = True) -> None:
    """Say so when the walked Playground list came from a run with tied scores: the Playground averages each tie's
    gains (the Dataset page's "average" rule) while the walk takes the documents one by one as listed, so the two
    pages gave NDCG 0.9214 and 1.0000 for one list without a word. ``reveal`` False (Predict first still waits for
    a guess) leaves the figures out, as the page hides the whole list's."""
    ranking = current_ranking() if source == PLAYGROUND_SOURCE else None
    if ranking is None or ranking.tie_groups is None or len(set(ranking.tie_groups)) == len(ranking.tie_groups):
        return
    try:
        averaged = evaluate(ranking, **settings.kwargs())
        walked = evaluate(replace(ranking, tie_groups=None), **settings.kwargs())
    except ndcg_core.InvalidInput:
        return  # the walk itself says why the list cannot be evaluated
    if fixed(averaged.ndcg) == fixed(walked.ndcg):
        return
    cutoff = "" if settings.k is None else f"@{settings.k}"
    there, here = ((f": NDCG{cutoff} {fixed(averaged.ndcg)} there", f": NDCG{cutoff} {fixed(walked.ndcg)}") if reveal
                   else ("", ", so its NDCG differs from the Playground's"))
    st.info(f"This list has tied scores (from a run, or typed in score mode), and the Playground averages the gains "
            f"of each tie (the “average” tie rule){there}. This walk takes the documents one at a time in the order listed, "
            f"one order of each tie{here}. Moving a document on the Playground ends the averaging.",
            icon=":material/balance:")

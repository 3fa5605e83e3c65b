"""Teaching views: the step-by-step walkthrough, the short lessons, and the worked-example cards.

Every figure shown here is read from an ``ndcg_core`` result (its per-position
``table`` or its totals); this module only formats and arranges them. Document
names can come from users, so they are shown as plain text (tables, escaped
markdown), never interpreted as markdown or HTML.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core
from ui import charts, session, url_state
from ui.messages import document_title, user_message
from ui.settings import LOG_BASES, MetricSettings, current_settings, set_settings
from ui.state import open_in_playground, playground_list
from ui.widgets import formula, metric_cards, plain

PLAYGROUND_SOURCE = "playground"
SOURCE_KEY = "step_source"
POSITION_KEY = "step_position"
PLAYING_KEY = "step_playing"
USER_MOVED_KEY = "step_user_moved"
AUTOPLAY_SECONDS = 1.5

def num(value: float, digits: int = 3) -> str:
    """A figure for display: whole numbers without decimals, others to ``digits`` places."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "undefined"
    if float(value).is_integer():
        return f"{int(value)}"
    return f"{value:.{digits}f}"


def log_symbol(log_base: str) -> str:
    """LaTeX for the discount's logarithm: log_2, ln or log_10."""
    return {"2": r"\log_2", "e": r"\ln", "10": r"\log_{10}"}[log_base]


def gain_latex(grade: float, gain_value: float, settings: MetricSettings) -> str:
    """How ``grade`` became ``gain_value`` under the settings' gain, with the numbers in."""
    if settings.gain == "exponential":
        return rf"2^{{{num(grade)}}} - 1 = {num(gain_value)}"
    if settings.gain == "linear":
        return rf"\text{{grade}} = {num(grade)}"
    return rf"\text{{table}}({num(grade)}) = {num(gain_value)}"


def gain_words(settings: MetricSettings) -> str:
    return {
        "exponential": "exponential gain 2^grade − 1",
        "linear": "linear gain: gain = grade",
        "custom": "the custom gain table",
    }[settings.gain]


# --- Which list to walk --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WalkList:
    """A ranked list to walk through: names and grades in ranked order, plus judged-but-unranked documents."""

    label: str
    names: tuple[str, ...]
    grades: tuple[float, ...]
    extra_names: tuple[str, ...] = ()
    extra_grades: tuple[float, ...] = ()


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
        return WalkList(
            label=f"{example.title} ({document_title(example.source)})",
            names=names,
            grades=grades,
            extra_names=tuple(example.extra_documents),
            extra_grades=tuple(float(g) for g in example.extra_grades),
        )
    names, grades, extra_names, extra_grades = playground_list()
    return WalkList("the Playground's current list", tuple(names), tuple(grades), tuple(extra_names), tuple(extra_grades))


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
        url_state.warn("step_by_step", None)
        session.set_widget(POSITION_KEY, 1)
        session.set_widget(PLAYING_KEY, False)
        example = example_by_key(session.widget(SOURCE_KEY))
        if example is not None:
            set_settings(example_settings(example), reason=f"Walking the worked example “{example.title}”")

    source = st.selectbox(
        "List to walk through",
        options,
        format_func=source_label,
        key=SOURCE_KEY,
        on_change=picked,
        help="The Playground's list (edit it there), or one of the documents' worked examples. Picking an example "
        "also sets the sidebar to the example's convention.",
    )
    url_state.publish({"list": None if source == PLAYGROUND_SOURCE else source})
    return source


def _source_from_url(options: list[str]) -> str:
    wanted = url_state.params().get("list")
    if wanted is not None and wanted not in options:
        url_state.warn("step_by_step", "The link's list (a worked example) was not found, so the Playground's list "
                                       "is walked.")
    return wanted if wanted in options else PLAYGROUND_SOURCE


# --- The walkthrough --------------------------------------------------------------------------------------

def evaluate_walk(walk: WalkList, settings: MetricSettings) -> ndcg_core.ListResult:
    ideal = list(walk.grades) + list(walk.extra_grades) if walk.extra_grades else None
    return ndcg_core.evaluate(list(walk.grades), ideal_relevances=ideal, **settings.kwargs())


def ideal_names(walk: WalkList) -> list[str]:
    """Document names in the ideal order (grades descending, ties in list order): display only."""
    names = list(walk.names) + list(walk.extra_names)
    grades = np.array(list(walk.grades) + list(walk.extra_grades), dtype=float)
    return [names[j] for j in np.argsort(-grades, kind="stable")]


def walkthrough(walk: WalkList, settings: MetricSettings) -> None:
    """Previous / next / slider / autoplay over the positions of ``walk``, with the numbers of position i."""
    try:
        result = evaluate_walk(walk, settings)
    except ndcg_core.InvalidInput as error:
        st.error(f"This list cannot be evaluated with the current settings: {user_message(error)}",
                 icon=":material/warning:")
        return
    size = len(result.table)
    _clamp_position(size)
    url_state.show_warning("step_by_step")
    playing = bool(session.widget(PLAYING_KEY, False))

    @st.fragment(run_every=AUTOPLAY_SECONDS if playing else None)
    def stepper() -> None:
        # The timer exists only while playing; when play/pause flips inside the fragment,
        # a full rerun re-declares the fragment with (or without) its timer.
        if bool(session.widget(PLAYING_KEY, False)) != playing:
            st.rerun()
        if playing and not session.forget(USER_MOVED_KEY):
            if session.widget(POSITION_KEY) < size:
                session.set_widget(POSITION_KEY, session.widget(POSITION_KEY) + 1)
            if session.widget(POSITION_KEY) >= size:
                session.set_widget(PLAYING_KEY, False)  # stop at the last position
                st.rerun()
        _controls(size, playing)
        position = int(session.widget(POSITION_KEY))
        url_state.publish({"pos": str(position)})
        url_state.flush(partial=True)  # a fragment run: app.py's end-of-run write does not happen
        _position_view(walk, result, settings, position)

    stepper()
    cutoff = "" if settings.k is None else f"@{settings.k}"
    with st.expander(f"Where the walk ends: CG{cutoff}, DCG{cutoff}, IDCG{cutoff} and NDCG{cutoff} of the whole list"):
        metric_cards(result)
        formula(result, settings)


def _clamp_position(size: int) -> None:
    if not session.has(POSITION_KEY):
        wanted = url_state.params().get("pos")
        position = url_state.parse_int(wanted, low=1, high=size) if wanted is not None else 1
        if position is None:
            url_state.warn("step_by_step", f"The link's position could not be read (a whole number from 1 to {size}), "
                                           "so the walk starts at position 1.")
        session.set_widget(POSITION_KEY, position or 1)
    session.set_widget(POSITION_KEY, min(max(int(session.widget(POSITION_KEY)), 1), size))


def _move(step: int, size: int) -> None:
    url_state.warn("step_by_step", None)  # the user moved on from what the link asked for
    session.set_widget(POSITION_KEY, min(max(int(session.widget(POSITION_KEY)) + step, 1), size))
    session.set_widget(USER_MOVED_KEY, True)


def _toggle_play(size: int) -> None:
    starting = not session.widget(PLAYING_KEY, False)
    session.set_widget(PLAYING_KEY, starting)
    if starting and int(session.widget(POSITION_KEY)) >= size:
        session.set_widget(POSITION_KEY, 1)  # play again from the top
    session.set_widget(USER_MOVED_KEY, True)


def _controls(size: int, playing: bool) -> None:
    position = int(session.widget(POSITION_KEY))
    # A row that wraps on narrow screens (projectors are often 1024 px wide), then the slider below it.
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button(
            "Previous", icon=":material/arrow_back:", key="step_previous", on_click=_move, args=(-1, size),
            disabled=position <= 1,
        )
        st.button(
            "Next", icon=":material/arrow_forward:", icon_position="right", key="step_next", on_click=_move,
            args=(1, size), disabled=position >= size, type="primary",
        )
        st.button(
            "Pause" if playing else "Autoplay", icon=":material/pause:" if playing else ":material/play_arrow:",
            key="step_play", on_click=_toggle_play, args=(size,),
            help=f"Advance one position every {AUTOPLAY_SECONDS:g} s; stops at the last position.",
        )
    if size > 1:
        st.slider(
            "Position i", min_value=1, max_value=size, key=POSITION_KEY,
            on_change=session.set_widget, args=(USER_MOVED_KEY, True),
        )
    else:
        st.caption("The list has a single position.")


def _position_view(walk: WalkList, result: ndcg_core.ListResult, settings: MetricSettings, position: int) -> None:
    table = result.table
    row = table.iloc[position - 1]
    previous_row = table.iloc[position - 2] if position > 1 else None
    log = log_symbol(settings.log_base)
    name = walk.names[position - 1]
    ideal_name = ideal_names(walk)[position - 1]
    ideal_note = " (judged, but not in the ranking)" if ideal_name in walk.extra_names else ""

    st.subheader(f"Position i = {position} of {len(table)}")
    if not bool(row["in_cutoff"]):
        st.warning(
            f"Position {position} is past the cutoff k = {settings.k}: it does not count towards NDCG@{settings.k}. "
            "The running sums below continue so you can see what it would add.",
            icon=":material/content_cut:",
        )
    ranking, ideal = st.columns(2, border=True)
    with ranking:
        _side_view(
            "Your ranking", name, row["relevance"], row["gain"], row["discount"], row["contribution"],
            row["cumulative_dcg"], None if previous_row is None else previous_row["cumulative_dcg"],
            "DCG", position, settings, log,
        )
    with ideal:
        _side_view(
            "Ideal ranking", ideal_name, row["ideal_relevance"], row["ideal_gain"], row["discount"],
            row["ideal_contribution"], row["cumulative_idcg"],
            None if previous_row is None else previous_row["cumulative_idcg"], "IDCG", position, settings, log,
            note=ideal_note,
        )
    ndcg_value = row["ndcg_at_rank"]
    st.markdown(
        f"**NDCG@{position}** divides the running DCG by the running IDCG: how much of the best possible "
        f"discounted gain the ranking has collected by position {position}."
    )
    if row["cumulative_idcg"] > 0:
        st.latex(
            rf"NDCG@{position} = \frac{{DCG@{position}}}{{IDCG@{position}}} = "
            rf"\frac{{{num(row['cumulative_dcg'])}}}{{{num(row['cumulative_idcg'])}}} = {num(ndcg_value)}"
        )
    else:
        st.latex(
            rf"NDCG@{position} = \frac{{{num(row['cumulative_dcg'])}}}{{0}} \Rightarrow {num(ndcg_value)}"
            r"\ \text{(IDCG = 0: the sidebar's zero-IDCG rule decides)}"
        )

    # Full width: legible on a projector, and the charts' legends need the room.
    st.plotly_chart(
        charts.contribution_chart(table, k=settings.k, highlight=position), width="stretch",
        key="step_contribution_chart",
    )
    st.plotly_chart(
        charts.cumulative_chart(table, k=settings.k, highlight=position), width="stretch",
        key="step_cumulative_chart",
    )
    if len(table) > 2 * PROGRESS_WINDOW + 1:
        st.markdown(f"**The table around position {position}** (the highlighted row is position i)")
    else:
        st.markdown("**The whole table so far** (the highlighted row is position i)")
    st.dataframe(_progress_frame(walk, result, position), hide_index=True, width="stretch",
                 column_config=PROGRESS_COLUMNS)


def _side_view(
    heading: str, name: str, grade: float, gain_value: float, discount: float, contribution: float,
    running: float, previous_running: float | None, metric: str, position: int, settings: MetricSettings, log: str,
    note: str = "",
) -> None:
    st.markdown(f"**{heading}** · position {position}: document **{plain(name)}**{note}")
    st.markdown(
        f"Grade **{num(grade)}** → gain **{num(gain_value)}** ({gain_words(settings)}). "
        f"Divided by the discount log{settings.log_base}({position} + 1) = **{num(discount)}**, it contributes "
        f"**{num(contribution)}**. Running {metric}@{position} = **{num(running)}**."
    )
    st.latex(rf"\text{{gain}} = {gain_latex(grade, gain_value, settings)}")
    st.latex(rf"\text{{discount}} = {log}({position} + 1) = {num(discount)}")
    st.latex(rf"\text{{contribution}} = \frac{{{num(gain_value)}}}{{{num(discount)}}} = {num(contribution)}")
    if previous_running is None:
        st.latex(rf"{metric}@1 = {num(running)}")
    else:
        st.latex(
            rf"{metric}@{position} = {metric}@{position - 1} + {num(contribution)} = "
            rf"{num(previous_running)} + {num(contribution)} = {num(running)}"
        )


PROGRESS_WINDOW = 25  # rows shown either side of position i in long lists


def _progress_frame(walk: WalkList, result: ndcg_core.ListResult, position: int):
    table = result.table
    # Long lists: only the rows around position i (a 10,000-row styled table would be slow to send).
    start = max(0, position - 1 - PROGRESS_WINDOW)
    stop = min(len(table), position + PROGRESS_WINDOW)
    table = table.iloc[start:stop]
    frame = pd.DataFrame(
        {
            "i": table["rank"].astype(int),
            "Document": list(walk.names[start:stop]),
            "Grade": [num(g) for g in table["relevance"]],
            "Gain": table["gain"],
            "Discount": table["discount"],
            "Contribution": table["contribution"],
            "DCG@i": table["cumulative_dcg"],
            "Ideal grade": [num(g) for g in table["ideal_relevance"]],
            "Ideal contribution": table["ideal_contribution"],
            "IDCG@i": table["cumulative_idcg"],
            "NDCG@i": table["ndcg_at_rank"],
        }
    )

    def shade(row: pd.Series) -> list[str]:
        if row["i"] == position:
            return ["background-color: rgba(204, 121, 167, 0.30); font-weight: bold"] * len(row)
        if row["i"] > position:
            return ["color: #9CA3AF"] * len(row)
        return [""] * len(row)

    return frame.style.apply(shade, axis=1)


PROGRESS_COLUMNS = {
    column: st.column_config.NumberColumn(format="%.3f")
    for column in ("Gain", "Discount", "Contribution", "DCG@i", "Ideal contribution", "IDCG@i", "NDCG@i")
}


# --- Lessons ----------------------------------------------------------------------------------------------

LESSON_TITLES = (
    "1 · CG ignores order",
    "2 · Why normalise",
    "3 · Binary vs graded",
    "4 · What k does",
    "5 · Linear vs exp. gain",
    "6 · All judged docs",
    "7 · Every grade 0",
    "8 · Dataset NDCG",
)
# Lesson 4's list: NDCG@k falls from k = 1 to 2, then rises again (tests/test_step_by_step.py asserts it).
DOWN_THEN_UP_GRADES = (3.0, 0.0, 3.0, 3.0, 0.0)
DOCUMENT_003_NAMES = ("D1", "D2", "D3", "D4", "D5", "D6")
DOCUMENT_003_GRADES = (3.0, 2.0, 3.0, 0.0, 1.0, 2.0)
DOCUMENT_003_EXTRA = {"D7": 3.0, "D8": 2.0}
MAX_LESSON_LIST = 20


def lessons(settings: MetricSettings) -> None:
    """The short lessons, in the order the documents teach them, each with a live mini-example."""
    st.caption(
        f"Each lesson uses the sidebar's gain and log base ({gain_words(settings)}, log base {settings.log_base}) "
        "and its own cutoff; change the small inputs to see the numbers move."
    )
    tabs = st.tabs(list(LESSON_TITLES))
    views = (
        lesson_cg_ignores_order, lesson_normalise, lesson_ideal_binary_graded, lesson_cutoff,
        lesson_gain, lesson_ideal_all_judged, lesson_all_zero, lesson_dataset,
    )
    for tab, view in zip(tabs, views, strict=True):
        with tab:
            try:
                view(settings)
            except ndcg_core.InvalidInput as error:
                st.error(str(error), icon=":material/warning:")


def lesson_kwargs(settings: MetricSettings, **overrides) -> dict:
    """The sidebar's gain, base and zero-IDCG rule; lessons choose their own cutoff (whole list by default)."""
    return {**settings.kwargs(), "k": None, **overrides}


def grades_field(label: str, default: tuple[float, ...], key: str, *, help: str | None = None) -> list[float] | None:
    """A comma-separated list of grades typed by the reader; None (with a message) when it cannot be read."""
    text = st.text_input(label, ", ".join(num(g) for g in default), key=key, help=help)
    pieces = [piece for piece in re.split(r"[,;\s]+", text.strip()) if piece]
    if not pieces:
        st.error("Type at least one grade, e.g. 3, 2, 0, 1.", icon=":material/warning:")
        return None
    if len(pieces) > MAX_LESSON_LIST:
        st.error(f"Keep lesson lists short: at most {MAX_LESSON_LIST} grades (the Playground takes longer ones).")
        return None
    try:
        return [float(piece) for piece in pieces]
    except ValueError:
        bad = next(piece for piece in pieces if not _is_number(piece))
        st.error(f"'{plain(bad)}' is not a number. Separate grades with commas, e.g. 3, 2, 0, 1.", icon=":material/warning:")
        return None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _list_frame(names, result: ndcg_core.ListResult) -> pd.DataFrame:
    table = result.table
    return pd.DataFrame(
        {
            "Rank": table["rank"].astype(int),
            "Document": list(names),
            "Grade": table["relevance"],
            "Gain": table["gain"].round(3),
            "Discount": table["discount"].round(3),
            "Contribution": table["contribution"].round(3),
        }
    )


def lesson_cg_ignores_order(settings: MetricSettings) -> None:
    st.markdown(
        "**Cumulative gain** adds up the gains of the list and ignores where they sit: swap two documents and "
        "CG stays put, while **DCG**, which divides each gain by log(rank + 1), moves. "
        "*(001_7b77f9f41f0adfb3.txt and 003_f44d929bf8cc7fa4.txt; 003 swaps D3 and D4: with linear gain DCG goes "
        "from 6.861 to 6.653 while CG stays 11.)*"
    )
    size = len(DOCUMENT_003_GRADES)
    first, second = st.columns(2)
    a = first.selectbox("Swap position", range(1, size + 1), index=2, key="lesson_swap_a")
    b = second.selectbox("with position", range(1, size + 1), index=3, key="lesson_swap_b")
    order = list(range(size))
    order[a - 1], order[b - 1] = order[b - 1], order[a - 1]
    names = [DOCUMENT_003_NAMES[j] for j in order]
    before = ndcg_core.evaluate(list(DOCUMENT_003_GRADES), **lesson_kwargs(settings))
    after = ndcg_core.evaluate([DOCUMENT_003_GRADES[j] for j in order], **lesson_kwargs(settings))
    left, right = st.columns(2)
    with left:
        st.markdown("**Before** (003's order)")
        st.dataframe(_list_frame(DOCUMENT_003_NAMES, before), hide_index=True)
    with right:
        st.markdown(f"**After** swapping positions {a} and {b}")
        st.dataframe(_list_frame(names, after), hide_index=True)
    cards = st.columns(2)
    cards[0].metric("CG after the swap", num(after.cg), delta=num(after.cg - before.cg), delta_color="off",
                    help=f"Before: {num(before.cg)}")
    cards[1].metric("DCG after the swap", num(after.dcg), delta=num(after.dcg - before.dcg),
                    help=f"Before: {num(before.dcg)}")
    if a == b:
        st.info("Pick two different positions to swap.")
    elif after.dcg == before.dcg:
        st.info("These two documents have the same grade, so the swap changes nothing. Try positions 3 and 4.")
    else:
        direction = "drops" if after.dcg < before.dcg else "rises"
        st.success(f"CG stays {num(before.cg)}, but DCG {direction} from {num(before.dcg)} to {num(after.dcg)}.")


def lesson_normalise(settings: MetricSettings) -> None:
    st.markdown(
        "DCG keeps growing as a list gets longer, so a long, mediocre list can out-score a short, perfect one. "
        "Dividing by the **ideal DCG** of the same documents puts every query on a 0-to-1 scale. "
        "*(001_7b77f9f41f0adfb3.txt: 'DCG at 10 can be higher than DCG at 3 simply due to the length of the list'; "
        "003_f44d929bf8cc7fa4.txt.)*"
    )
    short = (2.0, 1.0, 0.0)
    pattern = (1.0, 0.0, 2.0, 0.0, 3.0, 1.0, 0.0, 2.0, 1.0, 3.0)
    length = st.slider("Documents in query B's list", 3, len(pattern), 8, key="lesson_long_length")
    long = pattern[:length]
    results = {
        "A (short, perfectly ordered)": (short, ndcg_core.evaluate(list(short), **lesson_kwargs(settings))),
        "B (longer, jumbled)": (long, ndcg_core.evaluate(list(long), **lesson_kwargs(settings))),
    }
    st.dataframe(
        pd.DataFrame(
            {
                "Query": list(results),
                "Grades": [", ".join(num(g) for g in grades) for grades, _ in results.values()],
                "DCG": [round(result.dcg, 3) for _, result in results.values()],
                "IDCG": [round(result.idcg, 3) for _, result in results.values()],
                "NDCG": [round(result.ndcg, 3) for _, result in results.values()],
            }
        ),
        hide_index=True,
    )
    a, b = (result for _, result in results.values())
    if b.dcg > a.dcg:
        st.success(
            f"B's DCG ({num(b.dcg)}) beats A's ({num(a.dcg)}) only because B is longer. Normalised, A scores "
            f"{num(a.ndcg)} and B {num(b.ndcg)}: A's ranking is the better one."
        )
    else:
        st.info(f"With {length} documents B's DCG ({num(b.dcg)}) is still below A's ({num(a.dcg)}): make B longer.")


def lesson_ideal_binary_graded(settings: MetricSettings) -> None:
    st.markdown(
        "The ideal ranking sorts the judged documents by grade. With **binary** relevance (0 or 1) that just means "
        "'every relevant document first'; with **graded** relevance the order among relevant documents matters too: "
        "highest grade first. *(001_7b77f9f41f0adfb3.txt, 'What exactly is ideal?')*"
    )
    kind = st.segmented_control(
        "Relevance", ["Binary (0 / 1)", "Graded (0–3)"], default="Graded (0–3)", key="lesson_relevance_kind",
    ) or "Graded (0–3)"
    binary = kind.startswith("Binary")
    default = (1.0, 0.0, 1.0, 1.0, 0.0) if binary else (3.0, 2.0, 0.0, 0.0, 1.0)
    grades = grades_field("Grades in ranked order", default, key=f"lesson_ideal_grades_{'binary' if binary else 'graded'}")
    if grades is None:
        return
    if binary and any(g not in (0.0, 1.0) for g in grades):
        st.warning("Binary relevance uses only 0 (not relevant) and 1 (relevant).")
    result = ndcg_core.evaluate(grades, **lesson_kwargs(settings))
    names = [f"D{j + 1}" for j in range(len(grades))]
    ideal_order = ideal_names(WalkList("", tuple(names), tuple(grades)))
    st.dataframe(
        pd.DataFrame(
            {
                "Rank": result.table["rank"].astype(int),
                "Your ranking": [f"{n} ({num(g)})" for n, g in zip(names, grades, strict=True)],
                "Ideal ranking": [f"{n} ({num(g)})" for n, g in zip(ideal_order, result.table["ideal_relevance"], strict=True)],
            }
        ),
        hide_index=True,
    )
    st.markdown(
        f"DCG = {num(result.dcg)}, IDCG = {num(result.idcg)}, so **NDCG = {num(result.ndcg)}**."
        + (" Any order that puts the relevant documents first is ideal." if binary else "")
    )


def ndcg_by_cutoff(grades, settings: MetricSettings) -> list[float]:
    """NDCG@k for k = 1..len(grades), each from ndcg_core.evaluate with that cutoff."""
    return [ndcg_core.evaluate(list(grades), **lesson_kwargs(settings, k=k)).ndcg for k in range(1, len(grades) + 1)]


def first_dip_and_rise(values: list[float]) -> tuple[int, int] | None:
    """(k where NDCG@k first falls, later k where it rises again), 1-based; None if it never does both."""
    falls = [k for k in range(2, len(values) + 1) if values[k - 1] < values[k - 2] - 1e-12]
    if not falls:
        return None
    rises = [k for k in range(falls[0] + 1, len(values) + 1) if values[k - 1] > values[k - 2] + 1e-12]
    return (falls[0], rises[0]) if rises else None


def lesson_cutoff(settings: MetricSettings) -> None:
    st.markdown(
        "NDCG@k looks only at the top k positions, of the ranking **and** of the ideal. Growing k adds a term to "
        "both DCG and IDCG, so NDCG@k can go **down and then up again**: it is not monotonic in k. "
        "*(000_0bdd5abdb117b00b.txt and 004_d08dec0f5f88387e.txt use NDCG@p / NDCG@k.)*"
    )
    grades = grades_field("Grades in ranked order", DOWN_THEN_UP_GRADES, key="lesson_cutoff_grades")
    if grades is None:
        return
    values = ndcg_by_cutoff(grades, settings)
    k = st.slider("Cutoff k", 1, len(grades), min(2, len(grades)), key="lesson_cutoff_k") if len(grades) > 1 else 1
    at_k = ndcg_core.evaluate(grades, **lesson_kwargs(settings, k=k))
    left, right = st.columns([1, 2])
    with left:
        st.dataframe(pd.DataFrame({"k": range(1, len(values) + 1), "NDCG@k": [round(v, 3) for v in values]}),
                     hide_index=True)
        st.metric(f"NDCG@{k}", num(at_k.ndcg), help=f"DCG@{k} = {num(at_k.dcg)}, IDCG@{k} = {num(at_k.idcg)}")
    with right:
        full = ndcg_core.evaluate(grades, **lesson_kwargs(settings))
        st.plotly_chart(charts.cumulative_chart(full.table, highlight=k), width="stretch", key="lesson_cutoff_chart")
    turn = first_dip_and_rise(values)
    if turn:
        down, up = turn
        st.success(
            f"NDCG@k falls from {num(values[down - 2])} at k = {down - 1} to {num(values[down - 1])} at k = {down}, "
            f"then rises to {num(values[up - 1])} at k = {up}."
        )
    else:
        st.info("This list's NDCG@k never falls and then rises. Try 3, 0, 3, 3, 0.")


def lesson_gain(settings: MetricSettings) -> None:
    st.markdown(
        "**Linear** gain uses the grade itself (001, 003, scikit-learn, trec_eval); **exponential** gain uses "
        "2^grade − 1 (000, 002, 004, LightGBM, XGBoost), which makes a top grade worth far more than a middling one. "
        "The same list gets different DCG, IDCG and NDCG."
    )
    grades = grades_field("Grades in ranked order", (3.0, 2.0, 3.0, 0.0, 1.0), key="lesson_gain_grades",
                          help="Default: the list of 004_d08dec0f5f88387e.txt.")
    if grades is None:
        return
    base = {**lesson_kwargs(settings)}
    linear = ndcg_core.evaluate(grades, **{**base, "gain": "linear"})
    exponential = ndcg_core.evaluate(grades, **{**base, "gain": "exponential"})
    st.dataframe(
        pd.DataFrame(
            {
                "Rank": linear.table["rank"].astype(int),
                "Grade": linear.table["relevance"],
                "Linear gain": linear.table["gain"],
                "Linear contribution": linear.table["contribution"].round(3),
                "Exponential gain": exponential.table["gain"],
                "Exponential contribution": exponential.table["contribution"].round(3),
            }
        ),
        hide_index=True,
    )
    left, right = st.columns(2)
    left.metric("NDCG, linear gain", num(linear.ndcg), help=f"DCG {num(linear.dcg)} / IDCG {num(linear.idcg)}")
    right.metric("NDCG, exponential gain", num(exponential.ndcg), delta=num(exponential.ndcg - linear.ndcg),
                 help=f"DCG {num(exponential.dcg)} / IDCG {num(exponential.idcg)}")


def lesson_ideal_all_judged(settings: MetricSettings) -> None:
    st.markdown(
        "Where does the ideal list come from? From the **ranking alone** (sort what was retrieved), or from **all "
        "judged documents** for the query, including relevant ones the system never retrieved. 003_f44d929bf8cc7fa4.txt "
        "knows two more judged documents, D7 (grade 3) and D8 (grade 2): the ideal top 6 becomes 3, 3, 3, 2, 2, 2, "
        "IDCG grows and NDCG drops (with linear gain, to 0.785). trec_eval does this; scikit-learn cannot, since it "
        "only sees the ranked list."
    )
    included = st.multiselect(
        "Judged documents that were not retrieved, counted in the ideal", list(DOCUMENT_003_EXTRA),
        default=list(DOCUMENT_003_EXTRA), format_func=lambda name: f"{name} (grade {num(DOCUMENT_003_EXTRA[name])})",
        key="lesson_extra_docs",
    )
    ranked = list(DOCUMENT_003_GRADES)
    alone = ndcg_core.evaluate(ranked, **lesson_kwargs(settings))
    judged = ndcg_core.evaluate(
        ranked, ideal_relevances=ranked + [DOCUMENT_003_EXTRA[name] for name in included], **lesson_kwargs(settings)
    )
    st.dataframe(
        pd.DataFrame(
            {
                "Ideal taken from": ["the ranking alone (D1–D6)", "all judged documents" + (f" (+ {', '.join(included)})" if included else "")],
                "Ideal top 6 grades": [", ".join(num(g) for g in r.ideal_relevances[:6]) for r in (alone, judged)],
                "DCG": [round(alone.dcg, 3), round(judged.dcg, 3)],
                "IDCG": [round(alone.idcg, 3), round(judged.idcg, 3)],
                "NDCG": [round(alone.ndcg, 3), round(judged.ndcg, 3)],
            }
        ),
        hide_index=True,
    )
    if included:
        st.markdown(
            f"Same DCG ({num(alone.dcg)}), larger IDCG ({num(alone.idcg)} → {num(judged.idcg)}): NDCG falls from "
            f"{num(alone.ndcg)} to {num(judged.ndcg)}. The ranking is judged against documents it missed."
        )


def lesson_all_zero(settings: MetricSettings) -> None:
    st.markdown(
        "If no document is relevant, IDCG = 0 and NDCG = DCG / IDCG = 0 / 0 is undefined. Libraries disagree: "
        "scikit-learn and trec_eval report 0, LightGBM and XGBoost 1; the code of 000_0bdd5abdb117b00b.txt skips "
        "such lists when averaging, and 002_f0069fcf9a1a890a.txt's code returns 0.0."
    )
    size = st.slider("Documents, all graded 0", 1, 8, 4, key="lesson_zero_size")
    rescue = st.toggle("Give the last document grade 1", key="lesson_zero_rescue")
    grades = [0.0] * size
    if rescue:
        grades[-1] = 1.0
    rows = []
    for rule, label in (("zero", "0 (scikit-learn, trec_eval)"), ("one", "1 (LightGBM, XGBoost)"),
                        ("skip", "skip (left out of averages)"), ("error", "refuse (error)")):
        try:
            result = ndcg_core.evaluate(grades, **lesson_kwargs(settings, zero_idcg=rule))
            shown = "left out (NaN)" if math.isnan(result.ndcg) else num(result.ndcg)
            rows.append({"Rule for IDCG = 0": label, "DCG": num(result.dcg), "IDCG": num(result.idcg), "NDCG": shown})
        except ndcg_core.InvalidInput as error:
            rows.append({"Rule for IDCG = 0": label, "DCG": "–", "IDCG": "0", "NDCG": f"error: {error}"})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if rescue:
        st.info("With one relevant document IDCG > 0, so every rule gives the same, well-defined NDCG.")


def lesson_dataset(settings: MetricSettings) -> None:
    st.markdown(
        "A data set has many queries. 000_0bdd5abdb117b00b.txt gives two ways to combine them: the **mean of the "
        "per-query NDCGs** (usual: every query counts the same) or **ΣDCG / ΣIDCG** (queries with a large IDCG, "
        "i.e. many highly relevant documents, weigh more)."
    )
    defaults = {"Q1": (3.0, 1.0, 2.0, 0.0, 2.0), "Q2": (0.0, 0.0, 1.0), "Q3": (3.0, 3.0, 2.0, 3.0)}
    columns = st.columns(len(defaults))
    lists: dict[str, list[float]] = {}
    for column, (query, default) in zip(columns, defaults.items(), strict=True):
        with column:
            grades = grades_field(f"{query} grades", default, key=f"lesson_dataset_{query}")
            if grades is not None:
                lists[query] = grades
    if len(lists) < len(defaults):
        return
    # The three lists as a tiny run (documents in ranked order, each judged), evaluated by ndcg_core.
    run = pd.DataFrame(
        [
            (query, f"{query}-d{position}", position, grade)
            for query, grades in lists.items()
            for position, grade in enumerate(grades, start=1)
        ],
        columns=["query", "doc", "rank", "relevance"],
    )
    evaluated = ndcg_core.evaluate_run(run, **lesson_kwargs(settings))
    per_query = evaluated.per_query[["dcg", "idcg", "ndcg"]]
    st.dataframe(per_query.round(3).rename(columns=str.upper), width="stretch")
    left, right = st.columns(2)
    left.metric("Mean of per-query NDCG", num(evaluated.mean_ndcg), help="(NDCG₁ + NDCG₂ + NDCG₃) / 3")
    right.metric("ΣDCG / ΣIDCG", num(evaluated.ratio_of_sums), delta=num(evaluated.ratio_of_sums - evaluated.mean_ndcg),
                 help="(DCG₁ + DCG₂ + DCG₃) / (IDCG₁ + IDCG₂ + IDCG₃)")
    st.latex(
        r"\frac{1}{n}\sum_q NDCG_q = " + num(evaluated.mean_ndcg)
        + r"\qquad \frac{\sum_q DCG_q}{\sum_q IDCG_q} = " + num(evaluated.ratio_of_sums)
    )
    st.caption(
        "The ratio of sums is a weighted mean of the NDCGs, each query weighted by its IDCG, so it leans towards "
        "the queries with the biggest IDCG. Queries with IDCG = 0 add nothing to either sum."
    )


# --- Worked-example cards ---------------------------------------------------------------------------------

STATUS_BADGES = {
    "matches": ("✓ matches", "green"),
    "matches after rounding": ("≈ matches after rounding", "blue"),
    "erratum": ("✗ erratum", "red"),
}
HEADLINE_METRICS = ("cg", "dcg", "idcg", "ndcg")
FIGURE_VERDICTS = {"matches": "✓ matches", "matches after rounding": "≈ rounding", "erratum": "✗ erratum"}


def metric_label(key: str) -> str:
    """'ndcg' -> 'NDCG', 'dcg_swapped' -> 'DCG swapped', 'worst_ndcg' -> 'worst NDCG'."""
    words = key.split("_")
    return " ".join(word.upper() if word.lower() in HEADLINE_METRICS or word.lower().startswith(("ndcg", "dcg", "idcg")) else word
                    for word in words)


def figure_keys(example) -> list[str]:
    """The figures a card lists: those the document states, then those it asks about without stating."""
    return list(example.stated) + [key for key in example.computed if key not in example.stated]


def reproduced_figures(example) -> dict[str, float]:
    """The figure this app reproduces for each listed figure: ndcg_core's result for CG/DCG/IDCG/NDCG,
    ndcg_core-computed values (``example.computed``) for any other."""
    result = example.result()
    return {
        key: float(getattr(result, key)) if key in HEADLINE_METRICS else float(example.computed[key])
        for key in figure_keys(example)
    }


def figures_frame(example) -> pd.DataFrame:
    reproduced = reproduced_figures(example)
    keys = figure_keys(example)
    printed = getattr(example, "stated_text", {}) or {}
    per_figure = getattr(example, "figure_status", {}) or {}
    frame = pd.DataFrame(
        {
            "Figure": [metric_label(key) for key in keys],
            "Stated in the document": [
                printed.get(key, _stated_text(example.stated[key])) if key in example.stated else "not stated"
                for key in keys
            ],
            "Reproduced here": [
                reproduced_text(reproduced[key], printed.get(key) if key in example.stated else None) for key in keys
            ],
            "Verdict": [
                FIGURE_VERDICTS.get(per_figure.get(key, ""), "—") if key in example.stated else "not stated"
                for key in keys
            ],
        }
    )
    # The card's badge is example.status; an erratum in the document's code or text (its figures all right)
    # gets its own row, so the table never says only "✓ matches" under a "✗ erratum" badge.
    if example.status == "erratum" and FIGURE_VERDICTS["erratum"] not in frame["Verdict"].tolist():
        frame.loc[len(frame)] = ["The document's code or text", "see the erratum below", "—", FIGURE_VERDICTS["erratum"]]
    return frame


def reproduced_text(value: float, printed: str | None) -> str:
    """ndcg_core's figure with as many decimals as the document printed (at least 4), for a fair comparison."""
    decimals = len(printed.split(".")[1]) if printed and "." in printed else 0
    return f"{value:.{min(max(decimals, 4), 15)}f}"


def _stated_text(value) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


def example_input_frame(example) -> pd.DataFrame:
    names, grades = example_ranked(example)
    rows = {
        "Rank": [str(i) for i in range(1, len(names) + 1)],
        "Document": list(names),
        "Grade": list(grades),
    }
    if getattr(example, "scores", None):
        by_name = dict(zip(example.documents, example.scores, strict=True))
        rows["Model score"] = [float(by_name[name]) for name in names]
    frame = pd.DataFrame(rows)
    if example.extra_documents:
        extra = pd.DataFrame(
            {
                "Rank": ["judged, not ranked"] * len(example.extra_documents),
                "Document": list(example.extra_documents),
                "Grade": [float(g) for g in example.extra_grades],
            }
        )
        frame = pd.concat([frame, extra], ignore_index=True)
    return frame


def convention_text(example) -> str:
    if isinstance(example.gain, dict):
        gain = "custom gain table " + ", ".join(f"{num(g)}→{num(v)}" for g, v in sorted(example.gain.items()))
    else:
        gain = {"exponential": "exponential gain 2^grade − 1", "linear": "linear gain (gain = grade)"}.get(
            example.gain, str(example.gain)
        )
    base = _log_base_key(example.log_base)
    base_text = {"2": "log₂(i + 1)", "e": "ln(i + 1)", "10": "log₁₀(i + 1)"}[base]
    cutoff = "whole list" if example.k is None else f"k = {example.k}"
    if example.extra_documents:
        ideal = f"all judged documents (the ranking plus {', '.join(example.extra_documents)})"
    else:
        ideal = "the ranked documents themselves"
    return f"{gain} · discount {base_text} · {cutoff} · ideal from {ideal}"


def example_card(example, index: int) -> None:
    """One worked example: input, convention, stated vs reproduced figures, verdict, and buttons."""
    with st.container(border=True, key=f"example_card_{index}"):
        label, colour = STATUS_BADGES.get(example.status, (example.status, "gray"))
        st.markdown(f"### {plain(example.title)} &nbsp; :{colour}-badge[{label}]")
        st.markdown(f"Source: {plain(document_title(example.source))}")
        st.markdown(f"**Convention:** {convention_text(example)}")
        left, right = st.columns([1, 1.7])
        with left:
            st.markdown("**Input**")
            st.dataframe(example_input_frame(example), hide_index=True, width="stretch")
        with right:
            st.markdown("**Figures: the document's and this app's (ndcg_core)**")
            st.dataframe(figures_frame(example), hide_index=True, width="stretch")
            if example.status == "erratum" and example.erratum:
                st.error(f"**Erratum.** {example.erratum}", icon=":material/error:")
            elif example.status == "matches after rounding":
                st.info("The document rounds intermediate or final figures; rounded the same way, they agree.", icon=":material/info:")
            elif not example.stated:
                st.info("The document gives no figure here; the one above is computed by this app.",
                        icon=":material/info:")
            else:
                st.success("The document's figures are reproduced exactly.", icon=":material/check_circle:")
            if example.note:
                st.caption(example.note)
        open_col, walk_col, _ = st.columns([1, 1.3, 1.7])
        if open_col.button("Open in Playground", icon=":material/tune:", key=f"example_open_{index}", width="stretch"):
            _open_example_in_playground(example)
        if walk_col.button("Walk through step by step", icon=":material/footprint:", key=f"example_walk_{index}",
                           width="stretch"):
            open_walkthrough(example)


def _open_example_in_playground(example) -> None:
    names, grades = example_ranked(example)
    open_in_playground(
        names, grades, extra_names=tuple(example.extra_documents),
        extra_grades=tuple(float(g) for g in example.extra_grades), settings=example_settings(example),
        reason=f"The worked example “{example.title}” was opened with its document's convention",
    )


def worked_example_filters(examples) -> list:
    """Filter by source document and verdict; returns the examples to show."""
    sources = sorted({example.source for example in examples})
    left, right = st.columns([2, 3])  # the verdict pills are wider than the five document pills
    chosen_sources = left.pills("Source document", sources, selection_mode="multi", key="examples_sources",
                                format_func=lambda source: source[:3]) or sources
    statuses = [status for status in STATUS_BADGES if any(example.status == status for example in examples)]
    chosen_status = right.pills("Verdict", statuses, selection_mode="multi", key="examples_status",
                                format_func=lambda status: STATUS_BADGES[status][0]) or statuses
    return [example for example in examples if example.source in chosen_sources and example.status in chosen_status]

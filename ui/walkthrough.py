"""The step-by-step walkthrough: one position at a time (previous / next / slider / autoplay).

Every figure shown is read from an ``ndcg_core`` result (its per-position ``table`` or its totals); this
module only formats and arranges them. Document names can come from users, so they are shown as plain text (tables, escaped markdown), never
interpreted as markdown or HTML.
"""

from __future__ import annotations

import streamlit as st

import ndcg_core
from ui import charts, focus, linked, predict, present, session, url_state, walk_table
from ui.formatting import discount_words, fixed, gain_latex, gain_words, log_latex, num
from ui.messages import user_message
from ui.metric_cards import metric_cards
from ui.ranking import Ranking, evaluate
from ui.settings import MetricSettings
from ui.walk_lists import PLAYING_KEY, POSITION_KEY, SCOPE, WalkList
from ui.walk_table import PROGRESS_WINDOW
from ui.widgets import formula, plain

USER_MOVED_KEY = "step_user_moved"
AUTOPLAY_SECONDS = 1.5


def evaluate_walk(walk: Ranking, settings: MetricSettings) -> ndcg_core.ListResult:
    return evaluate(walk, **settings.kwargs())


def ideal_names(walk: Ranking) -> list[str]:
    """Document names in the ideal order (grades descending, ties in list order): display only."""
    names = list(walk.names) + list(walk.extra_names)
    return [names[j] for j in ndcg_core.ideal_order(walk.ideal_relevances())]


def tied_note(walk: Ranking, position: int) -> str:
    """Words for the ideal list's document at ``position`` when others share its grade: any of them can stand there,
    so the name shown is one pick among equals (``ideal_names`` takes them in list order), not the ideal's choice."""
    names, grades = list(walk.names) + list(walk.extra_names), walk.ideal_relevances()
    order = ndcg_core.ideal_order(grades)
    grade = grades[order[position - 1]]
    others = [names[j] for j in order if grades[j] == grade and names[j] != names[order[position - 1]]]
    if not others:
        return ""
    shown = ", ".join(plain(name) for name in others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
    return f" (or {shown}: the same grade, {num(grade)}, so {'either' if len(others) == 1 else 'any of them'} can stand here)"


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
    url_state.show_warning(SCOPE)
    playing = bool(session.widget(PLAYING_KEY, False))

    figures_hidden = _figures_hidden(walk, settings, size)

    @st.fragment(run_every=AUTOPLAY_SECONDS if playing else None)
    def stepper() -> None:
        # The timer exists only while playing; when play/pause flips inside the fragment,
        # a full rerun re-declares the fragment with (or without) its timer. Likewise when Predict first (its switch
        # and guesses are in here) hides or shows the whole list's figures below.
        if bool(session.widget(PLAYING_KEY, False)) != playing or _figures_hidden(walk, settings, size) != figures_hidden:
            st.rerun()
        waiting = predict.step_waiting(predict.step_key(walk.names, walk.grades, settings,
                                                        int(session.widget(POSITION_KEY))))
        if playing and not session.forget(USER_MOVED_KEY) and not waiting:  # predict mode: wait for the guess
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
    with st.expander(f"The whole list's figures: CG{cutoff}, DCG{cutoff}, IDCG{cutoff} and NDCG{cutoff}"):
        if figures_hidden:  # Predict first: the totals and the formula's terms would give every answer away
            st.caption("Hidden while Predict first is on, until every position's contribution is revealed (or turn "
                       "Predict first off).")
            return
        if result.ideal_depth > size:  # judged documents the ranking lacks: the ideal list goes further than the walk
            st.caption(f"The walk ends at position {size}, the ranking's last; IDCG{cutoff} also counts the ideal "
                       f"list's positions {size + 1} to {result.ideal_depth} (judged documents the ranking lacks), "
                       "so these figures differ from the walk's last step.")
        metric_cards(result)
        formula(result, settings)


def figures_hidden(walk: WalkList, settings: MetricSettings) -> bool:
    """Whether Predict first hides the whole list's figures (for notes drawn above the walk)."""
    return _figures_hidden(walk, settings, len(walk.names))


def _figures_hidden(walk: WalkList, settings: MetricSettings, size: int) -> bool:
    """Whether Predict first still waits for a guess at some position (the whole list's figures stay hidden)."""
    return any(predict.step_waiting(predict.step_key(walk.names, walk.grades, settings, position))
               for position in range(1, size + 1))


def _clamp_position(size: int) -> None:
    if not session.has(POSITION_KEY):
        wanted = url_state.params().get("pos")
        position = url_state.parse_int(wanted, low=1, high=size) if wanted is not None else 1
        if position is None:
            url_state.warn(SCOPE, f"The link's position could not be read (a whole number from 1 to {size}), so the "
                                  "walk starts at position 1.")
        session.set_widget(POSITION_KEY, position or 1)
    session.set_widget(POSITION_KEY, min(max(int(session.widget(POSITION_KEY)), 1), size))


def _move(step: int, size: int) -> None:
    url_state.warn(SCOPE, None)  # the user moved on from what the link asked for
    position = int(session.widget(POSITION_KEY))
    # Next at the last position starts again (its label says so): disabled there, it dropped the keyboard focus to
    # the page, and the next Tab started from the top.
    after = 1 if step > 0 and position >= size else min(max(position + step, 1), size)
    session.set_widget(POSITION_KEY, after)
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
        last = position >= size
        st.button(
            "Start again" if last else "Next", icon=":material/restart_alt:" if last else ":material/arrow_forward:",
            icon_position="right", key="step_next", on_click=_move, args=(1, size), disabled=size <= 1,
            type="primary",  # (no tooltip at the end only: it wraps the button anew, which drops the focus)
        )
        st.button(
            "Pause" if playing else "Autoplay", icon=":material/pause:" if playing else ":material/play_arrow:",
            key="step_play", on_click=_toggle_play, args=(size,),
            help=f"Advance one position every {AUTOPLAY_SECONDS:g} s; stops at the last position.",
        )
        predict.step_toggle()
    if size > 1:
        st.slider(
            "Position i", min_value=1, max_value=size, key=POSITION_KEY, persist_state="session",
            on_change=session.set_widget, args=(USER_MOVED_KEY, True),
        )
    else:
        st.caption("The list has a single position.")


def _ideal_goes_on(walk: WalkList, result: ndcg_core.ListResult, settings: MetricSettings) -> None:
    """At the ranking's last position, when IDCG counts ideal places past it (judged documents the ranking did not
    return): what those places add, and the whole list's NDCG, which is not the last NDCG@i (it ended at 1 where the
    page's NDCG was 0.9468)."""
    n = len(result.table)
    beyond = result.ideal_table.iloc[n:]
    names = ideal_names(walk)[n: result.ideal_depth]
    places = "; ".join(f"place {int(row.place)} ({plain(name)}, grade {num(row.ideal_relevance)}) adds "
                       f"{num(row.ideal_contribution)}" for row, name in zip(beyond.head(3).itertuples(), names,
                                                                             strict=False))
    more = f"; and {len(beyond) - 3} more places" if len(beyond) > 3 else ""
    cut = "" if settings.k is None else f"@{settings.k}"
    st.info(
        f"The ranking ends here, but the ideal list goes on: {places}{more}. So IDCG{cut} = {fixed(result.idcg)} and "
        f"the whole list's NDCG{cut} = {fixed(result.dcg)} / {fixed(result.idcg)} = {fixed(result.ndcg)}, not the "
        f"NDCG@{n} above: judged documents the ranking did not return count against it.",
        icon=":material/more_horiz:",
    )


def _position_view(walk: WalkList, result: ndcg_core.ListResult, settings: MetricSettings, position: int) -> None:
    table = result.table
    row = table.iloc[position - 1]
    previous_row = table.iloc[position - 2] if position > 1 else None
    log = log_latex(settings.log_base)
    name = walk.names[position - 1]
    ideal_name = ideal_names(walk)[position - 1]
    ideal_note = (" (judged, but not in the ranking)" if ideal_name in walk.extra_names else "") + tied_note(walk, position)

    st.header(f"Position i = {position} of {len(table)}")
    guess_key = predict.step_key(walk.names, walk.grades, settings, position)
    waiting = predict.step_waiting(guess_key)  # "Predict first": this position's numbers wait for a guess
    # What a sighted user sees change after Next (or a guess revealed), read out to a screen reader: one element,
    # in place in both states (under Predict first there was none, so Next and the question it asked were silent).
    term = predict.term_of(result, position)
    told = (f"Position {position} of {len(table)}: {name}, grade {num(row['relevance'])}. Predict first: "
            f"{predict.step_question(term)} Type your guess of its contribution, then Reveal." if waiting else
            f"Position {position} of {len(table)}: {name}, grade {num(row['relevance'])}, contributes "
            f"{num(row['contribution'])}. DCG@{position} = {num(row['cumulative_dcg'])}, NDCG@{position} = "
            f"{num(row['ndcg_at_rank'])}.")
    st.markdown(focus.spoken(told), unsafe_allow_html=True)
    if waiting:
        predict.step_form(guess_key, term, plain(name), settings)
        return
    predict.step_feedback(guess_key)
    drawn = table.iloc[:position] if predict.step_state().on else table  # predict mode: no peeking ahead
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

    if position == len(table) and result.ideal_depth > len(table):
        _ideal_goes_on(walk, result, settings)

    # Full width: legible on a projector, and the charts' legends need the room.
    # Linked views (ui/linked.py): bars in their positions' colours; clicking one walks to that position.
    for chart, build in (("step_contribution_chart", charts.contribution_chart),
                         ("step_cumulative_chart", charts.cumulative_chart)):
        key = linked.chart_key(chart, position)
        present.plotly_chart(
            linked.link_figure(build(drawn, k=settings.k, highlight=position,
                                     ideal_places=result.ideal_table if drawn is table else None), position),
            width="stretch", key=key,
            on_select=linked.on_bar_click(key, _go_to), selection_mode="points", theme=None,
        )
    if len(table) > 2 * PROGRESS_WINDOW + 1:
        st.markdown(f"**The table around position {position}** (the highlighted row is position i)")
    else:
        st.markdown("**The whole table so far** (the highlighted row is position i)")
    walk_table.progress_table(walk, result, position, ahead=not predict.step_state().on)


def _go_to(position: int | None) -> None:
    """A bar clicked on a chart: walk to its position."""
    if position is not None:
        url_state.warn(SCOPE, None)
        session.set_widget(POSITION_KEY, position)  # a drawn bar's rank: always a position of the list
        session.set_widget(USER_MOVED_KEY, True)


def _side_view(
    heading: str, name: str, grade: float, gain_value: float, discount: float, contribution: float,
    running: float, previous_running: float | None, metric: str, position: int, settings: MetricSettings, log: str,
    note: str = "",
) -> None:
    st.markdown(f"**{heading}** · position {position}: document **{plain(name)}**{note}")
    st.markdown(
        f"Grade **{num(grade)}** → gain **{num(gain_value)}** ({gain_words(settings.gain)}). "
        f"Divided by the discount {discount_words(settings.log_base, position)} = **{num(discount)}**, it contributes "
        f"**{num(contribution)}**. Running {metric}@{position} = **{num(running)}**."
    )
    st.latex(rf"\text{{gain}} = {gain_latex(grade, gain_value, settings.gain)}")
    st.latex(rf"\text{{discount}} = {log}({position} + 1) = {num(discount)}")
    st.latex(rf"\text{{contribution}} = \frac{{{num(gain_value)}}}{{{num(discount)}}} = {num(contribution)}")
    if previous_running is None:
        st.latex(rf"{metric}@1 = {num(running)}")
    else:
        st.latex(
            rf"{metric}@{position} = {metric}@{position - 1} + {num(contribution)} = "
            rf"{num(previous_running)} + {num(contribution)} = {num(running)}"
        )

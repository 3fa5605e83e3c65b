"""Drawing blocks shared by the teacher's and the students' views: the question, the distribution, the reveal.

Student text (nicknames) is only ever drawn with ``st.text``/dataframes or escaped with ``ui.widgets.plain``,
never as markdown or HTML.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import replace

import pandas as pd
import plotly.graph_objects as go
import segno
import streamlit as st

from ui.chart_style import LEGEND_ABOVE, PALETTE, base_layout, count_axis, spec_figure
from ui.live import activities
from ui.live.store import Activity, Answer
from ui.quiz_model import Question

STATE_BADGES = {"draft": ("not open yet", "gray"), "open": ("open for answers", "green"),
                "closed": ("answers closed", "orange"), "revealed": ("answer revealed", "blue")}
RIGHT_COLOUR, WRONG_COLOUR = PALETTE["ndcg"], PALETTE["muted"]  # the revealed chart's bars (named in its legend)
HALF_COLOUR = PALETTE["ideal"]  # orange: half a point (a close estimate, the best order in more moves)


def qr_png(link: str, *, scale: int = 8) -> bytes:
    """The join link as a QR code (PNG bytes; error correction M survives a smudged projector)."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=scale, border=2)
    return buffer.getvalue()


def ranking_frame(question: Question, order: tuple[int, ...] | None = None) -> pd.DataFrame:
    """Document and grade by rank, from ndcg_core's table; ranks past k marked (they do not count).

    The "≤ k" column (✓, or – past k) only when some rank lies past k: a column of ✓ alone said nothing, and two
    tables side by side were wider than half a 1366 px page with the sidebar open (their "Counts" column, with
    "past k" in it, cut to "C")."""
    table = question.result(order).table
    columns = {"Document": question.ranked_names(order), "Grade": [f"{g:g}" for g in table["relevance"]]}
    if not table["in_cutoff"].all():
        columns["≤ k"] = ["✓" if counted else "–" for counted in table["in_cutoff"]]
    return pd.DataFrame(columns, index=pd.Index(table["rank"].astype(int).to_numpy(), name="Rank"))


def show_ranking(question: Question, order: tuple[int, ...] | None = None, *, label: str = "") -> None:
    # A static table: compact on a projector, no toolbar on a phone.
    if label:
        st.markdown(f"**{label}**")
    st.table(ranking_frame(question, order))


def show_question(activity: Activity) -> Question:
    """The question as everyone sees it (projector and phones): convention, then the ranking(s)."""
    question = activities.question_of(activity.kind, activity.spec)
    st.caption(f"Convention: {question.convention()}")
    if activity.kind == "estimate":
        st.markdown(f"**What is NDCG@{question.k} of this ranking?**")
        show_ranking(question)
    elif activity.kind == "compare":
        st.markdown(f"**Which ranking has the higher NDCG@{question.k}?**")
        left, right = st.container(key="side-by-side-tables-live").columns(2)  # narrower cells: ui/app_style.py
        with left:
            show_ranking(question, question.order, label="Ranking A")
        with right:
            show_ranking(question, question.other_order, label="Ranking B")
    else:
        st.markdown(f"**Reorder to the highest NDCG@{question.k} in as few moves as possible** "
                    f"(it can be done in {question.fewest_moves()}).")
    return question


def state_badge(state: str) -> str:
    """The activity's state as a markdown badge (to put inside a heading)."""
    text, colour = STATE_BADGES[state]
    return f":{colour}-badge[{text}]"


def _bins(activity: Activity, rows: list[Answer]) -> list[str]:
    """Every label in display order: all estimate bins from 0 to 1, A and B, or the labels seen."""
    if activity.kind == "estimate":
        return [f"{i * activities.BIN:.2f}" for i in range(int(round(1 / activities.BIN)) + 1)]
    if activity.kind == "compare":
        return ["A", "B"]
    return sorted({row.label for row in rows}, key=_label_order)


def _label_order(label: str) -> tuple:
    """Reorder bars: the best first (by moves), then by NDCG; before the reveal, by moves ("2 moves" before "10 moves")."""
    number = label.split()[-2] if label.startswith("best") else label.split()[0] if label[:1].isdigit() else ""
    return (not label.startswith("best"), not label[:1].isdigit(), int(number) if number.isdigit() else 0, label)


def distribution_chart(activity: Activity, rows: list[Answer], *, revealed: bool, height: int = 320) -> go.Figure:
    """Bars: how many answered each label. After the reveal each bar is split: right answers (green) below, wrong
    ones (grey) stacked on them, named in the legend and the hover. While the activity is open a reorder's bars are
    named by the moves taken only (see :func:`activities.unrevealed_label`).

    Why split: an estimate bin of 0.05 can hold both (truth 0.531: 0.50 is right, 0.48 is not, both in the bin
    "0.50"), and one colour per bar called the wrong answers right. Estimate bins sit on a numeric axis at their
    centres: plotly places an annotation on a category axis by the category's index, so the "true NDCG" arrow
    at "0.55" was drawn at position 0.55, beside the first bar.
    """
    # While answers arrive a bar's name must not say right or wrong (a reorder's said "best in ..."). Once they are
    # closed the panel names the most common wrong answer by its label ("NDCG 0.99"), so the bars carry the labels
    # too: closed, the bars said "2 moves" beside a sentence about "NDCG 0.99" that no bar was called.
    if activity.state == "open":
        rows = [replace(row, label=activities.unrevealed_label(activity.kind, activity.spec, row.answer, row.label))
                for row in rows]
    labels = _bins(activity, rows)
    estimate = activity.kind == "estimate"
    x = [float(label) for label in labels] if estimate else labels
    right = Counter(row.label for row in rows if row.correct)
    half = Counter(row.label for row in rows if not row.correct and row.points > 0)  # ½ point: not "wrong"
    wrong = Counter(row.label for row in rows if not row.correct and row.points <= 0)
    totals = [right[label] + half[label] + wrong[label] for label in labels]

    def bars(name: str, counts: list[int], colour: str, what: str) -> dict:
        return {"type": "bar", "name": name, "x": x, "y": counts, "customdata": labels, "marker": {"color": colour},
                "hovertemplate": f"%{{customdata}}: %{{y}} {what}<extra></extra>"}

    if revealed:
        data = [bars("Right answers", [right[label] for label in labels], RIGHT_COLOUR, "right"),
                *([bars("Half right", [half[label] for label in labels], HALF_COLOUR, "half right")] if half else []),
                bars("Wrong answers", [wrong[label] for label in labels], WRONG_COLOUR, "wrong")]
    else:  # no right or wrong before the reveal: it would tell the room the answer
        data = [bars("Answers", totals, PALETTE["actual"], "answers")]
    x_title = {"estimate": "Answered NDCG (bins of 0.05)", "compare": "Ranking chosen", "reorder": "Result"}[activity.kind]
    xaxis: dict = {"type": "category"}
    if estimate:  # 21 bins: a label every 0.20 (all 21 overlap on a projector half or a phone)
        xaxis = {"type": "linear", "range": [-activities.BIN, 1 + activities.BIN], "zeroline": False,
                 "tickmode": "array", "tickvals": x[::4], "ticktext": labels[::4]}
    # Revealed: the legend gets a line of its own under the title (side by side they overlap on a phone).
    layout = base_layout(title="How the class answered", x_title=x_title, y_title="Students", height=height,
                         margin={"l": 50, "r": 20, "t": 80 if revealed else 50, "b": 60}, xaxis=xaxis,
                         legend={**LEGEND_ABOVE, "traceorder": "normal"},
                         yaxis=count_axis(max(totals, default=1)))
    layout["title"] |= {"y": 0.98, "yanchor": "top"}
    figure = spec_figure(data, {**layout, "bargap": 0.15, "barmode": "stack", "showlegend": revealed})
    if revealed and estimate:
        truth = activities.truth(activity.kind, activity.spec)
        label = f"{round(truth / activities.BIN) * activities.BIN:.2f}"  # the bin the truth falls in
        # The text above the tallest bar (a neighbouring bin's bar hid it), the arrow down to the truth's bin.
        figure.add_annotation(x=float(label), y=totals[labels.index(label)], text=f"true NDCG {truth:.3f}",
                              showarrow=True, arrowhead=2, ax=0, axref="pixel", ay=max(totals) + 1, ayref="y",
                              bgcolor="#FFFFFF", font={"size": 14})
    return figure


def show_reveal(activity: Activity) -> None:
    """The right answer and the worked calculation, every figure from ndcg_core."""
    question = activities.question_of(activity.kind, activity.spec)
    st.success(f"**Answer:** {activities.correct_answer(activity.kind, activity.spec)}")
    orders: list[tuple[str, tuple[int, ...] | None]] = [("", None)]
    if activity.kind == "compare":
        orders = [("Ranking A", question.order), ("Ranking B", question.other_order)]
    elif activity.kind == "reorder":
        orders = [("Starting list", None), ("Best order", question.shortest_fix())]
    for prefix, order in orders:
        lines = activities.worked(question, order)
        st.markdown(f"**{prefix}**" if prefix else "**Worked calculation**")
        st.code("\n".join(lines), language=None, wrap_lines=True)

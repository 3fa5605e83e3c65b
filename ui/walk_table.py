"""Step by step's table of every position's figures: one wide grid on a wide page, two narrower grids on a phone.

The eleven columns need ~730 px; on a 390 px phone the grid scrolled sideways and a position's figures could not be
seen at once (its NDCG@i was five columns out of view). Both layouts are drawn and a container query shows one (the
page's width decides, not the screen's: a phone held sideways with the sidebar open is as narrow as a phone), so the
table follows a rotation without a rerun. The phone's layout splits the same columns in two by what they describe:
the ranking's own terms (grade, gain, discount, contribution) and the running sums beside the ideal list's
(DCG@i, ideal grade and contribution, IDCG@i, NDCG@i); each keeps the position i and the highlighted row. Every
figure is read from the ``ndcg_core`` result; nothing is recomputed here.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import ndcg_core
from ui.formatting import num
from ui.ranking import Ranking

# Rows shown either side of position i, every one of them in view (the grids' height fits their rows): with 25 either
# side in a box of 10 rows, position 20 of 30 was out of view below ("the highlighted row is position i", unseen).
# The rows further off are a Next or a slide away (and all of them in the Playground's table and its CSV).
PROGRESS_WINDOW = 5
WIDE_KEY, NARROW_KEY = "step_table_wide", "step_table_narrow"
NARROW_PAGE_PX = 730  # below this page width the phone's layout is shown: the wide grid's columns need 724 px

# The one table is drawn in the layout that fits: the other one is not displayed (nor read by a screen reader).
TABLE_LAYOUT_STYLE = (
    f"@container (max-width: {NARROW_PAGE_PX - 1}px) {{ .st-key-{WIDE_KEY} {{ display: none; }} }}"
    f"@container (min-width: {NARROW_PAGE_PX}px) {{ .st-key-{NARROW_KEY} {{ display: none; }} }}"
)

# The phone's two grids, one per list: the columns of the wide one, each in one of them, with the position i in both
# (the discount is the position's, the same for both lists: it goes where there is room).
NARROW_PARTS = (
    ("Your ranking", ("i", "Document", "Grade", "Gain", "Contribution", "DCG@i")),
    ("The ideal ranking, and NDCG@i", ("i", "Discount", "Ideal grade", "Ideal contribution", "IDCG@i", "NDCG@i")),
)


def progress_table(walk: Ranking, result: ndcg_core.ListResult, position: int, *, ahead: bool = True) -> None:
    """The table around ``position`` in both layouts (the page's width shows one); ``ahead=False`` (Predict first)
    leaves out the rows after it."""
    frame = progress_frame(walk, result, position, ahead=ahead)
    # An undefined NDCG@i (IDCG@i = 0 under the rule "skip") reads "–", not the grid's grey "None".
    with st.container(key=WIDE_KEY):
        st.dataframe(_shaded(frame, position), hide_index=True, width="stretch", height="content",
                     column_config=PROGRESS_COLUMNS, placeholder="–")
    with st.container(key=NARROW_KEY):
        for title, columns in NARROW_PARTS:
            st.markdown(f"**{title}**")
            st.dataframe(_shaded(frame[list(columns)], position), hide_index=True, width="stretch", height="content",
                         column_config=NARROW_COLUMNS, placeholder="–")


def progress_frame(walk: Ranking, result: ndcg_core.ListResult, position: int, *, ahead: bool = True) -> pd.DataFrame:
    """The rows around ``position`` (``PROGRESS_WINDOW`` either side), from ``result.table``."""
    table = result.table
    start = max(0, position - 1 - PROGRESS_WINDOW)
    stop = min(len(table), position + PROGRESS_WINDOW) if ahead else position  # predict mode: nothing ahead
    table = table.iloc[start:stop]
    return pd.DataFrame(
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


def _shaded(frame: pd.DataFrame, position: int):
    """Position i's row highlighted, the rows after it greyed (not reached yet)."""

    def shade(row: pd.Series) -> list[str]:
        if row["i"] == position:
            return ["background-color: rgba(204, 121, 167, 0.30); font-weight: bold"] * len(row)
        if row["i"] > position:
            return ["color: #9CA3AF"] * len(row)
        return [""] * len(row)

    return frame.style.apply(shade, axis=1)


PROGRESS_COLUMNS = {
    column: st.column_config.NumberColumn(format="%.3f")
    for column in ("Gain", "Discount", "DCG@i", "IDCG@i", "NDCG@i")
}
# Short headers (the full words in their help): with "Contribution" and "Ideal contribution" the table was 41 px
# wider than a 1280 px page with the sidebar, and NDCG@i, the column this step is about, was cut at its right edge.
PROGRESS_COLUMNS["Contribution"] = st.column_config.NumberColumn(
    "Contrib.", format="%.3f", help="Contribution: gain ÷ discount at this position")
PROGRESS_COLUMNS["Ideal contribution"] = st.column_config.NumberColumn(
    "Ideal contrib.", format="%.3f", help="Ideal contribution: the ideal list's gain ÷ discount at this position")
# On a tablet held upright (768 px, a 732 px table) the eleven columns took 771 px and NDCG@i was cut again: "i" is
# narrow (its numbers are short) and "Document" is "Doc.". "i" is pinned, so the row's position stays in view.
PROGRESS_COLUMNS["i"] = st.column_config.NumberColumn(pinned=True, width=36)
PROGRESS_COLUMNS["Document"] = st.column_config.TextColumn("Doc.", help="Document")

# The phone's grids: shorter headers still (the full words in their help; the ideal list's grid says whose grade and
# contribution these are), so six columns fit a 358 px page.
NARROW_COLUMNS = dict(PROGRESS_COLUMNS)
NARROW_COLUMNS["Discount"] = st.column_config.NumberColumn("Disc.", format="%.3f", help="Discount: log(i + 1)")
NARROW_COLUMNS["Ideal grade"] = st.column_config.TextColumn("Grade", help="The ideal list's grade at position i")
NARROW_COLUMNS["Ideal contribution"] = st.column_config.NumberColumn(
    "Contrib.", format="%.3f", help="Ideal contribution: the ideal list's gain ÷ discount at this position")
# A long name (the Playground's names are typed by users) would widen the grid past the phone again: it is cut to the
# column here, and read whole in the position's cards above the table.
NARROW_COLUMNS["Document"] = st.column_config.TextColumn("Doc.", help="Document", width=64)

""""Does my choice flip the winner?": the grid from ``ndcg_core.winner_grid``, for the Compare page to call.

``show_winner_grid(grid, names=("Ranker 1", "Ranker 2"))`` draws the gain x cutoff table of winners (with the
baseline's ideal list and IDCG = 0 rule), for runs a tie rule x gain table, and lists every single change of
choice that reverses the winner.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.formatting import TIE_RULE_LABELS, fixed
from ui.widgets import plain

CHOICE_WORDS = {"gain": "gain", "k": "cutoff", "ideal": "ideal list", "zero_idcg": "IDCG = 0 rule", "ties": "tie rule"}
VALUE_WORDS = {"linear": "gain = grade", "exponential": "2^grade − 1", "ranking": "ranked documents only",
               "all_judged": "every judged document", "zero": "NDCG 0", "one": "NDCG 1"}


def _means(row, places: int) -> str:
    """'0.4879 vs 0.4877': A's and B's means to ``places`` places, or as many more (up to 6) as it takes to tell a
    winner's apart. At three places a cell said 'runA.txt (0.488 vs 0.488)', a winner beside two equal numbers."""
    for more in range(places, 7):
        a, b = fixed(row["mean_a"], more), fixed(row["mean_b"], more)
        if a != b or row["winner"] == "tie":
            break
    return f"{a} vs {b}"


def _cell(row, label: dict) -> str:
    cell = f"{label[row['winner']]} ({_means(row, 3)})"
    return cell + (" ⚠" if row["flips"] else "")


def _at_baseline(grid: pd.DataFrame, *names: str) -> pd.DataFrame:
    """The rows whose choices ``names`` (those present in the grid) are the baseline's."""
    base = grid.iloc[0]
    keep = pd.Series(True, index=grid.index)
    for name in names:
        if name in grid.columns:
            keep &= grid[name].isna() if pd.isna(base[name]) else grid[name] == base[name]
    return grid[keep]


def winner_table(grid: pd.DataFrame, names: tuple[str, str]) -> pd.DataFrame:
    """Gain x cutoff table of winners (and means) under the baseline's ideal list and zero-IDCG rule."""
    rows = _at_baseline(grid, "ideal", "zero_idcg", "ties")
    label = {"A": names[0], "B": names[1], "tie": "tie"}
    table = {}
    for _, row in rows.iterrows():
        column = "no cutoff" if pd.isna(row["k"]) else f"@{int(row['k'])}"
        table.setdefault(row["gain"], {})[column] = _cell(row, label)
    return pd.DataFrame(table).T.rename_axis("gain").reset_index()


def tie_table(grid: pd.DataFrame, names: tuple[str, str]) -> pd.DataFrame | None:
    """Tie rule x gain table of winners at the baseline's cutoff, ideal list and IDCG = 0 rule (runs only)."""
    if "ties" not in grid.columns:
        return None
    rows = _at_baseline(grid, "k", "ideal", "zero_idcg")
    label = {"A": names[0], "B": names[1], "tie": "tie"}
    table: dict[str, dict[str, str]] = {}
    for _, row in rows.iterrows():
        table.setdefault(TIE_RULE_LABELS[row["ties"]], {})[row["gain"]] = _cell(row, label)
    first = TIE_RULE_LABELS[grid.iloc[0]["ties"]]  # the baseline's rule heads the table
    order = [first] + [words for words in TIE_RULE_LABELS.values() if words != first]
    return pd.DataFrame(table).T.reindex(order).rename_axis("tie rule").reset_index()


def show_winner_grid(grid: pd.DataFrame, names: tuple[str, str] = ("Ranker 1", "Ranker 2"), *,
                     key: str = "winner_grid") -> None:
    base = grid.iloc[0]
    label = {"A": names[0], "B": names[1], "tie": "neither (a tie)"}
    st.markdown(f"With the current settings **{plain(label[base['winner']])}** wins.")
    st.dataframe(winner_table(grid, names), hide_index=True, key=key)
    ties = tie_table(grid, names)
    if ties is not None:
        st.markdown("By tie rule (first row: the Dataset page's rule), at the sidebar's cutoff:")
        st.dataframe(ties, hide_index=True, key=f"{key}_ties")
    single = grid[(grid["flips"]) & (grid["changed"] != "") & (~grid["changed"].str.contains(","))]
    if single.empty:
        what = "gain, cutoff, ideal list, IDCG = 0 rule or tie rule" if ties is not None else \
            "gain, cutoff, ideal list or IDCG = 0 rule"
        st.caption(f"No single change of {what} reverses the winner.")
        return
    lines = []
    for _, row in single.iterrows():
        choice = CHOICE_WORDS[row["changed"]]
        value = row[row["changed"]]
        if row["changed"] == "k":  # the k column is float (None = no cutoff): show a whole number
            value = "no cutoff" if pd.isna(value) else int(value)
        value = TIE_RULE_LABELS[value] if row["changed"] == "ties" else VALUE_WORDS.get(value, value)
        lines.append(f"- {choice} → {value}: {label[row['winner']]} wins ({_means(row, 4)})")
    st.markdown("Single changes that reverse the winner (⚠ in the table):\n" + plain("\n".join(lines)).replace("\\-", "-"))

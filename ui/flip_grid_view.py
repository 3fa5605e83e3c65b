""""Does my choice flip the winner?": the grid from ``ndcg_core.winner_grid``, for the Compare page to call.

``show_winner_grid(grid, names=("Ranker 1", "Ranker 2"))`` draws the gain x cutoff table of winners (with the
baseline's ideal list and IDCG = 0 rule) and lists every single change of choice that reverses the winner.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.widgets import plain

CHOICE_WORDS = {"gain": "gain", "k": "cutoff", "ideal": "ideal list", "zero_idcg": "IDCG = 0 rule"}
VALUE_WORDS = {"linear": "gain = grade", "exponential": "2^grade − 1", "ranking": "ranked documents only",
               "all_judged": "every judged document", "zero": "NDCG 0", "one": "NDCG 1"}


def winner_table(grid: pd.DataFrame, names: tuple[str, str]) -> pd.DataFrame:
    """Gain x cutoff table of winners (and means) under the baseline's ideal list and zero-IDCG rule."""
    base = grid.iloc[0]
    rows = grid[(grid["ideal"] == base["ideal"]) & (grid["zero_idcg"] == base["zero_idcg"])]
    label = {"A": names[0], "B": names[1], "tie": "tie"}
    table = {}
    for _, row in rows.iterrows():
        column = "no cutoff" if pd.isna(row["k"]) else f"@{int(row['k'])}"
        cell = f"{label[row['winner']]} ({row['mean_a']:.3f} vs {row['mean_b']:.3f})"
        table.setdefault(row["gain"], {})[column] = cell + (" ⚠" if row["flips"] else "")
    return pd.DataFrame(table).T.rename_axis("gain").reset_index()


def show_winner_grid(grid: pd.DataFrame, names: tuple[str, str] = ("Ranker 1", "Ranker 2"), *,
                     key: str = "winner_grid") -> None:
    base = grid.iloc[0]
    label = {"A": names[0], "B": names[1], "tie": "neither (a tie)"}
    st.markdown(f"With the current settings **{plain(label[base['winner']])}** wins.")
    st.dataframe(winner_table(grid, names), hide_index=True, key=key)
    single = grid[(grid["flips"]) & (~grid["changed"].str.contains(","))]
    if single.empty:
        st.caption("No single change of gain, cutoff, ideal list or IDCG = 0 rule reverses the winner.")
        return
    lines = []
    for _, row in single.iterrows():
        choice = CHOICE_WORDS[row["changed"]]
        value = row[row["changed"]]
        if row["changed"] == "k":  # the k column is float (None = no cutoff): show a whole number
            value = "no cutoff" if pd.isna(value) else int(value)
        value = VALUE_WORDS.get(value, value)
        lines.append(f"- {choice} → {value}: {label[row['winner']]} wins ({row['mean_a']:.4f} vs {row['mean_b']:.4f})")
    st.markdown("Single changes that reverse the winner (⚠ in the table):\n" + plain("\n".join(lines)).replace("\\-", "-"))

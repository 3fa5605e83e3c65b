""""Check my implementation": download the conformance battery, upload or paste your outputs, read the verdict.

Every figure comes from ``ndcg_core`` (``battery_json``, ``battery_csv``, ``battery_expected``,
``read_outputs``, ``check_implementation``); this module lays them out.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

import ndcg_core
from ui import focus
from ui.widgets import plain


@st.cache_data(show_spinner=False)
def _downloads() -> tuple[str, str]:
    return ndcg_core.battery_json(), ndcg_core.battery_csv()


@st.cache_data(show_spinner=False, max_entries=16)
def _check(outputs: tuple[tuple[str, float], ...]) -> ndcg_core.ImplementationCheck:
    return ndcg_core.check_implementation(dict(outputs))


def expected_frame() -> pd.DataFrame:
    """The battery's cases with every preset's expected NDCG (empty where the library refuses the input)."""
    expected = ndcg_core.battery_expected()
    rows = []
    for vector in ndcg_core.BATTERY:
        row = {"case": vector.key, "what it tests": vector.title}
        row |= {ndcg_core.CONVENTIONS[key].label: value for key, value in expected[vector.key].items()}
        rows.append(row)
    return pd.DataFrame(rows)


def mismatch_frame(check: ndcg_core.ImplementationCheck) -> pd.DataFrame:
    titles = {vector.key: vector.title for vector in ndcg_core.BATTERY}
    return pd.DataFrame({
        "case": [m.case for m in check.mismatches],
        "yours": [m.yours for m in check.mismatches],
        "expected": [m.expected for m in check.mismatches],
        "fits": [" or ".join(" + ".join(fit) for fit in m.fits[:3]) or "no known pattern" for m in check.mismatches],
        "what it tests": [titles[m.case] for m in check.mismatches],
    })


def check_section() -> None:
    """The whole section: downloads, the outputs (file or pasted text), the verdict and the mismatches."""
    st.header("Check my implementation")
    st.markdown(
        "Run the battery through your own NDCG code: rank each case's documents by descending score, evaluate at "
        "its k (none: the whole list) and write one line `case,ndcg` per case (CSV) or `{\"case\": ndcg}` (JSON). "
        "Upload or paste the result to see which library your code agrees with and what each difference fits."
    )
    as_json, as_csv = _downloads()
    left, right, _ = st.columns([1, 1, 2])
    left.download_button("Battery (JSON)", as_json, file_name="ndcg_battery.json", mime="application/json",
                         icon=":material/download:", key="battery_json")
    right.download_button("Battery (CSV)", as_csv, file_name="ndcg_battery.csv", mime="text/csv",
                          icon=":material/download:", key="battery_csv")
    with st.expander("The cases and every library's expected NDCG"):
        frame = expected_frame()
        st.dataframe(frame, hide_index=True, placeholder="", column_config={  # empty: refused (the caption)
            name: st.column_config.NumberColumn(format="%.6f") for name in frame.columns[2:]})
        st.caption("Empty = the library refuses that input (e.g. LightGBM: labels above 30; scikit-learn: one "
                   "document). trec_eval and ranx read 1.5 as 1 and a negative grade as 0.")
    uploaded = focus.file_uploader("Your outputs (CSV or JSON)", type=["csv", "json", "txt"], key="battery_upload")
    pasted = st.text_area("…or paste them", key="battery_paste", persist_state="session", height=100, placeholder="plain,0.9608\nties,0.6979")
    data = uploaded.getvalue() if uploaded is not None else pasted
    outputs, refused = None, None
    if data and str(data).strip():
        try:
            outputs = ndcg_core.read_outputs(data)
        except ndcg_core.InvalidInput as error:
            refused = error
    check = None if outputs is None else _check(tuple(sorted(outputs.items())))
    # One live region, in place in every run: the verdict appears below the box where the focus stays (Ctrl+Enter
    # in it, or the uploader), and a screen reader said nothing of it (ui.focus.spoken).
    told = (check.summary if check is not None else f"Your outputs could not be read: {refused}" if refused is not None
            else "No outputs checked yet.")
    st.markdown(focus.spoken(told), unsafe_allow_html=True)
    if refused is not None:
        st.error(plain(refused), icon=":material/warning:")
    if check is None:
        return
    (st.success if not check.mismatches else st.info)(plain(check.summary), icon=":material/fact_check:")
    agreement = pd.DataFrame({
        "library": [ndcg_core.CONVENTIONS[key].label for key in check.agreement],
        "cases agreeing": [f"{agreed} of {compared}" for agreed, compared in check.agreement.values()],
    })
    if check.mismatches:
        st.markdown(f"**Where your outputs differ from {plain(ndcg_core.CONVENTIONS[check.preset].label)}**")
        st.dataframe(mismatch_frame(check), hide_index=True, key="battery_mismatches", placeholder="–",
                     column_config={"yours": st.column_config.NumberColumn(format="%.6f"),
                                    "expected": st.column_config.NumberColumn(format="%.6f")})
    missing = [vector.key for vector in ndcg_core.BATTERY if vector.key not in outputs]
    if missing:
        st.caption(f"No output for: {plain(', '.join(missing))}.")
    skipped = [case for case, value in outputs.items() if math.isnan(value)]
    if skipped:
        st.caption(f"No value given for: {plain(', '.join(skipped))}.")
    with st.expander("Agreement with every library"):
        st.dataframe(agreement, hide_index=True)

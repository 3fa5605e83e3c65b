"""Worked-example cards: each example's input and convention, the document's figures next to ndcg_core's,
a verdict badge, and buttons to open it in the Playground or walk it step by step.

Document names can come from users, so they are shown as plain text (tables, escaped markdown), never
interpreted as markdown or HTML.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.formatting import cutoff_words, discount_words, gain_words
from ui.messages import document_title
from ui.state import open_in_playground
from ui.walk_lists import _log_base_key, example_ranked, example_settings, open_walkthrough
from ui.widgets import plain

STATUS_BADGES = {
    "matches": ("✓ matches", "green"),
    "matches after rounding": ("≈ matches after rounding", "blue"),
    "erratum": ("✗ erratum", "red"),
    "not stated": ("○ no figure stated", "gray"),
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
    """ndcg_core's figure with as many decimals as the document printed (at least 4), for a fair comparison.

    A document that prints its code's output prints a float in full (000: 0.5664478625498256, 16 decimals):
    cut to fewer places, the same float read 0.566447862549826 beside it, as if the two differed. 17 significant
    digits hold any float exactly, so the cap only stops noise digits past those.
    """
    decimals = len(printed.split(".")[1]) if printed and "." in printed else 0
    return f"{value:.{min(max(decimals, 4), 17)}f}"


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


def _as_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The input as ``st.table`` shows it (its cells are markdown): numbers as written, names shown literally.

    A static table, not ``st.dataframe``: these are a few rows each, 16 cards on one page, and a canvas grid per
    table made the page the heaviest of the app to open (and canvas text is not read by screen readers).
    """
    shown = frame.copy()
    for column in shown.columns:
        if pd.api.types.is_numeric_dtype(shown[column]):
            shown[column] = [_stated_text(float(value)) for value in shown[column]]
    shown["Document"] = [plain(name) for name in shown["Document"]]
    return shown


def convention_text(example) -> str:
    """The example's convention in words: gain, discount, cutoff and where its ideal list comes from."""
    if example.extra_documents:
        ideal = f"all judged documents (the ranking plus {', '.join(example.extra_documents)})"
    else:
        ideal = "the ranked documents themselves"
    return (f"{gain_words(example.gain)} · discount {discount_words(_log_base_key(example.log_base))} · "
            f"{cutoff_words(example.k)} · ideal from {ideal}")


def example_card(example, index: int) -> None:
    """One worked example: input, convention, stated vs reproduced figures, verdict, and buttons."""
    with st.container(border=True, key=f"example_card_{index}"):
        label, colour = STATUS_BADGES.get(example.status, (example.status, "gray"))
        st.markdown(f"### {plain(example.title)} &nbsp; :{colour}-badge[{label}]")
        st.markdown(f"From {plain(document_title(example.source))}")
        st.markdown(f"**Convention:** {convention_text(example)}")
        left, right = st.columns([1, 1.7])
        with left:
            st.markdown("**Input**")
            st.table(_as_table(example_input_frame(example)), hide_index=True)
        with right:
            st.markdown("**Figures: the document's and this app's (ndcg_core)**")
            st.table(figures_frame(example), hide_index=True)
            if example.status == "erratum" and example.erratum:
                st.error(f"**Erratum.** {example.erratum}", icon=":material/error:")
            elif example.status == "matches after rounding":
                st.info("The document shortens its terms to a few decimals (rounding or cutting them) and adds those: "
                        "each is within one unit of its last decimal of the exact term, and their sum is its figure.",
                        icon=":material/info:")
            elif not example.stated:
                st.info("The document gives no figure here; the one above is computed by this app.",
                        icon=":material/info:")
            else:
                st.success("The document's figures are reproduced exactly.", icon=":material/check_circle:")
            if example.code_erratum:  # the code's error, said on the card but apart from its figure's verdict
                st.warning(f"**In the document's code, not in this figure.** {example.code_erratum}",
                           icon=":material/code:")
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
    chosen_sources = left.pills("Source document", sources, selection_mode="multi", key="examples_sources", persist_state="session",
                                format_func=lambda source: source[:3]) or sources
    statuses = [status for status in STATUS_BADGES if any(example.status == status for example in examples)]
    chosen_status = right.pills("Verdict", statuses, selection_mode="multi", key="examples_status", persist_state="session",
                                format_func=lambda status: STATUS_BADGES[status][0]) or statuses
    return [example for example in examples if example.source in chosen_sources and example.status in chosen_status]


def summary(examples) -> None:
    """How many examples there are, and how many of each verdict."""
    counts = {status: sum(example.status == status for example in examples) for status in STATUS_BADGES}
    columns = st.columns(1 + len(counts))
    columns[0].metric("Examples", len(examples))
    for column, (status, count) in zip(columns[1:], counts.items(), strict=True):
        column.metric(STATUS_BADGES[status][0], count)


def example_cards(shown, examples) -> None:
    """The cards of ``shown`` under one heading per source document (``examples``: all of them, for the keys)."""
    if not shown:
        st.info("No example matches these filters.")
    source = None
    for example in shown:
        if example.source != source:  # the examples come grouped by document
            source = example.source
            st.header(document_title(source), anchor=f"document-{source[:3]}")
        example_card(example, examples.index(example))

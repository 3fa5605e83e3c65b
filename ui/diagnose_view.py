"""The "Why do my numbers differ?" page's output: the explanation, every matching calculation, side by side.

Every figure comes from ``ndcg_core.diagnose`` and its ``Diagnosis.table``; this module only lays them out.
"""

from __future__ import annotations

import math
import re

import pandas as pd
import streamlit as st

import ndcg_core
from ui import diagnose_input as inputs
from ui import present, url_state
from ui.copy_link import copy_link
from ui.formatting import count, fixed
from ui.tie_band_view import show_tie_band
from ui.widgets import plain

SHOWN_MATCHES = 4


def input_form() -> dict[str, str]:
    """Examples, the text fields and the two numbers; returns the current texts."""
    inputs.restore_from_link()
    url_state.show_warning(inputs.SCOPE)
    st.caption("Start from an example:")
    columns = st.columns(len(inputs.EXAMPLES))
    for column, (key, example) in zip(columns, inputs.EXAMPLES.items(), strict=True):
        column.button(example.title, key=f"why_example_{key}", on_click=inputs.load_example, args=(key,),
                      width="stretch")
    left, right = st.columns(2)
    with left:
        st.text_area("Grades", key="why_grades", persist_state="session", height=80,
                     help="One grade per document, separated by commas or spaces. Without scores: in ranked order.")
        st.text_area("Scores (optional)", key="why_scores", persist_state="session", height=80,
                     help="One model score per grade; the documents are ranked by descending score.")
    with right:
        st.text_input("Judged but not ranked (optional)", key="why_extra", persist_state="session",
                      help="Grades of judged documents the ranking did not return (they only enter the ideal list).")
        st.text_input("Document ids (optional)", key="why_ids", persist_state="session", help="One per grade; trec_eval breaks ties by id.")
        st.text_input("k (empty = no cutoff)", key="why_k", persist_state="session")
    first, second = st.columns(2)
    with first:
        st.text_input("First number: where from", key="why_from_1", persist_state="session", max_chars=inputs.MAX_LABEL)
        st.text_input("First number", key="why_number_1", persist_state="session", placeholder="e.g. 0.8123")
    with second:
        st.text_input("Second number: where from", key="why_from_2", persist_state="session", max_chars=inputs.MAX_LABEL)
        st.text_input("Second number (optional)", key="why_number_2", persist_state="session", placeholder="e.g. 0.8577")
    return inputs.current_texts()


@st.cache_data(show_spinner=False, max_entries=32)
def _diagnose(question: inputs.Question) -> ndcg_core.Diagnosis:
    return ndcg_core.diagnose(
        list(question.grades), None if question.scores is None else list(question.scores),
        reported=list(question.reported), ideal_relevances=[*question.grades, *question.extra], k=question.k,
        doc_ids=None if question.ids is None else list(question.ids),
    )


def in_field_words(message: str, *, ranked: int) -> str:
    """ndcg_core's message with its argument names as the page's fields ("relevances: position 2" was the Grades
    field's second number; ``ideal_relevances`` is the grades followed by the judged-but-not-ranked ones)."""
    found = re.match(r"(ideal_relevances|relevances): position (\d+)", message)
    if found:
        position = int(found.group(2))
        field, position = (("Judged but not ranked", position - ranked) if found.group(1) == "ideal_relevances"
                           and position > ranked else ("Grades", position))
        message = f"{field}: number {position}{message[found.end():]}"
    if "is negative" in message:
        message += (" (trec_eval and pytrec_eval read a negative grade as 0, not relevant: to diagnose their number, "
                    "type 0 there.)")
    return message


def show(texts: dict[str, str]) -> None:
    """Validate, diagnose and explain; an invalid input shows the reason and nothing else."""
    try:
        question = inputs.read_question(texts)
    except ndcg_core.InvalidInput as error:
        st.error(plain(error), icon=":material/warning:")
        return
    inputs.mirror_to_url(texts)
    try:
        diagnosis = _diagnose(question)
    except ndcg_core.InvalidInput as error:
        st.error(plain(in_field_words(str(error), ranked=len(question.grades))), icon=":material/warning:")
        return
    st.header("What each number is")  # the findings' headings sit under it (a screen reader lists them in order)
    if diagnosis.comparison:
        st.info(plain(diagnosis.comparison), icon=":material/lightbulb:")
    for index, finding in enumerate(diagnosis.findings):
        _finding(finding, index)
    explained = [finding for finding in diagnosis.findings if finding.matches]
    if explained:
        _side_by_side(diagnosis, explained[:2], question)
    if question.scores is not None:
        show_tie_band(list(question.grades), list(question.scores), k=question.k,
                      judged=[*question.grades, *question.extra],
                      doc_ids=None if question.ids is None else list(question.ids), key="why_tie_band")
    st.caption("Every convention is searched (the metric settings of the other pages do not apply here). NDCG is "
               "the same for any "
               "log base of log(rank + 1), so log2, ln and log10 are one answer.")
    st.markdown("**Share this diagnosis**")
    copy_link(inputs.share_link(texts), key="why_share_link", label="Share link of this diagnosis")


def _finding(finding: ndcg_core.Finding, index: int) -> None:
    st.markdown(f"### {plain(finding.label)}: " + ("no value" if math.isnan(finding.reported)
                                                      else finding.printed or f"{finding.reported:.4f}"))
    st.markdown(plain(finding.summary))
    if not finding.matches:
        return
    lines = [f"- {plain(match.sentence)}" for match in finding.matches[:SHOWN_MATCHES]]
    st.markdown("\n".join(lines))
    rest = finding.matches[SHOWN_MATCHES:]
    if rest:
        with st.expander(f"{count(len(rest), 'more calculation that gives', 'more calculations that give')} this number"):
            st.markdown("\n".join(f"- {plain(match.sentence)}" for match in rest))


# Each calculation's columns: (header, what it holds). Short headers, so that two calculations' tables fit side by
# side on a laptop (one table of both, with the label in every header, hid the second calculation past the right edge
# of a 1280 px screen).
CALCULATION_COLUMNS = (
    ("Rank", "The position i in the ranking."),
    ("Document", "The document at this position (its id, or its place in the input: #1 is the first number typed)."),
    ("Grade", "Its relevance grade."),
    ("Gain", "The gain this calculation gives the grade."),
    ("Discount", "What the gain is divided by at this position."),
    ("Gain ÷ discount", "The position's contribution to DCG; empty past the cutoff."),
    ("Ideal", "The contribution at this position in the ideal list (IDCG adds these); empty past its depth."),
)


def calculation_frame(diagnosis: ndcg_core.Diagnosis, finding: ndcg_core.Finding, ids) -> pd.DataFrame:
    """A finding's first calculation position by position (columns from ``Diagnosis.table``)."""
    table = diagnosis.table(finding.matches[0])
    documents = [(ids[i] if ids else f"#{i + 1}") if i >= 0 else "" for i in table["item"]]
    values = (range(1, len(table) + 1), documents, table["grade"], table["gain"], table["discount"],
              table["contribution"].where(table["in_cutoff"]), table["ideal_contribution"].where(table["in_ideal_cut"]))
    return pd.DataFrame({header: list(column) for (header, _), column in zip(CALCULATION_COLUMNS, values, strict=True)})


def _calculation_table(frame: pd.DataFrame, key: str) -> None:
    numbers = [header for header, _ in CALCULATION_COLUMNS[3:]]
    if present.active():  # a projector: an HTML table, whose text grows with the page's and wraps in its cells
        st.table(frame.style.format(fixed, subset=numbers, na_rep="").format("{:g}", subset=["Grade"], na_rep=""),
                 hide_index=True)
        return
    config = {header: (st.column_config.NumberColumn(header, help=help, format="%.4f") if header in numbers
                       else st.column_config.Column(header, help=help)) for header, help in CALCULATION_COLUMNS}
    # a cell past the cutoff is empty, as the caption under the tables says (the grid drew a missing value "None")
    st.dataframe(frame, hide_index=True, key=key, column_config=config, placeholder="")


def _side_by_side(diagnosis: ndcg_core.Diagnosis, findings, question: inputs.Question) -> None:
    st.markdown("### The calculations side by side")
    columns = st.columns(len(findings))
    for index, (column, finding) in enumerate(zip(columns, findings, strict=True)):
        match = finding.matches[0]
        with column:
            # No help icon: Streamlit names its button "Help for " + the label's markdown source, which a screen
            # reader read as "Help for scikit\-learn"; the caption below says what it said (DCG and IDCG).
            st.metric(plain(finding.label), f"{match.ndcg:.4f}")
            st.caption(f"DCG = {match.dcg:.4f}, IDCG = {match.idcg:.4f}")
            _calculation_table(calculation_frame(diagnosis, finding, question.ids), key=f"why_side_by_side_{index}")
    st.caption("Empty cells are past the cutoff (ranking) or past the ideal list's depth: they do not count.")

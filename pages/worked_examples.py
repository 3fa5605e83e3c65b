"""Worked examples: every example of the five source documents, reproduced by ndcg_core, errata explained."""

import streamlit as st

import ui
from ui import lessons
from ui.messages import document_title

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

st.title("Worked examples")
st.markdown(
    "Every worked example of the five source documents, recomputed by this app. Each card shows the document's "
    "input and convention, the figures it states next to the figures reproduced here, and a verdict: **matches**, "
    "**matches after rounding**, or **erratum** (with what went wrong, in plain words)."
)
examples = lessons.worked_examples()
if not examples:
    st.info("The worked examples are not available yet.")

counts = {status: sum(example.status == status for example in examples) for status in lessons.STATUS_BADGES}
summary = st.columns(4)
summary[0].metric("Examples", len(examples))
for column, (status, count) in zip(summary[1:], counts.items(), strict=True):
    column.metric(lessons.STATUS_BADGES[status][0], count)

shown = lessons.worked_example_filters(examples)
if not shown:
    st.info("No example matches these filters.")
source = None
for example in shown:
    if example.source != source:  # the examples come grouped by document
        source = example.source
        st.header(document_title(source), anchor=f"document-{source[:3]}")
    lessons.example_card(example, examples.index(example))

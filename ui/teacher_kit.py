"""The "For teachers" page: objectives, the lesson plan, the worksheet and its answer key, printable.

Content and figures are in :mod:`ui.teacher_kit_model`; this module draws them and carries the print
style (:data:`PRINT_CSS`): printing the page from the browser hides the app's chrome and starts the
worksheet and the answer key on new pages, so one print gives the teacher's notes, the students' handout
and the key. Tables are HTML tables (``st.table``), not canvas grids, so they print as text.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import ndcg_core
from ui import present
from ui import teacher_kit_model as kit
from ui.formatting import gain_words, num
from ui.walk_lists import example_ranked
from ui.widgets import plain

WORKSHEET_KEY = "teacher_worksheet"
ANSWER_KEY_KEY = "teacher_answer_key"
BLANK = ""  # a cell the student fills in

# Streamlit's main area is a fixed-height scroll box: left as it is, a print holds only what is on screen.
# In print the boxes grow with their content, the chrome goes, and blocks are not split across pages.
PRINT_CSS = f"""
<style>
@media print {{
  @page {{ margin: 12mm 12mm 14mm 12mm; }}
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
  [data-testid="stToolbar"], [data-testid="stDecoration"], [data-testid="stStatusWidget"],
  [data-testid="stElementToolbar"], [data-testid="stSidebarNav"], [data-testid="stExpandSidebarButton"],
  .stButton, .stDownloadButton, .stPageLink, button, .teacher-screen-only {{ display: none !important; }}
  html, body, .stApp, [data-testid="stAppViewContainer"], [data-testid="stMain"],
  [data-testid="stMainBlockContainer"], [data-testid="stVerticalBlock"] {{
    position: static !important; overflow: visible !important; height: auto !important;
    max-height: none !important; min-height: 0 !important;
  }}
  [data-testid="stMain"] {{ margin: 0 !important; }}
  [data-testid="stMainBlockContainer"] {{ padding: 0 !important; max-width: none !important; width: 100% !important; }}
  body, .stApp {{ background: #fff !important; color: #000 !important; font-size: 10.5pt; }}
  .st-key-{WORKSHEET_KEY}, .st-key-{ANSWER_KEY_KEY} {{ break-before: page; page-break-before: always; }}
  [class*="st-key-teacher_exercise_"], [class*="st-key-teacher_answer_"], [data-testid="stTable"],
  .katex-display, [data-testid="stMarkdownContainer"] table {{ break-inside: avoid; page-break-inside: avoid; }}
  h1, h2, h3 {{ break-after: avoid; page-break-after: avoid; }}
  [data-testid="stTable"] table {{ width: 100% !important; font-size: 9.5pt; }}
  [data-testid="stTable"] td, [data-testid="stTable"] th {{ padding: 2px 6px !important; }}
  [class*="st-key-teacher_exercise_"] [data-testid="stTable"] td {{ height: 1.9em; }}  /* room to write */
  .katex-display > .katex {{ white-space: normal; }}
  a {{ color: #1a4f9c !important; }}
  /* On paper a link is its address: printed after its label, small, breaking anywhere (a student types it). */
  [data-testid="stMain"] [data-testid="stMarkdownContainer"] a[href^="http"]::after {{
    content: " (" attr(href) ")"; font-family: monospace; font-size: 8pt; color: #333; word-break: break-all;
  }}
}}
.teacher-write {{ display: inline-block; min-width: 7em; border-bottom: 1px solid currentColor; }}
</style>
"""


def _base_url() -> str:
    """The server's address ('https://host') when known, so printed and copied links work outside the app."""
    url = str(getattr(st.context, "url", None) or "")
    if not url.startswith("http"):
        return ""
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{rest.split('/', 1)[0]}"


def _links_markdown(links: tuple[kit.Link, ...], *, projected: bool = False) -> str:
    """The links as markdown; ``projected`` ones (the lesson plan's, opened on the projector) keep Present mode on.

    The worksheet's links are for students, so they never switch a student's screen to Present mode.
    """
    base = _base_url()
    return " · ".join(f"[{plain(link.label)}]({base}{present.link(link.url) if projected else link.url})"
                      for link in links)


def print_style() -> None:
    st.html(PRINT_CSS)


def objectives() -> None:
    st.header("Learning objectives")
    st.markdown("After the lesson a student can:\n\n" + "\n".join(f"1. {line}" for line in kit.OBJECTIVES))


def lesson_plan() -> None:
    blocks = kit.lesson_plan()
    st.header(f"A {sum(block.minutes for block in blocks)}-minute lesson plan")
    st.markdown("Project the app; each block's links open that step with its list and settings already set.")
    start = 0
    for block in blocks:
        end = start + block.minutes
        st.markdown(f"**{start}–{end} min · {block.title}** ({block.minutes} min, *{block.page}*)  \n"
                    f"{block.what}  \nOpen: {_links_markdown(block.links, projected=True)}")
        start = end


def _discount_table(positions: int) -> pd.DataFrame:
    """One row of discounts, labelled in its first cell (no index: an empty header cell is an a11y defect)."""
    values = ndcg_core.discounts(positions)
    return pd.DataFrame([["log₂(i + 1)", *(kit.figure_text(v) for v in values)]],
                        columns=["Position i", *(str(i) for i in range(1, positions + 1))])


def _write_in(names: tuple[str, ...]) -> str:
    return " &nbsp; ".join(f"{name} = <span class='teacher-write'>&nbsp;</span>" for name in names)


def worksheet() -> None:
    with st.container(key=WORKSHEET_KEY):
        st.header("Worksheet: NDCG by hand")
        st.markdown("Name: <span class='teacher-write' style='min-width:16em'>&nbsp;</span> &nbsp; "
                    "Date: <span class='teacher-write'>&nbsp;</span>", unsafe_allow_html=True)
        st.markdown("Each position i has a **gain** (from the grade), a **discount** log₂(i + 1) and a "
                    "**contribution** gain ÷ discount. DCG adds the contributions; IDCG is the DCG of the ideal "
                    "order (all judged grades, best first); NDCG = DCG ÷ IDCG. With a cutoff k only positions "
                    "1 to k count.")
        # Three short formulas rather than one long line: none is wider than a printed page.
        st.latex(r"DCG@k = \sum_{i=1}^{k} \frac{gain(rel_i)}{\log_2(i+1)}")
        st.latex(r"gain(rel) = rel \ \text{(linear)} \quad \text{or} \quad gain(rel) = 2^{rel} - 1 \ \text{(exponential)}")
        st.latex(r"NDCG@k = \frac{DCG@k}{IDCG@k}")
        st.markdown("Discounts you may use:")
        st.table(_discount_table(8), hide_index=True)
        for item in kit.EXERCISES:
            _exercise(item)


def _exercise(item: kit.Exercise) -> None:
    example = item.example
    with st.container(key=f"teacher_exercise_{item.number}"):
        when = "in class" if item.in_class else "homework"
        st.subheader(f"Exercise {item.number} ({when})")
        st.markdown(f"{item.task}  \n*{plain(kit.source_line(item))}* Convention: {gain_words(_gain(example))}, "
                    f"{kit.cutoff_words(item)}.")
        names, grades = example_ranked(example)
        st.table(pd.DataFrame({"Position i": [str(i) for i in range(1, len(names) + 1)], "Document": list(names),
                               "Grade": [num(g) for g in grades], "Gain": BLANK, "Discount": BLANK,
                               "Contribution": BLANK}), hide_index=True)
        if example.extra_documents:
            judged = ", ".join(f"{plain(n)} = {num(g)}" for n, g in
                               zip(example.extra_documents, example.extra_grades, strict=True))
            st.markdown(f"Judged but not in the ranking (grade): {judged}.")
        labels = [kit.FIGURE_NAMES[name] + _at(item) for name in item.asked]
        st.markdown(_write_in(tuple(labels)), unsafe_allow_html=True)
        st.markdown(f"Check it in the app: {_links_markdown(item.links())}")


def _gain(example) -> str:
    return "custom" if isinstance(example.gain, dict) else example.gain


def _at(item: kit.Exercise) -> str:
    return "" if item.example.k is None else f"@{item.example.k}"


def answer_key() -> None:
    with st.container(key=ANSWER_KEY_KEY):
        st.header("Answer key")
        st.caption("Every figure here is computed by ndcg_core (whole numbers exactly, others to "
                   f"{kit.DIGITS} decimals).")
        st.table(answer_summary(), hide_index=True)
        for item in kit.EXERCISES:
            _answer(item)


def answer_summary() -> pd.DataFrame:
    """One row per asked figure: exercise, figure, value (the page's table and the tests read the same)."""
    rows = [{"Exercise": str(item.number), "Figure": kit.FIGURE_NAMES[name] + _at(item),
             "Value": kit.figure_text(value)}
            for item in kit.EXERCISES for name, value in kit.figure_values(item).items()]
    return pd.DataFrame(rows)


def answer_positions(item: kit.Exercise) -> pd.DataFrame:
    """The exercise's positions inside the cutoff, as ndcg_core computes them."""
    rows = kit.counted_rows(item)
    names, _ = example_ranked(item.example)
    return pd.DataFrame({
        "i": [str(int(r)) for r in rows["rank"]],
        "Document": [names[int(rank) - 1] for rank in rows["rank"]],
        "Grade": [num(v) for v in rows["relevance"]],
        "Gain": [kit.figure_text(v) for v in rows["gain"]],
        "Discount": [kit.figure_text(v) for v in rows["discount"]],
        "Contribution": [kit.figure_text(v) for v in rows["contribution"]],
        "Ideal grade": [num(v) for v in rows["ideal_relevance"]],
        "Ideal contribution": [kit.figure_text(v) for v in rows["ideal_contribution"]],
    })


def _answer(item: kit.Exercise) -> None:
    example = item.example
    with st.container(key=f"teacher_answer_{item.number}"):
        st.subheader(f"Exercise {item.number}")
        figures = " · ".join(f"**{kit.FIGURE_NAMES[name]}{_at(item)} = {kit.figure_text(value)}**"
                             for name, value in kit.figure_values(item).items())
        st.markdown(figures)
        st.table(answer_positions(item), hide_index=True)
        wrong = {name: text for name, text in example.stated_text.items()
                 if example.figure_status.get(name) == "erratum"}
        if wrong:
            stated = ", ".join(f"{kit.FIGURE_NAMES[name]} = {text}" for name, text in wrong.items())
            st.markdown(f"The source document prints {stated}: an erratum (see Worked examples).")
        elif example.code_erratum:
            st.markdown("The source document's figure is right, but its code would not print it "
                        "(see Worked examples).")

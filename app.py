"""Entry point: page config, the shared settings sidebar, and navigation."""

import streamlit as st

from ui.landing import top_on_page_change
from ui.settings import settings_sidebar

st.set_page_config(page_title="NDCG, explained", page_icon="📐", layout="wide")
# Less empty space above each page's title: on a projector every line of height counts.
st.html("<style>[data-testid='stMainBlockContainer'] { padding-top: 2.5rem; }</style>")
# Long formulas wrap after "=" or "+" instead of running off a phone's screen (KaTeX's display mode sets nowrap;
# its parts are separate inline blocks, so the line can break between them). One part wider still scrolls.
st.html("<style>.katex-display > .katex, .katex-display > .katex > .katex-html { white-space: normal; }"
        ".katex-display > .katex > .katex-html > .base { margin: .2em 0; }</style>")

# Each url_path is its file's stem: until st.navigation has run once, Streamlit serves a pages/ folder in its
# legacy mode, which finds pages by file stem, so a deep link on a fresh server must use that same name.
PAGES = {
    "Learn": [
        st.Page("pages/playground.py", title="Playground", icon=":material/tune:", url_path="playground", default=True),
        st.Page("pages/step_by_step.py", title="Step by step", icon=":material/footprint:", url_path="step_by_step"),
        st.Page("pages/worked_examples.py", title="Worked examples", icon=":material/menu_book:", url_path="worked_examples"),
        st.Page("pages/quiz.py", title="Quiz", icon=":material/quiz:", url_path="quiz"),
        st.Page("pages/live_class.py", title="Live class", icon=":material/co_present:", url_path="live_class"),
    ],
    "Evaluate": [
        st.Page("pages/dataset.py", title="Dataset", icon=":material/dataset:", url_path="dataset"),
        st.Page("pages/compare.py", title="Compare rankers", icon=":material/compare_arrows:", url_path="compare"),
        st.Page("pages/conventions.py", title="Library conventions", icon=":material/straighten:", url_path="conventions"),
        st.Page("pages/why_differ.py", title="Why do my numbers differ?", icon=":material/troubleshoot:",
                url_path="why_differ"),
    ],
}

page = st.navigation(PAGES)
settings_sidebar()
top_on_page_change(page)  # a newly opened page starts at its top
page.run()

"""Entry point: page config, the shared settings sidebar, and navigation."""

import streamlit as st

from ui import url_state
from ui.settings import settings_sidebar

st.set_page_config(page_title="NDCG, explained", page_icon="📐", layout="wide")
# Less empty space above each page's title: on a projector every line of height counts.
st.html("<style>[data-testid='stMainBlockContainer'] { padding-top: 2.5rem; }</style>")

# Each url_path is its file's stem: until st.navigation has run once, Streamlit serves a pages/ folder in its
# legacy mode, which finds pages by file stem, so a deep link on a fresh server must use that same name.
PAGES = {
    "Learn": [
        st.Page("pages/playground.py", title="Playground", icon=":material/tune:", url_path="playground", default=True),
        st.Page("pages/step_by_step.py", title="Step by step", icon=":material/footprint:", url_path="step_by_step"),
        st.Page("pages/worked_examples.py", title="Worked examples", icon=":material/menu_book:", url_path="worked_examples"),
        st.Page("pages/quiz.py", title="Quiz", icon=":material/quiz:", url_path="quiz"),
    ],
    "Evaluate": [
        st.Page("pages/dataset.py", title="Dataset", icon=":material/dataset:", url_path="dataset"),
        st.Page("pages/compare.py", title="Compare rankers", icon=":material/compare_arrows:", url_path="compare"),
        st.Page("pages/conventions.py", title="Library conventions", icon=":material/straighten:", url_path="conventions"),
    ],
}

page = st.navigation(PAGES)
url_state.start()
settings_sidebar()
page.run()
# One write of the URL per run, after the page published its state: at most one browser history entry per
# action (Streamlit pushes an entry for every query-string change it is sent), none when nothing changed.
url_state.flush()

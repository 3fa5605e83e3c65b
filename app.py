"""Entry point: page config, the shared settings sidebar, and navigation."""

import streamlit as st

from ui import app_shell_ran, url_state
from ui.history import HISTORY_SCRIPT
from ui.landing import top_on_page_change
from ui.navigation import app_pages
from ui.settings import settings_sidebar

st.set_page_config(page_title="NDCG, explained", page_icon="📐", layout="wide")
# Less empty space above each page's title: on a projector every line of height counts.
st.html("<style>[data-testid='stMainBlockContainer'] { padding-top: 2.5rem; }</style>")
# Back returns to the previous page: a new query string on the same page replaces the history entry (see ui/history.py).
st.html(HISTORY_SCRIPT, unsafe_allow_javascript=True)
# Long formulas wrap after "=" or "+" instead of running off a phone's screen (KaTeX's display mode sets nowrap;
# its parts are separate inline blocks, so the line can break between them). One part wider still scrolls.
st.html("<style>.katex-display > .katex, .katex-display > .katex > .katex-html { white-space: normal; }"
        ".katex-display > .katex > .katex-html > .base { margin: .2em 0; }</style>")

app_shell_ran()
page = st.navigation(app_pages())
url_state.start()
settings_sidebar()
top_on_page_change(page)  # a newly opened page starts at its top
page.run()
# One write of the URL per run, after the page published its state: at most one browser history entry per
# action (Streamlit pushes an entry for every query-string change it is sent), none when nothing changed.
url_state.flush()

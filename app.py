"""Entry point: page config, the shared settings sidebar (on the pages that use it), and navigation."""

import streamlit as st

from ui import app_shell_ran, present, url_state
from ui.app_style import style_app
from ui.landing import top_on_page_change
from ui.navigation import app_pages, navigate, sidebar_navigation, uses_shared_settings
from ui.settings import settings_sidebar

st.set_page_config(page_title="NDCG, explained", page_icon="📐", layout="wide")
style_app()  # the app's own styles and scripts (ui/app_style.py)
app_shell_ran()
pages = app_pages()
page = navigate(pages)  # Streamlit's own nav is hidden: its markup fails axe's list rules (ui/navigation.py)
url_state.start(page.url_path)
url_state.check_names(page.url_path)  # a link's parameter names that no page reads (a typo) or given twice
sidebar_navigation(pages)
present.sidebar_toggle()  # Present mode (for a projector): its switch, URL parameter and styles
if uses_shared_settings(page):
    settings_sidebar()
else:
    # No settings on this page (the next page that has them shows the same ones: their widgets persist, see
    # ui/settings.py). Only the page list would be left in the sidebar: start it closed, the page gets the width.
    st.set_page_config(initial_sidebar_state="collapsed")
top_on_page_change(page)  # a newly opened page starts at its top
page.run()
# One write of the URL per run, after the page published its state: at most one browser history entry per
# action (Streamlit pushes an entry for every query-string change it is sent), none when nothing changed.
url_state.flush()

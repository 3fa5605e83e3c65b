"""Library conventions: one input under every preset in ndcg_core.CONVENTIONS, side by side."""

import streamlit as st

import ui
from ui import conventions_input, tie_band_section
from ui import conventions_view as view
from ui.settings import current_settings, show_url_warning

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

show_url_warning()
st.title("Why libraries disagree on the same input")
st.caption(
    "The same grades (and scores) evaluated the way scikit-learn, trec_eval, ranx, LightGBM, XGBoost and "
    "torchmetrics (and more) do, and as the original Järvelin–Kekäläinen 2002 paper defined DCG. Cells that differ "
    "from the majority of their column are highlighted."
)

case_key, case = conventions_input.choose_case()
settings = current_settings()  # before the input is checked: grades are validated under the sidebar's gain
given = conventions_input.input_table(case_key, case, settings)
view.show_results(given, k=settings.k)
tie_band_section.show_for_conventions(given, k=settings.k)  # issue 13 item 2: how far ties alone move NDCG
view.show_explanations()
conventions_input.share_link(case_key, settings)

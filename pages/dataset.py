"""Dataset page: evaluate a TREC run (or a CSV) against judgments, both dataset formulas, query by query."""

import ui
from ui import dataset_page

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

dataset_page.show()

"""Playground: edit grades, drag to reorder, and watch CG, DCG, IDCG and NDCG move."""

import ui
from ui import playground_page

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

playground_page.show()

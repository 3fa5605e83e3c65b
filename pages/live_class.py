"""Live class: a teacher runs a session, the whole room answers, the projector shows what the class thinks."""

import ui
from ui.live.entry import live_class_page

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)
live_class_page()  # draws the title too: the teacher's projector view leaves it out

"""Compare rankers: two rankings of the same judged documents, or two runs on the data set, with a verdict."""

import ui
from ui import compare_lists, compare_runs, compare_view
from ui.settings import current_settings, show_url_warning

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

show_url_warning()
settings = current_settings()
frame = compare_view.page_frame()
compare_view.mirror_to_url(frame)
if frame.mode == "lists":
    compare_lists.two_rankings(settings)
else:
    compare_runs.two_runs(settings, slide_view=frame.slide_view, heading=frame.heading)

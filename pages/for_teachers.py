"""For teachers: learning objectives, a 45-minute lesson plan, a printable worksheet and its answer key."""

import streamlit as st

import ui
from ui import teacher_kit

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

teacher_kit.print_style()
st.title("For teachers")
st.markdown(
    "A lesson kit built on this app: what students can do afterwards, a 45-minute plan that walks through the "
    "pages and the live-class activities, and a worksheet of hand calculations from the source documents' worked "
    "examples with its answer key. **Print this page** (Ctrl+P / ⌘P, A4 or Letter): the app's menus are left out, "
    "and the worksheet and the answer key each start on a new page. The metric settings of the other pages do "
    "not change this page: each exercise states its own convention, and its links open the app with that convention."
)
teacher_kit.objectives()
teacher_kit.lesson_plan()
teacher_kit.worksheet()
teacher_kit.answer_key()

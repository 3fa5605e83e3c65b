"""The app's own styles and scripts, drawn by app.py on every run of every page.

The styles are one ``<style>`` (a style-only ``st.html`` is kept out of the page's flow); the scripts are one element
(each element in the page adds a gap above the title).
"""

from __future__ import annotations

import streamlit as st

from ui.chart_style import TOUCH_SCROLL_SCRIPT
from ui.history import HISTORY_SCRIPT
from ui.navigation import CLOSE_ON_PHONE_SCRIPT
from ui.walk_table import TABLE_LAYOUT_STYLE

# Less empty space above each page's title: on a projector every line of height counts.
_TOP_AND_HEADER = (
    "[data-testid='stMainBlockContainer'] { padding-top: 1.75rem; }"
    # With less space, the top of the page lies under Streamlit's header, which is opaque when the sidebar is
    # closed (it cut the Live class's "Join at" line and class code on a projector): the header lets the page
    # show through and takes pointer events only on its own buttons.
    "[data-testid='stHeader'] { background: transparent; }"
    "[data-testid='stHeader'], [data-testid='stHeader'] * { pointer-events: none; }"
    "[data-testid='stHeader'] :is(button, a, [role='button']) { pointer-events: auto; }"
    # The button that opens the sidebar stays over the page as it scrolls: on a phone it sat on the text ("»" over
    # "the table"), so it has a background of its own.
    "[data-testid='stExpandSidebarButton'] { background-color: rgba(255, 255, 255, .94); border-radius: .5rem;"
    " box-shadow: 0 1px 4px rgba(17, 24, 39, .18); }"
)

# Long formulas wrap after "=" or "+" instead of running off a phone's screen (KaTeX's display mode sets nowrap;
# its parts are separate inline blocks, so the line can break between them). One part wider still scrolls.
_WRAPPED_FORMULAS = (
    ".katex-display > .katex, .katex-display > .katex > .katex-html { white-space: normal; }"
    ".katex-display > .katex > .katex-html > .base { margin: .2em 0; }"
)

# Columns stack when the page itself is narrow, not only the screen (Streamlit stacks them below a 640 px screen): a
# phone held sideways (844 px) with the sidebar open leaves the page ~525 px, where side-by-side columns squeezed
# the ranked list until its names had no room and its buttons slid under the chart.
_NARROW_COLUMNS = (
    "[data-testid='stMainBlockContainer'] { container-type: inline-size; }"
    "@container (max-width: 640px) { [data-testid='stColumn'] { min-width: calc(100% - 1.5rem); } }"
)

# Heading levels follow the page's outline (h1 title, h2 sections, h3 parts: a screen reader lists them that way,
# axe: heading-order); their sizes keep the look the sections had as Streamlit's subheaders.
_HEADINGS = (
    "[data-testid='stMain'] :is(h2, h3, h4) { letter-spacing: normal; }"
    "[data-testid='stMain'] h2 { font-size: 1.75rem; padding-top: .75rem; }"
    "[data-testid='stMain'] h3 { font-size: 1.5rem; padding-top: .5rem; }"
    "[data-testid='stMain'] h4 { font-size: 1.25rem; }"
)

# The metric cards (ui.metric_cards: one horizontal container) share a row equally, whatever their numbers'
# widths (NDCG's card was 19 px narrower), and wrap two by two on a phone instead of 1 + 1 + 2.
_METRIC_CARDS = (
    "[data-testid='stHorizontalBlock'] > [data-testid='stElementContainer']:has([data-testid='stMetric'])"
    " { flex: 1 1 8rem !important; min-width: 0; }"
    # A card's value shrinks with a narrow card instead of being cut to "14.0…" (a phone held sideways with the
    # sidebar open left the Playground's and Compare's cards ~150 px wide). 3.6 em is the width of "14.0000" and its
    # like; the card's own padding is 2 rem. Cards wide enough keep the usual 2.25 rem.
    "[data-testid='stMetric'] { container-type: inline-size; }"
    "[data-testid='stMetric'] [data-testid='stMetricValue'] { font-size: min(2.25rem, calc((100cqi - 2rem) / 3.6)); }"
    # Cards holding a longer value (ui.metric_cards.LONG_CARD_VALUE; up to "-1.0715e+301", 12 characters, 6.1 em) shrink it
    # to fit, as the short ones do.
    "[class*='st-key-long-'] [data-testid='stMetric'] [data-testid='stMetricValue']"
    " { font-size: min(2.25rem, calc((100cqi - 2rem) / 6.1)); }"
    # A card's label wraps instead of ending in "…" ("≈ matches after roun…" on a phone held sideways).
    "[data-testid='stMetricLabel'] [data-testid='stMarkdownContainer'] :is(p, span) { white-space: normal; }"
)

# A table's or chart's toolbar (add row, download, search, fullscreen) shows on hover only: a keyboard user who
# tabs onto its buttons must see where the focus is.
_TOOLBARS = (
    "[data-testid='stElementToolbar']:focus-within { opacity: 1 !important; }"
    # On a touch screen the toolbar is always shown (there is no hover), over the last line of the text above a
    # table (the Quiz's "… can raise IDCG@k." lost its end): a table makes room for it there.
    "@media (hover: none) { [data-testid='stElementContainer']:has([data-testid='stDataFrame']"
    " > [data-testid='stElementToolbar']) { margin-top: 2rem; } }"
)

# Pills (the Worked examples' filters) wrap onto a second line when their row is too narrow: Streamlit scrolls them
# sideways, and on a phone the last one ("○ no figure stated") was cut at the edge with nothing to say it scrolls.
_PILLS = "[data-testid='stButtonGroup'] > div:has(> button[data-variant='pills']) { flex-wrap: wrap; }"

# A dropdown's options wrap onto a second line instead of being cut at the menu's edge: on a phone five of Step by
# step's "List to walk through" titles lost their ends ("000 · The document's code: natural log and the default"),
# and lists that differ only there could not be told apart. Only a plain menu (options the listbox's own children):
# above 25 options Streamlit's menu is virtualised with rows of a fixed height, which a wrapped row would overlap.
_WRAPPED_OPTIONS = (
    "[data-testid='stSelectboxVirtualDropdown'] [role='listbox'] > [role='option'] { height: auto; min-height: 2.65rem; }"
    "[data-testid='stSelectboxVirtualDropdown'] [role='listbox'] > [role='option'] > div"
    " { white-space: normal; height: auto; padding-block: .3rem; }"
)

# Tabs (Step by step's nine lessons) wrap onto a second row when their row is too narrow (1280 px with the sidebar
# open, or Present mode's larger text): Streamlit scrolls them sideways, and the last lessons were out of view.
_TABS = "[data-testid='stMain'] [role='tablist'] { flex-wrap: wrap; row-gap: .25rem; }"

# Lesson 1's two tables side by side (before and after the swap): six columns in half of a 1280 px page's column,
# 391 px of table in 385 px with Streamlit's cell padding (362 in 354 on a phone); narrower padding lets the
# Contribution column show. The same for the Live class's "which ranking is better" pair (two rankings in half of
# the teacher's activity column).
_SIDE_BY_SIDE_TABLES = ("[class*='st-key-side-by-side-tables'] [data-testid='stTable'] :is(th, td) "
                        "{ padding: .25rem .2rem; }")

# A worked example's figures (up to 18 digits, "0.5664478625498256") may break inside a number on a narrow screen:
# unbroken, four columns needed 392-432 px on a 390 px phone's 320 px card, so the Verdict column was out of view and
# figures were cut. Only there: at 1366x768 in Present mode the reproduced 0.5664478625498256 broke into
# "0.56644786254982" over "56" beside the document's unbroken figure, the digits a student compares.
_EXAMPLE_FIGURES = ("[class*='st-key-example_card_'] [data-testid='stTable'] :is(th, td)"
                    " { white-space: normal; padding: .25rem .3rem; }"
                    "@media (max-width: 1023px) { [class*='st-key-example_card_'] [data-testid='stTable'] "
                    "td:is(:nth-child(2), :nth-child(3)) :is(div, p) { overflow-wrap: anywhere; } }"
                    "@media (min-width: 1024px) { [class*='st-key-example_card_'] [data-testid='stTable'] "
                    "td:is(:nth-child(2), :nth-child(3)) :is(div, p) { overflow-wrap: normal; } }")

# The lessons' small tables (ui.lesson_inputs.lesson_table) wrap their words: as data grids lessons 2, 5, 6 and 7 held
# 394-629 px of columns in a 390 px phone's 354 px and scrolled sideways, IDCG and NDCG out of view.
_LESSON_TABLES = ("[class*='st-key-lesson-table-'] [data-testid='stTable'] :is(th, td)"
                  " { white-space: normal; padding: .25rem .4rem; }")

# On a phone plotly's zoom/pan bar never hides (there is no hover) and covers the chart's title: none below 640 px.
_PHONE_MODEBAR = "@media (max-width: 640px) { [data-testid='stPlotlyChart'] .modebar-container { display: none; } }"

# Text for screen readers only (ui.focus.spoken, drawn as an element of its own): in the accessibility tree, not on
# screen. A chart's words (ui.chart_words) likewise; the element of either takes no room (no gap) in the page's column.
_SPOKEN = (":is(.ndcg-spoken, .ndcg-chart-words) { position: absolute; width: 1px; height: 1px; overflow: hidden;"
           " clip: rect(0 0 0 0); white-space: nowrap; }"
           "[data-testid='stElementContainer']:has(.ndcg-chart-words, .ndcg-spoken) { position: absolute; }"
           # ui.focus's helpers (land a lost focus, bring into view) draw nothing: each took a gap of its own, a blank
           # band under the Live class's "This session has ended" notice, inside the focus ring it gets
           "[data-testid='stElementContainer']:is([class*='st-key-focus_'], [class*='st-key-into_view_'])"
           " { position: absolute; }")

# A closed sidebar is out of view but Streamlit leaves its links and controls in the Tab order (13 invisible stops
# before a page's first control on a phone) and in the accessibility tree: hidden once it has slid out (the delay
# keeps the slide), shown at once when it opens.
_CLOSED_SIDEBAR = (
    # (and its descendants: a help icon's button sets its own visibility)
    "[data-testid='stSidebar'][data-collapsed='true'], [data-testid='stSidebar'][data-collapsed='true'] *"
    " { visibility: hidden; transition: visibility 0s linear .3s; }"
    "[data-testid='stSidebar'][data-collapsed='false'] { visibility: visible; transition: visibility 0s; }"
)

APP_STYLE = "<style>" + "".join((_TOP_AND_HEADER, _WRAPPED_FORMULAS, _NARROW_COLUMNS, _HEADINGS, _METRIC_CARDS,
                                 _TOOLBARS, _PILLS, _WRAPPED_OPTIONS, _TABS, _SIDE_BY_SIDE_TABLES, _EXAMPLE_FIGURES, _LESSON_TABLES,
                                 _PHONE_MODEBAR, _CLOSED_SIDEBAR, _SPOKEN, TABLE_LAYOUT_STYLE)) + "</style>"

# Back returns to the previous page (a new query string on the same page replaces the history entry, ui/history.py);
# the sidebar closes when a page is chosen on a phone; a swipe that starts on a chart scrolls the page, also on the
# charts whose bars are clicked.
APP_SCRIPTS = HISTORY_SCRIPT + CLOSE_ON_PHONE_SCRIPT + TOUCH_SCROLL_SCRIPT


def style_app() -> None:
    """The app's styles and scripts (app.py, once per run, before the page)."""
    st.html(APP_STYLE)
    st.html(APP_SCRIPTS, unsafe_allow_javascript=True)

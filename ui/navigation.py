"""The app's pages, for st.navigation, and the sidebar navigation drawn from them.

app.py uses :func:`app_pages`, and so does a page that finds itself run without app.py. Each url_path is
its file's stem: until st.navigation has run once, Streamlit serves a pages/ folder in its legacy mode,
which finds pages by file stem, so a deep link on a fresh server must use that same name.

Why the app draws its own navigation: Streamlit's generated sidebar nav puts its links in ``<li>``
elements whose parent list is not a ``<ul>``/``<ol>`` to assistive technology, which axe-core reports as
8-10 serious ``list``/``listitem`` violations on every page. ``st.navigation(..., position="hidden")``
keeps routing (URLs, deep links, the default page) and hides that nav; :func:`sidebar_navigation` draws
the same groups with ``st.page_link``, which are plain links (Streamlit marks the current page's link).
"""

from __future__ import annotations

import streamlit as st

NAV_POSITION = "hidden"  # routing by st.navigation, links drawn by sidebar_navigation

# On a phone the sidebar covers the page; Streamlit's own nav closes it when a page is chosen, so ours does too.
# A constant script (no user data), installed once per browser tab by app.py: a link of the app's navigation
# chosen (click, tap or Enter) on a narrow screen presses the sidebar's own close button; the sidebar's scrolling
# box, and a table's box while it scrolls sideways, get a tab stop.
CLOSE_ON_PHONE_SCRIPT = """
<style>.st-key-app_nav a:focus-visible { outline: 3px solid #0B5FA5; outline-offset: 2px; }
/* The current page's tint (Streamlit's own, for its page) also on "/playground", which Streamlit counts as another
   page: markCurrent below marks it. */
.st-key-app_nav a[aria-current="page"] { background-color: rgba(146, 173, 200, 0.15); }
/* The sidebar's close button shows on hover only: a touch screen has none, so it is always shown there. */
@media (hover: none) { [data-testid="stSidebarCollapseButton"] { visibility: visible !important; } }
/* Nor can a keyboard hover: while the focus is in the sidebar, its close button is shown, so Tab can reach it (at
   200 % zoom the open sidebar covers half the page, and a keyboard user could not close it). */
[data-testid="stSidebar"]:focus-within [data-testid="stSidebarCollapseButton"] { visibility: visible !important; }</style>
<script>
(() => {
  if (window.__ndcgNavCloses) return;
  window.__ndcgNavCloses = true;
  // A phone held sideways is wider than Streamlit's 768 px for a phone, so the sidebar opened there and took 319 of
  // 844 px: it starts closed, as on a phone held upright (once per page load; the user may open it again).
  const SIDEWAYS_PHONE = "(hover: none) and (pointer: coarse) and (max-height: 500px)";
  let decided = false;
  const closeOnSidewaysPhone = () => {
    const sidebar = document.querySelector("[data-testid='stSidebar']");
    if (decided || !sidebar) return;
    decided = true;  // once, on the sidebar's first frame: a sidebar the user opens afterwards stays open
    const close = document.querySelector("[data-testid='stSidebarCollapseButton'] button");
    if (close && sidebar.dataset.collapsed !== "true" && window.matchMedia(SIDEWAYS_PHONE).matches) close.click();
  };
  document.addEventListener("click", (event) => {
    const link = event.target.closest ? event.target.closest(".st-key-app_nav a") : null;
    if (!link || !window.matchMedia(`(max-width: 768px), ${SIDEWAYS_PHONE}`).matches) return;
    const close = document.querySelector("[data-testid='stSidebarCollapseButton'] button");
    if (close) setTimeout(() => close.click(), 0);
  }, true);
  // The button that opens the sidebar goes away once it is open, and the one that closes it once it is closed: a
  // keyboard user's focus fell to the page, and the next Tab went on into the page, past the sidebar just opened
  // (at 200 % zoom, where the sidebar starts closed, its settings were reached only backwards). The focus follows:
  // to the sidebar's first link, or back to the button that opens it. (Not after a script's click: a phone closes
  // the sidebar when a page is chosen.)
  document.addEventListener("click", (event) => {
    const button = event.isTrusted && event.target.closest ? event.target.closest("button") : null;
    const opening = !!(button && button.closest("[data-testid='stExpandSidebarButton']"));
    if (!button || !(opening || button.closest("[data-testid='stSidebarCollapseButton']"))) return;
    const started = performance.now();
    const follow = () => {
      const now = document.activeElement;
      if (now && now !== document.body && now !== button) return;  // the user has moved on
      const goal = opening ? document.querySelector("[data-testid='stSidebar'][data-collapsed='false'] .st-key-app_nav a")
        : document.querySelector("[data-testid='stExpandSidebarButton']");
      if (goal && goal.checkVisibility({ visibilityProperty: true })) {
        goal.focus();
        if (document.activeElement === goal) return;
      }
      if (performance.now() - started < 1500) requestAnimationFrame(follow);
    };
    requestAnimationFrame(follow);
  }, true);
  // The sidebar (pages, Present mode, settings) is taller than a laptop screen, so it scrolls: a scrolling
  // region must be reachable by keyboard (axe: scrollable-region-focusable), so it gets a tab stop and a name.
  let pending = false;
  const focusableScroll = () => {
    // Streamlit's scrolling boxes (the sidebar's content box and the main area scroll; the others are checked in case
    // a Streamlit version moves the scrolling to them). Not every div of the sidebar: that check alone took ~40 ms of
    // each page load (this runs once per frame while a page is being drawn).
    const boxes = document.querySelectorAll("[data-testid='stSidebar'], [data-testid='stSidebarContent'], "
      + "[data-testid='stSidebarUserContent'], [data-testid='stAppViewContainer'], [data-testid='stMain'], "
      + "[data-testid='stAppScrollToBottomContainer']");
    // Cheapest test first: reading scrollHeight makes the browser lay the page out, so it is read only for
    // the few boxes styled to scroll.
    for (const box of boxes) {
      if (box.hasAttribute("tabindex") || !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) continue;
      if (box.scrollHeight > box.clientHeight) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("aria-label", box.closest("[data-testid='stSidebar']") ? "Pages and settings" : "Page");
      }
    }
    // A table wider than a phone scrolls sideways inside its box: the box too gets a tab stop (arrow keys then
    // scroll it) while it is wider than the screen, and loses it when a wider screen shows it whole.
    for (const box of document.querySelectorAll("[data-testid='stTable'] > div")) {
      const scrolls = box.scrollWidth > box.clientWidth + 1 && /(auto|scroll)/.test(getComputedStyle(box).overflowX);
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "Table (scrolls sideways)");
      } else if (!scrolls && box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  };
  // A table's grid is a few px taller than its box (room for a scrollbar), so it scrolled by those few px: on a
  // phone a swipe that started on a table scrolled the table 3-13 px and then stopped, instead of scrolling the
  // page. A grid that overflows by less than a row scrolls no more (downwards): the swipe goes to the page.
  const stillGrids = () => {
    for (const grid of document.querySelectorAll("[data-testid='stDataFrame'] .dvn-scroller")) {
      const spare = grid.scrollHeight - grid.clientHeight;
      const still = spare > 0 && spare < 20;
      // (important: the grid's own style sets overflow with !important)
      if (still !== (grid.style.overflowY === "hidden")) {
        if (still) grid.style.setProperty("overflow-y", "hidden", "important");
        else grid.style.removeProperty("overflow-y");
      }
    }
  };
  // The current page's link says so to assistive technology (Streamlit only colours it), and only it.
  const markCurrent = () => {
    // "/playground" is the root's page under its own name (app_pages' hidden alias).
    const here = location.pathname.split("/").pop().replace(/^playground$/, "");
    for (const link of document.querySelectorAll(".st-key-app_nav a")) {
      // The default page's link is href="" (Streamlit's), which a browser resolves to the page it is on: "Copy
      // link address" or a middle click on "Playground" gave the current page. "./" is the app's root under any
      // base path (the other links are relative too); a plain click is still Streamlit's in-app page change.
      if (link.getAttribute("href") === "") link.setAttribute("href", "./");
      const current = (link.getAttribute("href") || "").split("?")[0].split("/").pop() === here;
      if (current && link.getAttribute("aria-current") !== "page") link.setAttribute("aria-current", "page");
      if (!current && link.hasAttribute("aria-current")) link.removeAttribute("aria-current");
    }
  };
  const onFrame = () => { pending = false; closeOnSidewaysPhone(); focusableScroll(); stillGrids(); markCurrent(); };
  new MutationObserver(() => { if (!pending) { pending = true; requestAnimationFrame(onFrame); } })
    .observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", () => { if (!pending) { pending = true; requestAnimationFrame(onFrame); } });
  onFrame();
})();
</script>
"""


# Pages that state their own convention and never read the shared metric settings (the Live class and the Quiz:
# each activity or question names its gain and cutoff; "Why do my numbers differ?" searches every convention; For
# teachers: each exercise states its convention, and its links open the app with it).
# app.py draws no settings sidebar on them: it would take a projector's width, offer settings that change nothing
# there, and put them into the page's links.
OWN_CONVENTION = frozenset({"live_class", "quiz", "why_differ", "for_teachers"})


def uses_shared_settings(page: st.Page) -> bool:
    """Whether ``page`` reads the shared metric settings (and so gets the settings sidebar)."""
    return page.url_path not in OWN_CONVENTION


def app_pages() -> dict[str, list[st.Page]]:
    return {
        "Learn": [
            # The default page is served at the root; its url_path only names it inside Streamlit.
            st.Page("pages/playground.py", title="Playground", icon=":material/tune:", url_path="home", default=True),
            st.Page("pages/step_by_step.py", title="Step by step", icon=":material/footprint:", url_path="step_by_step"),
            st.Page("pages/worked_examples.py", title="Worked examples", icon=":material/menu_book:",
                    url_path="worked_examples"),
            st.Page("pages/quiz.py", title="Quiz", icon=":material/quiz:", url_path="quiz"),
            st.Page("pages/live_class.py", title="Live class", icon=":material/co_present:", url_path="live_class"),
            st.Page("pages/for_teachers.py", title="For teachers", icon=":material/school:", url_path="for_teachers"),
            # "/playground" (typed, or a link from the page's own name) shows the Playground too, instead of
            # Streamlit's "Page not found". Listed after the default so st.switch_page("pages/playground.py") finds
            # the root; hidden, so no second link.
            st.Page("pages/playground.py", title="Playground", icon=":material/tune:", url_path="playground",
                    visibility="hidden"),
        ],
        "Evaluate": [
            st.Page("pages/dataset.py", title="Dataset", icon=":material/dataset:", url_path="dataset"),
            st.Page("pages/compare.py", title="Compare rankers", icon=":material/compare_arrows:", url_path="compare"),
            st.Page("pages/conventions.py", title="Library conventions", icon=":material/straighten:",
                    url_path="conventions"),
            st.Page("pages/why_differ.py", title="Why do my numbers differ?", icon=":material/troubleshoot:",
                    url_path="why_differ"),
        ],
    }


def navigate(pages: dict[str, list[st.Page]]) -> st.Page:
    """Route with Streamlit's navigation hidden; returns the page to run (app.py draws the links)."""
    return st.navigation(pages, position=NAV_POSITION)


def sidebar_navigation(pages: dict[str, list[st.Page]]) -> None:
    """The sidebar's links, one group per section, in app_pages' order (the current page is highlighted).

    ``pages`` must be the dict given to :func:`navigate` in this run: a link finds its page by that object.
    """
    with st.sidebar.container(key="app_nav"):
        for group, members in pages.items():
            st.caption(group)
            for member in members:
                if member.visibility == "hidden":
                    continue
                st.page_link(member, label=member.title, icon=member.icon)
        st.divider()

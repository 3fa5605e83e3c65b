"""The "For teachers" page printed by Chromium: a clean A4 and Letter handout.

``page.pdf`` is Chromium's own print to PDF (print media, the page's @media print rules); the PDF's text is
read back page by page (tests/browser/pdf_text.py) to check what landed where: no app chrome, the worksheet
and the answer key each starting a page, every answer-key figure printed. Formulas and tables are checked
for overflow under print media at the printable width, and the print-media view is saved as screenshots.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import screenshot, wait_for_app
from tests.browser.pdf_text import pdf_pages, squeeze
from ui import teacher_kit
from ui import teacher_kit_model as kit

# Paper sizes in PDF points (1/72 in) and the printable width in CSS px (96/in) inside @page's 12 mm margins.
PAPER = {"A4": (595.92, 842.88), "Letter": (612.0, 792.0)}
PRINTABLE_PX = {"A4": round((210 - 24) / 25.4 * 96), "Letter": round((8.5 - 24 / 25.4) * 96)}
CHROME_TEXT = ("Metric settings", "Deploy", "Compare rankers")  # the sidebar's settings and the navigation


def open_kit(tab, app_url: str) -> None:
    tab.goto(f"{app_url}/for_teachers")
    wait_for_app(tab)
    tab.wait_for_selector("text=Answer key", timeout=30_000)
    # Tables and formulas draw after the script finishes (skeletons first): wait until all have drawn.
    tab.wait_for_function(
        """() => !document.querySelector('[data-testid="stSkeleton"]')
          && document.querySelectorAll('[data-testid="stTable"] table').length >= 16
          && document.querySelectorAll('.katex-display').length >= 3""",
        timeout=30_000,
    )


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_print_to_pdf_gives_a_clean_handout(page, app_url, paper):
    open_kit(page, app_url)
    pdf = page.pdf(format=paper, print_background=True)
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert boxes and all((float(w), float(h)) == pytest.approx(PAPER[paper], abs=0.01) for w, h in boxes)
    pages = [squeeze(text) for text in pdf_pages(pdf)]
    # Notes (objectives and plan), the worksheet (exercises 1-7) and the key: about 9 pages, never 1 or 30.
    assert 6 <= len(pages) <= 14, len(pages)
    assert all(pages), "an empty page"
    whole = "".join(pages)
    for chrome in CHROME_TEXT:
        assert squeeze(chrome) not in whole  # the sidebar and its navigation are not printed
    # Page breaks: the worksheet and the answer key each start a page (their heading is its first text).
    starts = {name: [i for i, text in enumerate(pages) if text.startswith(squeeze(name))]
              for name in ("For teachers", "Worksheet: NDCG by hand", "Answer key")}
    assert starts["For teachers"] == [0] and len(starts["Worksheet: NDCG by hand"]) == 1 and len(starts["Answer key"]) == 1
    worksheet, key = starts["Worksheet: NDCG by hand"][0], starts["Answer key"][0]
    assert 1 <= worksheet < key
    notes, sheet, answers = "".join(pages[:worksheet]), "".join(pages[worksheet:key]), "".join(pages[key:])
    assert squeeze("A 45-minute lesson plan") in notes and squeeze("43–45 min · Exit ticket") in notes
    for item in kit.EXERCISES:
        assert squeeze(item.task) in sheet  # every exercise, whole (none cut across pages: see below)
        figures = [f"{kit.FIGURE_NAMES[name]}{'' if item.example.k is None else f'@{item.example.k}'}="
                   f"{kit.figure_text(value)}" for name, value in kit.figure_values(item).items()]
        assert all(figure in answers for figure in figures), (item.number, figures)
        assert figures[0] not in sheet  # the answers are not on the students' pages
    # No exercise is split across two pages: its heading and its "Check it in the app" line share a page.
    for item in kit.EXERCISES:
        heading = squeeze(f"Exercise {item.number} ({'in class' if item.in_class else 'homework'})")
        on = [i for i, text in enumerate(pages) if heading in text]
        assert len(on) == 1 and squeeze(item.task) in pages[on[0]]
    # Every exercise's links are in the PDF as working links to this server, and printed as their address (on paper
    # a link's label, "Open in the Playground", led nowhere).
    for item in kit.EXERCISES:
        for link in item.links():
            assert f"/URI ({app_url}{link.url})".encode() in pdf
            assert squeeze(f"{link.label} ({app_url}{link.url})") in sheet, (link.label, link.url)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_print_media_has_no_chrome_and_nothing_cut_off(page, app_url, paper):
    page.set_viewport_size({"width": PRINTABLE_PX[paper], "height": 1000})
    open_kit(page, app_url)
    page.emulate_media(media="print")
    hidden = page.evaluate(
        """() => ['stSidebar', 'stHeader', 'stToolbar', 'stDecoration'].map((id) => {
            const el = document.querySelector(`[data-testid="${id}"]`);
            return !el || getComputedStyle(el).display === 'none';
          }).concat([...document.querySelectorAll('[data-testid="stMain"] button')]
                     .map((b) => b.offsetParent === null))"""
    )
    assert hidden and all(hidden)
    overflowing = page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          return [...document.querySelectorAll('[data-testid="stTable"] table, .katex-display .katex, '
                                               + '[data-testid="stMarkdownContainer"] p')]
            .filter((el) => el.getBoundingClientRect().right > width + 1 || el.scrollWidth > el.clientWidth + 1)
            .map((el) => el.textContent.slice(0, 60));
        }"""
    )
    assert overflowing == []
    breaks = page.evaluate(
        f"""() => ['{teacher_kit.WORKSHEET_KEY}', '{teacher_kit.ANSWER_KEY_KEY}'].map(
              (key) => getComputedStyle(document.querySelector('.st-key-' + key)).breakBefore)"""
    )
    assert breaks == ["page", "page"]
    screenshot(page, f"teacher_kit_print_{paper}")

"""A link to copy: the address in a read-only box and a visible "Copy link" button.

Why not ``st.code``: its copy icon appears on hover, and a phone has no hover; and its syntax highlighter's
code is loaded and started on every page that shows one (~0.15 s of the browser's main thread per page load,
measured in Chromium), for a line of plain text. Here the box shows the whole link, wrapped (a one-line box
showed a phone only the link's start), selects it when focused, the button copies it (the clipboard API, or the
browser's copy command where that API is not allowed, e.g. over plain http), and a status line says what
happened, for screen readers too.
"""

from __future__ import annotations

import streamlit as st

_CSS = """
.cl-root { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .25rem 0 .5rem; }
.cl-url {
  flex: 1 1 16em; min-width: 0; font: .9em/1.4 "Source Code Pro", ui-monospace, monospace; padding: .55em .75em;
  color: var(--st-text-color, #111827); background: var(--st-secondary-background-color, #EEF2F7);
  border: 1px solid transparent; border-radius: .5rem; box-sizing: border-box;
  resize: none; overflow-wrap: anywhere; word-break: break-all; overflow-y: auto; display: block;
}
.cl-url:focus { outline: 2px solid var(--st-primary-color, #0B5FA5); outline-offset: 1px; }
.cl-copy {
  flex: none; font-family: var(--st-font, inherit); font-size: .95em; padding: .4em .9em; cursor: pointer; border-radius: .5rem;
  color: var(--st-text-color, #111827); background: var(--st-background-color, #fff);
  border: 1px solid var(--st-border-color, rgba(49, 51, 63, .25));
}
.cl-copy:hover { border-color: var(--st-primary-color, #0B5FA5); color: var(--st-primary-color, #0B5FA5); }
.cl-copy:focus-visible { outline: 2px solid var(--st-primary-color, #0B5FA5); outline-offset: 1px; }
.cl-status { flex-basis: 100%; font-size: .85em; opacity: .8; min-height: 1.2em; }
"""

_JS = """
async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch (error) {  // no clipboard API here (plain http, permissions): the browser's copy of the selection
    input.focus();
    input.select();
    try { return document.execCommand("copy"); } catch (ignored) { return false; }
  }
}

function fitHeight(box) {
  // The whole link, wrapped, up to six lines (then the box scrolls): on a phone a one-line box showed only
  // "http://…/quiz?se", without the part that makes the link what it is.
  box.style.height = "auto";
  const style = getComputedStyle(box);
  const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  const border = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
  box.style.height = Math.min(box.scrollHeight, 6 * parseFloat(style.lineHeight) + padding) + border + "px";
}

export default function ({ parentElement, data }) {
  let root = parentElement.querySelector(".cl-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "cl-root";
    root.innerHTML = '<textarea class="cl-url" rows="1" readonly spellcheck="false"></textarea>'
      + '<button type="button" class="cl-copy"></button>'
      + '<span class="cl-status" role="status" aria-live="polite"></span>';
    parentElement.appendChild(root);
    const input = root.querySelector(".cl-url");
    input.addEventListener("focus", () => input.select());
    new ResizeObserver(() => fitHeight(input)).observe(root);
    root.querySelector(".cl-copy").addEventListener("click", async () => {
      const copied = await copyText(input);
      root.querySelector(".cl-status").textContent = copied
        ? "Copied: paste it anywhere."
        : "The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.";
    });
  }
  const input = root.querySelector(".cl-url");
  if (input.value !== data.url) {
    input.value = data.url;
    root.querySelector(".cl-status").textContent = "";
    fitHeight(input);
  }
  input.setAttribute("aria-label", data.label);
  root.querySelector(".cl-copy").textContent = data.button;
}
"""

_component = st.components.v2.component("ndcg_copy_link", css=_CSS, js=_JS)


def copy_link(url: str, *, key: str, label: str = "Share link", button: str = "Copy link") -> None:
    """Show ``url`` in a read-only box (``label`` is its accessible name) with a copy button."""
    _component(key=key, data={"url": url, "label": label, "button": button})

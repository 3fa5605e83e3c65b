"""A drag-to-reorder ranked list, written on Streamlit's components v2 API (inline HTML/CSS/JS, no iframe).

Each row shows its rank, the document name (always as text), a grade chip coloured by grade and the
row's DCG contribution. Rows move by pointer drag, by Alt+↑/↓ on a focused row (focus follows the row)
and by visible ▲/▼ buttons. Positions past the cutoff k are dimmed below a dashed "cutoff" line.

Protocol (why it looks like this): the browser reports a move by setting the component's state value
``order = {"token": t, "perm": [...]}``, a permutation of the rows it was given. Component state persists
across reruns, so a move must be applied exactly once: every render carries a fresh ``token`` and a
reported order only counts while its token is the current one. Consuming it bumps the token, so the
same message can never be applied twice (nor to a list that changed meanwhile). Tests drive it the same
way: ``at.session_state[key] = {"order": {"token": current_token(at.session_state, key), "perm": [...]}}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from ui.charts import grade_colour

VISIBLE_LIMIT = 200  # rows drawn in the browser; a 10,000-document list stays responsive (the table edits the rest)
DARK_CHIPS = {"#0072B2", "#D55E00"}

CSS = """
.rl-root { font-family: var(--st-font, "Source Sans Pro", sans-serif); color: var(--st-text-color, #111827);
  font-size: 1rem; line-height: 1.3; }
.rl-help { font-size: .85rem; color: #4B5563; margin: 0 0 .35rem 0; }
.rl-head, .rl-row { display: grid; box-sizing: border-box; width: 100%;
  grid-template-columns: 3.2rem minmax(0, 1fr) 3.4rem 5.4rem 4.6rem; align-items: center; column-gap: .45rem; }
.rl-head { font-size: .8rem; font-weight: 600; color: #4B5563; text-transform: uppercase; letter-spacing: .03em;
  padding: 0 .6rem .25rem .6rem; }
.rl-head .num, .rl-contrib { text-align: right; }
.rl-list { list-style: none; margin: 0; padding: 0; }
.rl-list.scrolls { max-height: 34rem; overflow-y: auto; padding-right: .3rem; border-bottom: 1px solid #CBD2DB; }
.rl-row { padding: .32rem .6rem; margin: 0 0 .3rem 0; border: 1px solid #CBD2DB; border-radius: .5rem;
  background: #FFFFFF; cursor: grab; touch-action: none; user-select: none; -webkit-user-select: none;
  transition: background-color .15s, box-shadow .15s; }
.rl-row:hover { border-color: #0B5FA5; }
.rl-row:focus { outline: none; }
.rl-row:focus-visible { outline: 3px solid #0B5FA5; outline-offset: 1px; }
.rl-row.beyond { background: #F3F4F6; color: #6B7280; border-style: dashed; }
.rl-row.beyond .rl-chip { opacity: .55; }
.rl-row.dragging { cursor: grabbing; border-color: #0B5FA5; box-shadow: 0 6px 18px rgba(11, 95, 165, .35);
  background: #EEF6FD; position: relative; z-index: 2; }
.rl-row.moved { background: #FFF4D6; }
.rl-rank { font-weight: 700; font-variant-numeric: tabular-nums; white-space: nowrap; }
.rl-grip { color: #9CA3AF; margin-right: .3rem; font-size: .9rem; }
.rl-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
.rl-chip { justify-self: center; min-width: 1.7rem; text-align: center; border-radius: 999px;
  padding: .08rem .5rem; font-weight: 700; font-variant-numeric: tabular-nums; border: 1px solid rgba(0,0,0,.18); }
.rl-contrib { font-variant-numeric: tabular-nums; }
.rl-root.pending .rl-contrib { opacity: .35; }
.rl-buttons { display: flex; gap: .25rem; justify-content: flex-end; }
.rl-buttons button { font-size: .8rem; width: 2rem; height: 1.8rem; border-radius: .35rem; border: 1px solid #9CA3AF;
  background: #FFFFFF; color: #111827; cursor: pointer; padding: 0; }
.rl-buttons button:hover:not(:disabled) { background: #EEF2F7; border-color: #0B5FA5; }
.rl-buttons button:focus-visible { outline: 3px solid #0B5FA5; outline-offset: 1px; }
.rl-buttons button:disabled { opacity: .3; cursor: default; }
.rl-cut { list-style: none; text-align: center; font-size: .85rem; font-weight: 600; color: #374151;
  border-top: 2px dashed #6B7280; margin: .45rem 0 .45rem 0; padding-top: .15rem; }
.rl-more { font-size: .85rem; color: #4B5563; margin-top: .3rem; }
.rl-live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
"""

JS = r"""
const fmt = (value) => (value === null || value === undefined) ? "…" : Number(value).toFixed(3);
const fmtGrade = (value) => Number.isInteger(value) ? String(value) : String(Number(value.toFixed(3)));

export default function ({ data, parentElement, setStateValue }) {
  if (!data || !Array.isArray(data.names)) { return; }
  let root = parentElement.querySelector(".rl-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "rl-root";
    parentElement.appendChild(root);
  }
  // Reruns caused by other widgets resend the same data: keep the DOM (and any drag in progress) untouched.
  const signature = JSON.stringify(data);
  if (parentElement.__rankedListSignature === signature && root.firstChild && !root.classList.contains("pending")) {
    return undefined;
  }
  parentElement.__rankedListSignature = signature;
  root.classList.remove("pending");
  root.replaceChildren();

  const n = data.names.length;
  const k = data.k;
  const order = Array.from({ length: n }, (_, i) => i);  // order[position] = index into data rows
  let pendingTimer = null;

  const help = document.createElement("p");
  help.className = "rl-help";
  help.textContent = "Drag a row, or focus it and press Alt+↑ / Alt+↓, or use the ▲ ▼ buttons.";
  const head = document.createElement("div");
  head.className = "rl-head";
  for (const [text, cls] of [["Rank", ""], ["Name", ""], ["Grade", ""], ["Contribution", "num"], ["Move", "num"]]) {
    const cell = document.createElement("span");
    cell.textContent = text;
    if (cls) cell.className = cls;
    head.appendChild(cell);
  }
  const list = document.createElement("ol");
  list.className = "rl-list";
  list.setAttribute("aria-label", "Ranked documents");
  if (n > 12) list.classList.add("scrolls");  // long lists scroll inside the widget, not the whole page
  const live = document.createElement("div");
  live.className = "rl-live";
  live.setAttribute("aria-live", "polite");
  root.append(help, head, list, live);
  if (data.total > n) {
    const more = document.createElement("p");
    more.className = "rl-more";
    more.textContent = `Showing the top ${n} of ${data.total} documents; edit the rest in the table.`;
    root.appendChild(more);
  }

  function makeRow(index) {
    const row = document.createElement("li");
    row.className = "rl-row";
    row.tabIndex = 0;
    row.dataset.index = String(index);
    const rank = document.createElement("span");
    rank.className = "rl-rank";
    const grip = document.createElement("span");
    grip.className = "rl-grip";
    grip.textContent = "⠿";
    grip.setAttribute("aria-hidden", "true");
    const rankText = document.createElement("span");
    rankText.className = "rl-rank-text";
    rank.append(grip, rankText);
    const name = document.createElement("span");
    name.className = "rl-name";
    name.textContent = data.names[index];  // user text: textContent only, never innerHTML
    name.title = data.names[index];
    const chip = document.createElement("span");
    chip.className = "rl-chip";
    chip.textContent = fmtGrade(data.grades[index]);
    chip.style.background = data.chip_colours[index];
    chip.style.color = data.chip_text[index];
    chip.title = `grade ${fmtGrade(data.grades[index])}`;
    const contrib = document.createElement("span");
    contrib.className = "rl-contrib";
    contrib.textContent = fmt(data.contributions[index]);
    const buttons = document.createElement("span");
    buttons.className = "rl-buttons";
    const up = document.createElement("button");
    up.type = "button";
    up.className = "rl-up";
    up.textContent = "▲";
    const down = document.createElement("button");
    down.type = "button";
    down.className = "rl-down";
    down.textContent = "▼";
    buttons.append(up, down);
    row.append(rank, name, chip, contrib, buttons);
    up.addEventListener("click", (event) => { event.stopPropagation(); move(row, -1, "up"); });
    down.addEventListener("click", (event) => { event.stopPropagation(); move(row, +1, "down"); });
    row.addEventListener("keydown", (event) => onKey(event, row));
    row.addEventListener("pointerdown", (event) => onPointerDown(event, row));
    return row;
  }

  const rows = order.map(makeRow);
  const cut = document.createElement("li");
  cut.className = "rl-cut";
  cut.setAttribute("aria-hidden", "true");
  cut.textContent = `cutoff k = ${k}: rows below do not count`;

  function layout() {
    // Put rows in `order`, number them, dim those past k and place the cutoff line.
    const children = [];
    order.forEach((index, position) => {
      const row = rows[index];
      if (k !== null && position === k) children.push(cut);
      row.querySelector(".rl-rank-text").textContent = String(position + 1);
      row.classList.toggle("beyond", k !== null && position >= k);
      const label = `Rank ${position + 1}: ${data.names[index]}, grade ${fmtGrade(data.grades[index])}`;
      row.setAttribute("aria-label", `${label}. Alt+Up or Alt+Down moves it.`);
      row.querySelector(".rl-up").disabled = position === 0;
      row.querySelector(".rl-down").disabled = position === n - 1;
      row.querySelector(".rl-up").setAttribute("aria-label", `Move ${data.names[index]} up`);
      row.querySelector(".rl-down").setAttribute("aria-label", `Move ${data.names[index]} down`);
      children.push(row);
    });
    list.replaceChildren(...children);
  }

  function commit(focusPosition, focusPart) {
    const changed = order.some((index, position) => index !== position);
    if (!changed) return;
    parentElement.__rankedListFocus = { position: focusPosition, part: focusPart };
    root.classList.add("pending");  // contributions are recomputed by the server; fade the stale ones
    clearTimeout(pendingTimer);
    pendingTimer = setTimeout(() => root.classList.remove("pending"), 3000);
    setStateValue("order", { token: data.token, perm: order.slice() });
  }

  function move(row, step, part) {
    const index = Number(row.dataset.index);
    const from = order.indexOf(index);
    const to = from + step;
    if (to < 0 || to >= n) return;
    order.splice(from, 1);
    order.splice(to, 0, index);
    layout();
    row.classList.add("moved");
    const target = part === "row" ? row : row.querySelector(part === "up" ? ".rl-up" : ".rl-down");
    (target.disabled ? row : target).focus();
    live.textContent = `${data.names[index]} moved to rank ${to + 1}`;
    commit(to, part);
  }

  function onKey(event, row) {
    if (event.target !== row) return;
    const position = order.indexOf(Number(row.dataset.index));
    if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      move(row, event.key === "ArrowUp" ? -1 : +1, "row");
    } else if (!event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      const next = position + (event.key === "ArrowUp" ? -1 : 1);
      if (next >= 0 && next < n) rows[order[next]].focus();
    }
  }

  function onPointerDown(event, row) {
    if (event.button !== 0 || event.target.closest("button")) return;
    event.preventDefault();
    const startY = event.clientY;
    let dragging = false;
    // Listen on the window: re-inserting the dragged row into the list would drop a pointer capture.
    const view = row.ownerDocument.defaultView || window;
    const onMove = (moveEvent) => {
      if (!dragging && Math.abs(moveEvent.clientY - startY) < 4) return;
      if (!dragging) { dragging = true; row.classList.add("dragging"); }
      moveEvent.preventDefault();
      // Near the top or bottom edge of a scrolling list, scroll it so rows further away can be reached.
      const frame = list.getBoundingClientRect();
      if (list.scrollHeight > list.clientHeight) {
        if (moveEvent.clientY < frame.top + 30) list.scrollTop -= 12;
        else if (moveEvent.clientY > frame.bottom - 30) list.scrollTop += 12;
      }
      // The dragged row takes the slot whose vertical middle the pointer has passed.
      const index = Number(row.dataset.index);
      const others = order.filter((other) => other !== index);
      let slot = others.length;
      for (let position = 0; position < others.length; position += 1) {
        const box = rows[others[position]].getBoundingClientRect();
        if (moveEvent.clientY < box.top + box.height / 2) { slot = position; break; }
      }
      if (order.indexOf(index) !== slot) {
        others.splice(slot, 0, index);
        order.splice(0, n, ...others);
        layout();
      }
    };
    const onUp = () => {
      view.removeEventListener("pointermove", onMove);
      view.removeEventListener("pointerup", onUp);
      view.removeEventListener("pointercancel", onUp);
      row.focus({ preventScroll: true });
      if (!dragging) return;
      row.classList.remove("dragging");
      row.classList.add("moved");
      const index = Number(row.dataset.index);
      const position = order.indexOf(index);
      live.textContent = `${data.names[index]} moved to rank ${position + 1}`;
      commit(position, "row");
    };
    view.addEventListener("pointermove", onMove);
    view.addEventListener("pointerup", onUp);
    view.addEventListener("pointercancel", onUp);
  }

  layout();

  // After a move, the server re-renders the list: put focus back on the moved row (or its button).
  const remembered = parentElement.__rankedListFocus;
  if (remembered && remembered.position < n) {
    parentElement.__rankedListFocus = null;
    const row = rows[order[remembered.position]];
    const target = remembered.part === "row" ? row : row.querySelector(remembered.part === "up" ? ".rl-up" : ".rl-down");
    (target.disabled ? row : target).focus({ preventScroll: true });
    if (list.scrollHeight > list.clientHeight) row.scrollIntoView({ block: "nearest" });
  }
  return () => clearTimeout(pendingTimer);
}
"""

_component = st.components.v2.component("ndcg_ranked_list", css=CSS, js=JS)


def _token_key(key: str) -> str:
    return f"_{key}__token"


def current_token(session_state: Mapping, key: str) -> int:
    """The token a move must carry to be applied now (tests use it to drive the widget)."""
    return session_state.get(_token_key(key), {}).get("token", 0)


def _is_permutation(perm: object, size: int) -> bool:
    return (
        isinstance(perm, list)
        and len(perm) == size
        and all(isinstance(p, int) and not isinstance(p, bool) for p in perm)
        and sorted(perm) == list(range(size))
    )


def pending_order(key: str, n: int) -> list[int] | None:
    """The reorder the user made in the browser, if it has not been applied yet (applies at most once).

    A page calls this at the top of its script, before drawing anything, so that every element of the run
    (metrics, table, charts, the list itself) shows the new order. ``ranked_list`` calls it too.
    """
    tracker = st.session_state.get(_token_key(key))
    value = st.session_state.get(key)
    if tracker is None or not isinstance(value, Mapping):
        return None
    message = value.get("order")
    if not isinstance(message, Mapping) or message.get("token") != tracker["token"]:
        return None
    shown = tracker["shown"]
    perm = message.get("perm")
    if shown > n or not _is_permutation(perm, shown):
        return None
    tracker["token"] += 1  # consumed: this message can never apply again
    full = list(perm) + list(range(shown, n))
    return None if full == list(range(n)) else full


def ranked_list(
    names: Sequence[str],
    grades: Sequence[float],
    contributions: Sequence[float],
    *,
    key: str,
    k: int | None = None,
    limit: int = VISIBLE_LIMIT,
) -> list[int]:
    """Show the drag-to-reorder list; return the user's order as a permutation of ``range(len(names))``.

    The permutation is relative to the order given here (identity when untouched). Only the top
    ``limit`` rows are drawn (the rest keep their places), so very long lists stay fast.
    """
    n = len(names)
    names = [str(name) for name in names]
    grades = [float(grade) for grade in grades]
    contributions = [float(value) for value in contributions]
    perm = pending_order(key, n) or list(range(n))
    if perm != list(range(n)):
        # Not applied by the page before drawing: show the new order; contributions belong to the old one.
        names = [names[i] for i in perm]
        grades = [grades[i] for i in perm]
        contributions = [None] * n  # type: ignore[list-item]

    tracker = st.session_state.setdefault(_token_key(key), {"token": 0, "signature": None, "shown": 0})
    shown = min(n, max(1, limit))
    signature = hash((tuple(names[:shown]), tuple(grades[:shown]), k))
    if signature != tracker["signature"]:
        tracker["token"] += 1  # the list changed: a move made on the old list must not apply to this one
        tracker["signature"] = signature
    tracker["shown"] = shown

    top = max(grades) if grades else 1.0
    colours = [grade_colour(g, top) for g in grades[:shown]]
    _component(
        key=key,
        data={
            "names": names[:shown],
            "grades": grades[:shown],
            "contributions": contributions[:shown],
            "chip_colours": colours,
            "chip_text": ["#FFFFFF" if c in DARK_CHIPS else "#111827" for c in colours],
            "k": k,
            "total": n,
            "token": tracker["token"],
        },
        on_order_change=_ignore,
    )
    return perm


def _ignore() -> None:
    """Declares ``order`` as a state value of the component (Streamlit requires a callback per state key)."""

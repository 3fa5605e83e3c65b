// The ranked list's browser side (see ui/ranked_list.py for the protocol).
//
// One controller lives on the component's root for as long as the component is mounted. Rows are DOM
// elements keyed by document id and reused across server renders, so focus, a drag in progress and the
// "moved" highlight survive a rerun. Every move is queued as {seq, id, from, to}; the queue of moves the
// server has not acknowledged yet is sent whole after each move, and what is shown is always
// "the server's newest order + the queued moves", so nothing the user did can snap back.

const LONG_PRESS_MS = 450;  // a touch held this long on a row starts a drag; a swipe before that scrolls
const SLOP_PX = 8;          // a touch moving further than this before the long press is a scroll

function applyMoves(ids, moves) {
  // Each move puts document `id` at position `to` (clamped); unknown ids are skipped, as on the server.
  const order = ids.slice();
  for (const move of moves) {
    const from = order.indexOf(move.id);
    if (from < 0) continue;
    order.splice(from, 1);
    order.splice(Math.max(0, Math.min(move.to, order.length)), 0, move.id);
  }
  return order;
}

const SEEN_MS = 400;  // a move sooner than this after the figures of the moves before it arrived continues them

class RankedList {
  constructor(parentElement) {
    this.host = parentElement;
    this.send = () => {};
    this.queue = [];      // moves not yet acknowledged by the server, in seq order
    this.seq = 0;         // last sequence number used
    this.answeredAt = -Infinity;  // when the server last answered every queued move (performance.now())
    this.order = [];      // ids as shown, top first
    this.rows = new Map();  // id -> row element
    this.drag = null;     // {id, slot, pointerId} while a row is being dragged
    this.view = null;
    this.selectSeq = 0;   // row clicks sent (linked highlighting, ui/linked.py)
    this.highlight = null;  // the highlighted rank (1-based) as last known
    this.root = document.createElement("div");
    this.root.className = "rl-root";
    const help = document.createElement("p");
    help.className = "rl-help";
    help.textContent = "Drag a row by its ⠿ handle (or press and hold it), focus it and press Alt+↑ / Alt+↓, or use ▲ ▼.";
    this.head = document.createElement("div");
    this.head.className = "rl-head";
    for (const [text, short, cls] of [["Rank", "#", ""], ["Name", "Name", "name"], ["Grade", "Grade", "grade"],
                                      ["Contribution", "Contrib.", "num"], ["Move", "Move", "num"]]) {
      const cell = document.createElement("span");
      cell.dataset.long = text;
      cell.dataset.short = short;
      cell.className = `rl-h ${cls}`.trim();
      this.head.appendChild(cell);
    }
    this.list = document.createElement("ol");
    this.list.className = "rl-list";
    this.list.setAttribute("aria-label", "Ranked documents");
    this.cut = document.createElement("li");
    this.cut.className = "rl-cut";
    this.cut.setAttribute("aria-hidden", "true");
    this.live = document.createElement("div");
    this.live.className = "rl-live";
    this.live.setAttribute("aria-live", "polite");
    this.live.setAttribute("role", "status");
    this.announced = null;  // id of the last moved document, until its new NDCG has been announced
    this.spoken = null;  // the NDCG figure last announced (or there at load), e.g. "NDCG@3 0.8386"
    this.more = document.createElement("p");
    this.more.className = "rl-more";
    this.root.append(help, this.head, this.list, this.live, this.more);
    parentElement.appendChild(this.root);
  }

  // --- server data ---------------------------------------------------------------------------------
  update(data) {
    // The server's order is its last one with the moves it acknowledges now applied, unless something else (an
    // order button, an edit) reordered the list: then no row is "the one just moved" any more.
    const first = this.data === undefined;
    const acknowledged = this.queue.filter((move) => move.seq <= data.applied);
    const reordered = this.data !== undefined && applyMoves(this.data.ids, acknowledged).join("\n") !== data.ids.join("\n");
    this.data = data;
    this.list.setAttribute("aria-label", data.label || "Ranked documents");  // two lists on a page: two names
    this.index = new Map(data.ids.map((id, i) => [id, i]));
    this.seq = Math.max(this.seq, data.applied);
    this.selectSeq = Math.max(this.selectSeq, data.select_seq || 0);
    this.highlight = data.highlight ?? null;
    const waiting = this.queue.length > 0;
    this.queue = this.queue.filter((move) => move.seq > data.applied);  // acknowledged moves leave the queue
    if (waiting && !this.queue.length) this.answeredAt = performance.now();
    for (const id of this.rows.keys()) {
      if (!this.index.has(id)) { this.rows.get(id).remove(); this.rows.delete(id); }
    }
    if (this.drag && !this.index.has(this.drag.id)) this.endDrag(false);
    data.ids.forEach((id, i) => this.fill(this.rows.get(id) || this.makeRow(id), i));
    if (reordered) for (const row of this.rows.values()) row.classList.remove("moved", "flash");
    this.list.classList.toggle("scrolls", data.ids.length > 12);  // long lists scroll inside the widget
    // Not "do not count": their grades still go into the ideal list (IDCG@k).
    this.cut.textContent = `cutoff k = ${data.k}: rows below add nothing to DCG@${data.k}`;
    this.more.hidden = !(data.total > data.ids.length);
    this.more.textContent = `Showing the top ${data.ids.length} of ${data.total} documents; edit the rest in the table.`;
    this.reconcile();
    this.announceSettled();
    this.announceChange(first);
  }

  ndcgText() {
    // Not shown (Predict first: what the page asks instead, if it says), or not known yet
    if (typeof this.data.ndcg !== "number") return this.data.withheld || null;
    return `${this.data.k === null ? "NDCG" : `NDCG@${this.data.k}`} is now ${this.data.ndcg.toFixed(4)}`;
  }

  announceChange(first) {
    // A new NDCG that no move of this list caused (an order button, a grade edit, a setting) is announced too:
    // a screen-reader user hears what a sighted one sees change on the cards.
    const text = this.ndcgText();
    if (!first && !this.announced && !this.queue.length && text !== null && text !== this.spoken) {
      this.live.textContent = `${text}.`;
    }
    if (!this.announced && !this.queue.length && text !== null) this.spoken = text;
  }

  announceSettled() {
    // Screen readers hear the move at once, then the new NDCG once the server has answered every queued move.
    const moved = this.announced;
    if (!moved || this.queue.length > 0 || !this.index.has(moved)) return;
    this.announced = null;
    const rank = this.order.indexOf(moved) + 1;
    const text = this.ndcgText();
    this.live.textContent = `${this.data.names[this.index.get(moved)]} is at rank ${rank}.`
      + (text === null ? "" : ` ${text}.`);
    if (text !== null) this.spoken = text;
  }

  reconcile() {
    // What is shown = the server's order + the moves it has not acknowledged yet (+ the drag in progress).
    this.order = applyMoves(this.data.ids, this.queue);
    if (this.drag) {
      this.order.splice(this.order.indexOf(this.drag.id), 1);
      this.order.splice(this.drag.slot, 0, this.drag.id);
    }
    this.root.classList.toggle("pending", this.queue.length > 0);  // contributions follow once the server answers
    this.root.dataset.pending = String(this.queue.length);
    this.root.dataset.applied = String(this.data.applied);
    this.layout();
  }

  // --- rows ------------------------------------------------------------------------------------------
  makeRow(id) {
    const row = document.createElement("li");
    row.className = "rl-row";
    row.tabIndex = 0;
    row.dataset.id = id;
    row.innerHTML = '<span class="rl-rank"><span class="rl-grip" title="Drag to move">⠿</span>'
      + '<span class="rl-rank-text"></span></span><span class="rl-name"></span><span class="rl-chip"></span>'
      + '<span class="rl-contrib"></span><span class="rl-buttons"><button type="button" class="rl-up">▲</button>'
      + '<button type="button" class="rl-down">▼</button></span>';  // static markup only; user text goes in below
    row.querySelector(".rl-grip").setAttribute("aria-hidden", "true");
    row.querySelector(".rl-up").addEventListener("click", (event) => { event.stopPropagation(); this.step(id, -1, "up"); });
    row.querySelector(".rl-down").addEventListener("click", (event) => { event.stopPropagation(); this.step(id, +1, "down"); });
    row.addEventListener("keydown", (event) => this.onKey(event, id));
    row.addEventListener("pointerdown", (event) => this.onPointerDown(event, id));
    // While a long-press drag runs, the finger's moves must not scroll the page.
    row.addEventListener("touchmove", (event) => { if (this.drag && this.drag.id === id) event.preventDefault(); },
      { passive: false });
    // A long press on a touch screen would open the context menu (or start a text selection) instead.
    row.addEventListener("contextmenu", (event) => { if (this.pressing && this.pressing.touch) event.preventDefault(); });
    this.rows.set(id, row);
    return row;
  }

  fill(row, i) {
    const data = this.data;
    const name = row.querySelector(".rl-name");
    name.textContent = data.names[i];  // user text: textContent only, never innerHTML
    name.title = data.names[i];
    // Laid out in its own direction (its first letter's): a Hebrew or Arabic name cut to the column kept its digits
    // and lost its word ("888607ך…" for מסמך888607); it now starts at the right and is cut at its end.
    name.dir = "auto";
    const chip = row.querySelector(".rl-chip");
    chip.textContent = data.grade_texts[i];
    chip.style.background = data.chip_colours[i];
    chip.style.color = data.chip_text[i];
    chip.title = `grade ${data.grade_titles[i]}`;
    const contribution = row.querySelector(".rl-contrib");
    contribution.textContent = data.contribution_texts[i];
    contribution.title = data.contribution_titles[i];
  }

  layout() {
    // Put rows in `order` (moving only the rows out of place), number them, dim those past k, place the cutoff.
    const active = this.host.activeElement;
    const k = this.data.k;
    const wanted = [];
    const n = this.order.length;
    this.order.forEach((id, position) => {
      const row = this.rows.get(id);
      const i = this.index.get(id);
      if (k !== null && position === k) wanted.push(this.cut);
      row.querySelector(".rl-rank-text").textContent = String(position + 1);
      row.classList.toggle("beyond", k !== null && position >= k);
      this.link(row, position);
      const label = `Rank ${position + 1}: ${this.data.names[i]}, grade ${this.data.grade_titles[i]}`;
      const marked = row.classList.contains("linked") ? " Highlighted." : "";
      row.setAttribute("aria-label", `${label}.${marked} Alt+Up or Alt+Down moves it.`);
      row.querySelector(".rl-up").disabled = position === 0;
      row.querySelector(".rl-down").disabled = position === n - 1;
      row.querySelector(".rl-up").setAttribute("aria-label", `Move ${this.data.names[i]} up`);
      row.querySelector(".rl-down").setAttribute("aria-label", `Move ${this.data.names[i]} down`);
      wanted.push(row);
    });
    if (k === null || k >= n) this.cut.remove();
    wanted.forEach((node, position) => {
      if (this.list.children[position] !== node) this.list.insertBefore(node, this.list.children[position] || null);
    });
    while (this.list.children.length > wanted.length) this.list.lastChild.remove();
    // Moving a focused node blurs it: give focus back (to its row if the button became disabled).
    if (active && active !== this.host.activeElement && active.isConnected) {
      const target = active.disabled ? active.closest(".rl-row") : active;
      target.focus({ preventScroll: true });
    }
  }

  // --- linked highlighting (ui/linked.py) ------------------------------------------------------------
  link(row, position) {
    // The rank's colour (shared with its bar and its formula term) and the highlight, by position.
    const colours = this.data.rank_colours;
    if (colours && colours[position]) row.style.setProperty("--rl-pos", colours[position]);
    else row.style.removeProperty("--rl-pos");
    const on = this.highlight === position + 1;
    row.classList.toggle("linked", on);
    if (on) row.setAttribute("aria-current", "true"); else row.removeAttribute("aria-current");
  }

  select(id) {
    // A click or Enter on a row: highlight its rank at once (toggle), and tell the server.
    const position = this.order.indexOf(id) + 1;
    if (position < 1 || !this.data.rank_colours) return;
    this.highlight = this.highlight === position ? null : position;
    this.layout();
    this.sendSelect({ seq: ++this.selectSeq, position });
  }

  // --- moves -----------------------------------------------------------------------------------------
  enqueue(id, from, to) {
    if (from === to) return;
    for (const row of this.rows.values()) row.classList.toggle("moved", row.dataset.id === id);
    // A move made while earlier ones wait for the server's answer, or less than SEEN_MS after it (too soon for the
    // person to have taken in the new figures: a double press 0.1-0.35 s apart), continues them: the page shows
    // the change since the figures the person last saw settle, not since an in-between order.
    const continues = this.queue.length > 0 || performance.now() - this.answeredAt < SEEN_MS;
    this.queue.push({ seq: ++this.seq, id, from, to, continues });
    this.reconcile();
    this.flash(id);
    this.live.textContent = `${this.data.names[this.index.get(id)]} moved to rank ${to + 1}.`;
    this.announced = id;  // completed with the new NDCG when the server's answer arrives (announceSettled)
    this.send(this.queue.slice());  // the whole unacknowledged queue: a coalesced or overtaken message loses nothing
  }

  flash(id) {
    // Show what changed: the moved row flashes for a moment and is scrolled into view (the list's own scroll
    // and the page's), so it stays visible wherever it went. The class is left until the next move's flash.
    const row = this.rows.get(id);
    if (!row) return;
    for (const other of this.rows.values()) other.classList.remove("flash");
    void row.offsetWidth;  // restart the animation when the same row moves again
    row.classList.add("flash");
    if (!this.drag) row.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  step(id, delta, part) {
    const from = this.order.indexOf(id);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= this.order.length || this.drag) return;
    this.enqueue(id, from, to);
    const row = this.rows.get(id);
    const target = part === "row" ? row : row.querySelector(part === "up" ? ".rl-up" : ".rl-down");
    (target.disabled ? row : target).focus({ preventScroll: true });
    if (this.list.scrollHeight > this.list.clientHeight) row.scrollIntoView({ block: "nearest" });
  }

  onKey(event, id) {
    const row = this.rows.get(id);
    if (event.target === row && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      this.select(id);
      return;
    }
    if (event.target !== row || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    const delta = event.key === "ArrowUp" ? -1 : 1;
    if (event.altKey) { this.step(id, delta, "row"); return; }
    const next = this.order[this.order.indexOf(id) + delta];
    if (next !== undefined) this.rows.get(next).focus();
  }

  // --- drag ------------------------------------------------------------------------------------------
  onPointerDown(event, id) {
    if (event.button !== 0 || event.target.closest("button")) return;
    if (this.pressing) this.pressing.finish(true);  // a press whose release never arrived (another finger, a lost event)
    const row = this.rows.get(id);
    const onGrip = Boolean(event.target.closest(".rl-grip"));
    const touch = event.pointerType === "touch";
    if (!touch) event.preventDefault();  // no text selection; touch keeps its default so a swipe scrolls
    this.view = row.ownerDocument.defaultView || window;
    const press = { id, touch, pointerId: event.pointerId, startY: event.clientY, armed: !touch || onGrip };
    this.pressing = press;
    if (!press.armed) {
      // A touch on the row itself: a drag only after a long press, so swipes that start here scroll the page.
      press.timer = setTimeout(() => { press.armed = true; this.startDrag(press); }, LONG_PRESS_MS);
    }
    const onMove = (moveEvent) => {
      if (moveEvent.pointerId !== press.pointerId) return;
      if (!press.armed) {
        if (Math.abs(moveEvent.clientY - press.startY) > SLOP_PX) finish(false);  // a scroll, not a drag
        return;
      }
      if (!this.drag) {
        if (Math.abs(moveEvent.clientY - press.startY) < 4) return;
        this.startDrag(press);
      }
      moveEvent.preventDefault();
      this.dragTo(moveEvent.clientY);
    };
    const finish = (commit) => {
      clearTimeout(press.timer);
      this.view.removeEventListener("pointermove", onMove);
      this.view.removeEventListener("pointerup", onUp);
      this.view.removeEventListener("pointercancel", onCancel);
      this.pressing = null;
      if (this.drag) this.endDrag(commit);
    };
    const onUp = (upEvent) => {
      if (upEvent.pointerId !== press.pointerId) return;
      const clicked = !this.drag && Math.abs(upEvent.clientY - press.startY) < 4;  // a press that never dragged
      finish(true);
      row.focus({ preventScroll: true });
      if (clicked) this.select(id);
    };
    const onCancel = (cancelEvent) => { if (cancelEvent.pointerId === press.pointerId) finish(true); };
    press.finish = finish;
    this.view.addEventListener("pointermove", onMove);
    this.view.addEventListener("pointerup", onUp);
    this.view.addEventListener("pointercancel", onCancel);
  }

  startDrag(press) {
    if (this.drag) return;
    this.drag = { id: press.id, slot: this.order.indexOf(press.id), from: this.order.indexOf(press.id) };
    this.rows.get(press.id).classList.add("dragging");
    this.root.classList.add("drag-active");
  }

  dragTo(clientY) {
    // Near the top or bottom edge of a scrolling list, scroll it so rows further away can be reached.
    const frame = this.list.getBoundingClientRect();
    if (this.list.scrollHeight > this.list.clientHeight) {
      if (clientY < frame.top + 30) this.list.scrollTop -= 12;
      else if (clientY > frame.bottom - 30) this.list.scrollTop += 12;
    }
    // The dragged row takes the slot whose vertical middle the pointer has passed.
    const others = this.order.filter((other) => other !== this.drag.id);
    let slot = others.length;
    for (let position = 0; position < others.length; position += 1) {
      const box = this.rows.get(others[position]).getBoundingClientRect();
      if (clientY < box.top + box.height / 2) { slot = position; break; }
    }
    if (slot !== this.drag.slot) {
      this.drag.slot = slot;
      this.reconcile();
    }
  }

  endDrag(commit) {
    const drag = this.drag;
    this.drag = null;
    this.root.classList.remove("drag-active");
    const row = this.rows.get(drag.id);
    if (row) row.classList.remove("dragging");
    const from = applyMoves(this.data.ids, this.queue).indexOf(drag.id);
    if (commit && row && from >= 0 && drag.slot !== from) this.enqueue(drag.id, from, drag.slot);
    else this.reconcile();
  }

  destroy() {
    if (this.pressing) this.pressing.finish(false);
  }
}

export default function ({ data, parentElement, setStateValue }) {
  if (!data || !Array.isArray(data.ids)) { return undefined; }
  let list = parentElement.__rankedList;
  if (!list) {
    list = new RankedList(parentElement);
    parentElement.__rankedList = list;
  }
  list.send = (moves) => setStateValue("moves", moves);
  list.sendSelect = (click) => setStateValue("select", click);
  list.update(data);
  return () => list.destroy();  // Streamlit calls the last cleanup when the component unmounts
}

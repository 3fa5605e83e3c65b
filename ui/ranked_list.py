"""A drag-to-reorder ranked list, written on Streamlit's components v2 API (inline HTML/CSS/JS, no iframe).

Each row shows its rank, the document name (always as text), a grade chip coloured by grade and the
row's DCG contribution. Rows move by pointer drag (from the ⠿ grip; on a touch screen also after a long
press on the row, so a swipe that starts on the list scrolls the page), by Alt+↑/↓ on a focused row
(focus follows the row) and by visible ▲/▼ buttons. Positions past the cutoff k are dimmed below a
dashed "cutoff" line. The browser side is ui/ranked_list.js, its styles ui/ranked_list.css.

Protocol (why it looks like this): a user can make moves faster than the server answers, so no move may
depend on a rerun having happened. Each move is ``{"seq": s, "id": document id, "from": i, "to": j}``:
put the document ``id`` at position ``j``. ``seq`` numbers a key's moves 1, 2, 3, ... for the whole session.
The browser keeps the moves the server has not acknowledged yet in a queue and, after every move, sends
the whole queue as the component's state value ``moves`` (so a message that is coalesced with, or
overtaken by, a later one loses nothing). The server (:func:`pending_order`, called before anything is
drawn) applies, in ``seq`` order, every move whose ``seq`` is above the last one it applied, to the newest
list, by document id, then records that ``seq``: each move is applied exactly once, and a stale state
value (component state persists across reruns) applies nothing. The server sends the last applied
``seq`` back with the list; the browser drops the acknowledged moves from its queue and shows the
server's order with the still-queued moves re-applied on top (optimistic display, then reconciliation).
A document's id is its name, grade and occurrence (:func:`row_ids`): moves survive any rerun that
keeps the document, and a move of a document that no longer exists is skipped.

A move the browser makes while earlier ones are still queued, or less than 0.4 s after their answer arrived,
carries ``"continues": true`` (a double press: too soon for the person to have taken in the figures between):
:func:`continues_earlier_moves` tells the page, which then shows the change since the figures the person last
saw settle (the Playground's deltas), not since the in-between state only the server saw.

Tests drive it the same way: ``at.session_state[key] = moves_to(at.session_state, key, perm)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import streamlit as st

from ui import session
from ui.charts import grade_colour
from ui.formatting import compact, fixed, short
from ui.moves import longest_increasing
from ui.url_rules import format_number

VISIBLE_LIMIT = 200  # rows drawn in the browser; a 10,000-document list stays responsive (the table edits the rest)
DARK_CHIPS = {"#0072B2", "#D55E00"}

_HERE = Path(__file__).parent
MAX_MOVES = 500  # a state value longer than this is not from our component: only its newest moves are read

_component = st.components.v2.component(
    "ndcg_ranked_list", css=(_HERE / "ranked_list.css").read_text(encoding="utf-8"),
    js=(_HERE / "ranked_list.js").read_text(encoding="utf-8"),
)


def _tracker_key(key: str) -> str:
    return f"_{key}__moves"


def row_ids(names: Sequence[str], grades: Sequence[float]) -> list[str]:
    """Stable ids of a list's documents: name and grade, numbered when the same pair occurs twice.

    Two rows with the same name and grade are interchangeable, so which of them a move takes does not
    change anything shown or computed.
    """
    seen: dict[tuple[str, float], int] = {}
    ids = []
    for name, grade in zip(names, grades, strict=True):
        pair = (str(name), float(grade))
        seen[pair] = seen.get(pair, 0) + 1
        ids.append(f"{pair[0]}\x1f{pair[1]!r}\x1f{seen[pair]}")
    return ids


def last_applied(session_state: Mapping, key: str) -> int:
    """The ``seq`` of the last move the server applied for this list (0 before any)."""
    return session_state.get(_tracker_key(key), {}).get("applied", 0)


def _valid_moves(value: object) -> tuple[list[tuple[int, str, int]], set[int]]:
    """(seq, id, to) of the well-formed moves in a state value, by seq, and the seqs of those the browser marked
    ``continues``; anything else is ignored."""
    moves = value.get("moves") if isinstance(value, Mapping) else None
    if not isinstance(moves, list):
        return [], set()
    found, continuing = {}, set()
    for move in moves[-MAX_MOVES:]:
        if not isinstance(move, Mapping):
            continue
        seq, doc, to = move.get("seq"), move.get("id"), move.get("to")
        if all(isinstance(x, int) and not isinstance(x, bool) for x in (seq, to)) and isinstance(doc, str):
            found.setdefault(seq, (seq, doc, to))
            if move.get("continues") is True:
                continuing.add(seq)
    return [found[seq] for seq in sorted(found)], continuing


def _apply(ids: list, moves: Sequence[tuple[int, str, int]]) -> list:
    """Each move puts document ``id`` at position ``to`` (clamped to the list); unknown ids are skipped."""
    order = list(ids)
    for _, doc, to in moves:
        if doc in order:
            order.remove(doc)
            order.insert(max(0, min(to, len(order))), doc)
    return order


def pending_order(
    key: str, n: int, *, names: Sequence[str] | None = None, grades: Sequence[float] | None = None,
    limit: int = VISIBLE_LIMIT,
) -> list[int] | None:
    """Apply the moves the browser queued since the last run, each exactly once and in order.

    ``names`` and ``grades`` are the newest list's (in its current order; only the top ``limit`` can be
    moved); without them, the moves apply to the list as it was last drawn. Returns the new order as a permutation of ``range(n)`` (position i holds the document that
    was at ``perm[i]``), or None when nothing moved. A page calls this at the top of its script, before
    drawing anything, so every element of the run shows the new order; ``ranked_list`` calls it too.
    """
    tracker = session.widget(_tracker_key(key))
    if tracker is None:
        return None
    received, continuing = _valid_moves(session.widget(key))
    moves = [move for move in received if move[0] > tracker["applied"]]
    if not moves:
        return None
    tracker["applied"] = moves[-1][0]  # acknowledged, applied or skipped: never looked at again
    tracker["continues"] = moves[0][0] in continuing
    if names is not None and grades is not None:
        drawn = row_ids(names[: min(n, limit)], grades[: min(n, limit)])
    else:
        drawn = list(tracker["ids"])[:n]
    base = drawn[:n] + [("rest", i) for i in range(len(drawn), n)]  # undrawn rows keep their places
    if len(set(base)) != n:
        return None
    where = {doc: i for i, doc in enumerate(base)}
    tracker["moved"] = [doc for _, doc, _ in moves if doc in where]
    perm = [where[doc] for doc in _apply(base, moves)]
    return None if perm == list(range(n)) else perm


def continues_earlier_moves(key: str) -> bool:
    """True when the moves the last :func:`pending_order` applied were made before the browser had the server's
    answer to the moves before them, or just after it (two presses 0.1 s apart): with those, they are one change
    for the person."""
    return bool(session.widget(_tracker_key(key), {}).get("continues", False))


def moved_documents(key: str) -> list[str]:
    """The ids (:func:`row_ids`) of the documents the last moves applied by :func:`pending_order` moved, one per
    move, in order: a drag is one move, each ▲/▼ click or Alt+↑/↓ press another."""
    return list(session.widget(_tracker_key(key), {}).get("moved", []))


def last_moved(key: str) -> tuple[str, float] | None:
    """(name, grade) of the document the person moved last in list ``key`` (None before any move)."""
    moved = moved_documents(key)
    if not moved:
        return None
    name, grade, _count = moved[-1].split("\x1f")
    return name, float(grade)


def moves_to(session_state: Mapping, key: str, perm: Sequence[int]) -> dict:
    """The state value the browser would send to turn the drawn list into ``perm`` with the fewest drags (for
    tests and benchmarks): the documents of a longest run that keeps its order stay, each other one is dragged
    once, in the order of its new position, to just below the document it follows there."""
    ids = list(session_state[_tracker_key(key)]["ids"])
    seq = last_applied(session_state, key)
    current, target, moves = list(ids), [ids[i] for i in perm], []
    staying = {ids[i] for i in longest_increasing(list(perm))}
    for position, doc in enumerate(target):
        if doc in staying:
            continue
        seq += 1
        rest = [other for other in current if other != doc]
        to = rest.index(target[position - 1]) + 1 if position else 0
        moves.append({"seq": seq, "id": doc, "from": current.index(doc), "to": to})
        current = _apply(current, [(seq, doc, to)])
    assert current == target
    return {"moves": moves}


def ranked_list(
    names: Sequence[str],
    grades: Sequence[float],
    contributions: Sequence[float | None],
    *,
    key: str,
    k: int | None = None,
    limit: int = VISIBLE_LIMIT,
    ndcg: float | None = None,
    withheld: str | None = None,
    rank_colours: Sequence[str] | None = None,
    highlight: int | None = None,
    select_seq: int = 0,
    label: str = "Ranked documents",
) -> list[int]:
    """Show the drag-to-reorder list; return the user's order as a permutation of ``range(len(names))``.

    Linked highlighting (ui/linked.py): ``rank_colours[i]`` colours rank i + 1's number and edge, ``highlight``
    marks a rank, and a click (or Enter) on a row sends ``{"seq": n, "position": rank}`` as the state value
    ``select``; ``select_seq`` is the last one the page applied, so the browser numbers on from it.

    The permutation is relative to the order given here (identity when untouched). Only the top
    ``limit`` rows are drawn (the rest keep their places), so very long lists stay fast. ``label``: the list's
    accessible name (each list on a page needs its own). ``ndcg`` (the
    list's NDCG, when the page shows it) is announced to screen readers after a move, once the server has it;
    ``withheld`` is said instead while the page hides it (Predict first's question: a screen-reader user heard only
    "D1 is at rank 2." and not that a guess was asked above the list).
    """
    n = len(names)
    names = [str(name) for name in names]
    grades = [float(grade) for grade in grades]
    contributions = [None if value is None else float(value) for value in contributions]  # None: hidden ("…")
    shown = min(n, max(1, limit))
    tracker = session.page_state(_tracker_key(key), lambda: {"applied": 0, "ids": []})
    perm = pending_order(key, n, names=names, grades=grades, limit=shown) or list(range(n))
    if perm != list(range(n)):
        # Not applied by the page before drawing: show the new order; contributions belong to the old one.
        names = [names[i] for i in perm]
        grades = [grades[i] for i in perm]
        contributions = [None] * n  # type: ignore[list-item]
        ndcg = withheld = None  # it belongs to the old order too
    ids = row_ids(names[:shown], grades[:shown])
    tracker["ids"] = ids

    top = max(grades) if grades else 1.0
    colours = [grade_colour(g, top) for g in grades[:shown]]
    _component(
        key=key,
        data={
            "ids": ids,
            "names": names[:shown],
            # Numbers as the page writes them (ui.formatting): short in the chip and the narrow contribution
            # column, exact in the tooltip and the screen-reader label.
            "grade_texts": [compact(g) for g in grades[:shown]],
            "grade_titles": [format_number(g) for g in grades[:shown]],
            "contribution_texts": [short(c) for c in contributions[:shown]],
            "contribution_titles": [fixed(c, missing="") for c in contributions[:shown]],
            "chip_colours": colours,
            "chip_text": ["#FFFFFF" if c in DARK_CHIPS else "#111827" for c in colours],
            "k": k,
            "total": n,
            "applied": tracker["applied"],
            "ndcg": float(ndcg) if ndcg is not None and math.isfinite(ndcg) else None,
            "withheld": withheld,
            "rank_colours": list(rank_colours[:shown]) if rank_colours is not None else None,
            "highlight": highlight,
            "select_seq": select_seq,
            "label": label,
        },
        on_moves_change=_ignore,
        on_select_change=_ignore,
    )
    return perm


def _ignore() -> None:
    """Declares ``moves`` and ``select`` as state values of the component (Streamlit requires a callback per state key)."""

"""The ranked list's move protocol (ui/ranked_list.py): queued moves apply exactly once, in order, to the newest list.

The browser side is exercised in tests/browser/test_rapid_moves_browser.py; here the server side is driven
with the state values the browser sends, including the cases a fast user produces: several moves in one
message, a message that repeats moves already applied, moves made while the list changed underneath.
"""

from __future__ import annotations

import types
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

import ndcg_core
from tests.conftest import run_page
from ui import ranked_list as rl
from ui import session as ui_session
from ui import state

KEY = "playground_list"
NAMES = ("D1", "D2", "D3", "D4", "D5")
G = [3, 1, 2, 0, 2]


def ids_of(names, grades=None):
    return rl.row_ids(names, grades or [dict(zip(NAMES, G, strict=True))[n] for n in names])


def move(seq, name, to, grade=None):
    grade = dict(zip(NAMES, G, strict=True))[name] if grade is None else grade
    return {"seq": seq, "id": rl.row_ids([name], [grade])[0], "from": 0, "to": to}


@pytest.fixture
def at():
    at = run_page(None)
    assert not at.exception
    return at


def names(at):
    return at.session_state[state.RANKING_KEY].ranking.names


def ndcg_card(at):
    return next(m.value for m in at.metric if m.label.startswith("NDCG"))


def send(at, *moves):
    at.session_state[KEY] = {"moves": list(moves)}
    at.run()
    assert not at.exception


def test_three_quick_alt_down_presses_in_one_message_all_apply(at):
    # D1 moved down three times before the server answered: the browser sends the whole queue at once.
    send(at, move(1, "D1", 1), move(2, "D1", 2), move(3, "D1", 3))
    assert names(at) == ("D2", "D3", "D4", "D1", "D5")
    assert ndcg_card(at) == f"{ndcg_core.evaluate([1, 2, 0, 3, 2]).ndcg:.4f}"
    assert rl.last_applied(at.session_state, KEY) == 3


def test_a_resent_queue_applies_only_the_moves_not_yet_applied(at):
    send(at, move(1, "D1", 1))  # the server answered the first press ...
    assert names(at) == ("D2", "D1", "D3", "D4", "D5")
    send(at, move(1, "D1", 1), move(2, "D1", 2), move(3, "D1", 3))  # ... before the browser saw the answer
    assert names(at) == ("D2", "D3", "D4", "D1", "D5")
    at.run()  # the state value persists across reruns: nothing applies twice
    assert names(at) == ("D2", "D3", "D4", "D1", "D5")
    # Change the list under the stale state value: a move applied again would now visibly move D1 (to 4th).
    at.button(key="playground_reverse").click().run()
    assert not at.exception
    assert names(at) == ("D5", "D1", "D4", "D3", "D2")
    at.run()
    assert names(at) == ("D5", "D1", "D4", "D3", "D2")
    assert rl.last_applied(at.session_state, KEY) == 3


def test_moves_arriving_out_of_order_in_a_message_apply_by_sequence_number(at):
    send(at, move(2, "D5", 0), move(1, "D1", 4))  # D1 to the bottom first, then D5 (now 4th) to the top
    assert names(at) == ("D5", "D2", "D3", "D4", "D1")


def test_a_move_applies_by_document_to_the_newest_list(at):
    at.button(key="playground_reverse").click().run()  # the list changed after the browser drew it
    assert names(at) == ("D5", "D4", "D3", "D2", "D1")
    send(at, move(1, "D1", 0))  # the browser moved D1 (it was last there) to the top
    assert names(at) == ("D1", "D5", "D4", "D3", "D2")


def test_a_move_of_a_document_that_is_gone_is_skipped_and_acknowledged(at):
    send(at, move(1, "D9", 0, grade=1), move(2, "D2", 0))
    assert names(at) == ("D2", "D1", "D3", "D4", "D5")
    assert rl.last_applied(at.session_state, KEY) == 2


def test_moves_to_builds_the_queue_that_gives_a_permutation(at):
    message = rl.moves_to(at.session_state, KEY, [4, 3, 2, 1, 0])
    assert [m["seq"] for m in message["moves"]] == [1, 2, 3, 4]
    send(at, *message["moves"])
    assert names(at) == ("D5", "D4", "D3", "D2", "D1")


# --- the server's rule as a property: any split of a move sequence into (overlapping) messages --------------------

def _fake_session(ids):
    session: dict = {rl._tracker_key(KEY): {"applied": 0, "ids": list(ids)}}
    return session, mock.patch.object(ui_session, "st", types.SimpleNamespace(session_state=session))  # its one door


@settings(max_examples=150, deadline=None)
@given(
    n=st_.integers(2, 8),
    raw=st_.lists(st_.tuples(st_.integers(0, 7), st_.integers(0, 7)), min_size=1, max_size=12),
    cuts=st_.lists(st_.integers(0, 12), max_size=6),
    resend=st_.integers(0, 3),
)
def test_every_move_applies_exactly_once_whatever_the_messages(n, raw, cuts, resend):
    ids = [f"doc{i}" for i in range(n)]
    moves = [(seq, ids[a % n], b % n) for seq, (a, b) in enumerate(raw, start=1)]
    expected = rl._apply(ids, moves)  # one move after the other, each once
    session, patched = _fake_session(ids)
    applied_seqs: list[int] = []
    real_apply = rl._apply

    def recording_apply(order, batch):
        applied_seqs.extend(seq for seq, _, _ in batch)
        return real_apply(order, batch)

    with patched, mock.patch.object(rl, "_apply", recording_apply):
        current = list(ids)
        # The browser sends its unacknowledged queue after each move; the server runs at the cut points,
        # and sometimes a message re-sends moves the server already applied (the browser had not seen the answer).
        acknowledged = 0
        for end in sorted({min(c, len(moves)) for c in cuts} | {len(moves)}):
            start = max(0, acknowledged - resend)
            session[KEY] = {"moves": [{"seq": s, "id": d, "to": t} for s, d, t in moves[start:end]]}
            perm = rl.pending_order(KEY, n)
            if perm is not None:
                current = [current[i] for i in perm]
            session[rl._tracker_key(KEY)]["ids"] = list(current)  # the server draws the new list
            acknowledged = session[rl._tracker_key(KEY)]["applied"]
    assert current == expected
    assert acknowledged == len(moves)
    # Each move reached _apply exactly once, in order (re-applying "put doc at j" often changes nothing,
    # so the final order alone cannot tell).
    assert applied_seqs == list(range(1, len(moves) + 1))

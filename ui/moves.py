"""Counting moves in a ranked list (no Streamlit): the fewest a reordering needs, and the ones a person made.

A *move* takes one document out of the list and puts it back elsewhere. Documents that never move keep their
relative order, so the most that can stay is a longest increasing subsequence of the new order (given as a
permutation of the old positions); every other document moves once.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence


def longest_increasing(values: Sequence[int]) -> list[int]:
    """A longest strictly increasing subsequence of ``values`` (patience sorting, with links back to rebuild it)."""
    tails: list[int] = []  # tails[j]: index of the smallest last value of an increasing run of length j + 1
    before = [-1] * len(values)
    for i, value in enumerate(values):
        slot = bisect_left(tails, value, key=values.__getitem__)
        before[i] = tails[slot - 1] if slot else -1
        tails[slot:slot + 1] = [i]
    found, i = [], tails[-1] if tails else -1
    while i >= 0:
        found.append(values[i])
        i = before[i]
    return found[::-1]


def moves_needed(permutation: Sequence[int]) -> int:
    """Fewest moves (take one item out, insert it elsewhere) that turn 0..n-1 into ``permutation``."""
    return len(permutation) - len(longest_increasing(permutation))


def carried_moves(steps: Sequence[str], last: str | None) -> tuple[int, str | None]:
    """(moves, the document moved last) for ``steps``, the documents moved one step at a time, in order.

    A move is what ``moves_needed`` counts: a document taken out and put back elsewhere, however it travels.
    A drag is one step; ▲/▼ clicks and Alt+↑/↓ presses move a document one place per step, so a step of the
    document moved just before (``last`` for the first step: the one moved last in an earlier run) carries on
    that document's move instead of starting a new one. Three ▲ on one document are one move, as one drag is.
    """
    moves = 0
    for document in steps:
        moves += document != last
        last = document
    return moves, last


def move_steps(start: Sequence[str], target: Sequence[str]) -> list[tuple[str, int]]:
    """The moves that turn ``start`` into ``target`` (the same names), as few as :func:`moves_needed` counts:
    ``(name, rank)`` pairs, each taking ``name`` out and putting it back at 1-based ``rank`` of the list as it is
    then.

    The names of a longest run that is already in order stay; the others move, in their target order, each to
    just after the name that precedes it in ``target`` (already in place by then), so the list ends as ``target``.

    >>> move_steps(["D1", "D2", "D3", "D4"], ["D2", "D3", "D1", "D4"])
    [('D1', 3)]
    """
    position = {name: i for i, name in enumerate(start)}
    kept = {start[i] for i in longest_increasing([position[name] for name in target])}
    current = list(start)
    steps = []
    for i, name in enumerate(target):
        if name in kept:
            continue
        current.remove(name)
        rank = current.index(target[i - 1]) + 1 if i else 0
        current.insert(rank, name)
        steps.append((name, rank + 1))
    return steps

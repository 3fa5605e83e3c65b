"""The live class's records and refusals: plain dataclasses and exceptions shared by the store and the views."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


class LiveError(Exception):
    """Base of every refusal; the message is safe to show."""


class NotAuthorized(LiveError):
    """A control without the session's teacher secret (or a student token that does not belong)."""


class JoinRefused(LiveError):
    """Unknown or ended session code."""


class RateLimited(LiveError):
    """Too many failed join attempts from this client; try again in a minute."""


class NotOpen(LiveError):
    """The activity is not open for answers (not started yet, closed or revealed)."""


@dataclass(frozen=True)
class Stamp:
    """What a live page was drawn for, in one read (``store.session_stamp``): a poll redraws when it changes."""

    ended_at: float | None
    activity_id: int | None  # the current activity
    activity_state: str | None
    leaderboard: bool
    own_revision: int | None = None  # a student's page only: their answer to the current activity (None: none yet)


@dataclass(frozen=True)
class Session:
    id: int
    code: str
    title: str
    created_at: float
    ended_at: float | None
    current_activity_id: int | None
    leaderboard: bool

    @property
    def ended(self) -> bool:
        return self.ended_at is not None


@dataclass(frozen=True)
class Student:
    id: int
    session_id: int
    nickname: str


@dataclass(frozen=True)
class Activity:
    id: int
    session_id: int
    position: int
    kind: str
    spec: dict
    state: str


@dataclass(frozen=True)
class Answer:
    activity_id: int
    student_id: int
    nickname: str
    answer: dict
    label: str
    points: float
    correct: bool
    revision: int
    submitted_at: float


# A scorer turns (activity kind, spec, submitted answer) into (label, points, correct). The store calls it
# with the spec read from the database inside the submitting transaction, so the score is the server's.
Scorer = Callable[[str, dict, dict], tuple[str, float, bool]]

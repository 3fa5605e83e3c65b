"""The Live class page's session state: one typed :class:`LiveState`, plus the answer widgets' values.

Everything the page keeps between runs of one browser tab is here, under one key, through ``ui.session``;
the identity (code, token or secret) is in the URL, read and written through ``ui.url_state``. A reload starts
a fresh ``LiveState``; what matters survives in the database (answers) and the URL (who you are).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ui import session
from ui.live.model import Activity, Answer, Session, Stamp

STATE_KEY = "live"


@dataclass
class Pending:
    """An answer the database has not acknowledged yet (it was unreachable): re-sent on every poll."""

    code: str
    token: str
    activity_id: int
    answer: dict


@dataclass
class Reorder:
    """A student's working order in a reorder activity (indices into the spec's documents) and the moves made."""

    order: tuple[int, ...]
    moves: int = 0
    carried: str | None = None  # the document moved last: a ▲/▼ step of it carries on that move


@dataclass
class LiveState:
    """One tab's Live class state (student or teacher view)."""

    pending: Pending | None = None
    notice: tuple[str, str] | None = None  # ("success"|"error", text) from the last send, shown once
    stamp: Stamp | None = None  # what the student's page was drawn for (store.session_stamp)
    # activity id -> the revision of the student's stored answer that this tab's answer widgets hold (drawn from the
    # database, or sent from here); another revision was sent from another tab and replaces what the widgets hold
    shown_revision: dict[int, int] = field(default_factory=dict)
    outage: bool = False  # the last read failed: redraw everything once the database answers again
    teacher_error: str | None = None  # a refused or failed control, shown once at the top of the dashboard
    reorders: dict[int, Reorder] = field(default_factory=dict)  # activity id -> the student's working order
    view: tuple[Session, Activity | None, Answer | None] | None = None  # the student's last read (for outages)
    # Who this tab is in a class (the URL's code and student, teacher or screen token): a visit to another page
    # drops the address's parameters, and the Live class link in the sidebar brings the tab back to its place.
    place: dict[str, str] | None = None
    estimated: set[int] = field(default_factory=set)  # activity ids whose estimate slider the student has moved
    show_current: bool = False  # the teacher changed the current activity: bring it into view (ui.focus)
    # this tab has just started, reopened or joined a class: the button pressed is gone, so a keyboard focus lands
    # on the page's new content (the teacher's join band, the student's question; ui.focus.land_here)
    arrived: bool = False
    ended_here: bool = False  # this tab has just ended the session: its End button is gone, so the focus lands on the
    # notice that the session has ended (ui.live.teacher_settings)
    welcome_back: bool = False  # this tab rejoined as the student this browser already was (ui.live.device)
    renamed_from: str | None = None  # the nickname asked for, when another student of the class had it
    cut_from: str | None = None  # the nickname typed, when it was longer than a nickname keeps


def live() -> LiveState:
    """This tab's state (created on first use)."""
    return session.page_state(STATE_KEY, LiveState)


def take_notice() -> tuple[str, str] | None:
    """The last send's message, once."""
    state = live()
    notice, state.notice = state.notice, None
    return notice


def take_teacher_error() -> str | None:
    """The last refused or failed control's message, once."""
    state = live()
    error, state.teacher_error = state.teacher_error, None
    return error


# --- widget values (Streamlit keeps them under the widget's key) ------------------------------------------------

def answer_key(activity_id: int) -> str:
    """The key of the slider (estimate) or radio (compare) holding the student's answer."""
    return f"live_answer_{activity_id}"


def answer_value(activity_id: int):
    return session.widget(answer_key(activity_id))


def preset_answer(activity_id: int, value, *, replace: bool = False) -> None:
    """Set the answer widget before it is drawn: the stored answer after a reload or when ``replace`` (it was sent
    from another tab), else only when the widget has no value yet."""
    if (replace or not session.has(answer_key(activity_id))) and value is not None:
        session.set_widget(answer_key(activity_id), value)


KIND_KEY = "live_kind"
SEED_KEY = "live_seed"


def next_activity_choice() -> tuple[str | None, int]:
    """The teacher's "Next activity" kind and quiz seed as the browser holds them now.

    Read in the button's callback, not bound as its arguments when the page was drawn: a teacher who picks a kind
    and clicks "Add and open" before the page has redrawn must get the kind just picked.
    """
    return session.widget(KIND_KEY), int(session.widget(SEED_KEY, 0) or 0)


def offer_next_seed(seed: int, *, largest: int) -> None:
    """Put ``seed`` + 1 in the "Quiz seed" box (from an add button's callback): the same kind and seed is the same
    question, and a second "Add and open" asked the one just revealed again. The box stays editable."""
    session.set_widget(SEED_KEY, min(seed + 1, largest))


def resume_seed(used: list[int], *, largest: int) -> None:
    """On the dashboard's first draw in this browser session, the "Quiz seed" box after the largest seed the live
    session has used (``used``: its activities' seeds): a reload or another device started again at 0, and "Add and
    open" asked the questions already asked."""
    if not session.has(SEED_KEY):
        session.set_widget(SEED_KEY, min(max(used) + 1, largest) if used else 0)


END_ANYWAY_KEY = "live_end_anyway"  # the teacher's "end it anyway" when answers are not revealed yet
LEADERBOARD_KEY = "live_leaderboard"


def leaderboard_toggle() -> bool:
    return bool(session.widget(LEADERBOARD_KEY, False))

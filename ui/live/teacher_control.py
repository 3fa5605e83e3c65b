"""The teacher's buttons' one way to the store: this page's class code and teacher secret (from its URL), and the
call that runs a store control with them, turning a refusal or an outage into the message the dashboard shows once.

Shared by the dashboard (ui/live/teacher_view.py) and the session's settings (ui/live/teacher_settings.py).
"""

from __future__ import annotations

import sqlalchemy as sa

from ui import url_state
from ui.live import connection, store
from ui.live.state import live

RECONNECTING = "Reconnecting to the class database… (nothing is lost: the page retries by itself)"


def secret() -> str:
    return url_state.live_params().get(connection.TEACHER, "")


def code() -> str:
    return url_state.live_params().get(connection.CODE, "")


def control(action, **kwargs) -> None:
    """Run one store control with this page's code and secret; refusals and outages become messages."""
    try:
        action(connection.live_engine(), code=code(), secret=secret(), **kwargs)
        live().show_current = True
    except store.LiveError as error:
        live().teacher_error = str(error)
    except sa.exc.DBAPIError:
        live().teacher_error = RECONNECTING

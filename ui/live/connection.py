"""The live class's database connection, the Streamlit way, and the page's URL parameters.

Where the database is, first match wins:

1. the environment variable ``NDCG_LIVE_DB_URL`` (an SQLAlchemy URL, e.g.
   ``postgresql+psycopg://user:pass@host/db``), handy for K processes started by a script;
2. ``[connections.live]`` in ``.streamlit/secrets.toml`` (``url = "..."`` or the dialect/host/... keys);
3. otherwise an embedded SQLite file, ``.live/live.sqlite3`` beside app.py (WAL mode): no set-up at all.

``st.connection("live", type="sql")`` builds the engine once per process; the schema is migrated once per
process (``st.cache_resource``) before the first query. PostgreSQL connections are pre-pinged, so a database
that restarted is reconnected to transparently.
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st
from sqlalchemy.engine import Engine

from ui import url_state
from ui.live import schema, security

ENV_URL = "NDCG_LIVE_DB_URL"
DEFAULT_PATH = Path(__file__).resolve().parents[2] / ".live" / "live.sqlite3"

# URL parameters of the page (their format is documented, read and written in ui.url_state): a join link carries
# ``join``; a student's address ``code`` + ``student``; the teacher's ``code`` + ``teacher`` (the secret); the
# view-only projector's ``code`` + ``screen``.
JOIN, CODE, STUDENT, TEACHER, SCREEN = url_state.LIVE_PARAMS


def _secrets_configured() -> bool:
    try:
        return "live" in st.secrets.get("connections", {})
    except (FileNotFoundError, KeyError, AttributeError, st.errors.StreamlitSecretNotFoundError):
        return False


def database_url() -> str | None:
    """The URL from the environment or the default SQLite file; None when secrets.toml configures it."""
    if os.environ.get(ENV_URL):
        return os.environ[ENV_URL]
    if _secrets_configured():
        return None
    DEFAULT_PATH.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{DEFAULT_PATH}"


def live_engine() -> Engine:
    """The process's engine for the live class, configured (SQLite pragmas) and migrated."""
    url = database_url()
    options = {"url": url} if url else {}
    connection = st.connection("live", type="sql", pool_pre_ping=True, **options)
    engine = schema.configure(connection.engine)
    _migrated(engine.url.render_as_string(hide_password=True), engine)
    return engine


@st.cache_resource(show_spinner=False)
def _migrated(_url: str, _engine: Engine) -> int:
    # Keyed by the URL (the engine itself is not hashable): migrate once per process and database.
    return schema.migrate(_engine)


def client_keys() -> tuple[str, str]:
    """(this browser session's id, the client's IP address) for the join rate limit.

    Behind the nginx recipe (deploy/serve_multi.py) the direct peer is nginx on loopback, so the address is
    taken from the X-Forwarded-For header nginx sets; from any other peer that header is not trusted.
    """
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    context = get_script_run_ctx()
    session = context.session_id if context is not None else "no-session"
    peer = getattr(st.context, "ip_address", None) or ""
    if peer in ("127.0.0.1", "::1", ""):
        forwarded = (st.context.headers.get("X-Forwarded-For") or "").split(",")[0].strip()
        peer = forwarded or peer
    return session, peer


def page_url() -> str:
    """This page's absolute address without its query (for join and teacher links)."""
    url = getattr(st.context, "url", None) or ""
    base = url.split("?", 1)[0] if url else ""
    return base or "/live_class"


def join_link(code: str) -> str:
    return f"{page_url()}?{JOIN}={code}"


def teacher_link(code: str, secret: str) -> str:
    return f"{page_url()}?{CODE}={code}&{TEACHER}={secret}"


def screen_link(code: str, secret: str) -> str:
    return f"{page_url()}?{CODE}={code}&{SCREEN}={security.screen_token(secret)}"

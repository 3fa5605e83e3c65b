"""Live-class tables, their versioned migrations, and engine settings (SQLite in WAL mode or PostgreSQL).

The app creates and migrates its own schema: ``live_schema_version`` holds one row with the version applied,
and :func:`migrate` applies every newer step of :data:`MIGRATIONS` in order, each in its own transaction,
under a lock so that several app processes starting together migrate exactly once.

SQLite conventions (why): WAL journal so readers never block the single writer and several processes can
share the file; ``busy_timeout`` so a writer waits for the lock instead of failing; writes open with
``BEGIN IMMEDIATE`` (the write lock is taken up front, so two read-then-write transactions cannot deadlock
on a lock upgrade); ``foreign_keys=ON``. PostgreSQL needs none of this: same code, URL only.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

WRITE = "live_write"  # execution option: this connection's transaction will write (BEGIN IMMEDIATE on SQLite)
BUSY_TIMEOUT_MS = 15_000
NICKNAME_MAX = 24
CODE_LENGTH = 6

metadata = sa.MetaData()

version_table = sa.Table(
    "live_schema_version", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
)

sessions = sa.Table(
    "live_sessions", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(CODE_LENGTH), nullable=False, unique=True),
    sa.Column("teacher_hash", sa.String(64), nullable=False),
    sa.Column("title", sa.String(80), nullable=False, server_default=""),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("ended_at", sa.Float, nullable=True),
    sa.Column("current_activity_id", sa.Integer, nullable=True),
    # Added by migrations 2 and 3 (shown here so a fresh database and a migrated one have the same table).
    sa.Column("leaderboard", sa.Boolean, nullable=False, server_default=sa.false()),
    # Added by migration 3: digest of the view-only projector token (security.screen_token of the secret).
    sa.Column("screen_hash", sa.String(64), nullable=True),
)

students = sa.Table(
    "live_students", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("session_id", sa.Integer, sa.ForeignKey("live_sessions.id", ondelete="CASCADE"), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False, server_default=""),
    sa.Column("joined_at", sa.Float, nullable=False),
)

activities = sa.Table(
    "live_activities", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("session_id", sa.Integer, sa.ForeignKey("live_sessions.id", ondelete="CASCADE"), nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("spec", sa.Text, nullable=False),  # JSON: the question (documents, grades, k, gain, orders)
    sa.Column("state", sa.String(12), nullable=False, server_default="draft"),  # draft/open/closed/revealed
    sa.Column("opened_at", sa.Float, nullable=True),
    sa.Column("closed_at", sa.Float, nullable=True),
    sa.Column("revealed_at", sa.Float, nullable=True),
    sa.UniqueConstraint("session_id", "position", name="uq_live_activity_position"),
)

answers = sa.Table(
    "live_answers", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("activity_id", sa.Integer, sa.ForeignKey("live_activities.id", ondelete="CASCADE"), nullable=False),
    sa.Column("student_id", sa.Integer, sa.ForeignKey("live_students.id", ondelete="CASCADE"), nullable=False),
    sa.Column("answer", sa.Text, nullable=False),  # JSON: what the student submitted
    sa.Column("label", sa.String(64), nullable=False),  # the bucket shown in the distribution
    sa.Column("points", sa.Float, nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("revision", sa.Integer, nullable=False, server_default="1"),  # 2, 3, ... after replacements
    sa.Column("submitted_at", sa.Float, nullable=False),
    # One answer per student and activity: a re-submission replaces it (store.submit_answer), never adds one.
    # Its index (activity_id first) also serves the dashboard's "answers of this activity" query.
    sa.UniqueConstraint("activity_id", "student_id", name="uq_live_answer_student_activity"),
)

join_failures = sa.Table(
    "live_join_failures", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("client", sa.String(80), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_live_join_failures_client_at", "client", "at"),
)

def _v1(conn: Connection) -> None:
    """Sessions (without the columns migrations 2 and 3 add), students, activities, answers."""
    v1 = sa.MetaData()
    sa.Table(
        sessions.name, v1,
        *(sa.Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable, unique=c.unique,
                    server_default=c.server_default.arg if c.server_default is not None else None)
          for c in sessions.columns if c.name not in ("leaderboard", "screen_hash")),
    )
    for table in (students, activities, answers):
        table.to_metadata(v1)
    v1.create_all(conn)


def _v2(conn: Connection) -> None:
    """Leaderboard switch per session; failed join attempts for the rate limit (with their index)."""
    conn.execute(sa.text("ALTER TABLE live_sessions ADD COLUMN leaderboard BOOLEAN NOT NULL DEFAULT FALSE"))
    join_failures.create(conn)  # with its (client, at) index


def _v3(conn: Connection) -> None:
    """A view-only projector link per session (its token's digest; NULL for sessions made before)."""
    conn.execute(sa.text("ALTER TABLE live_sessions ADD COLUMN screen_hash VARCHAR(64)"))


MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_v1, _v2, _v3)
LATEST = len(MIGRATIONS)


def configure(engine: Engine) -> Engine:
    """Attach the SQLite settings above to ``engine`` (idempotent; nothing to do for PostgreSQL)."""
    if engine.dialect.name != "sqlite" or sa.event.contains(engine, "connect", _sqlite_connect):
        return engine
    sa.event.listen(engine, "connect", _sqlite_connect)
    sa.event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection, _record) -> None:
    # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite's own implicit BEGIN is deferred).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    _use_wal(cursor)
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a committed write survives an app crash
    cursor.close()


def _use_wal(cursor) -> None:
    """Put the database file in WAL mode (a property of the file: done once, by the first connection).

    The switch needs the file to itself, and while another connection holds the write lock SQLite answers
    "database is locked" at once, without waiting out the busy timeout (four threads migrating a new file
    together: 9 races in 300 failed so, on 2 busy cores). So the switch is retried until it holds, within that
    timeout.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if cursor.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() == "wal":
                return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError("database is locked: it could not be put in WAL mode")
        time.sleep(0.01)


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE) else "BEGIN")


def create_engine(url: str, **kwargs) -> Engine:
    """An engine for ``url`` with the settings above (tests and benchmarks; the app uses st.connection)."""
    return configure(sa.create_engine(url, **kwargs))


def current_version(conn: Connection) -> int:
    if not sa.inspect(conn).has_table(version_table.name):
        return 0
    return conn.execute(sa.select(version_table.c.version).where(version_table.c.id == 1)).scalar() or 0


def migrate(engine: Engine, *, target: int = LATEST) -> int:
    """Bring the schema to version ``target`` (default: the latest); returns the version now applied.

    Each step runs in one transaction together with the version bump, so a crash leaves the schema at a
    whole version. PostgreSQL takes a transaction-level advisory lock; SQLite's BEGIN IMMEDIATE serialises.
    """
    configure(engine)
    while True:
        with engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
            if engine.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(1414743)"))  # arbitrary, fixed key
            version_table.create(conn, checkfirst=True)
            version = current_version(conn)
            if version >= target:
                return version
            MIGRATIONS[version](conn)
            if version == 0:
                conn.execute(version_table.insert().values(id=1, version=1))
            else:
                conn.execute(version_table.update().where(version_table.c.id == 1).values(version=version + 1))

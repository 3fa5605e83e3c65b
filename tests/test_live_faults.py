"""Live class faults against a running server, through Streamlit's websocket protocol (bench/bench_live.py's Tab).

* The app process is killed (SIGKILL) mid-activity and started again: the session, every acknowledged answer
  and the teacher's control come back (SQLite and PostgreSQL).
* PostgreSQL stops for 10 s mid-activity: the student's page shows "Reconnecting", nothing crashes, an answer
  sent during the outage is kept in the page and written once the database is back; nothing acknowledged
  before is lost.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bench.bench_live import Tab
from tests.browser.conftest import free_port, stop_app
from tests.conftest import run_async
from tests.live_databases import fresh_database, postgres_cluster, require_postgres, running_postgres
from ui.live import activities, schema, store

SLIDER, SEND = "Your estimate of NDCG", "Send my answer"
ROOT = Path(__file__).resolve().parents[1]


def start_app(port: int, log: Path) -> subprocess.Popen:
    """`streamlit run app.py` in its own process group, its output in ``log`` (a full pipe would block it)."""
    with log.open("ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                                    "--server.address", "127.0.0.1", "--server.port", str(port)],
                                   cwd=ROOT, stdout=out, stderr=out, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-2000:]
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                return process
        except OSError:
            time.sleep(0.3)
    stop_app(process)
    raise RuntimeError("streamlit did not become healthy within 60 s")


@pytest.fixture(scope="module")
def postgres_server():
    with postgres_cluster() as url:
        yield url


def _database(kind: str, tmp_path, request) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'live.sqlite3'}"
    return fresh_database(request.getfixturevalue("postgres_server"))


def _classroom(engine):
    session, secret = store.create_session(engine)
    activity = store.add_activity(engine, code=session.code, secret=secret, kind="estimate",
                                  spec=activities.generate("estimate", seed=3))
    store.set_state(engine, code=session.code, secret=secret, activity_id=activity.id, state="open")
    _student, token = store.join(engine, code=session.code, client="faults")
    return session, secret, activity, token


def _query(**params) -> str:
    return urllib.parse.urlencode(params)


async def _answer(base: str, code: str, token: str, value: float) -> list[str]:
    tab = Tab(base, _query(code=code, student=token), timeout=60)
    await tab.open()
    await tab.run([{"id": tab.widgets[SLIDER], "double_array_value": {"data": [value]}},
                   {"id": tab.widgets[SEND], "trigger_value": True}], tab.widget_fragments[SEND])
    texts = list(tab.texts)
    await tab.close()
    return texts


async def _texts(base: str, query: str) -> tuple[list[str], dict[str, str]]:
    tab = Tab(base, query, timeout=60)
    await tab.open()
    texts, widgets = list(tab.texts), dict(tab.widgets)
    await tab.close()
    return texts, widgets


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_killed_app_comes_back_with_every_acknowledged_answer(kind, tmp_path, request, monkeypatch):
    if kind == "postgresql":
        require_postgres()
    url = _database(kind, tmp_path, request)
    monkeypatch.setenv("NDCG_LIVE_DB_URL", url)
    engine = schema.create_engine(url)
    schema.migrate(engine)
    session, secret, activity, token = _classroom(engine)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    app = start_app(port, tmp_path / "app.log")
    try:
        texts = run_async(_answer(base, session.code, token, 0.42))
        assert any("Answer received: 0.42" in text for text in texts), texts
        os.killpg(app.pid, signal.SIGKILL)  # the whole process group, no clean-up
        app.wait(timeout=10)
        app = start_app(port, tmp_path / "app.log")
        texts, _ = run_async(_texts(base, _query(code=session.code, student=token)))
        assert any("Answer received: 0.42" in text for text in texts), texts
        _, widgets = run_async(_texts(base, _query(code=session.code, teacher=secret)))
        assert "Close" in widgets  # the teacher link still controls the session
        [row] = store.activity_answers(engine, activity.id)
        assert row.answer == {"value": 0.42} and row.revision == 1
    finally:
        stop_app(app)
        engine.dispose()


def test_database_outage_shows_reconnecting_and_loses_nothing(tmp_path, monkeypatch):
    with running_postgres() as cluster:
        url = fresh_database(cluster.url)
        monkeypatch.setenv("NDCG_LIVE_DB_URL", url)
        engine = schema.create_engine(url, pool_pre_ping=True)
        schema.migrate(engine)
        session, _secret, activity, token = _classroom(engine)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        app = start_app(port, tmp_path / "app.log")
        try:
            run_async(_outage(base, session.code, token, cluster))
            [row] = store.activity_answers(engine, activity.id)
            assert row.answer == {"value": 0.77} and row.revision == 2  # the answer sent during the outage
        finally:
            stop_app(app)
            engine.dispose()


async def _outage(base: str, code: str, token: str, cluster) -> None:
    tab = Tab(base, _query(code=code, student=token), timeout=60)
    await tab.open()
    fragment = next(iter(tab.fragments))  # the poll
    slider, send, form = tab.widgets[SLIDER], tab.widgets[SEND], tab.widget_fragments[SEND]
    await tab.run([{"id": slider, "double_array_value": {"data": [0.31]}}, {"id": send, "trigger_value": True}], form)
    assert any("Answer received: 0.31" in text for text in tab.texts), tab.texts
    cluster.stop()
    await tab.run(fragment=fragment)  # a poll while the database is down
    assert any("Reconnecting" in text for text in tab.texts), tab.texts
    await tab.run([{"id": slider, "double_array_value": {"data": [0.77]}}, {"id": send, "trigger_value": True}], form)
    assert any("Reconnecting" in text for text in tab.texts), tab.texts
    assert not any("0.77" in text for text in tab.texts)  # not acknowledged while the database is down
    for _ in range(5):  # the page keeps polling through the outage (as five 2-s polls would) without crashing
        await tab.run(fragment=fragment)
        assert any("Reconnecting" in text for text in tab.texts), tab.texts
        assert not any("0.77" in text for text in tab.texts)
    cluster.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the next polls re-send the kept answer: poll until it is acknowledged
        await tab.run(fragment=fragment)
        if any("Answer replaced: 0.77" in text for text in tab.texts):
            break
        await asyncio.sleep(0.2)  # the gap between two polls (the page's own is 2 s), not a wait for a state
    assert any("Answer replaced: 0.77" in text for text in tab.texts), tab.texts
    await tab.close()

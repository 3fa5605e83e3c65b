"""Live class under load: N students answer one activity within the same window, through the real protocol.

What it does (loopback only):

1. starts the app (``streamlit run app.py``, or ``--processes K`` app processes behind nginx with
   ``deploy/serve_multi.py``) on a fresh database: an SQLite file, or with ``--postgres`` a throwaway
   PostgreSQL cluster (tests/live_databases.py) that all processes share;
2. creates a session and opens an "estimate" activity through the store (the teacher's clicks are not what
   is measured), and admits N students (the store's ``join``, so each has a real token);
3. opens one websocket per student on ``/live_class?code=…&student=…``, like a phone: the first run, then
   the watching fragment's auto-rerun every 2 s (what the browser does for ``st.fragment(run_every=2)``);
4. every student answers once at a random moment of the same ``--window`` seconds: a rerun of the fragment
   holding the answer form, carrying the slider's value and the "Send my answer" trigger. *Acknowledged* means that run finished
   and showed "Answer received"; the ack latency is send → script_finished;
5. a teacher websocket on the teacher link re-runs the dashboard fragment every 1.5 s (as its browser does);
   its refresh latency is measured, and reported separately once all N answers are in;
6. at the end the database is read: every acknowledged answer must be there exactly once with its value
   (lost = acknowledged but missing or different; duplicated = more rows than students).

    python bench/bench_live.py --students 200                 # one process, SQLite
    python bench/bench_live.py --students 200 --postgres --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load_test import free_port, kill_group, percentile, process_group_cpu_seconds, start_streamlit, wait_healthy  # noqa: E402
from ui.live import activities, schema, store  # noqa: E402

PAGE = "live_class"
FINISHED_OK = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


class Tab:
    """One browser tab on the Live class page, speaking Streamlit's websocket protocol."""

    def __init__(self, base: str, query: str, timeout: float) -> None:
        self.base = urllib.parse.urlsplit(base)
        self.query = query
        self.timeout = timeout
        self.page_hash = ""
        self.fragments: set[str] = set()  # fragment ids this page auto-reruns (st.fragment(run_every=...))
        self.widgets: dict[str, str] = {}  # label -> widget id (sliders and buttons of the last run)
        self.widget_fragments: dict[str, str] = {}  # label -> id of the fragment that draws the widget
        self.texts: list[str] = []  # alert and markdown bodies of the last run
        self.websocket = None

    def _message(self, states: list | None = None, fragment: str = "") -> bytes:
        message = BackMsg()
        rerun = message.rerun_script
        rerun.query_string = self.query
        rerun.page_script_hash = self.page_hash
        if not self.page_hash:
            rerun.page_name = PAGE
        if fragment:
            rerun.fragment_id = fragment
            rerun.is_auto_rerun = not states
        rerun.context_info.timezone = "UTC"
        rerun.context_info.url = f"{self.base.scheme}://{self.base.netloc}/{PAGE}?{self.query}"
        for state in states or []:  # WidgetState messages, or dicts of their fields
            rerun.widget_states.widgets.append(state if isinstance(state, WidgetState) else WidgetState(**state))
        return message.SerializeToString()

    async def open(self) -> float:
        url = f"ws://{self.base.netloc}/_stcore/stream"
        cookie = await asyncio.to_thread(self._shell)
        self.websocket = await websockets.connect(url, subprotocols=["streamlit"], max_size=None, compression=None,
                                                  additional_headers={"Cookie": cookie} if cookie else {},
                                                  open_timeout=self.timeout)
        return await self.run()

    def _shell(self) -> str:
        import http.client

        connection = http.client.HTTPConnection(self.base.hostname, self.base.port, timeout=30)
        connection.request("GET", f"/{PAGE}?{self.query}")
        response = connection.getresponse()
        response.read()
        cookie = "; ".join(v.split(";", 1)[0] for k, v in response.getheaders() if k.lower() == "set-cookie")
        connection.close()
        return cookie

    async def run(self, states: list | None = None, fragment: str = "") -> float:
        """Send one rerun (a fragment's, when given) and read until it finishes; returns the seconds taken."""
        started = time.perf_counter()
        self.texts = []
        await self.websocket.send(self._message(states, fragment))
        while True:
            remaining = started + self.timeout - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError("no script_finished in time")
            message = ForwardMsg()
            message.ParseFromString(await asyncio.wait_for(self.websocket.recv(), timeout=remaining))
            kind = message.WhichOneof("type")
            if kind == "new_session":
                self.page_hash = self.page_hash or message.new_session.page_script_hash
            elif kind == "navigation":
                self.page_hash = message.navigation.page_script_hash
            elif kind == "auto_rerun":
                self.fragments.add(message.auto_rerun.fragment_id)
            elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                self._remember(message.delta.new_element, message.delta.fragment_id)
            elif kind == "script_finished":
                if message.script_finished in FINISHED_OK:
                    return time.perf_counter() - started
                if message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    raise RuntimeError(f"run ended with {ForwardMsg.ScriptFinishedStatus.Name(message.script_finished)}")

    def _remember(self, element, fragment: str) -> None:
        kind = element.WhichOneof("type")
        if kind in ("slider", "button"):
            widget = getattr(element, kind)
            self.widgets[widget.label] = widget.id
            self.widget_fragments[widget.label] = fragment
        elif kind == "alert":
            self.texts.append(element.alert.body.replace("\\", ""))  # markdown escapes dropped
        elif kind == "exception":
            raise RuntimeError(f"app exception: {element.exception.message}")

    async def close(self) -> None:
        if self.websocket is not None:
            await self.websocket.close()


async def student(number: int, base: str, code: str, token: str, args, results: dict, window_start: float) -> None:
    tab = Tab(base, urllib.parse.urlencode({"code": code, "student": token}), args.timeout)
    rng = random.Random(number)
    value = round(rng.uniform(0, 1), 2)
    answer_at = window_start + rng.uniform(0, args.window)
    try:
        await tab.open()
        fragment = next(iter(tab.fragments))
        sent = False
        while time.perf_counter() < window_start + args.window + 2 * args.poll:
            if not sent and time.perf_counter() >= answer_at:
                states = [WidgetState(id=tab.widgets["Your estimate of NDCG"], double_array_value={"data": [value]}),
                          WidgetState(id=tab.widgets["Send my answer"], trigger_value=True)]
                seconds = await tab.run(states, tab.widget_fragments["Send my answer"])  # as the browser does
                if any("Answer received" in text for text in tab.texts):
                    results["acks"][number] = (value, seconds)
                else:
                    results["errors"].append(f"student {number}: no acknowledgement: {tab.texts}")
                sent = True
                continue
            wake = min(answer_at if not sent else float("inf"), time.perf_counter() + args.poll * rng.uniform(0.9, 1.1))
            await asyncio.sleep(max(0.0, wake - time.perf_counter()))
            if sent or time.perf_counter() < answer_at:
                results["polls"].append(await tab.run(fragment=fragment))
    except Exception as error:  # noqa: BLE001 - every failure is counted and printed
        results["errors"].append(f"student {number}: {type(error).__name__}: {error}")
    finally:
        await tab.close()


async def teacher(base: str, code: str, secret: str, args, results: dict, done: asyncio.Event) -> None:
    tab = Tab(base, urllib.parse.urlencode({"code": code, "teacher": secret}), args.timeout)
    try:
        await tab.open()
        fragment = next(iter(tab.fragments))
        while not done.is_set():
            await asyncio.sleep(1.5)
            seconds = await tab.run(fragment=fragment)
            key = "dashboard_full" if len(results["acks"]) >= args.students else "dashboard"
            results[key].append(seconds)
    except Exception as error:  # noqa: BLE001
        results["errors"].append(f"teacher: {type(error).__name__}: {error}")
    finally:
        await tab.close()


async def drive(base: str, engine, args) -> dict:
    session, secret = store.create_session(engine, title="bench")
    activity = store.add_activity(engine, code=session.code, secret=secret, kind="estimate",
                                  spec=activities.generate("estimate", seed=7))
    store.set_state(engine, code=session.code, secret=secret, activity_id=activity.id, state="open")
    admitted = [store.join(engine, code=session.code, client=f"bench-{n}") for n in range(args.students)]
    tokens = [token for _student, token in admitted]
    results = {"acks": {}, "polls": [], "dashboard": [], "dashboard_full": [], "errors": []}
    window_start = time.perf_counter() + args.ramp
    done = asyncio.Event()
    teacher_task = asyncio.create_task(teacher(base, session.code, secret, args, results, done))
    tasks = []
    for n, token in enumerate(tokens):
        tasks.append(asyncio.create_task(student(n, base, session.code, token, args, results, window_start)))
        await asyncio.sleep(args.ramp * 0.8 / args.students)
    await asyncio.gather(*tasks)
    await asyncio.sleep(args.after * 1.5)  # dashboard refreshes with every answer in
    done.set()
    await teacher_task
    rows = store.activity_answers(engine, activity.id)
    stored = {row.student_id: row for row in rows}
    results["rows"] = len(rows)
    results["duplicated"] = len(rows) - len(stored) + sum(row.revision - 1 for row in rows)
    lost = [n for n, (value, _s) in results["acks"].items()
            if admitted[n][0].id not in stored or abs(stored[admitted[n][0].id].answer["value"] - value) > 1e-9]
    results["lost"] = len(lost)
    results["errors"] += [f"student {n}: sent {results['acks'][n][0]}, stored "
                          f"{stored.get(admitted[n][0].id) and stored[admitted[n][0].id].answer}" for n in lost[:5]]
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--window", type=float, default=10.0, help="seconds in which every student answers")
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds to connect every student first")
    parser.add_argument("--poll", type=float, default=2.0, help="student fragment auto-rerun interval")
    parser.add_argument("--after", type=int, default=20, help="dashboard refreshes measured after the last answer")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()

    with contextlib.ExitStack() as stack:
        if args.postgres:
            from tests.live_databases import fresh_database, postgres_cluster

            url = fresh_database(stack.enter_context(postgres_cluster()))
        else:
            url = f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/live.sqlite3"
        os.environ["NDCG_LIVE_DB_URL"] = url
        engine = schema.create_engine(url)
        schema.migrate(engine)
        if args.processes == 1:
            port = free_port()
            server = start_streamlit(port, [])
            stack.callback(kill_group, server)
            base = f"http://127.0.0.1:{port}"
            wait_healthy(base)
            pids = [server.pid]
        else:  # K processes behind nginx (deploy/serve_multi.py), sharing the database
            from deploy.serve_multi import Cluster

            cluster = Cluster(processes=args.processes, streamlit_args=[])
            stack.callback(cluster.stop)
            cluster.start()
            base, pids = cluster.url, cluster.pids()
        cpu_before, client_before = process_group_cpu_seconds(pids), time.process_time()
        started = time.perf_counter()
        results = asyncio.run(drive(base, engine, args))
        elapsed = time.perf_counter() - started
        cpu = process_group_cpu_seconds(pids) - cpu_before
        client_cpu = time.process_time() - client_before
        engine.dispose()
    acks = [seconds for _value, seconds in results["acks"].values()]
    summary = {
        "students": args.students, "processes": args.processes, "database": "postgresql" if args.postgres else "sqlite",
        "acknowledged": len(acks), "rows": results["rows"], "lost": results["lost"], "duplicated": results["duplicated"],
        "ack_p50_ms": round(1000 * percentile(acks, 0.5)) if acks else None,
        "ack_p95_ms": round(1000 * percentile(acks, 0.95)) if acks else None,
        "poll_p95_ms": round(1000 * percentile(results["polls"], 0.95)) if results["polls"] else None,
        "dashboard_p95_ms_all_answers": (round(1000 * percentile(results["dashboard_full"], 0.95))
                                         if results["dashboard_full"] else None),
        "dashboard_refreshes_all_answers": len(results["dashboard_full"]),
        "dashboard_p95_ms_while_answering": (round(1000 * percentile(results["dashboard"], 0.95))
                                             if results["dashboard"] else None),
        "runs": len(results["polls"]) + len(acks) + len(results["dashboard"]) + len(results["dashboard_full"]),
        "server_cpu_s": round(cpu, 1), "client_cpu_s": round(client_cpu, 1), "elapsed_s": round(elapsed, 1),
        "load_average_1min_after": os.getloadavg()[0], "errors": len(results["errors"]),
    }
    print(json.dumps(summary, indent=2))
    for line in results["errors"][:10]:
        print("  ", line)
    return 0 if not results["errors"] and summary["lost"] == 0 and summary["duplicated"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())

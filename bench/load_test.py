"""Load test: N simulated students on the Playground, through Streamlit's real client protocol.

Each simulated session does what a browser tab does:

1. ``GET /playground`` (the HTML shell; keeps any routing cookie a proxy sets), ``GET /_stcore/health`` and
   ``GET /_stcore/host-config``;
2. opens the websocket ``/_stcore/stream`` (sub-protocol ``streamlit``) and sends a ``BackMsg`` with
   ``rerun_script`` carrying the page name and query string, like the browser's first run;
3. every few seconds (``--interval``, with jitter) changes the list the way a student does, by sending the
   widget state of one of the Playground's order buttons (reverse, shuffle, ideal, worst, reset,
   move up/down) as a ``trigger_value``, or a new order for the drag-and-drop ranked-list component;
   when the page has neither, it flips the sidebar's log-base radio so that every rerun still does work.

A rerun's latency is the time from sending the ``BackMsg`` to receiving ``script_finished``. Errors are: an
``exception`` element in any ``ForwardMsg`` delta, a run that does not finish successfully, a page that is
not found, a rerun that takes longer than ``--rerun-timeout``, and a websocket that closes or fails.
The server's peak memory is its resident set size (sum over its process group, read from /proc).

Usage (from the repository root)::

    python bench/load_test.py                          # 40 sessions, 60 s, one `streamlit run app.py`
    python bench/load_test.py --sessions 80 --processes 2   # 2 app processes behind nginx (deploy/)
    python bench/load_test.py --url http://127.0.0.1:8080   # an app that is already running

Traffic goes to loopback only: the script refuses any other host. It stops by itself after
``--duration`` seconds and kills the servers it started (their whole process group).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
# Order buttons of the Playground, matched case-insensitively against button labels.
ORDER_BUTTON_WORDS = ("reverse", "shuffle", "ideal", "worst", "reset", "move up", "move down", "↑", "↓")
FINISHED_OK = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


# --- measurements ------------------------------------------------------------------------------------------

@dataclass
class Stats:
    """Everything the sessions measured; shared by all sessions (one asyncio loop, so no locks)."""

    latencies: list[float] = field(default_factory=list)  # seconds, one per completed rerun
    first_load: list[float] = field(default_factory=list)  # seconds from connect to the first script_finished
    errors: list[str] = field(default_factory=list)
    actions: dict[str, int] = field(default_factory=dict)
    bytes_received: int = 0
    sessions_started: int = 0
    sessions_connected: int = 0
    server_cpu_seconds: float = 0.0
    rss_samples: list[tuple[float, int]] = field(default_factory=list)  # (seconds since start, bytes)
    connections_per_app: dict[int, int] = field(default_factory=dict)  # behind nginx: peak open connections

    def error(self, session: int, message: str) -> None:
        self.errors.append(f"session {session}: {message}")


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (share in 0..1) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, round(share * len(ordered) + 0.5))
    return ordered[min(rank, len(ordered)) - 1]


def process_group_rss_bytes(root_pids: list[int]) -> int:
    """Resident memory of the given processes and all their descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat_file:
                fields = stat_file.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    seen: set[int] = set()
    pending = list(root_pids)
    total = 0
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        pending.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status_file:
                for line in status_file:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            continue
    return total


def process_group_cpu_seconds(root_pids: list[int]) -> float:
    """User + system CPU seconds used so far by the given processes (their own threads, not children)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in root_pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat_file:
                fields = stat_file.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


async def watch_memory(pids: list[int], peak: list[int], stop: asyncio.Event, cluster=None,
                       connections: dict[int, int] | None = None,
                       samples: list[tuple[float, int]] | None = None) -> None:
    """Sample the servers' RSS every 0.5 s and keep the peak (and, behind nginx, connections per app)."""
    started = time.perf_counter()
    while not stop.is_set():
        rss = process_group_rss_bytes(pids)
        peak[0] = max(peak[0], rss)
        if samples is not None:
            samples.append((time.perf_counter() - started, rss))
        if cluster is not None and connections is not None:
            for port, count in cluster.connections_per_app().items():
                connections[port] = max(connections.get(port, 0), count)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=0.5)


# --- one simulated browser tab ------------------------------------------------------------------------------

class Session:
    """One student's browser tab speaking Streamlit's websocket protocol."""

    def __init__(self, number: int, base_url: str, args: argparse.Namespace, stats: Stats) -> None:
        self.number = number
        self.base = urllib.parse.urlsplit(base_url)
        self.args = args
        self.stats = stats
        self.random = random.Random(args.seed * 1000 + number)
        self.query_string = args.query
        self.page_script_hash = ""
        self.cookie = ""
        # Widgets seen in the latest run: id -> (element type, proto of the element)
        self.buttons: dict[str, str] = {}  # id -> label
        self.components: dict[str, object] = {}  # id -> BidiComponent element
        self.radios: dict[str, tuple[str, int, list[str]]] = {}  # id -> (label, current index, option labels)
        self.radio_values: dict[str, int] = {}  # radio id -> index this session chose

    # HTTP, as the browser does before opening the websocket --------------------------------------------------
    def _http_get(self, path: str) -> None:
        connection = http.client.HTTPConnection(self.base.hostname, self.base.port or 80, timeout=30)
        try:
            headers = {"Cookie": self.cookie} if self.cookie else {}
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status >= 400:
                raise RuntimeError(f"GET {path} returned HTTP {response.status}")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    pair = value.split(";", 1)[0]
                    self.cookie = f"{self.cookie}; {pair}" if self.cookie else pair
        finally:
            connection.close()

    async def _load_shell(self) -> None:
        prefix = self.base.path.rstrip("/")
        query = f"?{self.query_string}" if self.query_string else ""
        for path in (f"{prefix}/{self.args.page}{query}", f"{prefix}/_stcore/health", f"{prefix}/_stcore/host-config"):
            await asyncio.to_thread(self._http_get, path)

    # Protocol ------------------------------------------------------------------------------------------------
    def _rerun_message(self, widget_states: list | None = None) -> bytes:
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_script_hash
        if not self.page_script_hash:
            state.page_name = self.args.page
        state.context_info.timezone = "UTC"
        state.context_info.timezone_offset = 0
        state.context_info.locale = "en-GB"
        state.context_info.url = f"{self.base.scheme}://{self.base.netloc}/{self.args.page}"
        for widget in widget_states or []:
            state.widget_states.widgets.append(widget)
        return message.SerializeToString()

    def _remember_element(self, element) -> None:
        kind = element.WhichOneof("type")
        if kind == "button":
            self.buttons[element.button.id] = element.button.label
        elif kind == "bidi_component":
            self.components[element.bidi_component.id] = element.bidi_component
        elif kind == "radio":
            radio = element.radio
            index = self.radio_values.get(radio.id, radio.default)
            self.radios[radio.id] = (radio.label, index, list(radio.options))
        elif kind == "exception":
            # Keep reading to script_finished so the next rerun starts on a clean stream.
            text = element.exception.message or element.exception.type
            where = " | ".join(line.strip() for line in element.exception.stack_trace[-4:])
            self.problems.append(f"exception {element.exception.type}: {text}"[:300] + (f" at {where}"[:600] if where else ""))

    async def _run_until_finished(self, websocket, started: float) -> float:
        """Read ForwardMsgs until script_finished; return the elapsed seconds."""
        self.buttons.clear()
        self.components.clear()
        self.radios.clear()
        self.problems: list[str] = []
        deadline = started + self.args.rerun_timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"no script_finished within {self.args.rerun_timeout} s")
            data = await asyncio.wait_for(websocket.recv(), timeout=remaining)
            self.stats.bytes_received += len(data)
            message = ForwardMsg()
            message.ParseFromString(data)
            kind = message.WhichOneof("type")
            if kind == "delta":
                delta = message.delta
                if delta.WhichOneof("type") == "new_element":
                    self._remember_element(delta.new_element)
            elif kind == "page_info_changed":
                self.query_string = message.page_info_changed.query_string
            elif kind == "navigation":
                self.page_script_hash = message.navigation.page_script_hash
            elif kind == "new_session":
                self.page_script_hash = self.page_script_hash or message.new_session.page_script_hash
            elif kind == "page_not_found":
                raise AppException(f"page not found: {message.page_not_found.page_name!r}")
            elif kind == "script_finished":
                status = message.script_finished
                if status in FINISHED_OK:
                    if self.problems:
                        raise AppException("; ".join(self.problems))
                    return time.perf_counter() - started
                if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # a newer run follows (e.g. st.rerun or st.switch_page inside the page)
                raise AppException(f"script finished with status {ForwardMsg.ScriptFinishedStatus.Name(status)}")

    def _next_change(self) -> tuple[str, list]:
        """Pick the next edit a student makes and return (description, widget states to send)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        order_buttons = [
            (widget_id, label) for widget_id, label in self.buttons.items()
            if any(word in label.lower() for word in ORDER_BUTTON_WORDS)
        ]
        choices: list[str] = []
        if order_buttons:
            choices.append("button")
        if self.components:
            choices.append("component")
        if not choices:
            choices.append("radio")
        choice = self.random.choice(choices)
        if choice == "button":
            widget_id, label = self.random.choice(order_buttons)
            return f"button {label!r}", [WidgetState(id=widget_id, trigger_value=True)]
        if choice == "component":
            widget_id = self.random.choice(list(self.components))
            return "ranked-list drag", [self._drag(widget_id)]
        log_base = [(wid, value) for wid, value in self.radios.items() if "log base" in value[0].lower()]
        candidates = log_base or list(self.radios.items())
        if not candidates:
            return "plain rerun", []
        widget_id, (label, index, options) = self.random.choice(candidates)
        if not options:
            return "plain rerun", []
        # A radio's widget value is the label of the chosen option.
        self.radio_values[widget_id] = (index + 1) % len(options)
        return f"radio {label!r}", [WidgetState(id=widget_id, string_value=options[self.radio_values[widget_id]])]

    def _drag(self, widget_id: str):
        """A drag in the ranked-list component (ui/ranked_list.py): its state ``moves`` = the queued moves.

        The component's data (sent by the server) holds the ids shown and the last move applied; one move
        of a random row to another position, numbered after that, is what the browser would report.
        """
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        element = self.components[widget_id]
        payload = element.json or (element.mixed.json if element.HasField("mixed") else "")
        try:
            data = json.loads(payload) if payload else {}
        except ValueError:
            data = {}
        ids = data.get("ids") or []
        moves = []
        if len(ids) > 1:
            source, target = self.random.sample(range(len(ids)), 2)
            moves.append({"seq": int(data.get("applied", 0)) + 1, "id": ids[source], "from": source, "to": target})
        return WidgetState(id=widget_id, json_value=json.dumps({"moves": moves}))

    epoch: float = 0.0  # shared clock for --burst (set by drive)

    async def run(self, stop_at: float) -> None:
        stats = self.stats
        stats.sessions_started += 1
        scheme = "wss" if self.base.scheme == "https" else "ws"
        url = f"{scheme}://{self.base.netloc}{self.base.path.rstrip('/')}/_stcore/stream"
        try:
            await self._load_shell()
            headers = {"Cookie": self.cookie} if self.cookie else {}
            connect_started = time.perf_counter()
            async with websockets.connect(
                url, subprotocols=["streamlit"], additional_headers=headers, max_size=None,
                open_timeout=self.args.rerun_timeout, compression=None,
            ) as websocket:
                stats.sessions_connected += 1
                await websocket.send(self._rerun_message())
                stats.first_load.append(await self._run_until_finished(websocket, connect_started))
                made = 0
                while True:
                    pause = self.args.interval * self.random.uniform(0.5, 1.5)
                    if self.args.burst:
                        # "Everyone press Shuffle now": all students act within 0.2 s of the same clock tick.
                        now = time.perf_counter()
                        pause = self.args.interval - (now - self.epoch) % self.args.interval + self.random.uniform(0, 0.2)
                    if time.perf_counter() + pause >= stop_at and made >= self.args.min_actions:
                        break
                    made += 1
                    await asyncio.sleep(pause)
                    description, widgets = self._next_change()
                    stats.actions[description.split(" ")[0]] = stats.actions.get(description.split(" ")[0], 0) + 1
                    started = time.perf_counter()
                    await websocket.send(self._rerun_message(widgets))
                    try:
                        stats.latencies.append(await self._run_until_finished(websocket, started))
                    except AppException as problem:
                        stats.error(self.number, f"after {description}: {problem}")
        except AppException as problem:
            stats.error(self.number, f"first load: {problem}")
        except TimeoutError as problem:
            stats.error(self.number, f"timeout: {problem}")
        except (OSError, RuntimeError, websockets.exceptions.WebSocketException) as problem:
            stats.error(self.number, f"{type(problem).__name__}: {problem}")
        except Exception as problem:  # noqa: BLE001 - a bug in this client still counts, visibly
            stats.error(self.number, f"unexpected {type(problem).__name__}: {problem}")


class AppException(Exception):
    """The app reported an exception or an unsuccessful run."""


# --- servers ------------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(base_url: str, timeout: float = 90) -> None:
    parts = urllib.parse.urlsplit(base_url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=2)
        try:
            connection.request("GET", f"{parts.path.rstrip('/')}/_stcore/health")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.3)
    raise RuntimeError(f"{base_url} did not become healthy within {timeout} s")


def start_streamlit(port: int, extra_args: list[str]) -> subprocess.Popen:
    """`streamlit run app.py` on loopback, in its own process group (so it can be killed as a whole)."""
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
        "--server.address", "127.0.0.1", "--server.port", str(port), *extra_args,
    ]
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


def kill_group(process: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            continue


def check_loopback(url: str) -> None:
    host = urllib.parse.urlsplit(url).hostname
    if host not in LOOPBACK_HOSTS:
        raise SystemExit(f"refusing to send load to {host!r}: this load test targets loopback only")


# --- driver -------------------------------------------------------------------------------------------------

async def drive(base_url: str, args: argparse.Namespace, server_pids: list[int], cluster=None) -> tuple[Stats, int, float]:
    stats = Stats()
    peak = [process_group_rss_bytes(server_pids) if server_pids else 0]
    stop_memory = asyncio.Event()
    memory_task = None
    if server_pids:
        memory_task = asyncio.create_task(
            watch_memory(server_pids, peak, stop_memory, cluster, stats.connections_per_app, stats.rss_samples)
        )
    begin = time.perf_counter()
    cpu_before = process_group_cpu_seconds(server_pids)
    stop_at = begin + args.duration
    tasks = []
    Session.epoch = begin
    for number in range(args.sessions):
        session = Session(number, base_url, args, stats)
        tasks.append(asyncio.create_task(session.run(stop_at)))
        await asyncio.sleep(args.ramp / max(args.sessions, 1))
    # Every session stops itself; the extra margin lets the last rerun finish or time out.
    longest = args.duration + args.min_actions * (1.5 * args.interval + args.rerun_timeout)
    done, pending = await asyncio.wait(tasks, timeout=longest + args.rerun_timeout + 30)
    for task in pending:
        task.cancel()
        stats.errors.append("a session did not stop in time")
    elapsed = time.perf_counter() - begin
    stats.server_cpu_seconds = process_group_cpu_seconds(server_pids) - cpu_before
    stop_memory.set()
    if memory_task:
        await memory_task
    return stats, peak[0], elapsed


def rss_by_fifth(samples: list[tuple[float, int]]) -> list[int] | None:
    if not samples:
        return None
    end = samples[-1][0] or 1.0
    at_fifths = []
    for fifth in range(1, 6):
        before = [rss for t, rss in samples if t <= end * fifth / 5 + 1e-9]
        at_fifths.append(round(before[-1] / 2**20) if before else 0)
    return at_fifths


def summarise(stats: Stats, peak_rss: int, elapsed: float, args: argparse.Namespace, target: str) -> dict:
    latencies = stats.latencies
    summary = {
        "target": target,
        "processes": args.processes if not args.url else None,
        "sessions": args.sessions,
        "duration_s": round(elapsed, 1),
        "interval_s": args.interval,
        "burst": args.burst,
        "sessions_connected": stats.sessions_connected,
        "reruns": len(latencies),
        "reruns_per_s": round(len(latencies) / elapsed, 2) if elapsed else 0.0,
        "first_load_p50_ms": round(1000 * statistics.median(stats.first_load)) if stats.first_load else None,
        "first_load_max_ms": round(1000 * max(stats.first_load)) if stats.first_load else None,
        "rerun_p50_ms": round(1000 * percentile(latencies, 0.50)) if latencies else None,
        "rerun_p95_ms": round(1000 * percentile(latencies, 0.95)) if latencies else None,
        "rerun_max_ms": round(1000 * max(latencies)) if latencies else None,
        "errors": len(stats.errors),
        "error_samples": stats.errors[:10],
        "actions": stats.actions,
        # CPU the server spent per script run (reruns + first loads): robust to other load on the machine.
        "server_cpu_ms_per_run": (
            round(1000 * stats.server_cpu_seconds / (len(latencies) + len(stats.first_load)))
            if stats.server_cpu_seconds and (latencies or stats.first_load) else None
        ),
        "server_peak_rss_mb": round(peak_rss / 2**20) if peak_rss else None,
        # RSS at the end of each fifth of the run: a leak shows as a steady climb.
        "server_rss_mb_by_fifth": rss_by_fifth(stats.rss_samples),
        "peak_connections_per_app": {str(port): n for port, n in stats.connections_per_app.items()} or None,
        "received_mb": round(stats.bytes_received / 2**20, 1),
        # The load generator shares the machine: its own CPU share shows whether it, not the app, was the limit.
        "client_cpu_share": round(time.process_time() / elapsed, 2) if elapsed else None,
    }
    return summary


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=40, help="concurrent simulated students (default 40)")
    parser.add_argument("--duration", type=float, default=60, help="seconds of load (default 60)")
    parser.add_argument("--interval", type=float, default=3, help="mean seconds between a student's edits (default 3)")
    parser.add_argument("--min-actions", type=int, default=0,
                        help="edits each student makes even after --duration has passed (default 0; tests use it to "
                        "count edits instead of timing them)")
    parser.add_argument("--burst", action="store_true",
                        help="all sessions edit at the same moment every --interval seconds (a teacher's 'now!')")
    parser.add_argument("--ramp", type=float, default=5, help="seconds over which sessions connect (default 5)")
    parser.add_argument("--page", default="", help="page url path (default: the default page, the Playground)")
    parser.add_argument("--query", default="", help="query string for the first run, e.g. 'g=3,1,2'")
    parser.add_argument("--list-length", type=int, default=5, help="items the ranked-list component holds")
    parser.add_argument("--rerun-timeout", type=float, default=30, help="seconds before a rerun counts as failed")
    parser.add_argument("--url", help="drive an app that is already running (loopback only), e.g. http://127.0.0.1:8080")
    parser.add_argument("--pid", type=int, action="append", default=[],
                        help="with --url: a server pid whose RSS (with descendants) to measure (repeatable)")
    parser.add_argument("--processes", type=int, default=1,
                        help="app processes to start; more than 1 starts them behind nginx (deploy/serve_multi.py)")
    parser.add_argument("--server-arg", action="append", default=[],
                        help="extra `streamlit run` option, e.g. --server-arg=--runner.postScriptGC=false")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the summary as JSON to this file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cluster = None
    server = None
    if args.url:
        check_loopback(args.url)
        base_url = args.url.rstrip("/")
        server_pids = args.pid
        wait_healthy(base_url, timeout=30)
    elif args.processes > 1:
        sys.path.insert(0, str(ROOT))
        from deploy.serve_multi import Cluster

        cluster = Cluster(processes=args.processes, streamlit_args=args.server_arg)
        cluster.start()
        base_url = cluster.url
        server_pids = cluster.pids()
    else:
        port = free_port()
        server = start_streamlit(port, args.server_arg)
        base_url = f"http://127.0.0.1:{port}"
        server_pids = [server.pid]
    try:
        if server is not None:
            wait_healthy(base_url)
        print(f"load: {args.sessions} sessions for {args.duration:g} s against {base_url}", file=sys.stderr)
        stats, peak_rss, elapsed = asyncio.run(drive(base_url, args, server_pids, cluster))
    finally:
        if server is not None:
            kill_group(server)
        if cluster is not None:
            cluster.stop()
    summary = summarise(stats, peak_rss, elapsed, args, base_url)
    summary["server_args"] = args.server_arg
    text = json.dumps(summary, indent=2, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0 if not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())

"""Throwaway databases for the live-class tests: an SQLite file, and a real PostgreSQL cluster.

:func:`postgres_cluster` runs Debian's PostgreSQL binaries (``/usr/lib/postgresql/<v>/bin``): ``initdb`` into a
temporary directory, ``pg_ctl start`` on a free loopback port (and a unix socket in that directory), and on
exit ``pg_ctl stop`` and removal of the directory. initdb refuses to run as root, so as root the cluster runs
as the unprivileged user ``nobody`` (through ``runuser``). Without the binaries the tests skip with the
reason, except with ``CI=true`` (``.ci/run`` installs PostgreSQL), where they fail.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def require_postgres() -> Path:
    """The PostgreSQL bin directory, or skip (fail under CI=true) with the reason."""
    bin_dir = postgres_bin()
    problem = None
    if bin_dir is None:
        problem = "PostgreSQL is not installed (apt-get install -y postgresql)"
    else:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            problem = "psycopg is not installed (pip install -r requirements.txt)"
    if problem:
        if IN_CI:
            pytest.fail(f"The PostgreSQL tests must run in CI: {problem}")
        pytest.skip(problem)
    return bin_dir


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclasses.dataclass
class Cluster:
    """A running throwaway cluster: its URL, and stop/start (the outage test stops it for a while)."""

    url: str
    directory: Path
    bin_dir: Path
    options: str
    prefix: list[str]

    def pg_ctl(self, *args: str, check: bool = True) -> None:
        subprocess.run([*self.prefix, str(self.bin_dir / "pg_ctl"), "-D", str(self.directory / "data"), *args],
                       check=check, capture_output=True, cwd=self.directory)

    def start(self) -> None:
        self.pg_ctl("-o", self.options, "-l", str(self.directory / "log"), "-w", "start")

    def stop(self, *, check: bool = True) -> None:
        self.pg_ctl("-m", "immediate", "-w", "stop", check=check)


@contextlib.contextmanager
def running_postgres() -> Iterator[Cluster]:
    """initdb + start a cluster in a temporary directory; yield it; stop it and delete the directory."""
    bin_dir = require_postgres()
    directory = Path(tempfile.mkdtemp(prefix="live-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run the cluster as an unprivileged user
        nobody = pwd.getpwnam("nobody")
        os.chown(directory, nobody.pw_uid, nobody.pw_gid)
        prefix = ["runuser", "-u", "nobody", "--"]
    port = _free_port()
    subprocess.run([*prefix, str(bin_dir / "initdb"), "-D", str(directory / "data"), "-U", "live", "--auth=trust",
                    "--encoding=UTF8", "--no-sync"], check=True, capture_output=True, cwd=directory)
    options = f"-p {port} -k {directory} -h 127.0.0.1 -c fsync=off -c max_connections=300"
    cluster = Cluster(f"postgresql+psycopg://live@127.0.0.1:{port}/postgres", directory, bin_dir, options, prefix)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop(check=False)
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """Start a throwaway cluster; yield the SQLAlchemy URL of its ``postgres`` database (user ``live``)."""
    with running_postgres() as cluster:
        yield cluster.url


def fresh_database(server_url: str) -> str:
    """Create an empty database on the cluster; return its URL (each test gets its own)."""
    import sqlalchemy as sa

    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return server_url.rsplit("/", 1)[0] + f"/{name}"

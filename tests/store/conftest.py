"""A real PostgreSQL server for the store tests, started from Debian's binaries (``make postgres``).

``postgres_server``: one cluster per test session (per xdist worker) in a temporary directory, on a
free loopback port, password authentication (scram-sha-256), stopped at the end. PostgreSQL refuses
to run as root, so as root the cluster is run by the ``postgres`` system user (``runuser``). Tests are
skipped, with the reason, when the binaries or psycopg are missing.
``postgres_url``: a fresh, empty database on that server for one test.
"""

from __future__ import annotations

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

PASSWORD = "s3cr&t-pw"  # URL-encoded below: the tests check it never shows
_QUOTED = "s3cr%26t-pw"


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """A running cluster: ``url(dbname)`` gives a connection URL with the password in it."""

    def __init__(self, port: int, user: str):
        self.port = port
        self.user = user

    def url(self, dbname: str = "postgres", password: str = _QUOTED) -> str:
        return f"postgresql://{self.user}:{password}@127.0.0.1:{self.port}/{dbname}"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = _binaries()
    if bindir is None or not (bindir / "pg_ctl").exists():
        pytest.skip("PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin): run `make postgres`")
    pytest.importorskip("psycopg", reason="psycopg missing: pip install -e '.[test]'")
    root = os.geteuid() == 0
    if root:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no `postgres` user to run the server as")
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser to start the server as `postgres`")
    work = Path(tempfile.mkdtemp(prefix="au-pg-"))
    os.chmod(work, 0o755)
    data, log, pwfile = work / "data", work / "server.log", work / "pw"
    pwfile.write_text(PASSWORD + "\n")
    if root:
        for path in (work, pwfile):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    prefix = ["runuser", "-u", "postgres", "--"] if root else []
    port = _free_port()

    def run(*args: str) -> None:
        done = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip()[-2000:]
            if log.exists():
                detail += "\n" + log.read_text()[-2000:]
            raise RuntimeError(f"{' '.join(args[:2])} failed: {detail}")

    run(str(bindir / "initdb"), "-D", str(data), "-U", "agentunit", f"--pwfile={pwfile}", "-A", "scram-sha-256",
        "-E", "UTF8", "--no-locale", "--no-sync")
    options = (f"-p {port} -k {work} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
               " -c full_page_writes=off -c max_connections=100")
    run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", "60", "start")
    try:
        yield PostgresServer(port, "agentunit")
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield postgres_server.url(name)
    finally:
        with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

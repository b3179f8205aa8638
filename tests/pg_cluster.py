"""A throwaway PostgreSQL cluster for the tests, CI and the class benchmark (standard library only).

    python3 tests/pg_cluster.py start DIR   # prints `export TUTOR_TEST_PG_DSN=...` for eval
    python3 tests/pg_cluster.py stop DIR

The cluster lives in DIR: local (unix socket) connections are trusted, TCP connections on 127.0.0.1 need a
password (scram-sha-256), so a learner's token is really checked. PostgreSQL refuses to run as root: as root the
server runs as the ``postgres`` user (``runuser``), which then owns DIR.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path


def find_bin(name: str) -> str | None:
    """``initdb``/``pg_ctl`` on PATH, or in Debian's versioned folder (newest first)."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which(name)


def available() -> str | None:
    """None when a cluster can be started here, else why not."""
    if find_bin("initdb") is None or find_bin("pg_ctl") is None:
        return "PostgreSQL's initdb/pg_ctl are not installed (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root without runuser"
    return None


def _as_server_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dsn(folder: Path) -> str:
    port = (folder / "port").read_text().strip()
    user = (folder / "user").read_text().strip()
    return f"host={folder / 'sock'} port={port} user={user} dbname=postgres"


def start(folder: Path, timeout_s: float = 30) -> str:
    """Create and start a cluster in ``folder``; returns the superuser's DSN (unix socket, trusted)."""
    why = available()
    if why:
        raise RuntimeError(why)
    folder = Path(folder).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sock").mkdir(exist_ok=True)
    user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
    if os.geteuid() == 0:
        info = pwd.getpwnam("postgres")
        for path in (folder, folder / "sock"):
            os.chown(path, info.pw_uid, info.pw_gid)
        # the folders above must let the server user through (mktemp makes them 0700)
        os.chmod(folder, 0o755)
    port = _free_port()
    data = folder / "data"
    subprocess.run(
        _as_server_user([find_bin("initdb") or "initdb", "-D", str(data), "-U", user, "--auth-local=trust",
                         "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"]),
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=120,
    )
    options = (f"-p {port} -k {folder / 'sock'} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=32MB")
    subprocess.run(
        _as_server_user([find_bin("pg_ctl") or "pg_ctl", "-D", str(data), "-l", str(folder / "server.log"),
                         "-o", options, "-w", "-t", str(int(timeout_s)), "start"]),
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=timeout_s + 10,
    )
    (folder / "port").write_text(str(port))
    (folder / "user").write_text(user)
    deadline = time.monotonic() + timeout_s
    while not (folder / "sock" / f".s.PGSQL.{port}").exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not open its socket; see {folder / 'server.log'}")
        time.sleep(0.05)
    return dsn(folder)


def stop(folder: Path) -> None:
    data = Path(folder).resolve() / "data"
    if (data / "postmaster.pid").exists():
        subprocess.run(_as_server_user([find_bin("pg_ctl") or "pg_ctl", "-D", str(data), "-m", "immediate", "-w",
                                        "stop"]),
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                       timeout=60)


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("start", "stop"):
        print("usage: pg_cluster.py start|stop DIR", file=sys.stderr)
        return 2
    if argv[1] == "start":
        print(f"export TUTOR_TEST_PG_DSN='{start(Path(argv[2]))}'")
    else:
        stop(Path(argv[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

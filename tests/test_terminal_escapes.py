"""No ESC/OSC/CSI/C1 sequence from a pack, an import or a lock reaches the terminal, the CLI's output or a file.

The pack's titles, bodies, labels and hints carry ``OSC 0`` (retitle the window), ``OSC 52`` (write the clipboard),
``CSI 2J`` and 8-bit C1 controls, and one file's name carries them too. Every command is run as a learner would,
in a subprocess; the TUI runs in a pseudo-terminal and its bytes are read back.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.hostile_pack import FORBIDDEN, OSC_CLIPBOARD, OSC_TITLE, write_escape_pack

REPO = Path(__file__).resolve().parents[1]


def _tutor(args: list[str], env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "tutor", *args], capture_output=True, timeout=timeout, env=env,
                          cwd=REPO)


def _clean(data: bytes, where: str) -> None:
    for bad in FORBIDDEN:
        assert bad not in data, f"{where}: {bad!r} reached the output: {data[:400]!r}"
    assert b"\x1b" not in data, f"{where}: an ESC byte reached the output: {data[:400]!r}"


@pytest.fixture
def env(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "TUTOR_DATA_DIR": str(data_dir), "NO_COLOR": "1", "TERM": "xterm-256color"}


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    return write_escape_pack(tmp_path / "pack")


def test_lessons_and_exercise_commands_print_no_control_sequences(pack: Path, env: dict[str, str]) -> None:
    runs = {
        "lessons check": _tutor(["lessons", "check", "--allow-one-language", str(pack)], env),
        "lessons check file": _tutor(["lessons", "check", str(next((pack / "lessons").glob("evil*")))], env),
        "lessons list": _tutor(["lessons", "list", "--course", str(pack)], env),
        "exercise list": _tutor(["exercise", "list", "--course", str(pack)], env),
        "exercise list --json": _tutor(["exercise", "list", "--json", "--course", str(pack)], env),
        "exercise run": _tutor(["exercise", "run", "evil-x1", "--predict", "a", "--lang", "en", "--course",
                                str(pack)], env),
        "exercise run unknown": _tutor(["exercise", "run", f"x{OSC_TITLE}", "--predict", "a", "--course",
                                        str(pack)], env),
    }
    for name, run in runs.items():
        _clean(run.stdout, f"{name} stdout")
        _clean(run.stderr, f"{name} stderr")
        assert b"Traceback" not in run.stderr, (name, run.stderr[-600:])
    # the texts are still there, without their control characters
    assert b"PWNED-TITLE" in runs["exercise list"].stdout
    assert b"]0;PWNED-TITLE" in runs["exercise run"].stdout and runs["exercise run"].returncode == 0
    assert runs["exercise run unknown"].returncode == 2
    assert b".yaml" in runs["lessons check"].stdout  # the file with the evil name is reported, its name cleaned


def test_progress_after_an_import_and_the_notebook_export_are_clean(
    pack: Path, env: dict[str, str], tmp_path: Path
) -> None:
    assert _tutor(["exercise", "run", "evil-x1", "--predict", "a", "--course", str(pack)], env).returncode == 0
    export = tmp_path / "export.json"
    assert _tutor(["progress", "export", str(export)], env).returncode == 0
    doc = json.loads(export.read_text(encoding="utf-8"))
    # an export edited by someone else: control sequences in an id and in the stored text
    for row in doc.get("tables", doc).get("attempts", []) if isinstance(doc, dict) else []:
        row["exercise_id"] = f"evil{OSC_CLIPBOARD}"
    hostile = tmp_path / f"import{OSC_TITLE}.json"
    hostile.write_text(json.dumps(doc), encoding="utf-8")
    runs = {
        "import": _tutor(["progress", "import", "--replace", str(hostile)], env),
        "progress": _tutor(["progress", "--course", str(pack)], env),
        "progress --json": _tutor(["progress", "--json", "--course", str(pack)], env),
    }
    notebook = tmp_path / "notebook.md"
    _seed_notebook(env)
    runs["notebook list"] = _tutor(["notebook", "list"], env)
    runs["notebook export -"] = _tutor(["notebook", "export", "-"], env)
    runs["notebook export"] = _tutor(["notebook", "export", str(notebook)], env)
    for name, run in runs.items():
        _clean(run.stdout, f"{name} stdout")
        _clean(run.stderr, f"{name} stderr")
        assert b"Traceback" not in run.stderr, (name, run.stderr[-600:])
    assert runs["notebook export"].returncode == 0
    written = notebook.read_bytes()
    _clean(written, "notebook file")
    assert b"PWNED" in written


def _seed_notebook(env: dict[str, str]) -> None:
    code = (
        "from tutor.progress import ProgressStore\n"
        "s = ProgressStore()\n"
        f"s.save_notebook_entry(lab_id='evil-lab', entry={{'title': {OSC_TITLE + 'PWNED lab'!r}, "
        f"'hypothesis': {OSC_CLIPBOARD + ' guess'!r}, 'lab_id': 'evil-lab'}})\n"
        "s.close()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=REPO, timeout=60)


def test_doctor_with_a_hostile_lock_prints_no_control_sequences(env: dict[str, str], tmp_path: Path) -> None:
    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps({"schema": f"gpu-tutor/lock/v1{OSC_TITLE}", "torch": OSC_CLIPBOARD,
                                "python": "\x9b31m3.11"}), encoding="utf-8")
    for args in (["doctor", "--no-probe", "--check-lock", str(lock)],
                 ["doctor", "--no-probe", "--json", "--check-lock", str(lock)]):
        run = _tutor(args, env, timeout=120)
        _clean(run.stdout, " ".join(args))
        _clean(run.stderr, " ".join(args))
        assert b"Traceback" not in run.stderr


def _read_pty(fd: int, seconds: float) -> bytes:
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


def test_the_tui_writes_no_control_sequence_from_the_pack(pack: Path, env: dict[str, str]) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the tutor in a terminal 120x40
        os.chdir(REPO)
        os.execve(sys.executable, [sys.executable, "-m", "tutor", "--course", str(pack), "--lang", "en",
                                   "--telemetry", "host"], {**env, "COLUMNS": "120", "LINES": "40"})
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        out = _read_pty(fd, 6.0)
        os.write(fd, b" ")  # expand the lesson: its sections, lab and exercise
        out += _read_pty(fd, 1.0)
        os.write(fd, b"\r")  # open it: the body with the sequences
        out += _read_pty(fd, 2.5)
        os.write(fd, b"\x11")  # ctrl+q
        out += _read_pty(fd, 3.0)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
    assert b"PWNED" in out or b"Heading" in out, out[-2000:]  # the pack's text was drawn
    for bad in (b"\x1b]0;PWNED", b"\x1b]52;c;cHdu", b"\xc2\x9b31m", b"\xc2\x9d0;C1", b"\x1b[2J \x9b"):
        assert bad not in out, f"{bad!r} reached the terminal"

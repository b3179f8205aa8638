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
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fixtures.hostile_pack import (
    FORBIDDEN,
    OSC_CLIPBOARD,
    OSC_TITLE,
    course_without_checks,
    write_escape_pack,
)

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


def test_commands_over_the_pack_files_print_no_control_sequences(pack: Path, env: dict[str, str]) -> None:
    """The pack as files: the loader flags its texts; what is printed about them (paths too) is clean."""
    runs = {
        "lessons check": _tutor(["lessons", "check", "--allow-one-language", str(pack)], env),
        "lessons check file": _tutor(["lessons", "check", str(next((pack / "lessons").glob("evil*")))], env),
        "lessons list": _tutor(["lessons", "list", "--course", str(pack)], env),
        "exercise list": _tutor(["exercise", "list", "--course", str(pack)], env),
        "exercise list --json": _tutor(["exercise", "list", "--json", "--course", str(pack)], env),
        "exercise run": _tutor(["exercise", "run", "evil-x1", "--predict", "a", "--course", str(pack)], env),
        "exercise run unknown": _tutor(["exercise", "run", f"x{OSC_TITLE}", "--predict", "a", "--course",
                                        str(pack)], env),
    }
    for name, run in runs.items():
        _clean(run.stdout, f"{name} stdout")
        _clean(run.stderr, f"{name} stderr")
        assert b"Traceback" not in run.stderr, (name, run.stderr[-600:])
    check = runs["lessons check"]
    assert check.returncode == 1 and b"]0;PWNED-TITLE]52;c;cHduZWQ=.yaml" in check.stdout  # the name, cleaned
    assert runs["exercise run unknown"].returncode == 2


@pytest.fixture
def loaded_anyway(pack: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every command gets the pack's texts as they are, as if the loader had let the control characters through."""
    import tutor.commands.lessons
    import tutor.content

    def load(_root: Path, **_kwargs: object) -> object:
        return course_without_checks(pack)

    monkeypatch.setattr(tutor.content, "load_course", load)
    monkeypatch.setattr(tutor.commands.lessons, "load_course", load)
    return pack


def test_commands_print_pack_text_without_its_control_sequences(
    loaded_anyway: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    from tutor.cli import main

    course = ["--course", str(loaded_anyway)]
    for args in (["lessons", "list", *course], ["exercise", "list", *course], ["exercise", "list", "--json", *course],
                 ["exercise", "run", "evil-x1", "--predict", "a", "--lang", "en", *course],
                 ["exercise", "run", "evil-x1", "--predict", "b", "--json", *course],
                 ["lab", "list", *course], ["progress", "--lang", "en", *course]):
        status = main(args)
        out, err = capsysbinary.readouterr()
        _clean(out, " ".join(args[:2]) + " stdout")
        _clean(err, " ".join(args[:2]) + " stderr")
        assert status == 0, (args, err)
        if args[0] != "progress":
            assert b"PWNED-TITLE" in out, (args, out[:300])  # the text is shown, without its sequences


def test_progress_after_an_import_and_the_notebook_export_are_clean(
    pack: Path, env: dict[str, str], tmp_path: Path
) -> None:
    assert _tutor(["exercise", "run", "n0-l2-cpu-wheel", "--predict", "cpu-wheel"], env).returncode == 0
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
        "from tutor.progress.rows import NotebookEntry\n"
        "s = ProgressStore()\n"
        f"s.save_notebook_entry(NotebookEntry('evil-lab', title={OSC_TITLE + 'PWNED lab'!r}, "
        f"hypothesis={OSC_CLIPBOARD + ' guess'!r}))\n"
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


def _read_pty(fd: int, until: Callable[[bytes], bool], so_far: bytes = b"", timeout: float = 30.0) -> bytes:
    """Read the terminal until ``until`` holds for all that was read (``so_far`` included), or it closes; the
    ``timeout`` is a deadline against a hang, not a wait."""
    out = so_far
    end = time.monotonic() + timeout
    while not until(out) and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
    return out


def _drawn(out: bytes) -> bool:
    """The pack's text and the footer (the last line a frame draws) are on the terminal."""
    return (b"PWNED" in out or b"Heading" in out) and b"palette" in out


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
        out = _read_pty(fd, _drawn)
        os.write(fd, b" ")  # expand the lesson: its sections, lab and exercise
        os.write(fd, b"\r")  # open it: the body with the sequences
        os.write(fd, b"\x11")  # ctrl+q: every byte the app writes up to its exit is read (until the pty closes)
        out = _read_pty(fd, lambda _out: False, out)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
    assert b"PWNED" in out or b"Heading" in out, out[-2000:]  # the pack's text was drawn
    for bad in (b"\x1b]0;PWNED", b"\x1b]52;c;cHdu", b"\xc2\x9b31m", b"\xc2\x9d0;C1", b"\x1b[2J \x9b"):
        assert bad not in out, f"{bad!r} reached the terminal"


async def test_tui_widgets_hold_pack_text_without_control_characters(pack: Path, tmp_path: Path) -> None:
    """What each widget was given (not only what Textual draws) is free of control characters."""
    from textual.widgets import Markdown, OptionList, RadioButton, Static, Tree

    from tutor.progress import ProgressStore
    from tutor.ui.app import make_app
    from tutor.ui.messages import OpenExercise, OpenLesson

    app = make_app(course=course_without_checks(pack), store=ProgressStore(tmp_path / "p.sqlite3"), lang="en",
                   telemetry="host")
    seen: list[str] = []

    def collect() -> None:
        screen = app.screen
        seen.append(str(screen.sub_title))
        for tree in screen.query(Tree):
            stack = [tree.root]
            while stack:
                node = stack.pop()
                seen.append(node.label.plain)
                stack.extend(node.children)
        seen.extend(str(w.render()) for w in screen.query(Static))
        seen.extend(w.source for w in screen.query(Markdown))
        seen.extend(str(o.prompt) for w in screen.query(OptionList) for o in w.options)
        seen.extend(str(b.label) for b in screen.query(RadioButton))

    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        app.screen.query_one(Tree).root.children[0].children[0].expand()
        await pilot.pause()
        collect()
        app.post_message(OpenLesson("evil-l1"))
        await pilot.pause()
        collect()
        app.post_message(OpenExercise("evil-x1"))
        await pilot.pause()
        await pilot.press("ctrl+t")
        await pilot.pause()
        collect()
    text = "\n".join(seen)
    assert "PWNED-TITLE" in text
    assert not any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in text), repr(
        [line for line in seen if "\x1b" in line][:3])

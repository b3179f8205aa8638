"""The CLI as a shell user meets it: output piped into ``head``, odd files, a reset confirmed by a typo."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def env(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "TUTOR_DATA_DIR": str(data_dir)}


def _into_a_closed_pipe(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    """Run ``tutor ARGS`` with stdout a pipe whose reader has already gone (what ``| head -1`` leaves behind)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "tutor", *args], stdout=write_end, stderr=subprocess.PIPE,
                              env=env, cwd=REPO, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", [["progress"], ["doctor", "--json", "--no-probe"], ["lessons", "list"],
                                  ["exercise", "list"]])
def test_a_closed_pipe_ends_the_command_quietly(args: list[str], env: dict[str, str]) -> None:
    run = _into_a_closed_pipe(args, env)
    assert run.stderr == b"", run.stderr.decode(errors="replace")[-800:]
    assert run.returncode == 141  # 128 + SIGPIPE, as a program stopped by the pipe


def test_head_reads_the_first_line_and_nothing_complains(env: dict[str, str]) -> None:
    run = subprocess.run(f"{sys.executable} -m tutor progress | head -1; {sys.executable} -m tutor doctor --json "
                         "--no-probe | head -1", shell=True, capture_output=True, env=env, cwd=REPO, timeout=120)
    assert b"Traceback" not in run.stderr and b"BrokenPipe" not in run.stderr, run.stderr
    assert run.stdout.count(b"\n") == 2


def test_a_deeply_nested_or_latin1_lock_is_one_line_and_exit_2(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"python": "3.11", "gpu": "café"}'.encode("latin-1"))
    for lock in (deep, latin):
        assert main(["doctor", "--no-probe", "--check-lock", str(lock)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("tutor: error:") and "Traceback" not in err, err
    assert main(["progress", "import", str(deep)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested" in err, err


def _reset(answer: str, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``tutor progress reset`` in a terminal (a pty on stdin), answering the question with ``answer``."""
    import pty

    leader, follower = pty.openpty()
    try:
        os.write(leader, (answer + "\n").encode())
        return subprocess.run([sys.executable, "-m", "tutor", "progress", "reset", *args, "--lang", "en"],
                              stdin=follower, capture_output=True, text=True, env=env, cwd=REPO, timeout=60)
    finally:
        os.close(leader)
        os.close(follower)


def _read_section(env: dict[str, str]) -> None:
    code = "from tutor.progress import ProgressStore\ns = ProgressStore()\ns.mark_section_read('n0-l1', 'x')\ns.close()"
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=REPO, timeout=60)


def _sections_read(env: dict[str, str]) -> int:
    code = "from tutor.progress import ProgressStore\ns = ProgressStore()\nprint(len(s.sections_read()))"
    run = subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=REPO, timeout=60, capture_output=True,
                         text=True)
    return int(run.stdout.strip())


@pytest.mark.parametrize("answer", ["y", "Y", "YES", "sí", "si", "yes please", ""])
def test_reset_is_confirmed_only_by_yes(answer: str, env: dict[str, str]) -> None:
    _read_section(env)
    run = _reset(answer, ["--all"], env)
    assert run.returncode == 1 and "nothing was deleted" in run.stdout, (run.stdout, run.stderr)
    assert _sections_read(env) == 1


def test_reset_with_yes_deletes(env: dict[str, str]) -> None:
    _read_section(env)
    run = _reset("yes", ["--all"], env)
    assert run.returncode == 0, run.stderr
    assert _sections_read(env) == 0


def test_resetting_an_unknown_exercise_or_lesson_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["progress", "reset", "--exercise", "no-such-exercise", "--yes", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "unknown exercise 'no-such-exercise'" in err and err.count("\n") == 1
    assert main(["progress", "reset", "--lesson", "no-such-lesson", "--yes", "--lang", "en"]) == 2
    assert "unknown lesson 'no-such-lesson'" in capsys.readouterr().err
    # a real exercise with no attempts yet: nothing to delete, not an error
    assert main(["progress", "reset", "--exercise", "n0-l1-triad-bound", "--yes"]) == 0

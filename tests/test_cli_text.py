"""The CLI's words: Markdown rendered for the terminal, counts with the right plural in both languages, positional
FILE arguments explained in --help."""

from __future__ import annotations

import pytest

from tutor.cli import main
from tutor.commands.terminal import render_markdown
from tutor.i18n import tn
from tutor.telemetry.format import describe_window


def test_markdown_is_rendered_not_printed_raw() -> None:
    out = render_markdown("The copy is **memory-bound**:\n\n- 2 words per element\n- `b.copy_(a)`", width=60,
                          color=False, indent=2)
    assert "**" not in out and "memory-bound" in out
    assert "• 2 words per element" in out and "b.copy_(a)" in out
    assert all(line.startswith("  ") or not line.strip() for line in out.splitlines())
    assert "\x1b[" not in out  # no escape codes in a pipe
    assert "\x1b[" in render_markdown("**bold**", width=40, color=True)


@pytest.mark.parametrize(("key", "n", "lang", "expected"), [
    ("count.attempt", 1, "en", "1 attempt"), ("count.attempt", 2, "en", "2 attempts"),
    ("count.attempt", 0, "es", "0 intentos"), ("count.warning", 1, "en", "1 warning"),
    ("count.warning", 1, "es", "1 aviso"), ("count.sample", 1, "es", "1 muestra"),
    ("count.sample", 9, "es", "9 muestras"), ("count.prediction", 1, "es", "1 predicción"),
])
def test_counts_take_the_right_plural(key: str, n: int, lang: str, expected: str) -> None:
    assert tn(key, n, lang) == expected  # type: ignore[arg-type]


def test_a_window_of_one_sample_says_one_sample() -> None:
    from tutor.telemetry.sampler import WindowSummary

    summary = WindowSummary.from_json({"kind": "host", "samples": 1, "name": "CPU", "util_mean_pct": 10.0})
    line = describe_window("cpu", summary, "es")
    assert line is not None and "(1 muestra)" in line


def test_positional_file_arguments_have_help(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["progress", "export", "--help", "--lang", "en"], ["progress", "import", "--help", "--lang", "en"]):
        with pytest.raises(SystemExit):
            main(args)
        out = capsys.readouterr().out
        file_help = out.split("positional arguments:", 1)[1].split("\n\n", 1)[0]
        assert "FILE" in file_help and len(file_help.split("FILE", 1)[1].strip()) > 10, out

"""The untrusted-input boundary: control characters removed, files read only when regular and bounded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tutor.untrusted import UnsafeFile, clean, clean_line, load_json_bounded, read_bounded, read_text_bounded


def test_clean_removes_escape_sequences_and_keeps_text() -> None:
    hostile = "Title\x1b]0;pwned\x07 \x1b[31mred\x1b[0m \x9b2J\u202eevil\n\tok"
    out = clean(hostile)
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out and "\u202e" not in out
    assert out.endswith("\n\tok")
    assert "Title" in out and "red" in out
    assert "\n" not in clean_line("a\nb\tc") and clean_line("a\nb") == "a⏎b"  # a break is shown, never obeyed


def test_read_bounded_refuses_fifo_device_and_large_files(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeFile, match="FIFO"):
        read_bounded(fifo)
    with pytest.raises(UnsafeFile, match="device"):
        read_bounded("/dev/zero")
    sparse = tmp_path / "sparse.yaml"
    with open(sparse, "wb") as fh:
        fh.truncate(3 * 1024**3)
    with pytest.raises(UnsafeFile, match="limit"):
        read_bounded(sparse, limit=1000)
    ok = tmp_path / "ok.txt"
    ok.write_text("héllo", encoding="utf-8")
    assert read_text_bounded(ok) == "héllo"
    (tmp_path / "latin.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(UnsafeFile, match="UTF-8"):
        read_text_bounded(tmp_path / "latin.txt")


def test_read_bounded_keeps_links_inside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "course"
    root.mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    (root / "link.yaml").symlink_to(outside)
    with pytest.raises(UnsafeFile, match="out of the course"):
        read_bounded(root / "link.yaml", root=root)


def test_json_depth_and_constants_refused(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(UnsafeFile, match="nested deeper"):
        load_json_bounded(deep)
    nan = tmp_path / "nan.json"
    nan.write_text('{"x": NaN}')
    with pytest.raises(UnsafeFile):
        load_json_bounded(nan)
    good = tmp_path / "good.json"
    good.write_text('{"a": [1, "[[["]}')
    assert load_json_bounded(good) == {"a": [1, "[[["]}

"""The measured-roofline cache is read as a file from outside (issue 28, saved results): bounded, no NaN or
infinity taken as a peak, and an unusable cache is measured again without overwriting what it held."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.measure.roofline_model import CACHE_LIMIT_BYTES, ROOFLINE_FORMAT, cached_roofline, load_cache, store_roofline

ROOF = {"format": ROOFLINE_FORMAT, "peak_bandwidth_gbs": 75.0, "peak_flops": {"fp32": 2.1e11}}


@pytest.mark.parametrize("text", [
    '{"fp": {"format": 2, "peak_bandwidth_gbs": NaN}}',
    '{"fp": {"format": 2, "peak_bandwidth_gbs": 1e400}}',
    '{"fp": {"format": 2, "peak_bandwidth_gbs": Infinity}}',
    "{not json",
    "[1, 2]",
    '{"fp": ' + "[" * 200 + "]" * 200 + "}",
])
def test_an_unusable_cache_is_measured_again_and_kept_aside(tmp_path: Path, text: str) -> None:
    path = tmp_path / "roofline.json"
    path.write_text(text, encoding="utf-8")
    assert load_cache(path) == {} and cached_roofline("fp", path) is None
    store_roofline("other", ROOF, path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"other": ROOF}
    assert (tmp_path / "roofline.json.unreadable").read_text(encoding="utf-8") == text  # not lost


def test_a_cache_larger_than_any_the_tutor_writes_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "roofline.json"
    path.write_text(json.dumps({"fp": ROOF, "pad": "x" * CACHE_LIMIT_BYTES}), encoding="utf-8")
    assert cached_roofline("fp", path) is None


def test_a_good_cache_keeps_every_device(tmp_path: Path) -> None:
    path = tmp_path / "roofline.json"
    store_roofline("a", ROOF, path)
    store_roofline("b", {**ROOF, "peak_bandwidth_gbs": 80.0}, path)
    assert cached_roofline("a", path) == ROOF and cached_roofline("b", path)["peak_bandwidth_gbs"] == 80.0
    assert not (tmp_path / "roofline.json.unreadable").exists()

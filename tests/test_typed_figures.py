"""A measurement's figures as named, typed fields (issue 29 item 4): a training run's TrainingFigures and a decode
gap's DecodeGapFigures, read from the JSON the worker and the store carry and written back to the same JSON, so an
exercise's figure path and every recorded or stored row read as before."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tutor.results import Measurement
from tutor.results.decode_gap import DecodeGapFigures
from tutor.results.training import TrainingFigures

RECORDED = Path(__file__).parent / "fixtures" / "results" / "every_exercise_small.json"


def _recorded(kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("kind") == kind:
                found.append(node)
                return
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(RECORDED.read_text()))
    assert found, f"no recorded {kind} result"
    return found


@pytest.mark.parametrize("kind", ["train_step", "decode_gap"])
def test_recorded_results_read_into_named_fields_and_write_the_same_json(kind: str) -> None:
    for wire in _recorded(kind):
        m = Measurement.from_json(wire)
        typed = m.training if kind == "train_step" else m.decode_gap
        assert typed is not None
        for key in typed.to_json():
            assert key not in m.figures  # read into the typed figures, not left as loose JSON
        back = m.to_json()
        for key in set(wire) - {"roofline", "classification"}:  # the roofline is the roof's own (results.roofline)
            assert back[key] == wire[key], key
        assert set(back) == set(wire)


def test_a_training_run_is_read_by_name() -> None:
    wire = _recorded("train_step")[0]
    m = Measurement.from_json(wire)
    t = m.training
    assert isinstance(t, TrainingFigures) and t.model is not None
    assert t.mfu == wire["mfu"] and t.tokens_per_s == wire["tokens_per_s"] and t.n_params == wire["n_params"]
    assert t.model.hidden == wire["model"]["hidden"] and t.model.to_json() == wire["model"]
    assert m.figure("mfu") == wire["mfu"] and m.number("achieved_gflops") == wire["achieved_gflops"]


def test_a_decode_gap_is_read_by_name_and_its_paths_still_answer() -> None:
    wire = _recorded("decode_gap")[0]
    m = Measurement.from_json(wire)
    g = m.decode_gap
    assert isinstance(g, DecodeGapFigures) and g.gap is not None and g.fit is not None and g.feeding is not None
    assert g.gap.fixed_share_pct == wire["gap"]["fixed_share_pct"]
    assert g.fit.spread.fixed_ms_sd == wire["fit"]["fixed_ms_sd"]
    assert len(g.sizes) == len(wire["sizes"]) and g.sizes[-1].step_ms == wire["sizes"][-1]["step_ms"]
    assert g.feeding.read.passes == wire["feeding"]["read"]["passes"]
    for path in ("gap.fixed_share_pct", "fit.effective_bandwidth_gbs", "cache.resident", "sizes.0.step_ms",
                 "reference.weights_bytes", "roof.over_stream_copy", "feeding.read.gbs"):
        expected: Any = wire
        for part in path.split("."):
            expected = expected[int(part)] if part.isdigit() else expected[part]
        assert m.figure(path) == expected, path


def test_an_older_stored_row_still_loads() -> None:
    """A row stored before some figures existed (no MFU, no theoretical peak, no per-round spread of the fit, a
    GPU's null threads): it loads, what it has is read by name, and what it lacks stays absent or None."""
    train = copy.deepcopy(_recorded("train_step")[0])
    for key in ("mfu", "theoretical_gflops", "theoretical_source", "tokens_per_s_median", "estimator"):
        train.pop(key)
    old = Measurement.from_json(json.loads(json.dumps(train)), "the stored attempt")
    assert old.training is not None and old.training.mfu is None and old.training.estimator is None
    assert old.training.tokens_per_s == train["tokens_per_s"] and old.to_json() == train
    with pytest.raises(KeyError):
        old.figure("mfu")

    gap = copy.deepcopy(_recorded("decode_gap")[0])
    for key in ("rounds_fixed_ms", "rounds_effective_bandwidth_gbs", "fixed_ms_sd", "effective_bandwidth_cv"):
        gap["fit"].pop(key)
    gap["gap"].pop("achieved_bandwidth_pct_cv", None)
    gap["threads"] = None
    old_gap = Measurement.from_json(gap, "the stored attempt")
    assert old_gap.decode_gap is not None and old_gap.decode_gap.fit is not None
    assert old_gap.decode_gap.fit.spread.fixed_ms_sd is None and old_gap.decode_gap.threads is None
    assert old_gap.figure("gap.fixed_share_pct") == gap["gap"]["fixed_share_pct"]
    assert old_gap.to_json()["threads"] is None  # a null the engine wrote stays null


def test_a_malformed_figure_is_refused_at_its_field() -> None:
    from tutor.results import ResultError

    wire = copy.deepcopy(_recorded("decode_gap")[0])
    wire["gap"]["fixed_ms"] = "fast"
    with pytest.raises(ResultError, match=r"measurement\.gap\.fixed_ms"):
        Measurement.from_json(wire)
    train = copy.deepcopy(_recorded("train_step")[0])
    train["model"] = [1, 2]
    with pytest.raises(ResultError, match=r"measurement\.model"):
        Measurement.from_json(train)


def test_the_engine_names_its_device_typed() -> None:
    """Inside the engine the device is the typed Device; its JSON (what a roofline cache is keyed by) is unchanged."""
    from tutor.measure.device import device_info, measured_device
    from tutor.results import Device

    dev = measured_device("cpu")
    assert isinstance(dev, Device) and dev.kind == "cpu" and dev.fingerprint and dev.fields["kind"] == "cpu"
    wire = device_info("cpu")
    assert set(wire) == {"kind", "name", "fingerprint", "fingerprint_fields"} and wire["fingerprint"] == dev.fingerprint
    assert Device.from_json(wire) == dev
    assert dev.identity() == Device(kind="cpu", name=dev.name, fingerprint=dev.fingerprint)

"""Training steps on the CPU flush subnormal floats (slow on x86) only while they run."""

from __future__ import annotations

import pytest
import torch

from tutor.measure import model


def test_a_cpu_training_step_flushes_subnormals_and_restores_them(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []
    real = torch.set_flush_denormal

    def spy(mode: bool) -> bool:
        calls.append(mode)
        return real(mode)

    monkeypatch.setattr(torch, "set_flush_denormal", spy)
    rig = model.TrainRig("cpu", "tiny", "float32")
    calls.clear()  # building the rig may step once (its FLOP count)
    seconds = rig.step()
    assert seconds > 0
    assert calls == [True, False]
    tiny = torch.tensor([1e-40], dtype=torch.float32)  # a subnormal
    assert (tiny * 1.0).item() != 0.0  # arithmetic outside the step keeps subnormals (the default)

"""The training step's state never holds subnormal floats (slow on x86: they made the bench's training rounds slow
down as they ran), because the untrained model starts as a language model should: its loss near ln(vocab)."""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F

from tutor.measure import model


def _subnormals(t: torch.Tensor) -> int:
    a = t.detach().abs()
    return int(((a > 0) & (a < torch.finfo(t.dtype).tiny)).sum())


def test_training_steps_leave_no_subnormal_in_the_weights_or_adams_state() -> None:
    rig = model.TrainRig("cpu", "tiny", "float32")
    with torch.no_grad():
        loss = F.cross_entropy(rig.model(rig.tokens).flatten(0, 1), rig.targets.flatten()).item()
    # an untrained model guesses about uniformly (PyTorch's default embedding init, tied to the head, gave 59)
    assert abs(loss - math.log(rig.cfg.vocab)) < 0.5
    for _ in range(6):  # with the default init, AdamW's second moments held thousands of subnormals by now
        assert rig.step() > 0
    state = [t for s in rig.opt.state.values() for t in (s["exp_avg"], s["exp_avg_sq"])]
    assert len(state) == 2 * len(list(rig.model.parameters()))
    assert sum(_subnormals(t) for t in [*rig.model.parameters(), *state]) == 0

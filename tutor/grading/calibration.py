"""Calibration of the learner's confidence: a Brier score and how often each confidence level was right."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from tutor.i18n.message import Message

#: Each bucket's range of whole per cents, lowest first: a bucket holds what its label says (95 % is in 90–100,
#: never in a "100 %" row). Below 50 % only a choice among three or more options can be locked (the floor is
#: 1/options).
BUCKETS: tuple[tuple[int, int], ...] = ((0, 9), (10, 19), (20, 29), (30, 39), (40, 49), (50, 59), (60, 69),
                                        (70, 79), (80, 89), (90, 100))


@dataclass(frozen=True)
class Bucket:
    """The attempts locked at a confidence from ``confidence_pct`` to ``high_pct`` per cent, both included."""

    confidence_pct: int
    total: int
    right: int
    high_pct: int = 100

    @property
    def low_pct(self) -> int:
        return self.confidence_pct

    @property
    def hit_rate(self) -> float | None:
        return self.right / self.total if self.total else None

    def sentence(self, lang: str = "en") -> str:
        return self.said().render(lang)

    def said(self) -> Message:
        """How this bucket did, as a catalog message."""
        return Message.of("progress.calibration.bucket", low=self.low_pct, high=self.high_pct, right=self.right,
                          total=self.total)


@dataclass(frozen=True)
class Calibration:
    """Brier score (0 is perfect, 0.25 is always saying 50 %) over every graded attempt, and the buckets."""

    n: int
    brier: float | None
    buckets: tuple[Bucket, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            "brier": self.brier,
            "buckets": [
                {"confidence_pct": b.confidence_pct, "low_pct": b.low_pct, "high_pct": b.high_pct,
                 "total": b.total, "right": b.right, "hit_rate": b.hit_rate,
                 "sentence_en": b.sentence("en"), "sentence_es": b.sentence("es")}
                for b in self.buckets
            ],
        }


def bucket_of(confidence: float) -> int:
    """The lower end of the bucket ``confidence`` (a fraction) falls in: 0.86 → 80 (80–89), 0.95 and 1.0 → 90
    (90–100). Whole per cents are kept as typed (0.29 is 29 %, though 0.29·100 is 28.999…)."""
    pct = math.floor(round(min(max(confidence, 0.0), 1.0) * 100, 6))
    return next(low for low, high in BUCKETS if low <= pct <= high)


def calibrate(outcomes: Iterable[tuple[float, bool]]) -> Calibration:
    """From ``(confidence, was_right)`` pairs; confidence is a fraction in [0, 1] (at least the exercise's floor,
    1/options, when it was locked)."""
    pairs = [(min(max(float(c), 0.0), 1.0), bool(r)) for c, r in outcomes]
    if not pairs:
        return Calibration(0, None, ())
    brier = sum((c - (1.0 if r else 0.0)) ** 2 for c, r in pairs) / len(pairs)
    counts: dict[int, list[int]] = {}
    for c, r in pairs:
        slot = counts.setdefault(bucket_of(c), [0, 0])
        slot[0] += 1
        slot[1] += int(r)
    buckets = tuple(Bucket(low, counts[low][0], counts[low][1], high) for low, high in BUCKETS if low in counts)
    return Calibration(len(pairs), round(brier, 6), buckets)

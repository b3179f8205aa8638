"""Calibration of the learner's confidence: a Brier score and how often each confidence level was right."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tutor.i18n.message import Message

BUCKETS: tuple[int, ...] = (50, 60, 70, 80, 90, 100)


@dataclass(frozen=True)
class Bucket:
    """The attempts locked at about ``confidence_pct`` (rounded to the nearest 10 %)."""

    confidence_pct: int
    total: int
    right: int

    @property
    def hit_rate(self) -> float | None:
        return self.right / self.total if self.total else None

    def sentence(self, lang: str = "en") -> str:
        return self.said().render(lang)

    def said(self) -> Message:
        """How this bucket did, as a catalog message."""
        return Message.of("progress.calibration.bucket", pct=self.confidence_pct, right=self.right, total=self.total)


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
                {"confidence_pct": b.confidence_pct, "total": b.total, "right": b.right, "hit_rate": b.hit_rate,
                 "sentence_en": b.sentence("en"), "sentence_es": b.sentence("es")}
                for b in self.buckets
            ],
        }


def bucket_of(confidence: float) -> int:
    pct = max(50, min(100, round(confidence * 100 / 10) * 10))
    return int(pct)


def calibrate(outcomes: Iterable[tuple[float, bool]]) -> Calibration:
    """From ``(confidence, was_right)`` pairs; confidence is a fraction in [0.5, 1]."""
    pairs = [(min(max(float(c), 0.0), 1.0), bool(r)) for c, r in outcomes]
    if not pairs:
        return Calibration(0, None, ())
    brier = sum((c - (1.0 if r else 0.0)) ** 2 for c, r in pairs) / len(pairs)
    counts: dict[int, list[int]] = {}
    for c, r in pairs:
        slot = counts.setdefault(bucket_of(c), [0, 0])
        slot[0] += 1
        slot[1] += int(r)
    buckets = tuple(Bucket(pct, counts[pct][0], counts[pct][1]) for pct in BUCKETS if pct in counts)
    return Calibration(len(pairs), round(brier, 6), buckets)

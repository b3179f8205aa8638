"""The roofline as the course teaches it: which roof bounds a workload, and why a measurement may sit above a roof.

Pure Python on the typed roofline (:class:`tutor.results.RooflineReference`) and achieved rates; it answers with a
:class:`~tutor.results.Classification` or a :class:`~tutor.results.RoofCheck`. The measured roofline and its cache
live in :mod:`tutor.measure`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.results import BoundCheck, Classification, RoofCheck, RooflineReference

# Inside [ridge / BAND, ridge × BAND] the bound is "too close to call": both answers count.
TOO_CLOSE_BAND = 2.0


def peak_gflops_for(roofline: RooflineReference, dtype: str) -> tuple[float, str]:
    """The measured matmul peak for ``dtype`` (falling back to float32), and the dtype it belongs to."""
    peaks = roofline.peak_gflops
    if dtype in peaks:
        return float(peaks[dtype]), dtype
    return float(peaks["float32"]), "float32"


def classify(
    *,
    intensity: float,
    achieved_gflops: float,
    achieved_gbs: float,
    roofline: RooflineReference,
    dtype: str = "float32",
    band: float = TOO_CLOSE_BAND,
) -> Classification:
    """Which roof bounds a workload.

    The bound comes from the arithmetic intensity against the measured ridge point (for the workload's dtype).
    It is ``too_close_to_call`` when the intensity lies within a factor ``band`` of the ridge, or when the achieved
    rates point the other way (the workload reaches a larger fraction of the other roof).
    """
    peak_gflops, peak_dtype = peak_gflops_for(roofline, dtype)
    peak_gbs = roofline.peak_bandwidth_gbs
    ridge = peak_gflops / peak_gbs
    frac_bw = achieved_gbs / peak_gbs if peak_gbs > 0 else 0.0
    frac_compute = achieved_gflops / peak_gflops if peak_gflops > 0 else 0.0
    by_intensity = "memory" if intensity < ridge else "compute"
    by_achieved = "memory" if frac_bw >= frac_compute else "compute"
    in_band = intensity > 0 and abs(math.log(intensity / ridge)) < math.log(band)
    attainable = min(peak_gflops, intensity * peak_gbs)
    return Classification(
        bound=by_intensity,
        too_close_to_call=bool(in_band or by_intensity != by_achieved),
        by_intensity=by_intensity,
        by_achieved=by_achieved,
        in_band=bool(in_band),
        band_factor=band,
        ridge_flops_per_byte=ridge,
        ridge_dtype=peak_dtype,
        arithmetic_intensity=intensity,
        fraction_of_bandwidth_roof=frac_bw,
        fraction_of_compute_roof=frac_compute,
        attainable_gflops=attainable,
        fraction_of_attainable=achieved_gflops / attainable if attainable > 0 else None,
    )


# -- when the roof is wrong -----------------------------------------------------------------------------------

#: A measurement may exceed a measured roof by its own noise; beyond this floor (or 3 CVs) it is a surprise.
ABOVE_ROOF_FLOOR = 0.05


def busy_threshold(cpus: int) -> float:
    """The 1-minute load average above which a CPU measurement is taken as measured on a busy machine."""
    return 0.5 * max(1, cpus) + 1.0


def measured_when_busy(roofline: RooflineReference) -> bool:
    """Whether this roofline was measured while the machine was busy (its figures are likely low)."""
    load, cpus = roofline.load_average, roofline.cpus
    if load is None or cpus is None:
        return False
    return roofline.device is not None and roofline.device.kind == "cpu" and load > busy_threshold(cpus)


#: A roof whose peak stands more than this above its own typical repeat is provisional: the peak was reached
#: once, not reproduced within the run, so it cannot grade to a number exercise's full-marks tolerance (10 %).
#: The spread is read robustly, as the peak over the median of the repeats that carry it (the rounds' best copies;
#: the best matmul size's calls or the bench's rounds): a CV of all the samples is dominated by one stalled call
#: (measured here: fp32 CV 112 % with the best 213 GFLOP/s and the median 201, 6 % apart) and by the host's slow
#: states, which the fastest call, STREAM's rule, is meant to see past.
TIGHT_SPREAD = 0.10


def _over_median(best: float | None, values: Sequence[float]) -> float | None:
    numbers = [v for v in values if v > 0]
    if not numbers or best is None or best <= 0:
        return None
    return float(best) / statistics.median(numbers) - 1.0


def peak_spreads(roofline: RooflineReference) -> dict[str, float]:
    """How far each peak stands above its typical repeat (``bandwidth``, ``matmul``: fp32), as fractions; a
    figure whose repeats the roof does not keep falls back to its CV."""
    out: dict[str, float] = {}
    bandwidth = roofline.bandwidth
    if bandwidth is not None:
        copy = bandwidth.copy
        spread = _over_median(bandwidth.peak_bandwidth_gbs, copy.gbs_round_best) if copy is not None else None
        if spread is None and bandwidth.cv is not None:
            spread = bandwidth.cv
        if spread is not None:
            out["bandwidth"] = spread
    fp32 = roofline.gemm.get("float32")
    if fp32 is not None:
        spread = _over_median(fp32.peak_gflops, fp32.rounds.values) if fp32.rounds is not None else None
        best = fp32.best_size
        if spread is None and best is not None and best.gflops_median is not None:
            spread = _over_median(best.gflops_best, [best.gflops_median])
        if spread is None and fp32.cv is not None:
            spread = fp32.cv
        if spread is not None:
            out["matmul"] = spread
    return out


def provisional_reasons(roofline: RooflineReference) -> list[str]:
    """Why a measured roofline should not be kept as this machine's roof: ``busy`` (other programs took a share
    of the machine while it was measured, or the load average was high), ``loose_bandwidth`` / ``loose_matmul``
    (its peak stood more than :data:`TIGHT_SPREAD` above its typical repeat). Empty: a roof to grade with."""
    reasons = []
    interference = roofline.interference
    if (interference is not None and interference.busy) or measured_when_busy(roofline):
        reasons.append("busy")
    spreads = peak_spreads(roofline)
    if spreads.get("bandwidth", 0.0) > TIGHT_SPREAD:
        reasons.append("loose_bandwidth")
    if spreads.get("matmul", 0.0) > TIGHT_SPREAD:
        reasons.append("loose_matmul")
    return reasons


def ridge_band(band: float, ridge_cv: float | None) -> float:
    """The factor either side of the measured ridge inside which a bound cannot be called: the exercise's band,
    or the ridge's own 2σ interval when that is wider (a ridge measured with a 40 % spread cannot place an
    intensity 1.5× away from it)."""
    if ridge_cv is None or ridge_cv <= 0:
        return band
    return max(band, 1.0 + 2.0 * min(ridge_cv, 1.0))


def roof_check(
    *,
    achieved_gflops: float,
    achieved_gbs: float,
    working_set_bytes: int | None,
    roofline: RooflineReference,
    last_level_cache_bytes: int | None = None,
    dtype: str = "float32",
    cv: float = 0.0,
) -> RoofCheck | None:
    """Why a measurement sits above a roof, if it does by more than its noise (None when it does not).

    ``cache_resident``: above the bandwidth roof with a working set that fits in the last-level cache (the roof
    was measured in DRAM; this was not) — expected, not an error. ``above_compute_roof`` /
    ``above_bandwidth_roof``: above a roof it should not beat, so the roof itself is suspect (measured under load,
    or the machine changed) and should be measured again.
    """
    margin = max(ABOVE_ROOF_FLOOR, 3.0 * max(0.0, cv))
    peak_gflops, _ = peak_gflops_for(roofline, dtype)
    peak_gbs = roofline.peak_bandwidth_gbs
    llc = last_level_cache_bytes or roofline.last_level_cache_bytes
    if peak_gflops > 0 and achieved_gflops > peak_gflops * (1 + margin):
        return RoofCheck("above_compute_roof", achieved_gflops / peak_gflops, margin)
    if peak_gbs > 0 and achieved_gbs > peak_gbs * (1 + margin):
        fraction = achieved_gbs / peak_gbs
        if llc is not None and working_set_bytes is not None and working_set_bytes <= llc:
            return RoofCheck("cache_resident", fraction, margin, working_set_bytes=working_set_bytes,
                             last_level_cache_bytes=int(llc))
        return RoofCheck("above_bandwidth_roof", fraction, margin)
    return None


def noise_margin(cv: float, samples: int = 1) -> float:
    """How far above a bound a median of ``samples`` timings with coefficient of variation ``cv`` may land by
    chance: three standard errors, never less than :data:`ABOVE_ROOF_FLOOR`."""
    return max(ABOVE_ROOF_FLOOR, 3.0 * max(0.0, cv) / math.sqrt(max(1, samples)))


def bound_check(*, measured: float, bound: float, cv: float, samples: int = 1) -> BoundCheck | None:
    """Whether a measured rate sits above its bound (None when it does not).

    ``noise``: above, but within :func:`noise_margin` (read it as "at the bound"); ``above_bound``: above by more
    than its noise, so the roof behind the bound is suspect and should be measured again."""
    if bound <= 0 or measured <= bound:
        return None
    fraction = measured / bound
    margin = noise_margin(cv, samples)
    return BoundCheck("noise" if fraction <= 1 + margin else "above_bound", fraction, margin, cv)


@dataclass(frozen=True)
class RoofPoint:
    """One point of a roofline sweep, as its roof check reads it: its achieved rates and working set."""

    name: str
    gflops: float
    gbs: float
    working_set_bytes: int | None = None


def points_above_roof(points: Sequence[RoofPoint], roofline: RooflineReference, *,
                      last_level_cache_bytes: int | None = None, dtype: str = "float32") -> RoofCheck | None:
    """The points of a roofline sweep that sit above a roof they should not beat (``roof_check`` of each, a
    cache-resident one excepted), as one ``points_above_roof`` check (the worst point's fraction), or None."""
    above, worst = [], 0.0
    for p in points:
        check = roof_check(achieved_gflops=p.gflops, achieved_gbs=p.gbs, working_set_bytes=p.working_set_bytes,
                           roofline=roofline, last_level_cache_bytes=last_level_cache_bytes, dtype=dtype)
        if check is not None and check.code != "cache_resident":
            above.append(p.name)
            worst = max(worst, check.fraction)
    return RoofCheck("points_above_roof", worst, points=tuple(above)) if above else None

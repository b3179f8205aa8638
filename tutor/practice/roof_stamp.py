"""When a roof was measured, and measuring it again on request (issue 11 item 4).

Every chart that draws a roof says when it was measured, under what load and with what noise ("roof measured
12 min ago, load 0,4, CV 1,2 %"), so a roof measured on a busy afternoon is not mistaken for today's machine. The
exercise reveal and the lab screens measure it again on request (F5) through the same measuring process as any
other request: :func:`remeasure_request` is that request.
"""

from __future__ import annotations

import math
import time
from typing import Any

from tutor.i18n import Lang, format_number, t
from tutor.results import Interference, RooflineReference
from tutor.results.wire import JsonObject


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def age_text(seconds: float, lang: Lang) -> str:
    """``just now``, ``40 s ago``, ``12 min ago``, ``3 h ago``, ``2 d ago`` (and in Spanish)."""
    seconds = max(0.0, seconds)
    if seconds < 5:
        return t("roof.age.now", lang)
    for unit, size, limit in (("s", 1, 60), ("min", 60, 3600), ("h", 3600, 48 * 3600)):
        if seconds < limit:
            return t(f"roof.age.{unit}", lang, n=int(seconds // size))
    return t("roof.age.d", lang, n=int(seconds // 86400))


def roof_stamp(roof: RooflineReference | None, lang: Lang, now: float | None = None
               ) -> str | None:
    """"roof measured 12 min ago, load 0,4, CV 1,2 %" for a roofline that records when it was measured; None
    when it does not (an older stored result, a test's made-up roof)."""
    if roof is None:
        return None
    measured_at = _number(roof.measured_at)
    if measured_at is None:
        return None
    age = age_text((time.time() if now is None else now) - measured_at, lang)
    load, cv = _number(roof.load_average), _number(roof.bandwidth_cv)
    cv_text = t("roof.stamp.cv", lang, cv=format_number(cv, lang, ".1%")) if cv is not None else ""
    if load is None:
        stamp = t("roof.stamp.no_load", lang, age=age, cv=cv_text)
    else:
        stamp = t("roof.stamp", lang, age=age, load=format_number(load, lang, ".1f"), cv=cv_text)
    # PROVISIONAL first: where the line is cut to its width (a chart's title) the word that matters stays in sight
    provisional, probe = provisional_text(roof, lang), probe_text(roof, lang)
    return "; ".join(n for n in (provisional, stamp, probe) if n)


def probe_text(roof: RooflineReference, lang: Lang) -> str | None:
    """What the short probe before grading found (:func:`tutor.measure.roofline.probe_roof`): the cached roof
    confirmed, or measured again because the probe disagreed; None when no probe ran."""
    probe = roof.probe
    if probe is None:
        return None
    ratios = {"bw": format_number(probe.bandwidth_ratio, lang, ".2f"),
              "flops": format_number(probe.gflops_ratio, lang, ".2f")}
    if roof.remeasured_because == "probe_disagreed":
        return t("roof.probe.disagreed", lang, **ratios)
    if probe.agrees:
        return t("roof.probe.agreed", lang, **ratios)
    return t("roof.probe.slower", lang, **ratios) if probe.slower else t("roof.probe.busy", lang, **ratios)


def provisional_text(roof: RooflineReference, lang: Lang) -> str | None:
    """"PROVISIONAL roof: …why…; it is measured again once the machine is quiet (F5)" for a roof that is not
    final (:attr:`RooflineReference.provisional`), None for a final one."""
    if not roof.provisional:
        return None
    why = []
    spreads = roof.peak_spread
    for reason in roof.provisional:
        if reason == "busy":
            busy = roof.interference
            why.append(t("roof.provisional.busy", lang, used=format_number(busy.other_cores, lang, ".1f"),
                         cpus=busy.cpus) if busy is not None else t("roof.provisional.busy_load", lang))
        elif reason == "loose_bandwidth":
            spread = spreads.get("bandwidth")
            why.append(t("roof.provisional.loose", lang, what=t("roof.provisional.bandwidth", lang),
                         cv=format_number(spread if spread is not None else roof.bandwidth_cv or 0.0, lang, ".0%")))
        elif reason == "loose_matmul":
            spread = spreads.get("matmul")
            why.append(t("roof.provisional.loose", lang, what=t("roof.provisional.matmul", lang),
                         cv=format_number(spread if spread is not None else roof.gemm_cv() or 0.0, lang, ".0%")))
    return t("roof.provisional", lang, why="; ".join(why) or "?")


def interference_text(interference: Interference | None, lang: Lang) -> str | None:
    """What other programs took of the machine while a figure was measured, in plain words, with what to do
    when it was enough to make the figure low; None when it was not sampled."""
    if interference is None:
        return None
    used = format_number(interference.other_cores, lang, ".1f")
    if interference.reason == "steal":
        return t("busy.steal", lang, steal=format_number(interference.steal or 0.0, lang, ".0%"))
    if interference.busy:
        text = t("busy.other_programs", lang, used=used, cpus=interference.cpus)
    else:
        text = t("busy.quiet", lang, used=used, cpus=interference.cpus)
    return f"{text} {t('busy.simulated', lang)}" if interference.simulated else text


def remeasure_request(device: str = "auto", mode: str = "quick") -> JsonObject:
    """The request that measures this device's roofline again and caches it (what F5 runs)."""
    from tutor.measure.plan import build_request

    return build_request({"op": "roofline", "params": {"mode": mode, "refresh": True}}, device=device).to_wire()


def remeasured_text(before: RooflineReference | None, after: RooflineReference, lang: Lang) -> str:
    """What the re-measurement found, next to the roof it replaced."""

    def figures(roof: RooflineReference | None) -> tuple[str, str]:
        if roof is None:
            return "?", "?"
        bw = _number(roof.peak_bandwidth_gbs)
        flops = _number(roof.peak_gflops.get("float32"))
        return (f"{format_number(bw, lang, '.1f')} GB/s" if bw is not None else "?",
                f"{format_number(flops, lang, '.0f')} GFLOP/s" if flops is not None else "?")

    bw, flops = figures(after)
    bw0, flops0 = figures(before)
    return t("roof.remeasured_request", lang, bw=bw, flops=flops, bw0=bw0, flops0=flops0)

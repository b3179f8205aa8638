"""A provisional roof's stamp leads with PROVISIONAL.

Lab 03's chart title at 160×48 read "Tu roofline medido, con siete kernels encima — techo medido hace 9 min, carga
8,2, CV 38,4 %; PROVI…": the title is cut to its width, and the word that says the roof cannot be trusted was the
part cut off."""

from __future__ import annotations

import time

import pytest

from tutor.i18n import Lang, t
from tutor.practice.roof_stamp import roof_stamp
from tutor.results import RooflineReference


def _roof(provisional: list[str]) -> RooflineReference:
    return RooflineReference.from_json({
        "peak_bandwidth_gbs": 18.4, "peak_gflops": {"float32": 196.0}, "measured_at": time.time() - 540,
        "load_average": 8.2, "bandwidth": {"cv": 0.384}, "provisional": provisional,
        "interference": {"seconds": 26.0, "cpus": 2, "other_cores": 1.7, "busy": bool(provisional)}})


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_provisional_roof_s_stamp_starts_with_the_warning(lang: Lang) -> None:
    stamp = roof_stamp(_roof(["busy"]), lang)
    assert stamp is not None
    assert stamp.startswith(t("roof.provisional", lang, why="").split("(")[0].strip())
    assert t("roof.stamp", lang, age="", load="", cv="").split("{")[0][:6] in stamp  # the age and load follow


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_final_roof_s_stamp_is_its_age_and_load(lang: Lang) -> None:
    stamp = roof_stamp(_roof([]), lang)
    assert stamp is not None and "PROVISIONAL" not in stamp

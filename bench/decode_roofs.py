"""Decode against the roof that feeds its weights, on this machine (issue 11 item 3).

    .venv/bin/python bench/decode_roofs.py [--mode quick|full]

Measures the roofline once (quick mode, in a throwaway data dir), then greedy decode at batch 1 for two models:
the base reference model (8 layers, width 512: 117.5 MB of fp32 weights) and the model ``tutor bench`` sizes for
this machine's last-level cache (:mod:`tutor.measure.decode_sizing`). For each: where the weights live (DRAM,
partly cached, or the cache), the bandwidth measured reading them there, the bound from it, the bound the DRAM
STREAM copy would give, the measured tokens/s and its fraction of each bound.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", default="quick", choices=["quick", "full"])
    args = parser.parse_args()
    os.environ.setdefault("TUTOR_DATA_DIR", tempfile.mkdtemp(prefix="tutor-decode-roofs-"))

    from tutor.measure.decode_sizing import decode_roof_text, dig, reference_decode
    from tutor.measure.device import cache_sizes, device_info
    from tutor.measure.model import measure_decode
    from tutor.measure.roofline import get_roofline

    llc = int(cache_sizes()["last_level"])
    print(f"last-level cache {llc / 2**20:.0f} MiB (read from the system); load {os.getloadavg()[0]:.2f}", flush=True)
    t0 = time.monotonic()
    roof = get_roofline("cpu", device_info("cpu"), mode="quick")
    arrays = roof["bandwidth"]["array_bytes"] / 2**20
    print(f"roofline: STREAM copy {roof['peak_bandwidth_gbs']:.1f} GB/s on {arrays:.0f} MiB arrays "
          f"({time.monotonic() - t0:.0f} s)", flush=True)
    sized = reference_decode(args.mode)
    base = dataclasses.replace(reference_decode(args.mode, llc=1), last_level_cache_bytes=llc, grown=False,
                               dram_sized=False)
    rows = []
    for label, sizing in (("base model", base), ("sized for this cache", sized)):
        t0 = time.monotonic()
        d = measure_decode("cpu", args.mode, roof["peak_bandwidth_gbs"], sizing=sizing)
        f, b1 = d["feeding"], d["batches"]["1"]
        rows.append((label, f["weights_bytes"] / 1e6, f["llc_multiple"], f["level"], f["bandwidth_gbs"],
                     b1["bound_tokens_per_s"], b1["dram_bound_tokens_per_s"], b1["tokens_per_s"],
                     b1["fraction_of_bound"], b1["tokens_per_s"] / b1["dram_bound_tokens_per_s"], b1["cv"],
                     (d["bound_check"] or {}).get("code", "—"), time.monotonic() - t0))
        print(f"  {label}: {decode_roof_text(dig(d), 'en')}", flush=True)
    print()
    print(f"{'model':22s} {'weights MB':>10s} {'×LLC':>6s} {'level':>8s} {'feed GB/s':>9s} {'bound':>8s} "
          f"{'DRAM bound':>10s} {'measured':>8s} {'÷bound':>7s} {'÷DRAM':>6s} {'CV':>5s} {'check':>6s} {'s':>4s}")
    for r in rows:
        print(f"{r[0]:22s} {r[1]:10.1f} {r[2]:6.2f} {r[3]:>8s} {r[4]:9.1f} {r[5]:8.1f} {r[6]:10.1f} {r[7]:8.1f} "
              f"{r[8]:7.2f} {r[9]:6.2f} {r[10]:5.0%} {r[11]:>6s} {r[12]:4.0f}")
    print(f"\nload average now {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The measurement engine: the only package that imports torch, and only lazily.

Importing this package (and :mod:`.registry`, :mod:`.specs`, :mod:`.worker`, :mod:`.roofline_model`) never
imports torch; the modules that do (:mod:`.kernels`, :mod:`.timing`,
:mod:`.roofline`, :mod:`.vram`, :mod:`.model`, :mod:`.sweeps`, :mod:`.bench`) are imported inside functions or
only in the worker process.

Entry points:
- :func:`tutor.measure.api.run_request` — one request (plain JSON data in, plain JSON data out), in-process.
- :class:`tutor.measure.worker.MeasureWorker` — the same requests in a separate, warm, cancellable process.
- :func:`tutor.measure.bench.run_bench` — the reference benchmark behind ``tutor bench``.
"""

from __future__ import annotations

from tutor.measure.errors import DeviceError, MeasureCancelled, MeasureError, MeasureFailed, WorkloadError

__all__ = ["DeviceError", "MeasureCancelled", "MeasureError", "MeasureFailed", "WorkloadError"]

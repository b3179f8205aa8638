"""One measurement request in, one result out.

``measure(request, *, progress=None, should_cancel=None, on_point=None)`` runs in the calling process and returns
the typed result (:data:`MeasureResult`: a :class:`~tutor.results.Measurement`, a
:class:`~tutor.results.BenchReport` or a :class:`~tutor.results.RooflineReference`); ``run_request`` (what the
worker process calls) returns it serialised once, by :func:`to_wire`, as the JSON the worker's pipe carries
(``tutor bench`` calls the bench core directly). The JSON of each op (``request["op"]``):

``"workload"``  ``{"op": "workload", "name": str, "params": {...}, "device": "auto"|"cpu"|"cuda"}`` →
    ``{"kind": "workload", "workload", "params" (validated, defaults filled), "device": {"kind", "name",
    "fingerprint"}, "flops", "bytes", "arithmetic_intensity", "time_s": {"median", "min", "max", "mean", "cv",
    "repeats", "inner"}, "achieved_gbs", "achieved_gflops" (from the median time), "best_gbs", "best_gflops"
    (from the min), "roofline": {...}, "classification": {"bound": "memory"|"compute", "too_close_to_call",
    "fraction_of_bandwidth_roof", "fraction_of_compute_roof", "ridge_flops_per_byte", ...}}``.
    Optional: ``"budget_s"`` (0.05–10, default 1), ``"roofline_mode"`` ("quick"; "tiny" for tests).
``"roofline"``  ``{"op": "roofline", "device", "refresh": bool, "mode": "quick"|"full"}`` → the measured
    roofline (see :mod:`tutor.theory.roofline`), cached per device fingerprint; ``"cached"`` says whether
    it came from the cache; ``"datasheet"`` holds the spec-table roof when the device is known.
``"sweep"``  ``{"op": "sweep", "name": "working_set"|"gemm_sizes"|"naive_vs_numpy"|"roofline_points",
    "params": {...}, "device"}`` → ``{"kind": "sweep", "name", "params", "device", "points": [...], "x", "y",
    ...}``; working_set adds ``"caches": {"levels": {"L1": bytes, "L2": ..., "L3": ...}, "source"}``;
    naive_vs_numpy marks each python point ``"extrapolated": bool`` with a ``"label"``.
``"vram"``  ``{"op": "vram", "params": {"preset", "mode": "inference"|"training", "dtype", "batch", "seq_len",
    "capacity_gb"}, "device"}`` → formula, measured (CUDA) or measured-at-small-scale-and-extrapolated (CPU)
    bytes, ``"label"``, ``"fits"``, ``"verdict"``.
``"decode"`` / ``"train_step"``  ``{"op", "device", "mode": "quick"|"full"}`` → the bundled transformer's
    decode tokens/s vs its bandwidth bound, or training tokens/s and MFU.
``"decode_gap"``  ``{"op", "device", "mode"}`` → decode at batch 1 for 2–3 sizes of the bundled transformer, the
    fit ``step = fixed + bytes ÷ effective bandwidth`` and the largest model's gap to its bound in parts
    (:mod:`tutor.measure.decode_gap`).
``"bench"``  ``{"op": "bench", "mode": "quick"|"full", "device"}`` → the ``gpu-tutor/bench/v1`` report.

How sweep points stream: every point is passed, as soon as it is measured, to ``on_point(point)`` (a dict) and
reported through ``progress(fraction, said)`` with a catalog message (:mod:`tutor.measure.phases`: codes, never
sentences); the final result repeats all points.
:class:`tutor.measure.worker.MeasureWorker` forwards both across the process boundary (``on_point=`` in
``MeasureWorker.run``).

Every request is validated and bounded by :func:`tutor.measure.plan.parse_request` first (unknown keys refused,
peak memory and estimated time within the caps) and runs under its wall-clock limit (``run_limit_s`` of the plan,
the time spent measuring a roofline not counted; a request may ask for a shorter one with ``"time_limit_s"``).
The worker process is ended past the plan's ``time_limit_s``, which counts the roofline too.

Errors: :class:`WorkloadError` / :class:`DeviceError` (bad input, one-line message), :class:`MeasureCancelled`
(``should_cancel()`` returned True), :class:`MeasureTimedOut` (past the time limit), anything else is a failure.
Ops whose name starts with ``_test_`` exist only
when the environment variable ``TUTOR_MEASURE_TEST_OPS=1`` is set (the tests use them to crash and hang).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import replace

from tutor.i18n.message import Message
from tutor.measure.errors import DeviceError, MeasureCancelled, MeasureTimedOut, WorkloadError
from tutor.measure.phases import Progress, noop, said, within
from tutor.measure.plan import Request, parse_request
from tutor.measure.registry import (
    SWEEPS,
    GemmShareParams,
    RooflinePointsParams,
    get_workload,
    validate_params,
    validate_sweep_params,
    validate_vram_params,
)
from tutor.results import BenchReport, Device, Measurement, PreviousRoof, RoofCheck, RooflineReference
from tutor.results.wire import JsonObject

MeasureResult = Measurement | BenchReport | RooflineReference
"""What an op measured, typed: a measurement (workload, sweep, memory, decode, training), a bench report, or the
roofline. :func:`to_wire` is its one serialisation, where it crosses the worker's pipe."""

CancelCheck = Callable[[], bool]
OnPoint = Callable[[JsonObject], None]
"""A sweep point as it is measured: the JSON the worker's pipe carries to the caller at once."""

TEST_OPS_ENV = "TUTOR_MEASURE_TEST_OPS"
TEST_SWAP_ENV = "TUTOR_MEASURE_TEST_SWAP"
"""With ``TUTOR_MEASURE_TEST_OPS=1``: a JSON request the worker runs instead of any request (the tests use it to
make a command's real request sleep, hang, die or raise)."""
MODES = ("tiny", "quick", "full")


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise WorkloadError(f"unknown mode {mode!r} (choose quick or full)")
    return str(mode)


def _device(request: Request) -> tuple[str, Device]:
    from tutor.measure.device import measured_device, resolve_device

    device = resolve_device(request.device)
    return device, measured_device(device)


def _short(info: Device) -> JsonObject:
    """The device as a measurement's JSON names it (kind, name, fingerprint), for the results still read from
    their engine module's JSON (:func:`_measured`)."""
    return info.identity().to_json()


# Time this process has spent measuring a roofline for the current request (not counted against its run limit):
# seconds done, and when the current measurement began.
_ROOF_CLOCK: dict[str, float | None] = {"spent": 0.0, "since": None}


def _roof_seconds() -> float:
    since = _ROOF_CLOCK["since"]
    return float(_ROOF_CLOCK["spent"] or 0.0) + (time.monotonic() - since if since is not None else 0.0)


def _roofline(device: str, info: Device, request: Request, progress: Progress,
              should_cancel: CancelCheck | None, refresh: bool = False) -> RooflineReference:
    """The device's roofline (cached per fingerprint, measured when missing or ``refresh``), read once."""
    from tutor.measure.roofline import get_roofline

    _ROOF_CLOCK["since"] = time.monotonic()
    try:
        return get_roofline(device, info, refresh=refresh, mode=_mode(request.roofline_mode),
                            should_cancel=should_cancel, progress=progress)
    finally:
        _ROOF_CLOCK["spent"] = _roof_seconds()
        _ROOF_CLOCK["since"] = None


def _measured(body: JsonObject) -> Measurement:
    """The measurement in what an engine module returned (:mod:`sweeps`, :mod:`vram`, :mod:`model` still build
    their figures as JSON): read once here, where it leaves the engine, so a malformed figure fails the run with
    its field named instead of reaching the learner."""
    return Measurement.from_json(body, f"the {body['kind']} result")


def to_wire(result: MeasureResult) -> JsonObject:
    """The JSON of a typed result, as it crosses the worker's pipe (read back by ``Measurement.from_json``,
    ``BenchReport.from_json`` or ``RooflineReference.from_json``; ``LabResult.from_json`` reads any of them)."""
    if isinstance(result, RooflineReference):
        return {"kind": "roofline", **result.to_json()}
    return result.to_json()


def op_workload(request: Request, progress: Progress, should_cancel: CancelCheck | None,
                on_point: OnPoint | None) -> MeasureResult:
    from tutor.measure.device import cache_sizes
    from tutor.measure.kernels import cached_allocations
    from tutor.measure.timing import choose_inner, time_callable
    from tutor.theory.roofline import classify, roof_check

    name = request.name
    if not isinstance(name, str):
        raise WorkloadError("a workload request needs a 'name'")
    workload = get_workload(name)
    params = validate_params(name, request.params)
    device, info = _device(request)
    if device not in workload.devices:
        raise DeviceError(f"{name} runs only on {', '.join(workload.devices)}, not {device}")
    budget = request.options.budget_s if request.options.budget_s is not None else 1.0
    if not 0.05 <= budget <= 10:
        raise WorkloadError(f"budget_s={budget} is outside [0.05, 10]")
    roof = _roofline(device, info, request, within(progress, 0.0, 0.5, "measure.progress.roofline"), should_cancel)
    progress(0.5, said("measure.progress.preparing", workload=name))
    with cached_allocations():
        fn = workload.build(params, device)
        inner = choose_inner(fn, device) if workload.kind != "python" else 1
        progress(0.6, said("measure.progress.timing", workload=name))
        stats = time_callable(fn, device, warmup=1 if workload.kind == "python" else 2, min_repeats=3,
                              max_repeats=30, budget_s=budget, inner=inner, should_cancel=should_cancel)
        del fn
    flops, nbytes = workload.flops_fn(params), workload.bytes_fn(params)
    intensity = flops / nbytes
    achieved_gbs, achieved_gflops = nbytes / stats.median / 1e9, flops / stats.median / 1e9
    dtype = params.element_type
    working_set = workload.memory_fn(params)
    caches = cache_sizes()
    llc = int(caches["last_level"])  # read from the system now, not remembered with the roof
    check = roof_check(achieved_gflops=achieved_gflops, achieved_gbs=achieved_gbs, working_set_bytes=working_set,
                       roofline=roof, last_level_cache_bytes=llc, dtype=dtype, cv=stats.cv)
    if check is not None:  # where the cache size came from (a simulated one is never called the learner's)
        check = replace(check, cache_source=str(caches["source"]))
    if check is not None and check.code != "cache_resident":
        # Above a roof it should not beat: the roof is suspect (measured under load, the machine changed).
        # Measure it again, once, and judge the workload against the new one.
        previous = PreviousRoof.of(roof)
        again = within(progress, 0.9, 0.9, "measure.progress.roofline_again")
        roof = _roofline(device, info, request, again, should_cancel, refresh=True)
        after = roof_check(achieved_gflops=achieved_gflops, achieved_gbs=achieved_gbs,
                           working_set_bytes=working_set, roofline=roof, last_level_cache_bytes=llc, dtype=dtype,
                           cv=stats.cv)
        check = replace(check, remeasured=True, still_above=after is not None and after.code != "cache_resident",
                        fraction_after=None if after is None else after.fraction, previous_roofline=previous)
    classification = classify(intensity=intensity, achieved_gflops=achieved_gflops, achieved_gbs=achieved_gbs,
                              roofline=roof, dtype=dtype)
    progress(1.0, said("measure.progress.done", workload=name))
    measurement = Measurement(
        kind="workload",
        workload=name,
        description=workload.description,
        params=params.to_json(),
        device=info.identity(),
        flops=flops,
        bytes=nbytes,
        arithmetic_intensity=intensity,
        time_s=stats.stats(),
        achieved_gbs=achieved_gbs,
        achieved_gflops=achieved_gflops,
        best_gbs=nbytes / stats.min / 1e9,
        best_gflops=flops / stats.min / 1e9,
        roofline=roof,
        classification=classification,
        working_set_bytes=working_set,
        roof_check=check,
    )
    return measurement


def op_roofline(request: Request, progress: Progress, should_cancel: CancelCheck | None,
                on_point: OnPoint | None) -> MeasureResult:
    from tutor.measure.roofline import get_roofline

    device, info = _device(request)
    return get_roofline(device, info, refresh=bool(request.options.refresh), mode=_mode(request.mode()),
                        should_cancel=should_cancel, progress=progress)


def op_sweep(request: Request, progress: Progress, should_cancel: CancelCheck | None,
             on_point: OnPoint | None) -> MeasureResult:
    from tutor.measure import sweeps

    name = request.name
    if not isinstance(name, str) or name not in SWEEPS:
        raise WorkloadError(f"unknown sweep {name!r} (known: {', '.join(SWEEPS)})")
    params = SWEEPS[name].typed(validate_sweep_params(name, request.params))
    device, info = _device(request)
    if name == "naive_vs_numpy":
        device = "cpu"
        from tutor.measure.device import measured_device

        info = measured_device("cpu")

    def emit(fraction: float, point: JsonObject, message: Message) -> None:
        if on_point is not None:
            on_point(point)
        progress(fraction, message)

    if isinstance(params, RooflinePointsParams):
        roof = _roofline(device, info, request, within(progress, 0.0, 0.5, "measure.progress.roofline"), should_cancel)
        body = sweeps.roofline_points(device, params, lambda f, pt, m: emit(0.5 + 0.45 * f, pt, m),
                                      should_cancel, {})  # the typed roof is set on the result below
        check, roof = _points_check(device, info, request, params, body, roof, progress, should_cancel)
        body.pop("roofline", None)
        swept = _measured({"kind": "sweep", "name": name, "params": params.to_json(), "device": _short(info), **body})
        return replace(swept, roofline=roof, roof_check=check)
    elif isinstance(params, GemmShareParams):
        body = sweeps.gemm_share(device, params, emit, should_cancel, mode=_mode(request.mode()))
    else:
        body = getattr(sweeps, name)(device, params, emit, should_cancel)
    swept = _measured({"kind": "sweep", "name": name, "params": params.to_json(), "device": _short(info), **body})
    if name == "working_set":
        # the machine's roof beside the sweep (read, never measured here): the lab compares its DRAM points with
        # the bandwidth the exercises are graded against
        from tutor.measure.roofline import read_cached_roof

        cached, _unreadable = read_cached_roof(str(info.fingerprint))
        if cached is not None:
            swept = replace(swept, roofline=cached)
    return swept


def _points_check(device: str, info: Device, request: Request, params: RooflinePointsParams,
                  body: JsonObject, roof: RooflineReference, progress: Progress,
                  should_cancel: CancelCheck | None) -> tuple[RoofCheck | None, RooflineReference]:
    """Points of the roofline sweep above a cached roof they should not beat make the roof suspect: it is measured
    again, once (not when it was just measured), and the sweep carries the new one. Returns the check (None when
    no point is above) and the roof the sweep is judged against."""
    from tutor.measure.device import cache_sizes
    from tutor.measure.registry import WORKLOADS
    from tutor.theory.roofline import RoofPoint, points_above_roof

    llc = int(cache_sizes()["last_level"]) if device == "cpu" else None
    points = [RoofPoint(name=str(p.get("name", "?")), gflops=float(p.get("gflops") or 0.0),
                        gbs=float(p.get("gbs") or 0.0),
                        working_set_bytes=WORKLOADS[p["name"]].memory_bytes(p["params"])) for p in body["points"]]
    dtype = params.dtype
    check = points_above_roof(points, roof, last_level_cache_bytes=llc, dtype=dtype)
    if check is None or not roof.cached:
        return check, roof
    previous = PreviousRoof.of(roof)
    again = within(progress, 0.95, 1.0, "measure.progress.roofline_again")
    roof = _roofline(device, info, request, again, should_cancel, refresh=True)
    after = points_above_roof(points, roof, last_level_cache_bytes=llc, dtype=dtype)
    return replace(check, remeasured=True, still_above=after is not None,
                   fraction_after=None if after is None else after.fraction, previous_roofline=previous), roof


def op_vram(request: Request, progress: Progress, should_cancel: CancelCheck | None,
            on_point: OnPoint | None) -> MeasureResult:
    from tutor.measure.vram import measure_vram

    params = validate_vram_params(request.params)
    device, info = _device(request)
    preset = str(params["preset"])
    progress(0.1, said("measure.progress.vram_training" if params["mode"] == "training"
                       else "measure.progress.vram_inference", preset=preset))
    result = measure_vram(device, params, should_cancel)
    progress(1.0, said("measure.progress.vram_fits" if result.get("fits") else "measure.progress.vram_does_not_fit",
                       preset=preset))
    return _measured({"kind": "vram", "device": _short(info), "params": params, **result})


def op_decode(request: Request, progress: Progress, should_cancel: CancelCheck | None,
              on_point: OnPoint | None) -> MeasureResult:
    from tutor.measure.decode_sizing import reference_decode
    from tutor.measure.model import measure_decode

    device, info = _device(request)
    mode = _mode(request.mode())
    roof = _roofline(device, info, request, within(progress, 0.0, 0.3, "measure.progress.roofline"), should_cancel)
    out = measure_decode(device, mode, roof.peak_bandwidth_gbs, should_cancel,
                         within(progress, 0.3, 1.0), sizing=reference_decode(mode, device=device))
    return _measured({"kind": "decode", "device": _short(info), **out})


def op_decode_gap(request: Request, progress: Progress, should_cancel: CancelCheck | None,
                  on_point: OnPoint | None) -> MeasureResult:
    from tutor.measure.decode_gap import measure_decode_gap
    from tutor.measure.device import cache_sizes, last_level_name

    device, info = _device(request)
    mode = _mode(request.mode())
    roof = _roofline(device, info, request, within(progress, 0.0, 0.2, "measure.progress.roofline"), should_cancel)
    caches = cache_sizes()
    llc = caches.get("last_level") if device == "cpu" else None
    out = measure_decode_gap(device, mode, roof.peak_bandwidth_gbs, llc, should_cancel,
                             within(progress, 0.2, 1.0))
    if device == "cpu" and out.feeding is not None:
        out = replace(out, feeding=replace(out.feeding, cache_source=str(caches["source"]),
                                           llc_name=last_level_name(caches["levels"])))
    return Measurement(kind="decode_gap", device=info.identity(), decode_gap=out)


def op_train_step(request: Request, progress: Progress, should_cancel: CancelCheck | None,
                  on_point: OnPoint | None) -> MeasureResult:
    from tutor.measure.model import measure_train_step, theoretical_peak

    device, info = _device(request)
    mode = _mode(request.mode())
    roof = _roofline(device, info, request, within(progress, 0.0, 0.3, "measure.progress.roofline"), should_cancel)
    dtype = "bfloat16" if device == "cuda" and "bfloat16" in roof.peak_gflops else "float32"
    peak, source = theoretical_peak(roof.physical_limits, dtype)
    out = measure_train_step(device, mode, roof.peak_gflops[dtype], dtype, should_cancel,
                             within(progress, 0.3, 1.0),
                             theoretical_gflops=peak, theoretical_source=source)
    return _measured({"kind": "train_step", "device": _short(info), **out})


def op_bench(request: Request, progress: Progress, should_cancel: CancelCheck | None,
             on_point: OnPoint | None) -> MeasureResult:
    from tutor.measure.bench import run_bench

    return run_bench(_mode(request.mode()), request.device, progress, should_cancel)


# -- test-only ops (crash, raise, hang), enabled by TUTOR_MEASURE_TEST_OPS=1 ----------------------------------


def _test_echo(request: JsonObject, progress: Progress, should_cancel: CancelCheck | None,
               on_point: OnPoint | None) -> JsonObject:
    for i in range(3):
        point = {"i": i}
        if on_point is not None:
            on_point(point)
        progress((i + 1) / 3, said("measure.progress.test_point", i=i))
    for fraction, raw in request.get("progress", ()):  # sent as they are: a child that says odd things
        progress(fraction, raw)
    return {"kind": "echo", "request": request, "pid": os.getpid()}


def _test_sleep(request: JsonObject, progress: Progress, should_cancel: CancelCheck | None,
                on_point: OnPoint | None) -> JsonObject:
    end = time.monotonic() + float(request.get("seconds", 30))
    while time.monotonic() < end:
        if should_cancel is not None and should_cancel():
            raise MeasureCancelled("cancelled")
        time.sleep(0.01)
    return {"kind": "slept"}


def _test_hang(request: JsonObject, progress: Progress, should_cancel: CancelCheck | None,
               on_point: OnPoint | None) -> JsonObject:
    time.sleep(float(request.get("seconds", 60)))  # ignores cancellation on purpose
    return {"kind": "hung"}


def _test_crash(request: JsonObject, progress: Progress, should_cancel: CancelCheck | None,
                on_point: OnPoint | None) -> JsonObject:
    os._exit(int(request.get("code", 3)))


def _test_kill(request: JsonObject, progress: Progress, should_cancel: CancelCheck | None,
               on_point: OnPoint | None) -> JsonObject:
    import signal

    os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer does
    return {}


def _test_raise(request: JsonObject, progress: Progress, should_cancel: CancelCheck | None,
                on_point: OnPoint | None) -> JsonObject:
    raise RuntimeError(str(request.get("message", "boom")))


Handler = Callable[[Request, Progress, CancelCheck | None, OnPoint | None], MeasureResult]
"""An op: the validated request in, the typed result out (:func:`to_wire` serialises it for the pipe)."""
TestHandler = Callable[[JsonObject, Progress, CancelCheck | None, OnPoint | None], JsonObject]
"""A test op: the raw request (its own keys: seconds, code, message), no plan."""

OPS: dict[str, Handler] = {
    "workload": op_workload,
    "roofline": op_roofline,
    "sweep": op_sweep,
    "vram": op_vram,
    "decode": op_decode,
    "decode_gap": op_decode_gap,
    "train_step": op_train_step,
    "bench": op_bench,
}
TEST_OPS: dict[str, TestHandler] = {
    "_test_echo": _test_echo,
    "_test_sleep": _test_sleep,
    "_test_hang": _test_hang,
    "_test_crash": _test_crash,
    "_test_kill": _test_kill,
    "_test_raise": _test_raise,
}


def run_request(
    request: JsonObject,
    *,
    progress: Progress | None = None,
    should_cancel: CancelCheck | None = None,
    on_point: OnPoint | None = None,
) -> JsonObject:
    """Run one measurement request (see the module docstring for the formats); the result as the JSON the
    worker's pipe carries (:func:`measure` is the typed call)."""
    if not isinstance(request, dict):
        raise WorkloadError("a measurement request must be a mapping")
    op = request.get("op")
    if isinstance(op, str) and op not in OPS and os.environ.get(TEST_OPS_ENV) == "1" and op in TEST_OPS:
        return TEST_OPS[op](request, progress or noop, should_cancel, on_point)  # a test op: no plan
    return to_wire(measure(request, progress=progress, should_cancel=should_cancel, on_point=on_point))


def measure(
    request: JsonObject,
    *,
    progress: Progress | None = None,
    should_cancel: CancelCheck | None = None,
    on_point: OnPoint | None = None,
) -> MeasureResult:
    """Run one measurement request in this process and return its typed result."""
    op = request.get("op")
    handler = OPS.get(op) if isinstance(op, str) else None
    if handler is None:
        raise WorkloadError(f"unknown op {op!r} (known: {', '.join(OPS)})")
    plan = parse_request(request)  # validated parameters and options, within the caps
    limit = plan.run_limit_s  # measuring the roofline, when it is not cached, is not counted
    started = time.monotonic()
    _ROOF_CLOCK.update(spent=0.0, since=None)

    def late() -> bool:
        return time.monotonic() - started - _roof_seconds() > limit

    def cancel_or_late() -> bool:
        return (should_cancel is not None and should_cancel()) or late()

    from tutor.measure.interference import InterferenceProbe

    try:
        with InterferenceProbe() as probe:
            result = handler(plan, progress or noop, cancel_or_late, on_point)
        # what else ran while it measured, kept with the figure (the reveal and the verdict read it)
        if isinstance(result, Measurement) and result.interference is None and probe.result is not None:
            result = replace(result, interference=probe.result)
        return result
    except MeasureCancelled:
        if late() and not (should_cancel is not None and should_cancel()):
            raise MeasureTimedOut(limit) from None
        raise

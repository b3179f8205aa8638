"""Run the doctor: gather the view, run every check, compare with the environment lock, render the report."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tutor.doctor.checks import Check, Status, run_checks
from tutor.doctor.lock import Difference, LockError, compare, current_lock, read_lock, write_lock
from tutor.doctor.rebuild import age_text, clean_rebuild, pins_text, rebuild_paths, rebuild_summary, write_rebuild
from tutor.doctor.view import EnvironmentView, gather
from tutor.i18n import as_lang, numbers, t
from tutor.i18n.message import Message, Param
from tutor.results.lock import EnvironmentLock, LockRebuild
from tutor.results.wire import JsonObject
from tutor.untrusted import clean_line

REPORT_SCHEMA = "gpu-tutor/doctor/v1"

LockMode = Literal["auto", "check", "write", "off"]

#: How each status is marked in the text report (and in the TUI).
STATUS_MARKS: dict[Status, str] = {"ok": "✓", "warn": "!", "fail": "✗", "skip": "–"}


@dataclass(frozen=True)
class LockResult:
    """The environment lock's part of a run: written, compared (with its differences), or unreadable."""

    path: Path
    mode: LockMode
    differences: tuple[Difference, ...] = ()
    error: str | None = None
    written: bool = False
    lock_id: str | None = None
    """The lock's own id (a later run that compares names the lock it compared with)."""
    locked_ts: float | None = None
    rebuild: LockRebuild | None = None
    """What rebuilds the locked environment: requirements and Dockerfile paths, the torch build, its index, pins
    (None when the lock read says nothing of it)."""

    @property
    def matches(self) -> bool | None:
        """True/False once compared or written; None when the lock could not be read."""
        return None if self.error is not None else not self.differences

    def to_json(self) -> JsonObject:
        return {
            "path": str(self.path),
            "mode": self.mode,
            "written": self.written,
            "matches": self.matches,
            "error": self.error,
            "differences": [d.to_json() for d in self.differences],
            "lock_id": self.lock_id,
            "locked_ts": self.locked_ts,
            "rebuild": self.rebuild.to_json() if self.rebuild is not None else {},
        }


@dataclass(frozen=True)
class StackFingerprint:
    """What identifies this machine's stack; the same fields give the same :attr:`id` (a short hash of them)."""

    id: str
    device_kind: str
    """``cuda`` when torch can run a kernel on the GPU, else ``cpu``."""
    device: str
    gpus: tuple[str, ...]
    compute_capabilities: tuple[str | None, ...]
    driver: str | None
    torch: str | None
    torch_cuda: str | None
    cudnn: int | None
    python: str
    platform: str
    wsl: bool
    container: bool

    @classmethod
    def of(cls, fields: JsonObject) -> StackFingerprint:
        """The fingerprint of ``fields`` (every field but the id, JSON-ready), hashed as it always was."""
        digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]
        return cls(id=digest, **{**fields, "gpus": tuple(fields["gpus"]),
                                 "compute_capabilities": tuple(fields["compute_capabilities"])})

    def to_json(self) -> JsonObject:
        return {"id": self.id, "device_kind": self.device_kind, "device": self.device, "gpus": list(self.gpus),
                "compute_capabilities": list(self.compute_capabilities), "driver": self.driver, "torch": self.torch,
                "torch_cuda": self.torch_cuda, "cudnn": self.cudnn, "python": self.python, "platform": self.platform,
                "wsl": self.wsl, "container": self.container}


@dataclass(frozen=True)
class DoctorReport:
    """One run of the doctor. ``passed`` when no check failed; :meth:`to_json` is the ``--json`` document."""

    checks: tuple[Check, ...]
    fingerprint: StackFingerprint
    view: EnvironmentView
    lock: LockResult | None = None
    seconds: float = 0.0
    current_lock: EnvironmentLock = field(default_factory=EnvironmentLock)

    @property
    def passed(self) -> bool:
        return not any(c.status == "fail" for c in self.checks)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def check(self, check_id: str) -> Check | None:
        return next((c for c in self.checks if c.id == check_id), None)

    def counts(self) -> dict[Status, int]:
        counts: dict[Status, int] = {"ok": 0, "warn": 0, "fail": 0, "skip": 0}
        for c in self.checks:
            counts[c.status] += 1
        return counts

    def headline(self, lang: str = "en") -> str:
        """One sentence: what kind of machine this is, in the course's terms (``lang``: "en" or "es")."""
        v = self.view
        code = as_lang(lang)
        if v.gpus:
            names = ", ".join(sorted({g.name for g in v.gpus}))
            usable = v.torch.cuda_available and (v.kernel_probe is None or v.kernel_probe.ok)
            return t("doctor.headline.gpu_usable" if usable else "doctor.headline.gpu_unusable", code, names=names)
        return t("doctor.headline.no_driver" if v.gpu_present else "doctor.headline.cpu", code)

    def to_json(self) -> JsonObject:
        counts = self.counts()
        return {
            "schema": REPORT_SCHEMA,
            "passed": self.passed,
            "headline": self.headline(),
            "summary": counts,
            "seconds": round(self.seconds, 3),
            "checks": [c.to_json() for c in self.checks],
            "fingerprint": self.fingerprint.to_json(),
            "lock": self.lock.to_json() if self.lock else None,
            # which process ran it: C0 asks for a check in a later process than the one that wrote the lock
            "process": {"pid": os.getpid(), "python": sys.executable, "prefix": sys.prefix},
        }

    def render_text(self, width: int | None = None, lang: str = "en") -> str:
        """The readable report: one block per check (mark, id, what was seen, → the fix), then a summary.

        English by default (what scripts and the tests read); ``lang="es"`` gives the Spanish texts.
        """
        width = width or max(60, min(shutil.get_terminal_size((100, 24)).columns, 120))
        v = self.view
        code = as_lang(lang)
        torch_text = f"torch {v.torch.version}" if v.torch.installed else t("doctor.cli.no_torch", code)
        lines = [
            t("doctor.cli.title", code, torch=torch_text, system=v.system, machine=v.machine, python=v.python_version),
            self.headline(code),
            "",
        ]
        words = {s: t(f"doctor.status.{s}", code) for s in STATUS_MARKS}
        pad = max(len(w) for w in words.values())
        indent = " " * (pad + 25)
        for c in self.checks:
            head = f"{STATUS_MARKS[c.status]} {words[c.status]:<{pad}}  {c.id:<20} "
            lines.extend(_wrap(c.seen_in(code), width, head, indent) or [head])
            fix = c.fix_in(code)
            if fix:
                lines.extend(_wrap(fix, width, indent + "→ ", indent + "  "))
        if self.lock is not None:
            for d in self.lock.differences:
                lines.append(f"{indent}· {d.describe_in(code)}")
        counts = self.counts()
        verdict = t("doctor.cli.passed" if self.passed else "doctor.cli.failed", code)
        lines.append("")
        lines.append(t("doctor.cli.summary", code, verdict=verdict, fail=counts["fail"], warn=counts["warn"],
                       ok=counts["ok"], skip=counts["skip"], seconds=numbers.decimal(self.seconds, code, 1)))
        return "\n".join(lines)


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    # Paths and versions must stay whole so they can be copied from the terminal.
    return textwrap.wrap(
        text, width=width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False, break_long_words=False
    )


def fingerprint(view: EnvironmentView) -> StackFingerprint:
    """What identifies this machine's stack: the same fields give the same ``id`` (a short hash)."""
    t = view.torch
    gpus = [g.name for g in view.gpus]
    usable = t.cuda_available and (view.kernel_probe is None or view.kernel_probe.ok)
    fields: JsonObject = {
        "device_kind": "cuda" if usable else "cpu",
        "device": gpus[0] if usable and gpus else (view.cpu_name or view.machine),
        "gpus": gpus,
        "compute_capabilities": [g.sm for g in view.gpus],
        "driver": view.driver_version,
        "torch": t.version,
        "torch_cuda": t.cuda,
        "cudnn": t.cudnn,
        "python": view.python_version,
        "platform": f"{view.system} {view.machine}",
        "wsl": view.is_wsl,
        "container": view.in_container,
    }
    return StackFingerprint.of(fields)


def record_doctor_run(store: Any, report: DoctorReport) -> JsonObject:
    """Store ``report`` as C0 evidence in ``store`` (any progress store); returns the ``--json`` document stored."""
    document = report.to_json()
    store.record_doctor_run(passed=report.passed, report=document,
                            lock_matches=report.lock.matches if report.lock else None)
    return document


def run_doctor(
    view: EnvironmentView | None = None,
    *,
    lock_mode: LockMode = "auto",
    lock_path: Path | None = None,
    probe_kernel: bool = True,
) -> DoctorReport:
    """Diagnose this machine (or ``view``) and handle the environment lock.

    ``lock_mode``: ``"auto"`` compares with the lock at ``lock_path`` (default :func:`tutor.paths.environment_lock`)
    if one exists — a difference is a warning; ``"check"`` compares and a difference fails (an unusable lock raises
    :class:`~tutor.doctor.lock.LockError`); ``"write"`` writes the current lock there; ``"off"`` ignores locks.
    """
    start = time.perf_counter()
    if view is None:
        view = gather(probe_kernel=probe_kernel)
    checks = run_checks(view)
    current = current_lock(view)
    lock: LockResult | None = None
    if lock_mode != "off":
        if lock_path is None:
            from tutor import paths

            lock_path = paths.environment_lock()
        lock, lock_check = _lock_step(lock_mode, Path(lock_path), current)
        checks.append(lock_check)
    return DoctorReport(
        checks=tuple(checks),
        fingerprint=fingerprint(view),
        view=view,
        lock=lock,
        seconds=time.perf_counter() - start,
        current_lock=current,
    )


def _lock_step(mode: LockMode, path: Path, current: EnvironmentLock) -> tuple[LockResult | None, Check]:
    if mode == "write":
        requirements, dockerfile = rebuild_paths(path)
        current = current.with_rebuild(rebuild_summary(current, requirements, dockerfile))
        write_lock(path, current)
        rebuild = write_rebuild(path, current)
        pinned = pins_text(rebuild)
        return LockResult(path, mode, written=True, lock_id=current.lock_id,
                          locked_ts=current.created_ts, rebuild=rebuild), Check(
            "lock", "ok", Message.of("doctor.lock.wrote", path=str(path), pinned=pinned, requirements=str(requirements),
                                     dockerfile=str(dockerfile), image=str(rebuild.base_image)))
    if mode == "auto" and not path.exists():
        return None, Check("lock", "skip", Message.of("doctor.lock.none", path=str(path)),
                           Message.of("doctor.lock.none_fix"))
    try:
        locked = read_lock(path)
    except LockError as exc:
        if mode == "check":
            raise
        return LockResult(path, mode, error=str(exc)), Check(
            "lock", "warn", exc.said,
            Message.of("doctor.lock.rewrite"))
    diffs = tuple(compare(locked, current))
    locked_rebuild = clean_rebuild(locked.rebuild)
    lock_id = locked.lock_id
    locked_ts = float(locked.created_ts) if locked.created_ts is not None else None
    result = LockResult(path, mode, differences=diffs, lock_id=clean_line(lock_id)[:40] if lock_id else None,
                        locked_ts=locked_ts, rebuild=locked_rebuild)
    created = clean_line(locked.created_at)[:40] if locked.created_at else None
    age: Param = Message.of("doctor.lock.age", age=age_text(locked_ts, "en")) if locked_ts else ""
    written: Param = (Message.of("doctor.lock.written", created=created, age=age) if created
                      else Message.of("doctor.lock.undated", age=age))
    extra = (Message.of("doctor.lock.pins", pins=pins_text(locked_rebuild)) if locked_rebuild
             else Message.of("doctor.lock.no_rebuild"))
    if not diffs:
        return result, Check("lock", "ok", Message.of("doctor.lock.matches", path=str(path), written=written,
                                                      extra=extra))
    status: Status = "fail" if mode == "check" else "warn"
    keys = ", ".join(d.key for d in diffs[:6]) + (", …" if len(diffs) > 6 else "")
    return result, Check("lock", status, Message.of("doctor.lock.differs", n=len(diffs), path=str(path),
                                                    written=written, keys=keys),
                         Message.of("doctor.lock.differs_fix"))

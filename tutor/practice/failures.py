"""Why a measurement did not finish, worded for the learner — the one place screens and commands take it from.

:func:`classify` turns whatever a measurement raised (the worker's :class:`MeasureCancelled` /
:class:`MeasureFailed` with its ``code``, ``KeyboardInterrupt``, ``MemoryError``, an engine bug) into a
:class:`Failure`: a ``code``, the attempt's stored ``state`` (``"failed"`` or ``"cancelled"``) and the English
``detail`` the store keeps. :func:`failure_text` words a code in Spanish or English; an out-of-memory reads the size
that was asked for out of torch's text instead of showing that text raw.

Codes: ``cancelled`` (Esc), ``interrupted`` (Ctrl-C), ``closing`` (the app quit), ``killed`` (SIGKILL, most likely
the out-of-memory killer), ``oom`` (an allocation failed), ``crashed``, ``exited``, ``timeout``, ``failed`` (an
error inside the measurement), ``engine`` (a bug outside it), ``doctor`` (the doctor's child process did not
answer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tutor.i18n import Lang, format_bytes, t

CANCEL_CODES = frozenset({"cancelled", "interrupted", "closing"})


@dataclass(frozen=True)
class Failure:
    """What went wrong: ``code`` (see the module docstring), ``detail`` (English, what the store keeps)."""

    code: str
    detail: str

    @property
    def state(self) -> str:
        """The attempt's state: ``cancelled`` when the learner (or quitting) stopped it, else ``failed``."""
        return "cancelled" if self.code in CANCEL_CODES else "failed"

    def text(self, lang: Lang) -> str:
        return failure_text(self.code, self.detail, lang)


_OOM_WORDS = ("out of memory", "can't allocate memory", "cannot allocate memory", "failed to allocate",
              "bad_alloc", "defaultcpuallocator")


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def classify(exc: BaseException) -> Failure:
    """The failure a measurement's exception stands for."""
    from tutor.doctor.isolated import DoctorUnavailable
    from tutor.measure.errors import MeasureCancelled, MeasureFailed

    if isinstance(exc, DoctorUnavailable):
        if str(exc) == "cancelled":
            return Failure("cancelled", "the doctor was cancelled")
        return Failure("doctor", _first_line(str(exc)))
    if isinstance(exc, KeyboardInterrupt):
        return Failure("interrupted", "the measurement was interrupted")
    if isinstance(exc, MeasureCancelled):
        closing = "closing" in str(exc)
        return Failure("closing" if closing else "cancelled",
                       "the measurement was stopped when the app closed" if closing
                       else "the measurement was cancelled")
    if isinstance(exc, MeasureFailed):
        code = getattr(exc, "code", "failed") or "failed"
        if code == "failed" and "SIGKILL" in exc.reason:
            code = "killed"
        elif code == "failed" and any(w in exc.reason.lower() for w in _OOM_WORDS):
            code = "oom"
        return Failure(code, _first_line(exc.reason))
    if isinstance(exc, MemoryError):
        return Failure("oom", f"MemoryError: {exc}".rstrip(": "))
    text = f"{type(exc).__name__}: {exc}"
    if any(w in text.lower() for w in _OOM_WORDS):
        return Failure("oom", _first_line(text))
    return Failure("engine", _first_line(text))


_UNITS = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KIB": 2**10, "MIB": 2**20, "GIB": 2**30,
          "TIB": 2**40}


def requested_bytes(text: str) -> float | None:
    """The size an out-of-memory text says was asked for: torch's CPU allocator ("you tried to allocate 123
    bytes"), CUDA's ("Tried to allocate 2.00 GiB"); None when it does not say."""
    m = re.search(r"allocate\s+([0-9][0-9.,]*)\s*(bytes|[KMGT]i?B|B)\b", text, re.IGNORECASE)
    if not m:
        return None
    try:
        number = float(m.group(1).replace(",", ""))
    except ValueError:
        return None
    unit = m.group(2).upper()
    return number * _UNITS.get("B" if unit == "BYTES" else unit, 1)


def failure_text(code: str, detail: str, lang: Lang) -> str:
    """One sentence for the learner, in ``lang``."""
    if code == "oom":
        size = requested_bytes(detail)
        gpu = t("fail.oom_gpu", lang) if "cuda" in detail.lower() or "gpu" in detail.lower() else ""
        if size is not None:
            return t("fail.oom_size", lang, size=format_bytes(size, lang) + gpu)
        return t("fail.oom", lang) + gpu
    if code in ("cancelled", "interrupted", "closing", "killed"):
        return t(f"fail.{code}", lang)
    if code == "crashed":
        m = re.search(r"SIG[A-Z]+", detail)
        return t("fail.crashed", lang, detail=m.group(0) if m else detail)
    if code == "exited":
        m = re.search(r"exit code -?\d+", detail)
        return t("fail.exited", lang, detail=m.group(0) if m else detail)
    if code == "timeout":
        from tutor.measure.errors import MeasureTimedOut

        m = re.search(r"\(([0-9][0-9.,]*) s\b", detail) or re.search(r"([0-9][0-9.]*) s\b", detail)
        if m:
            try:
                return MeasureTimedOut(float(m.group(1).replace(",", "."))).message(lang)
            except ValueError:
                pass
        return t("fail.timeout", lang, detail=detail)
    if code in ("failed", "engine", "doctor"):
        return t(f"fail.{code}", lang, detail=detail)
    return detail


def stalled_text(seconds: float, lang: Lang) -> str:
    """What the screens say while no sign of life has come from the measurement for ``seconds``."""
    return t("fail.stalled", lang, seconds=f"{seconds:.0f}")

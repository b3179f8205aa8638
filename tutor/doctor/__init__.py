"""Stack diagnostics (``tutor doctor``) and the environment lock.

- :func:`gather` → an :class:`EnvironmentView` of this machine (torch, NVML, platform, paths, env vars);
- :func:`run_checks` / :data:`CHECKS` → :class:`Check` results (ok / warn / fail / skip);
- :func:`run_doctor` → a :class:`DoctorReport` (``passed``, ``to_json()``, ``render_text()``);
- :mod:`tutor.doctor.lock` → :func:`current_lock`, :func:`compare`, :func:`read_lock`, :func:`write_lock`;
- :mod:`tutor.doctor.symptoms` → the exact error messages of the typical failures, for the diagnose exercises.

Never imports textual; imports torch only inside :func:`gather` (and CUDA runs only in a probe subprocess).
"""

from tutor.doctor.checks import CHECKS, Check, Status, run_checks
from tutor.doctor.lock import LOCK_SCHEMA, Difference, LockError, compare, current_lock, read_lock, write_lock
from tutor.doctor.report import REPORT_SCHEMA, STATUS_MARKS, DoctorReport, LockResult, fingerprint, run_doctor
from tutor.doctor.view import EnvironmentView, GpuDevice, GpuProcess, TorchFacts, gather

__all__ = [
    "CHECKS",
    "LOCK_SCHEMA",
    "REPORT_SCHEMA",
    "STATUS_MARKS",
    "Check",
    "Difference",
    "DoctorReport",
    "EnvironmentView",
    "GpuDevice",
    "GpuProcess",
    "LockError",
    "LockResult",
    "Status",
    "TorchFacts",
    "compare",
    "current_lock",
    "fingerprint",
    "gather",
    "read_lock",
    "run_checks",
    "run_doctor",
    "write_lock",
]

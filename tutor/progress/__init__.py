"""The learner's progress: a SQLite store, the C0 rules and prediction calibration."""

from tutor.progress.store import ProgressStore, StoreBase, StoreOpenReport

__all__ = ["ProgressStore", "StoreBase", "StoreOpenReport"]

"""Practice: the predict → lock → measure → grade → store flow shared by the exercise screen and the CLI.

No textual here, and torch only through :mod:`tutor.measure` (the worker process, or ``run_request`` lazily).
"""

from tutor.practice.runner import (
    AttemptFailed,
    ExerciseRunner,
    Outcome,
    measure_request,
)

__all__ = ["AttemptFailed", "ExerciseRunner", "Outcome", "measure_request"]

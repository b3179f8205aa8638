"""The headless subcommands of ``tutor``, one module each (each exposes ``register(subparsers)``)."""

from __future__ import annotations

# Order is the order ``tutor --help`` lists them in.
COMMAND_MODULES: tuple[str, ...] = (
    "lessons",
    "exercise",
    "bench",
    "doctor",
    "telemetry",
    "progress",
    "notebook",
)


class CliError(Exception):
    """A problem to report as one line on stderr, with an exit code (never a traceback)."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code

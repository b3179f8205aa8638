"""The app's real measurement worker process, made to run a test op instead of the exercise's request."""

from __future__ import annotations

from typing import Any

from tutor.measure.worker import MeasureWorker


class SwappedWorker(MeasureWorker):
    """The app's worker, running ``op`` instead of the exercise's request."""

    def __init__(self, op: dict[str, Any], **kw: Any) -> None:
        super().__init__(**kw)
        self.op = op

    def run(self, request: dict[str, Any], *args: Any, **kw: Any) -> dict[str, Any]:
        swapped = request if str(request.get("op", "")).startswith("_test_") else dict(self.op)
        return super().run(swapped, *args, **kw)

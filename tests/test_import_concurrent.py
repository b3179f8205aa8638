"""Two imports into one empty store at once (issue 28, trust boundaries): the store is checked in the transaction
that writes, so exactly one lands and the other is refused in one line — on both engines."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.conftest import Stores
from tests.test_progress_exchange import comparable, filled
from tutor.progress.exchange import ExchangeError, export_document, export_to, import_from


def test_two_imports_at_once_one_lands_the_other_is_refused(stores: Stores, tmp_path: Path) -> None:
    src = filled(stores.open("a"))
    export_to(src, tmp_path / "out.json")
    both = [stores.open("b"), stores.open("b")]  # two connections to the same empty store, as two processes
    arrived = threading.Barrier(len(both), timeout=20)

    def at_once(store: Any) -> None:
        """Both imports reach their write transaction before either begins it (the widest race there is)."""
        begin = store.transaction

        @contextmanager
        def transaction() -> Iterator[Any]:
            arrived.wait()
            with begin() as conn:
                yield conn

        store.transaction = transaction

    results: dict[int, object] = {}

    def run(i: int) -> None:
        try:
            results[i] = import_from(both[i], tmp_path / "out.json")
        except Exception as exc:  # what the other import met, checked below
            results[i] = exc

    for store in both:
        at_once(store)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(both))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(results) == 2, results
    landed = [r for r in results.values() if isinstance(r, dict)]
    refused = [r for r in results.values() if isinstance(r, ExchangeError)]
    assert len(landed) == 1 and len(refused) == 1, results
    for lang in ("en", "es"):
        line = refused[0].describe(lang)
        assert "\n" not in line and line.startswith(str(tmp_path / "out.json")) and "--merge" in line
    assert "nothing was imported" in refused[0].describe("en")
    assert "no se importó nada" in refused[0].describe("es")
    # the store holds one copy of the export, not two
    assert comparable(export_document(stores.open("b"))) == comparable(export_document(src))

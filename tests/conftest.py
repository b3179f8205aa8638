"""Shared fixtures. Every test gets its own data dir, so no test ever touches a learner's progress."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path_factory.mktemp("tutor-data")
    monkeypatch.setenv("TUTOR_DATA_DIR", str(data))
    return data


@pytest.fixture
def data_dir(_isolated_data_dir: Path) -> Path:
    """The data dir of this test (``TUTOR_DATA_DIR``)."""
    return _isolated_data_dir

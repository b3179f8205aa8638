"""Shared fixtures. Every test gets its own data dir, so no test ever touches a learner's progress."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path_factory.mktemp("tutor-data")
    monkeypatch.setenv("TUTOR_DATA_DIR", str(data))
    # the SQLite default unless a test asks for another store (`tutor --store` sets this for its process)
    monkeypatch.delenv("TUTOR_STORE", raising=False)
    # no verdict depends on how busy the machine running the tests is: other programs are said to use no core
    # (every reading says SIMULATED); the probe itself is tested with made-up counters
    monkeypatch.setenv("TUTOR_SIMULATED_LOAD", "0")
    return data


@pytest.fixture
def data_dir(_isolated_data_dir: Path) -> Path:
    """The data dir of this test (``TUTOR_DATA_DIR``)."""
    return _isolated_data_dir


# -- the two store engines ------------------------------------------------------------------------------------------
# Every store test runs against the embedded SQLite file and a real PostgreSQL: the server given by
# $TUTOR_TEST_PG_DSN when the run has one worker (or this machine cannot start one), else a throwaway cluster
# started here, one per pytest-xdist worker: roles and the `public` schema's grants are cluster-wide, and two
# workers' `class init` on one server would race on them. Without either, the PostgreSQL cases fail under CI=true
# and are skipped (with the reason) locally.

ENGINES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def pg_admin_dsn() -> Iterator[str]:
    """A PostgreSQL superuser's connection string (see above)."""
    from tests import pg_cluster

    given = os.environ.get("TUTOR_TEST_PG_DSN")
    why = pg_cluster.available()
    if given and (why is not None or int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) <= 1):
        yield given
        return
    if why is not None:
        message = f"no PostgreSQL for the store tests: {why}; or set TUTOR_TEST_PG_DSN"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    folder = Path(tempfile.mkdtemp(prefix=f"tutor-pg-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-"))
    try:
        yield pg_cluster.start(folder)
    finally:
        pg_cluster.stop(folder)
        shutil.rmtree(folder, ignore_errors=True)


def with_schema(dsn: str, schema: str) -> str:
    """``dsn`` with its search path set to ``schema`` (one test's private corner of the server)."""
    from psycopg.conninfo import make_conninfo

    return make_conninfo(dsn, options=f"-c search_path={schema}")


class Stores:
    """Opens stores of one engine: ``open(name)`` the store called ``name`` (a file, or a PostgreSQL schema),
    ``spec(name)`` what ``--store``/``open_store`` take to reach it."""

    def __init__(self, engine: str, tmp_path: Path, admin_dsn: str | None) -> None:
        self.engine = engine
        self.tmp_path = tmp_path
        self.admin_dsn = admin_dsn
        self.schemas: list[str] = []
        self.opened: list[Any] = []

    def spec(self, name: str = "p") -> str:
        if self.engine == "sqlite":
            return str(self.tmp_path / f"{name}.sqlite3")
        assert self.admin_dsn is not None
        schema = f"t_{os.getpid()}_{id(self) % 100000}_{name}".lower()
        if schema not in self.schemas:
            import psycopg

            with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                conn.execute(f'CREATE SCHEMA "{schema}"')
            self.schemas.append(schema)
        return with_schema(self.admin_dsn, schema)

    def open(self, name: str = "p") -> Any:
        from tutor.progress.engines import open_store

        store = open_store(self.spec(name))
        self.opened.append(store)
        return store

    def admin(self, name: str = "p") -> Any:
        """A raw psycopg connection to the store ``name``'s schema (PostgreSQL only)."""
        import psycopg

        return psycopg.connect(self.spec(name), autocommit=True)

    def cleanup(self) -> None:
        for store in self.opened:
            with contextlib.suppress(Exception):
                store.close()
        if self.schemas and self.admin_dsn:
            import psycopg

            with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
                for schema in self.schemas:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(params=ENGINES)
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stores]:
    """The store engine under test (each test runs once per engine)."""
    admin = request.getfixturevalue("pg_admin_dsn") if request.param == "postgresql" else None
    maker = Stores(request.param, tmp_path, admin)
    try:
        yield maker
    finally:
        maker.cleanup()


# -- a class on the PostgreSQL engine: the instructor's connection and two learners -----------------------------


@dataclass
class Classroom:
    admin: str
    learners: dict[str, Any]  # name -> tutor.progress.classroom.LearnerCredentials
    roles: list[str]

    def store(self, who: str) -> Any:
        """``who``'s own store, through their own role and token."""
        from tutor.progress.postgres import PostgresStore

        return PostgresStore(self.learners[who].dsn)


def drop_roles(admin: str, roles: list[str]) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(admin, autocommit=True) as conn:
        for role in roles:
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
                conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
                conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


@pytest.fixture
def classroom(stores: Stores) -> Iterator[Classroom]:
    """A class set up with ``tutor class init`` and two learners, ana and ben (roles dropped afterwards)."""
    import psycopg

    from tutor.progress.classroom import add_learner, class_group, init_class

    admin = stores.spec("cls")
    init_class(admin, allow_superuser=True)  # the test cluster's superuser
    suffix = secrets.token_hex(3)
    room = Classroom(admin, {}, [])
    with psycopg.connect(admin, autocommit=True) as conn:  # the class's own group, dropped after its learners
        group = class_group(conn, str(conn.execute("SELECT current_schema()").fetchone()[0]))
    try:
        for who in ("ana", "ben"):
            creds = add_learner(admin, f"{who}_{suffix}")
            room.roles.append(creds.name)
            room.learners[who] = creds
        yield room
    finally:
        drop_roles(admin, [*room.roles, group])

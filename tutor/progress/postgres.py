"""The class engine: the same progress store on PostgreSQL (psycopg 3).

The schema is the SQLite store's, version for version (``PG_MIGRATIONS[i]`` is ``MIGRATIONS[i]`` in
PostgreSQL's dialect, both rendered from :mod:`tutor.progress.schema`): the same tables, columns and value
rules, plus a ``learner`` column on every table (the database role that wrote the row, ``current_user`` by
default) that row-level security keys on once ``tutor class init`` has run. The schema version lives in
``tutor_schema``; migrations run in one transaction under an advisory lock, so two first runs cannot race.
Errors are the store's :class:`StoreError` subclasses, never psycopg's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any, ClassVar

from tutor.i18n import N_
from tutor.progress.lease import MeasurementLease, postgres_lease
from tutor.progress.schema import postgres_migrations
from tutor.progress.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    StoreBase,
    StoreBusy,
    StoreError,
    StoreFull,
    StoreNewerSchema,
    StoreOpenReport,
    StoreReadOnly,
    StoreRejected,
)
from tutor.progress.store_errors import StoreCannotOpen, StoreDenied, StoreUnreachable

__all__ = [
    "PG_MIGRATIONS",
    "TOKEN_FILE_ENV",
    "PostgresStore",
    "SchemaForeignObjects",
    "SchemaWritable",
    "classify_pg",
    "conninfo_password",
    "display_dsn",
    "foreign_objects",
    "is_postgres_dsn",
    "pin_search_path",
    "read_token_file",
    "schema_writers",
]

#: The first key of the migration's transaction-level advisory lock ("tv").
MIGRATION_NAMESPACE = 0x7476
#: A file holding a learner's token (``tutor --token-file``): read when the connection string has no password.
TOKEN_FILE_ENV = "TUTOR_TOKEN_FILE"
#: Larger than any token; a bigger file is not a token file.
_TOKEN_FILE_LIMIT = 4096


class StoreNoToken(StoreDenied):
    """The server wants the role's password (a learner's token) and none was given."""

    code = N_("store.no_token")


class TokenFileUnreadable(StoreCannotOpen):
    code = N_("store.token_file_unreadable")


class TokenFileOpen(StoreCannotOpen):
    """Group or others may read the file: like libpq with a ``.pgpass`` that is too open, the tutor refuses it."""

    code = N_("store.token_file_open")


class TokenFileEmpty(StoreCannotOpen):
    code = N_("store.token_file_empty")


def read_token_file(path: str) -> str:
    """The token in ``path`` (its first line, stripped): a regular file that only its owner may read."""
    import os
    import stat
    from pathlib import Path

    file = Path(path).expanduser()
    try:
        with file.open("rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise TokenFileUnreadable(path=str(file), detail="not a regular file")
            if os.name == "posix" and info.st_mode & 0o077:
                raise TokenFileOpen(path=str(file))
            data = handle.read(_TOKEN_FILE_LIMIT + 1)
    except OSError as exc:
        raise TokenFileUnreadable(path=str(file), detail=exc.strerror or type(exc).__name__) from None
    lines = data.decode("utf-8", "replace").splitlines() if len(data) <= _TOKEN_FILE_LIMIT else []
    token = lines[0].strip() if lines else ""
    if not token:
        raise TokenFileEmpty(path=str(file))
    return token


def conninfo_password(conninfo: str) -> str | None:
    """The password written in a connection string (URL or ``key=value``), or None."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        password = conninfo_to_dict(conninfo).get("password")
        return str(password) if password else None
    except Exception:
        return None


def is_postgres_dsn(spec: str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL or a libpq ``key=value`` connection string."""
    return spec.startswith(("postgresql://", "postgres://")) or ("=" in spec and "dbname=" in spec.replace(" ", ""))


def display_dsn(conninfo: str) -> str:
    """The connection string without its password (what error messages and screens show)."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        parts = conninfo_to_dict(conninfo)
    except Exception:
        return "postgresql://?"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


#: The SQLite store's versions in PostgreSQL's dialect, rendered from the one description in
#: :mod:`tutor.progress.schema` (every table with its ``learner``).
PG_MIGRATIONS: tuple[str, ...] = postgres_migrations()
assert len(PG_MIGRATIONS) == len(MIGRATIONS), "each SQLite migration has its PostgreSQL twin"


#: Roles (other than superusers and the schema owner's own) that may create objects in a schema; ``PUBLIC``
#: stands for every role. Written against ``pg_catalog`` only: it runs before the schema is trusted.
_SCHEMA_WRITERS_SQL = """
SELECT 'PUBLIC' FROM pg_catalog.pg_namespace n
 WHERE n.nspname OPERATOR(pg_catalog.=) $1::pg_catalog.name
   AND pg_catalog.has_schema_privilege('public', n.oid, 'CREATE')
UNION ALL
SELECT r.rolname::pg_catalog.text FROM pg_catalog.pg_roles r, pg_catalog.pg_namespace n
 WHERE n.nspname OPERATOR(pg_catalog.=) $1::pg_catalog.name AND NOT r.rolsuper
   AND NOT pg_catalog.pg_has_role(r.oid, n.nspowner, 'USAGE')
   AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'CREATE')
"""


class SchemaWritable(StoreDenied):
    """Another role may create objects in the store's schema: it could shadow the functions and operators the
    tutor calls (CVE-2018-1058) and have them run as whoever uses the store. Refused until the owner revokes it."""

    code = N_("store.schema_writable")


def schema_writers(conn: Any, schema: str) -> list[str]:
    """Who besides the schema's owner (and superusers) may create in ``schema`` (``PUBLIC`` for everyone)."""
    return [str(r[0]) for r in conn.execute(_SCHEMA_WRITERS_SQL.replace("$1", "%s"), (schema, schema)).fetchall()]


#: Functions (aggregates, procedures), operators, types, collations, conversions and relations in a schema owned
#: by a role that neither holds the schema owner's rights nor is a superuser, as ``(owner, kind, count)``.
#: Closing the schema does not remove what a role made while it could create there: a learner's operator
#: ``public.=(double precision, bigint)`` stays a better match than the built-in for whoever compares those
#: types, whatever the search path. Catalog-qualified, like the above.
_FOREIGN_OBJECTS_SQL = """
WITH ns AS (SELECT n.oid, n.nspowner FROM pg_catalog.pg_namespace n
             WHERE n.nspname OPERATOR(pg_catalog.=) %(schema)s::pg_catalog.name),
objects (owner, kind) AS (
  SELECT p.proowner, 'function' FROM pg_catalog.pg_proc p, ns WHERE p.pronamespace OPERATOR(pg_catalog.=) ns.oid
  UNION ALL SELECT o.oprowner, 'operator' FROM pg_catalog.pg_operator o, ns
   WHERE o.oprnamespace OPERATOR(pg_catalog.=) ns.oid
  UNION ALL SELECT t.typowner, 'type' FROM pg_catalog.pg_type t, ns WHERE t.typnamespace OPERATOR(pg_catalog.=) ns.oid
  UNION ALL SELECT c.relowner, 'relation' FROM pg_catalog.pg_class c, ns
   WHERE c.relnamespace OPERATOR(pg_catalog.=) ns.oid
  UNION ALL SELECT c.collowner, 'collation' FROM pg_catalog.pg_collation c, ns
   WHERE c.collnamespace OPERATOR(pg_catalog.=) ns.oid
  UNION ALL SELECT c.conowner, 'conversion' FROM pg_catalog.pg_conversion c, ns
   WHERE c.connamespace OPERATOR(pg_catalog.=) ns.oid
)
SELECT r.rolname::pg_catalog.text, o.kind, pg_catalog.count(*)
  FROM objects o JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) o.owner, ns
 WHERE NOT r.rolsuper AND NOT pg_catalog.pg_has_role(r.oid, ns.nspowner, 'USAGE')
 GROUP BY 1, 2 ORDER BY 1, 2
"""


class SchemaForeignObjects(StoreDenied):
    """The store's schema holds functions, operators or tables of a role other than its owner: made while that
    role could create there, they stay after the schema is closed and could run as whoever uses the store."""

    code = N_("store.schema_foreign")


def foreign_objects(conn: Any, schema: str) -> list[tuple[str, str, int]]:
    """``(role, kind, how many)`` for the objects in ``schema`` that its owner (or a superuser) does not own."""
    return [(str(r[0]), str(r[1]), int(r[2])) for r in conn.execute(_FOREIGN_OBJECTS_SQL, {"schema": schema})]


def pin_search_path(conn: Any, *, where: str, check: bool = True) -> str:
    """Pin ``conn``'s ``search_path`` to ``pg_catalog, <its current schema>, pg_temp`` and return that schema.

    Whatever the connection string or the role's settings chose, every unqualified name then resolves in
    ``pg_catalog`` first and in the store's schema after; ``pg_temp`` (the session's own objects) comes last.
    Pinning alone does not stop a better-matching overload in a schema on the path, so with ``check`` the
    schema must be writable by no one but its owner (:class:`SchemaWritable` otherwise) and hold nothing another
    role made while it could (:class:`SchemaForeignObjects` otherwise)."""
    from psycopg import sql

    # The first schema of the path that exists, pg_catalog aside (a path pinned before names it first).
    row = conn.execute(
        "SELECT s FROM pg_catalog.unnest(pg_catalog.current_schemas(false)) WITH ORDINALITY AS p(s, i)"
        " WHERE s OPERATOR(pg_catalog.<>) 'pg_catalog' AND NOT pg_catalog.starts_with(s::pg_catalog.text, 'pg_temp')"
        " ORDER BY i LIMIT 1").fetchone()
    schema = None if row is None else row[0]
    if schema is None:
        raise StoreCannotOpen(path=where, detail="no schema on the connection's search_path exists")
    schema = str(schema)
    conn.execute("SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false)")
    if check:
        writers = schema_writers(conn, schema)
        if writers:
            raise SchemaWritable(path=where, schema=schema, roles=", ".join(writers[:5]))
        refuse_foreign_objects(conn, schema, where)
    path = sql.SQL("pg_catalog, {}, pg_temp").format(sql.Identifier(schema)).as_string(conn)
    conn.execute("SELECT pg_catalog.set_config('search_path', %s, false)", (path,))
    return schema


def refuse_foreign_objects(conn: Any, schema: str, where: str) -> None:
    """:class:`SchemaForeignObjects` when another role's objects are in ``schema`` (see :func:`foreign_objects`)."""
    found = foreign_objects(conn, schema)
    if found:
        roles = list(dict.fromkeys(role for role, _, _ in found))
        what = ", ".join(f"{n} {kind}" for _, kind, n in found[:4])
        raise SchemaForeignObjects(path=where, schema=schema, roles=", ".join(roles[:5]), objects=what,
                                   role=roles[0])


class PgRow(dict[str, Any]):
    """A row as a mapping (``dict(row)``, ``row["col"]``) that also indexes by position (``row[0]``), as
    ``sqlite3.Row`` does."""

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, int):
            return list(self.values())[key]
        return super().__getitem__(key)


def _row_factory(cursor: Any) -> Callable[[Sequence[Any]], Any]:
    description = cursor.description
    if description is None:
        return tuple
    names = [c.name for c in description]

    def make(values: Sequence[Any]) -> PgRow:
        return PgRow(zip(names, values, strict=True))

    return make


def _placeholders(sql: str) -> str:
    """The store's ``?`` placeholders in psycopg's ``%s`` style (no literal in the store's SQL holds a ``?``)."""
    return sql.replace("%", "%%").replace("?", "%s")


class _Connection:
    """What ``transaction()`` yields: ``execute`` with the store's placeholders."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(_placeholders(sql), tuple(params))


def classify_pg(exc: BaseException, where: str, busy_seconds: float = 10) -> StoreError:
    """The :class:`StoreError` that says what a psycopg error means (one line)."""
    import psycopg
    from psycopg import errors as e

    detail = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    if isinstance(exc, e.InsufficientPrivilege):
        return StoreDenied(path=where, detail=detail)
    if isinstance(exc, psycopg.IntegrityError | psycopg.DataError | e.DatatypeMismatch):
        return StoreRejected(path=where, detail=detail)
    if isinstance(exc, e.DiskFull):
        return StoreFull(path=where)
    if isinstance(exc, e.ReadOnlySqlTransaction):
        return StoreReadOnly(path=where)
    if isinstance(exc, e.LockNotAvailable | e.DeadlockDetected | e.SerializationFailure | e.QueryCanceled):
        return StoreBusy(path=where, seconds=f"{busy_seconds:g}")
    if isinstance(exc, psycopg.OperationalError):
        if "no password supplied" in detail:
            return StoreNoToken(path=where)
        if "password authentication failed" in detail or ("role" in detail and "does not exist" in detail):
            return StoreDenied(path=where, detail=detail)
        return StoreUnreachable(path=where, detail=detail)
    if isinstance(exc, e.UndefinedTable):
        return StoreCannotOpen(path=where, detail=detail)
    return StoreError(path=where, detail=detail)


class PostgresStore(StoreBase):
    """The progress store on a PostgreSQL server (a class's shared database, or one learner's own).

    Safe to share between threads (one connection behind a lock). A connection the server dropped is opened
    again on the next call; while the server is down, calls raise :class:`StoreUnreachable` (a
    :class:`StoreWriteError`: the UI keeps what it was saving and retries).
    """

    engine = "postgresql"
    #: Seconds a connection attempt waits for the server.
    connect_timeout_s: int = 10
    busy_timeout_s: float = 10.0
    #: Asks for the token when the server wants a password and none was given (no password in the connection
    #: string, no ``$TUTOR_TOKEN_FILE``, nothing from libpq's ``PGPASSWORD``/``PGPASSFILE``): ``prompt(server)``.
    #: The CLI sets it when stdin is a terminal (a hidden prompt), so a token never has to be on a command line.
    token_prompt: ClassVar[Callable[[str], str] | None] = None

    def __init__(self, conninfo: str, *, password: str | None = None) -> None:
        import os

        self.conninfo = conninfo
        self.path = display_dsn(conninfo)
        token_file = os.environ.get(TOKEN_FILE_ENV)
        if password is None and token_file and conninfo_password(conninfo) is None:
            password = read_token_file(token_file)
        self._password = password
        self._lock = threading.RLock()
        self._conn: Any = None
        self._learner: str | None = None
        self.schema = ""
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise StoreCannotOpen(path=self.path, detail="psycopg is not installed (pip install 'psycopg[binary]')"
                                  ) from None
        with self._errors():
            self._conn = self._connect()
            self._migrate()
            row = self._conn.execute("SELECT current_user").fetchone()
            self._learner = str(row[0])
        self.open_report = StoreOpenReport(self.path)

    # -- connection ---------------------------------------------------------------------------------------------

    def _full_conninfo(self) -> str:
        """The connection string with the token, if one was read or typed (in memory only, never shown)."""
        if self._password is None:
            return self.conninfo
        from psycopg.conninfo import make_conninfo

        return make_conninfo(self.conninfo, password=self._password)

    def _connect(self) -> Any:
        import psycopg

        def connect() -> Any:
            return psycopg.connect(self._full_conninfo(), autocommit=True, row_factory=_row_factory,
                                   connect_timeout=self.connect_timeout_s, application_name="gpu-tutor")

        try:
            conn = connect()
        except psycopg.OperationalError as exc:
            prompt = type(self).token_prompt
            if self._password is not None or prompt is None or "no password supplied" not in str(exc):
                raise
            self._password = prompt(self.path) or None
            if self._password is None:
                raise
            conn = connect()
        try:
            self.schema = pin_search_path(conn, where=self.path)
            # A statement that waits this long for a row lock is reported as busy rather than hanging the UI.
            conn.execute(f"SET lock_timeout = '{int(self.busy_timeout_s * 1000)}ms'")
        except BaseException:
            conn.close()
            raise
        return conn

    def _db(self) -> Any:
        if self._conn is None:
            raise StoreError(path=self.path, detail="the store is closed")
        if self._conn.broken or self._conn.closed:
            self._conn = self._connect()
        return self._conn

    @contextmanager
    def _errors(self) -> Iterator[None]:
        import psycopg

        try:
            yield
        except psycopg.Error as exc:
            raise classify_pg(exc, self.path, self.busy_timeout_s) from exc

    def _read_version(self, conn: Any) -> int | None:
        row = conn.execute("SELECT to_regclass('tutor_schema') IS NOT NULL").fetchone()
        if not row[0]:
            return None
        found = conn.execute("SELECT version FROM tutor_schema").fetchone()
        return None if found is None else int(found[0])

    def _refuse_newer(self, version: int | None) -> None:
        if version is not None and version > SCHEMA_VERSION:
            raise StoreNewerSchema(path=self.path, found=version, known=SCHEMA_VERSION)

    def _migrate(self) -> None:
        conn = self._conn
        version = self._read_version(conn)
        self._refuse_newer(version)
        if version == SCHEMA_VERSION:
            return
        from psycopg import sql

        with conn.transaction():
            # New tables go to the store's schema (pg_catalog, first on the pinned path, takes none).
            conn.execute(sql.SQL("SET LOCAL search_path = {}, pg_catalog, pg_temp").format(sql.Identifier(self.schema)))
            conn.execute("SELECT pg_catalog.pg_advisory_xact_lock(%s::integer, pg_catalog.hashtext(%s::text))",
                         (MIGRATION_NAMESPACE, self.schema))
            conn.execute("CREATE TABLE IF NOT EXISTS tutor_schema (version INTEGER NOT NULL)")
            # Read again under the lock: another process may have migrated while this one waited.
            row = conn.execute("SELECT version FROM tutor_schema").fetchone()
            if row is None:
                conn.execute("INSERT INTO tutor_schema (version) VALUES (0)")
                version = 0
            else:
                version = int(row[0])
            self._refuse_newer(version)
            for step in range(version, SCHEMA_VERSION):
                for statement in (s.strip() for s in PG_MIGRATIONS[step].split(";")):
                    if statement:
                        conn.execute(statement)
            conn.execute("UPDATE tutor_schema SET version = %s", (SCHEMA_VERSION,))

    # -- the store interface ------------------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        with self._lock, self._errors():
            return self._read_version(self._db()) or 0

    @property
    def learner(self) -> str | None:
        return self._learner

    @property
    def shared(self) -> bool:
        return True

    @contextmanager
    def transaction(self) -> Iterator[_Connection]:
        """One write transaction: everything inside lands together or not at all (:class:`StoreWriteError`
        when it could not be written)."""
        with self._lock, self._errors():
            conn = self._db()
            with conn.transaction():
                yield _Connection(conn)

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock, self._errors():
            return list(self._db().execute(_placeholders(sql), params).fetchall())

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with suppress(Exception):
                    self._conn.close()
                self._conn = None

    def device_holder(self, device: str) -> str | None:
        """The role measuring on ``device`` now (from ``pg_locks``), or None."""
        from tutor.progress.lease import device_key

        a, b = device_key(device)
        rows = self._query(
            "SELECT a.usename FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory'"
            " AND l.classid = ?::oid AND l.objid = ?::oid AND l.objsubid = 2 AND l.granted LIMIT 1", (a, b))
        return str(rows[0][0]) if rows else None

    def lease(self, device: str, *, on_queue: Callable[[int], None] | None = None,
              cancelled: Callable[[], bool] | None = None) -> AbstractContextManager[MeasurementLease]:
        """Hold ``device`` through the class's advisory lock (see :mod:`tutor.progress.lease`)."""
        return self._lease(device, on_queue, cancelled)

    @contextmanager
    def _lease(self, device: str, on_queue: Callable[[int], None] | None,
               cancelled: Callable[[], bool] | None) -> Iterator[MeasurementLease]:
        import psycopg

        try:
            cm = postgres_lease(self._full_conninfo(), device, on_queue=on_queue, cancelled=cancelled)
            lease = cm.__enter__()
        except psycopg.Error as exc:
            raise classify_pg(exc, self.path, self.busy_timeout_s) from exc
        try:
            yield lease
        except BaseException as exc:
            if not cm.__exit__(type(exc), exc, exc.__traceback__):
                raise
        else:
            cm.__exit__(None, None, None)

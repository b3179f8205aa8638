"""A class on one PostgreSQL: the instructor sets it up, each learner gets a database role of their own.

``init_class`` (the instructor, connected as the schema's owner) makes the schema safe to share — nobody but
its owner may create objects in it or in ``public`` (a learner's function there could shadow a built-in and run
as whoever calls it), and no learner role holds more than a learner's rights; a class in a database of its own
keeps its objects in the schema ``tutor``, not ``public``, and every role's path is ``pg_catalog, tutor,
pg_temp`` — then migrates it, creates the group roles ``tutor_learner`` and ``tutor_instructor`` and turns on
row-level security: a learner's role sees and writes only the rows whose ``learner`` is that role
(``current_user``), column by column only what the tutor writes, an attempt's grade once; the instructor role
reads every row, and the owner (who ran ``tutor class
init``) is the instructor. ``add_learner`` creates a learner's login role with a random token as its password
(the server receives only its SCRAM verifier) and returns it once, with the address to use without it and a
``.pgpass`` line. The instructor lists, resets and removes learners, and lists and breaks device leases.
Keeping learners apart is the database's job, not the tutor's: the tests try to get past it with a learner's
own credentials and raw SQL.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Literal

from tutor.i18n import N_
from tutor.progress.lease import HeldLease, break_lease, held_leases
from tutor.progress.postgres import (
    PostgresStore,
    SchemaWritable,
    classify_pg,
    display_dsn,
    pin_search_path,
    schema_writers,
)
from tutor.progress.schema import LEARNER_RIGHTS, LEARNER_WRITES, tables_with_id
from tutor.progress.store import StoreError
from tutor.progress.store_errors import StoreDenied

__all__ = [
    "CLASS_SCHEMA",
    "INSTRUCTOR_ROLE",
    "LEARNER_ROLE",
    "RESERVED_NAMES",
    "TOKENS_TABLE",
    "BadLearnerName",
    "BreakDenied",
    "ClassError",
    "ClassSetup",
    "InstructorSuperuser",
    "LearnerCredentials",
    "LearnerPrivileged",
    "LearnerRole",
    "LeaseNotHeld",
    "LoginThrottled",
    "NotAClassStore",
    "NotALearner",
    "RoleExists",
    "add_learner",
    "break_leases",
    "class_group",
    "class_learners",
    "class_leases",
    "class_login",
    "class_owner",
    "init_class",
    "learner_dsn",
    "overprivileged_learners",
    "pgpass_line",
    "remove_learner",
    "reset_token",
    "valid_learner_name",
]

LEARNER_ROLE = "tutor_learner"
INSTRUCTOR_ROLE = "tutor_instructor"
#: The tables a learner writes (their own rows) and those they may only read (their own rows).
_WRITABLE = LEARNER_WRITES
_READABLE = ("store_recoveries", "quarantined_rows")
#: What a learner may do to their own rows, column by column (see :data:`tutor.progress.schema.LEARNER_RIGHTS`),
#: and the tables whose ``id`` is an identity column.
_LEARNER_RIGHTS = LEARNER_RIGHTS
_WITH_ID = tables_with_id()

#: Whether the role running a statement is a learner (a superuser counts as a member of every role: not here).
_IS_LEARNER = ("(pg_catalog.pg_has_role(current_user, 'tutor_learner', 'MEMBER') AND NOT (SELECT r.rolsuper FROM"
               " pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user))")

#: A learner's attempt: inserted locked and ungraded; its prediction never changes; hints only grow; graded
#: (or failed, or cancelled) once, never changed after; when it was locked and when it was graded are the
#: server's clock, not what the learner's program says. Column privileges already keep ``id`` and ``learner``
#: out of reach. The owner and the instructor roles are not held to it (they are not learners).
_ATTEMPT_GUARD = """
CREATE OR REPLACE FUNCTION {schema}.tutor_attempt_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $guard$
BEGIN
  IF NOT {is_learner} THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.state IS DISTINCT FROM 'locked' OR NEW.measurement IS NOT NULL OR NEW.truth IS NOT NULL
       OR NEW.verdict IS NOT NULL OR NEW.score IS NOT NULL OR NEW.graded_at IS NOT NULL THEN
      RAISE EXCEPTION 'an attempt starts locked, without a grade' USING ERRCODE = 'insufficient_privilege';
    END IF;
    NEW.created_at := pg_catalog.date_part('epoch', pg_catalog.clock_timestamp());
    RETURN NEW;
  END IF;
  IF ROW(NEW.id, NEW.learner, NEW.exercise_id, NEW.lesson_id, NEW.pass, NEW.prediction, NEW.confidence,
         NEW.created_at)
     IS DISTINCT FROM ROW(OLD.id, OLD.learner, OLD.exercise_id, OLD.lesson_id, OLD.pass, OLD.prediction,
                          OLD.confidence, OLD.created_at) THEN
    RAISE EXCEPTION 'a locked prediction never changes' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.hints_used < OLD.hints_used THEN
    RAISE EXCEPTION 'hints used never decrease' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.state IS DISTINCT FROM 'locked'
     AND ROW(NEW.state, NEW.measurement, NEW.truth, NEW.verdict, NEW.score, NEW.fingerprint, NEW.graded_at)
         IS DISTINCT FROM ROW(OLD.state, OLD.measurement, OLD.truth, OLD.verdict, OLD.score, OLD.fingerprint,
                              OLD.graded_at) THEN
    RAISE EXCEPTION 'attempt % was graded once; its result never changes', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.state = 'locked' AND NEW.state IS DISTINCT FROM 'locked' THEN
    NEW.graded_at := pg_catalog.date_part('epoch', pg_catalog.clock_timestamp());
  END IF;
  RETURN NEW;
END
$guard$
"""
#: A learner's graded (or failed, or cancelled) attempt stays in the class's record: deleting it would let a
#: learner keep only the predictions that turned out right. One still locked (never measured) may go.
_ATTEMPT_KEEP = """
CREATE OR REPLACE FUNCTION {schema}.tutor_attempt_keep() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $keep$
BEGIN
  IF OLD.state IS DISTINCT FROM 'locked' AND {is_learner} THEN
    RAISE EXCEPTION 'attempt % is graded: it stays in the class''s record (only the instructor removes it)', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END
$keep$
"""
_NAME = re.compile(r"[a-z][a-z0-9_]{1,30}")


class ClassError(StoreError):
    """A class set-up step that cannot be done (one line, exit 2)."""


class BadLearnerName(ClassError):
    code = N_("class.bad_name")


class RoleExists(ClassError):
    code = N_("class.exists")


class NotAClassStore(ClassError):
    code = N_("class.not_postgres")


class LoginThrottled(ClassError):
    """Too many failed logins from this client's address lately (``tutor serve``'s limit): not even tried."""

    code = N_("login.throttled")


@dataclass(frozen=True)
class ClassSetup:
    """What ``init_class`` set up: the schema, its owner (the instructor) and the tables under row-level security."""

    schema: str
    owner: str
    tables: tuple[str, ...]
    server: str


@dataclass(frozen=True)
class LearnerCredentials:
    """A new learner's role and token (shown once). ``dsn`` holds the token, for a program's own use only;
    what a person is given is ``address`` (no token), the token, and ``pgpass`` (a ``~/.pgpass`` line): a token
    on a command line is read by every user of the machine (``ps``)."""

    name: str
    token: str
    dsn: str
    server: str
    address: str = ""
    pgpass: str = ""


#: Names a learner's role must not have: PostgreSQL's reserved and type-function keywords (``current_user``,
#: ``user``, ``all``, ``select``...: as a role they mean something else, or confuse pg_hba.conf and every GRANT
#: an administrator types), the special role names, and the tutor's own roles. ``pg_*`` is PostgreSQL's.
RESERVED_NAMES = frozenset((
    "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization", "binary", "both",
    "case", "cast", "check", "collate", "collation", "column", "concurrently", "constraint", "create", "cross",
    "current_catalog", "current_date", "current_role", "current_schema", "current_time", "current_timestamp",
    "current_user", "default", "deferrable", "desc", "distinct", "do", "else", "end", "except", "false", "fetch",
    "for", "foreign", "freeze", "from", "full", "grant", "group", "having", "ilike", "in", "initially", "inner",
    "intersect", "into", "is", "isnull", "join", "lateral", "leading", "left", "like", "limit", "localtime",
    "localtimestamp", "natural", "not", "notnull", "null", "offset", "on", "only", "or", "order", "outer",
    "overlaps", "placing", "primary", "references", "returning", "right", "select", "session_user", "similar",
    "some", "symmetric", "table", "tablesample", "then", "to", "trailing", "true", "union", "unique", "user",
    "using", "variadic", "verbose", "when", "where", "window", "with", "public", "none", "postgres", "replication",
    "samerole", "samegroup", "system_user",
)) | {LEARNER_ROLE, INSTRUCTOR_ROLE}


def valid_learner_name(name: str) -> bool:
    """2 to 31 lower-case ASCII letters, digits or ``_``, starting with a letter — the whole string (a trailing
    newline is not a name) — and none of :data:`RESERVED_NAMES` nor ``pg_*``."""
    return (isinstance(name, str) and _NAME.fullmatch(name) is not None and not name.startswith("pg_")
            and name not in RESERVED_NAMES and not name.startswith("tutor_"))


def class_group(conn: Any, schema: str) -> str:
    """The class's own group role: only its members (this class's learners) may use the class's schema, so a
    learner of another class on the same server — even in the same database — cannot read or write a row of it.
    ``tutor_class_`` + the database and schema (made a role name) + a hash of both (two classes never share it)."""
    import hashlib

    db = str(conn.execute("SELECT pg_catalog.current_database()").fetchone()[0])
    readable = re.sub(r"[^a-z0-9_]", "_", f"{db}_{schema}".lower())[:36]
    return f"tutor_class_{readable}_{hashlib.sha256(f'{db}.{schema}'.encode()).hexdigest()[:8]}"


def _learners_group(conn: Any, schema: str) -> str:
    """The group whose members are this class's learners: its :func:`class_group`, or — for a class an older
    init set up, not yet run again — the whole server's ``tutor_learner``."""
    group = class_group(conn, schema)
    found = conn.execute("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) %s::pg_catalog.name",
                         (group,)).fetchone()
    return group if found else LEARNER_ROLE


def _join_class(conn: Any, schema: str) -> str:
    """Create the class's group if it is missing, let it (and the instructor group) use the schema, take that
    right from the server-wide learner group (an older init gave it), and make this class's learners members:
    those with rows here, or whose path names the schema. Returns the group."""
    from psycopg import sql

    group = class_group(conn, schema)
    _ensure_role(conn, group)
    target = sql.Identifier(schema)
    conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}, {}").format(target, sql.Identifier(group),
                                                                    sql.Identifier(INSTRUCTOR_ROLE)))
    conn.execute(sql.SQL("REVOKE USAGE ON SCHEMA {} FROM {}").format(target, sql.Identifier(LEARNER_ROLE)))
    present = [t for t in _WRITABLE if conn.execute("SELECT pg_catalog.to_regclass(%s::text) IS NOT NULL",
                                                     (sql.Identifier(schema, t).as_string(conn),)).fetchone()[0]]
    union = sql.SQL(" UNION ").join(sql.SQL("SELECT learner FROM {}").format(sql.Identifier(schema, t))
                                    for t in present) if present else sql.SQL("SELECT NULL::text")
    rows = conn.execute(sql.SQL(
        "SELECT r.rolname::pg_catalog.text FROM pg_catalog.pg_roles r, pg_catalog.pg_roles g"
        " WHERE g.rolname OPERATOR(pg_catalog.=) %(group)s::pg_catalog.name AND r.oid OPERATOR(pg_catalog.<>) g.oid"
        " AND pg_catalog.pg_has_role(r.oid, g.oid, 'MEMBER') AND NOT r.rolsuper AND ("
        " r.rolname OPERATOR(pg_catalog.=) ANY (SELECT w.learner FROM ({}) w)"
        " OR pg_catalog.array_to_string(r.rolconfig, ',') OPERATOR(pg_catalog.~~) ANY (%(paths)s)"
        " OR EXISTS (SELECT 1 FROM pg_catalog.pg_db_role_setting s WHERE s.setrole OPERATOR(pg_catalog.=) r.oid"
        "   AND s.setdatabase OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d"
        "     WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())"
        "   AND pg_catalog.array_to_string(s.setconfig, ',') OPERATOR(pg_catalog.~~) ANY (%(paths)s)))").format(union),
        # the server keeps a path's names quoted only where they need it
        {"group": LEARNER_ROLE, "paths": [f"%search_path=pg_catalog, {name}, %"
                                          for name in (_like(schema), _like(sql.Identifier(schema).as_string(conn)))]},
    ).fetchall()
    for (name,) in rows:
        conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(group), sql.Identifier(str(name))))
    return group


def _like(text: str) -> str:
    """``text`` as a LIKE pattern that matches only itself."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _ensure_role(conn: Any, role: str) -> None:
    from psycopg import sql

    exists = conn.execute("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = %s::name", (role,)).fetchone()
    if not exists:
        conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(role)))


def _close_schemas(conn: Any, schema: str) -> None:
    """Nobody but the owner creates in the class's schema or in ``public`` (PostgreSQL <= 14 lets every role
    create in ``public``: a learner's function there could shadow a built-in the tutor calls and run as the
    instructor). A REVOKE the instructor may not make only warns; :func:`schema_writers` then says who is left."""
    from psycopg import sql

    groups = sql.SQL(", ").join([sql.SQL("PUBLIC"), sql.Identifier(LEARNER_ROLE), sql.Identifier(INSTRUCTOR_ROLE)])
    for name in dict.fromkeys(("public", schema)):
        if conn.execute("SELECT pg_catalog.to_regnamespace(%s::text) IS NOT NULL", (name,)).fetchone()[0]:
            present = [g for g in (LEARNER_ROLE, INSTRUCTOR_ROLE)
                       if conn.execute("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = %s::name", (g,)).fetchone()]
            who = groups if len(present) == 2 else sql.SQL("PUBLIC")
            conn.execute(sql.SQL("REVOKE CREATE ON SCHEMA {} FROM {}").format(sql.Identifier(name), who))


#: Every role that holds the learner group, with whatever it has beyond it: role attributes that lift a limit, or
#: membership of any other role, followed through every chain of memberships (``ana`` in ``helpers`` in
#: ``tutor_instructor`` lists both; a ``pg_*`` role that reads files or runs programs). The group itself is
#: listed the same way. Then every other role that is a member, at any depth, of a learner's role: it can
#: ``SET ROLE`` to that learner and write in their name (``MEMBER OF ana``). Empty ``extra`` is a plain learner.
_LEARNER_RIGHTS_SQL = """
SELECT r.rolname::pg_catalog.text,
       pg_catalog.concat_ws(', ',
         CASE WHEN r.rolsuper THEN 'SUPERUSER' END, CASE WHEN r.rolcreaterole THEN 'CREATEROLE' END,
         CASE WHEN r.rolcreatedb THEN 'CREATEDB' END, CASE WHEN r.rolbypassrls THEN 'BYPASSRLS' END,
         CASE WHEN r.rolreplication THEN 'REPLICATION' END,
         (WITH RECURSIVE up (oid) AS (
            SELECT m.roleid FROM pg_catalog.pg_auth_members m WHERE m.member OPERATOR(pg_catalog.=) r.oid
            UNION SELECT m.roleid FROM pg_catalog.pg_auth_members m JOIN up ON m.member OPERATOR(pg_catalog.=) up.oid)
          SELECT pg_catalog.string_agg(g.rolname::pg_catalog.text, ', ' ORDER BY g.rolname)
            FROM up JOIN pg_catalog.pg_roles g ON g.oid OPERATOR(pg_catalog.=) up.oid
           WHERE g.rolname OPERATOR(pg_catalog.<>) %(group)s::pg_catalog.name
             AND NOT pg_catalog.starts_with(g.rolname::pg_catalog.text, 'tutor_class_')))
FROM pg_catalog.pg_roles r
WHERE r.rolname OPERATOR(pg_catalog.=) %(group)s::pg_catalog.name
   OR r.oid IN (SELECT m.member FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
                 WHERE g.rolname OPERATOR(pg_catalog.=) %(group)s::pg_catalog.name)
UNION ALL
SELECT r.rolname::pg_catalog.text, 'MEMBER OF ' OPERATOR(pg_catalog.||) pg_catalog.string_agg(
         l.rolname::pg_catalog.text, ', ' ORDER BY l.rolname)
  FROM pg_catalog.pg_roles r, pg_catalog.pg_roles l, pg_catalog.pg_roles g
 WHERE g.rolname OPERATOR(pg_catalog.=) %(group)s::pg_catalog.name
   AND l.oid IN (SELECT m.member FROM pg_catalog.pg_auth_members m WHERE m.roleid OPERATOR(pg_catalog.=) g.oid)
   AND r.oid OPERATOR(pg_catalog.<>) l.oid AND NOT r.rolsuper AND pg_catalog.pg_has_role(r.oid, l.oid, 'MEMBER')
 GROUP BY r.rolname
ORDER BY 1
"""


class LearnerPrivileged(ClassError):
    """A learner's role (or the learner group) holds more than a learner needs: refused until it is revoked."""

    code = N_("class.learner_privileged")


def overprivileged_learners(conn: Any) -> list[tuple[str, str]]:
    """``(role, what it has beyond a learner's rights)`` for every such learner role (``conn``: pinned)."""
    rows = conn.execute(_LEARNER_RIGHTS_SQL, {"group": LEARNER_ROLE}).fetchall()
    return [(str(name), str(extra)) for name, extra in rows if extra]


def _own_database(conn: Any) -> None:
    """A class in a database of its own (its tables in :data:`CLASS_SCHEMA`): only its own roles connect to it. Learner
    and instructor group roles are the whole server's, so CONNECT goes to each learner role (``add_learner``),
    not to the groups, and not to ``PUBLIC``: a learner of another class on the same server is refused at the
    door. Learners who already wrote in this class keep their way in; one who never did gets it back with
    ``reset_token``. A teaching assistant needs ``GRANT CONNECT`` of their own."""
    from psycopg import sql

    db = sql.Identifier(str(conn.execute("SELECT pg_catalog.current_database()").fetchone()[0]))
    conn.execute(sql.SQL("REVOKE CONNECT, TEMPORARY ON DATABASE {} FROM PUBLIC").format(db))
    union = sql.SQL(" UNION ").join(sql.SQL("SELECT learner FROM {}").format(sql.Identifier(t)) for t in _WRITABLE)
    known = conn.execute(sql.SQL(
        "SELECT w.learner FROM ({}) w JOIN pg_catalog.pg_roles r ON r.rolname OPERATOR(pg_catalog.=) w.learner "
        "WHERE pg_catalog.pg_has_role(r.oid, %s::pg_catalog.name, 'MEMBER') AND NOT r.rolsuper").format(union),
        (LEARNER_ROLE,)).fetchall()
    for (name,) in known:
        conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(db, sql.Identifier(str(name))))


#: The schema a class in a database of its own keeps the tutor's objects in (never ``public``: on PostgreSQL
#: 14 and older every role may create there, and an administrator may have allowed it since).
CLASS_SCHEMA = "tutor"
#: Everything of the tutor's that an older ``tutor class init`` left in ``public``: tables, then functions.
_CLASS_TABLES = (*_WRITABLE, *_READABLE, "tutor_schema")
_CLASS_FUNCTIONS = ("tutor_attempt_guard", "tutor_attempt_keep")


def _class_path(conn: Any) -> Any:
    from psycopg import sql

    return sql.SQL("pg_catalog, {}, pg_temp").format(sql.Identifier(CLASS_SCHEMA))


def _pin_role(conn: Any, role: str) -> None:
    """``role``'s sessions in this database start on the class's path (a setting of this database only: the
    role's path elsewhere, for another class or program, is left as it is)."""
    from psycopg import sql

    db = sql.Identifier(str(conn.execute("SELECT pg_catalog.current_database()").fetchone()[0]))
    conn.execute(sql.SQL("ALTER ROLE {} IN DATABASE {} SET search_path = {}").format(
        sql.Identifier(role), db, _class_path(conn)))


def class_owner(conn: Any) -> str:
    """The role that owns a class's own schema and everything in it (a class in a database of its own): no one
    logs in as it; the instructor who ran ``tutor class init`` is its member, and so has its rights."""
    import hashlib

    db = str(conn.execute("SELECT pg_catalog.current_database()").fetchone()[0])
    readable = re.sub(r"[^a-z0-9_]", "_", db.lower())[:36]
    return f"tutor_owner_{readable}_{hashlib.sha256(db.encode()).hexdigest()[:8]}"


def _hand_to_owner(conn: Any, schema: str) -> None:
    """Every table and function in the class's schema owned by :func:`class_owner` (the instructor created
    them, as its member), with a policy that lets the owner's members — the instructor — at every row (the owner
    itself bypasses row-level security; its members do not)."""
    from psycopg import sql

    if conn.execute("SELECT pg_catalog.to_regrole(%s::text) IS NULL", (class_owner(conn),)).fetchone()[0]:
        return  # the schema was not made by :func:`_class_schema` (an older init's layout, kept as it is)
    owner = sql.Identifier(class_owner(conn))
    for (name,) in conn.execute(
            "SELECT c.relname::pg_catalog.text FROM pg_catalog.pg_class c"
            " WHERE c.relnamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace(%s::text)"
            " AND c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p}'::\"char\"[])"
            " AND c.relowner OPERATOR(pg_catalog.<>) pg_catalog.to_regrole(%s::text)",
            (schema, class_owner(conn))).fetchall():
        conn.execute(sql.SQL("ALTER TABLE {} OWNER TO {}").format(sql.Identifier(schema, str(name)), owner))
    for (signature,) in conn.execute(
            "SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text FROM pg_catalog.pg_proc p"
            " WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace(%s::text)"
            " AND p.proowner OPERATOR(pg_catalog.<>) pg_catalog.to_regrole(%s::text)",
            (schema, class_owner(conn))).fetchall():
        conn.execute(sql.SQL("ALTER FUNCTION {} OWNER TO {}").format(sql.SQL(str(signature)), owner))
    for table in (*_WRITABLE, *_READABLE):
        t = sql.Identifier(schema, table)
        conn.execute(sql.SQL("DROP POLICY IF EXISTS class_owner_all ON {}").format(t))
        conn.execute(sql.SQL("CREATE POLICY class_owner_all ON {} TO {} USING (true) WITH CHECK (true)").format(
            t, owner))


def _class_schema(conn: Any) -> str:
    """The class's own schema in a database of its own: :data:`CLASS_SCHEMA`, created for its owner (who ran
    ``tutor class init``) with no right for anyone else, the tutor's objects an older init left in ``public``
    moved into it (rows, row-level security, triggers and grants go with them), and the search path of the
    owner and of every learner who may connect here set to it. ``public`` is then on nobody's path."""
    from psycopg import sql

    schema = sql.Identifier(CLASS_SCHEMA)
    owner = class_owner(conn)
    _ensure_role(conn, owner)  # NOLOGIN
    conn.execute(sql.SQL("GRANT {} TO CURRENT_USER").format(sql.Identifier(owner)))
    conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
    conn.execute(sql.SQL("ALTER SCHEMA {} OWNER TO {}").format(schema, sql.Identifier(owner)))
    conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM PUBLIC").format(schema))
    for table in (*_CLASS_TABLES, TOKENS_TABLE):
        there = conn.execute("SELECT pg_catalog.to_regclass(%s::text) IS NOT NULL, pg_catalog.to_regclass(%s::text)"
                             " IS NOT NULL", (f"public.{table}", f"{CLASS_SCHEMA}.{table}")).fetchone()
        if there[0] and not there[1]:
            conn.execute(sql.SQL("ALTER TABLE {} SET SCHEMA {}").format(sql.Identifier("public", table), schema))
    for function in _CLASS_FUNCTIONS:
        if conn.execute("SELECT pg_catalog.to_regprocedure(%s::text) IS NOT NULL", (f"public.{function}()",)
                        ).fetchone()[0]:
            conn.execute(sql.SQL("ALTER FUNCTION {}() SET SCHEMA {}").format(sql.Identifier("public", function),
                                                                             schema))
    _pin_role(conn, str(conn.execute("SELECT current_user").fetchone()[0]))
    learners = conn.execute(
        "SELECT r.rolname::pg_catalog.text FROM pg_catalog.pg_roles r, pg_catalog.pg_roles g"
        " WHERE g.rolname OPERATOR(pg_catalog.=) %s::pg_catalog.name AND r.oid OPERATOR(pg_catalog.<>) g.oid"
        " AND pg_catalog.pg_has_role(r.oid, g.oid, 'MEMBER') AND NOT r.rolsuper"
        " AND pg_catalog.has_database_privilege(r.oid, pg_catalog.current_database(), 'CONNECT')",
        (LEARNER_ROLE,)).fetchall()
    for (name,) in learners:
        _pin_role(conn, str(name))
    conn.execute(sql.SQL("SELECT pg_catalog.set_config('search_path', {}, false)").format(
        sql.Literal(_class_path(conn).as_string(conn))))
    return CLASS_SCHEMA


def _let_in(conn: Any, name: str) -> None:
    """``name`` may connect to the class's database (see :func:`_own_database`)."""
    from psycopg import sql

    db = str(conn.execute("SELECT pg_catalog.current_database()").fetchone()[0])
    conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(db), sql.Identifier(name)))


class InstructorSuperuser(ClassError):
    """The instructor's login is a superuser: whatever a learner manages to make run as the instructor would run
    with every right on the server (its files, its programs). A ``CREATEROLE`` role is all a class needs."""

    code = N_("class.instructor_superuser")


def init_class(admin_dsn: str, *, allow_superuser: bool = False) -> ClassSetup:
    """Create (or bring up to date) the class's schema, its group roles and its row-level security. Idempotent.

    Refused (:class:`~tutor.progress.postgres.SchemaWritable`) while any role but the owner may create in the
    class's schema, after revoking what the instructor can revoke; (:class:`InstructorSuperuser`) when the
    instructor's login is a superuser, unless ``allow_superuser`` (``--allow-superuser``)."""
    import psycopg
    from psycopg import sql

    where = display_dsn(admin_dsn)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            schema = pin_search_path(conn, where=where, check=False)
            me = conn.execute("SELECT r.rolname::pg_catalog.text, r.rolsuper FROM pg_catalog.pg_roles r"
                              " WHERE r.rolname OPERATOR(pg_catalog.=) session_user").fetchone()
            if me is not None and me[1] and not allow_superuser:
                raise InstructorSuperuser(name=str(me[0]))
            _close_schemas(conn, schema)
            if schema == "public":  # a class in a database of its own: the tutor's objects go in their own schema
                schema = _class_schema(conn)
                _close_schemas(conn, schema)
            writers = schema_writers(conn, schema)
            if writers:
                raise SchemaWritable(path=where, schema=schema, roles=", ".join(writers[:5]))
            lifted = overprivileged_learners(conn)
            if lifted:
                raise LearnerPrivileged(name=lifted[0][0], extra=lifted[0][1], more=len(lifted) - 1)
    except psycopg.Error as exc:
        raise classify_pg(exc, where) from exc
    store = PostgresStore(admin_dsn)  # migrates the schema as its owner
    store.close()
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn, conn.transaction():
            schema = pin_search_path(conn, where=where)
            owner = str(conn.execute("SELECT current_user").fetchone()[0])  # type: ignore[index]
            for role in (LEARNER_ROLE, INSTRUCTOR_ROLE):
                _ensure_role(conn, role)
            groups = sql.SQL(", ").join([sql.Identifier(LEARNER_ROLE), sql.Identifier(INSTRUCTOR_ROLE)])
            _join_class(conn, schema)
            conn.execute(sql.SQL("GRANT SELECT ON tutor_schema TO {}").format(groups))
            learner = sql.Identifier(LEARNER_ROLE)
            # Identity columns need no sequence rights: none, so nobody burns through another's ids either.
            conn.execute(sql.SQL("REVOKE ALL ON ALL SEQUENCES IN SCHEMA {} FROM {}").format(
                sql.Identifier(schema), learner))
            for table in (*_WRITABLE, *_READABLE):
                t = sql.Identifier(table)
                conn.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(t, learner))
                conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(t, learner))
                for right, columns in _LEARNER_RIGHTS[table]:
                    cols = sql.SQL("") if not columns else sql.SQL(" ({})").format(
                        sql.SQL(", ").join(sql.Identifier(c) for c in columns))
                    conn.execute(sql.SQL("GRANT {}{} ON {} TO {}").format(sql.SQL(right), cols, t, learner))
                if table in _WITH_ID:
                    conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN id SET GENERATED ALWAYS").format(t))
                conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(t, sql.Identifier(INSTRUCTOR_ROLE)))
                conn.execute(sql.SQL("ALTER TABLE {} ENABLE ROW LEVEL SECURITY").format(t))
                for policy in ("learner_own_rows", "instructor_reads_all"):
                    conn.execute(sql.SQL("DROP POLICY IF EXISTS {} ON {}").format(sql.Identifier(policy), t))
                conn.execute(sql.SQL(
                    "CREATE POLICY learner_own_rows ON {} TO {} "
                    "USING (learner = current_user) WITH CHECK (learner = current_user)"
                ).format(t, sql.Identifier(LEARNER_ROLE)))
                conn.execute(sql.SQL("CREATE POLICY instructor_reads_all ON {} FOR SELECT TO {} USING (true)")
                             .format(t, sql.Identifier(INSTRUCTOR_ROLE)))
            if schema == CLASS_SCHEMA:
                _own_database(conn)
            guard = sql.SQL("{}.tutor_attempt_guard()").format(sql.Identifier(schema))
            conn.execute(sql.SQL(_ATTEMPT_GUARD).format(schema=sql.Identifier(schema), is_learner=sql.SQL(_IS_LEARNER)))
            conn.execute(sql.SQL("REVOKE ALL ON FUNCTION {} FROM PUBLIC").format(guard))
            conn.execute("DROP TRIGGER IF EXISTS tutor_attempt_guard ON attempts")
            conn.execute(sql.SQL("CREATE TRIGGER tutor_attempt_guard BEFORE INSERT OR UPDATE ON attempts "
                                 "FOR EACH ROW EXECUTE FUNCTION {}").format(guard))
            keep = sql.SQL("{}.tutor_attempt_keep()").format(sql.Identifier(schema))
            conn.execute(sql.SQL(_ATTEMPT_KEEP).format(schema=sql.Identifier(schema), is_learner=sql.SQL(_IS_LEARNER)))
            conn.execute(sql.SQL("REVOKE ALL ON FUNCTION {} FROM PUBLIC").format(keep))
            conn.execute("DROP TRIGGER IF EXISTS tutor_attempt_keep ON attempts")
            conn.execute(sql.SQL("CREATE TRIGGER tutor_attempt_keep BEFORE DELETE ON attempts "
                                 "FOR EACH ROW EXECUTE FUNCTION {}").format(keep))
            if schema == CLASS_SCHEMA:
                _hand_to_owner(conn, schema)
    except psycopg.Error as exc:
        raise classify_pg(exc, where) from exc
    return ClassSetup(schema=schema, owner=owner, tables=(*_WRITABLE, *_READABLE), server=where)


def learner_dsn(admin_dsn: str, name: str, token: str, host: str | None = None) -> str:
    """The connection URL a learner uses: the class's server and database with their own role and token, over
    TCP (a unix socket may be trusted without a password; a learner's token must be checked)."""
    from urllib.parse import quote, urlencode

    from psycopg.conninfo import conninfo_to_dict

    parts = conninfo_to_dict(admin_dsn)
    admin_host = str(parts.get("host") or "")
    if host is None:
        host = admin_host if admin_host and not admin_host.startswith("/") else "127.0.0.1"
    netloc_host = f"[{host}]" if ":" in host else host
    port = f":{parts['port']}" if parts.get("port") else ""
    query = urlencode({k: v for k, v in parts.items() if k in ("options", "sslmode") and v}, quote_via=quote)
    secret = f":{quote(token, safe='')}" if token else ""
    user = f"{quote(name, safe='')}{secret}@" if name else ""
    return (f"postgresql://{user}{netloc_host}{port}/{quote(str(parts.get('dbname') or ''), safe='')}"
            + (f"?{query}" if query else ""))


def add_learner(admin_dsn: str, name: str, *, host: str | None = None) -> LearnerCredentials:
    """Create ``name``'s login role (a member of ``tutor_learner``) with a fresh token as its password."""
    import psycopg
    from psycopg import sql

    if not valid_learner_name(name):
        from tutor.untrusted import clean_line

        raise BadLearnerName(name=clean_line(name))
    where = display_dsn(admin_dsn)
    token = secrets.token_urlsafe(18)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn, conn.transaction():
            schema = pin_search_path(conn, where=where)
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s::name", (name,)).fetchone():
                raise RoleExists(name=name)
            role = sql.Identifier(name)
            # Only the SCRAM verifier, computed here, reaches the server: the token is never in a statement the
            # server may log, and an md5 password_encryption does not apply.
            verifier = _scram_verifier(conn, name, token)
            group = _join_class(conn, schema)
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} CONNECTION LIMIT 16 IN ROLE {}, {}").format(
                role, sql.Literal(verifier), sql.Identifier(LEARNER_ROLE), sql.Identifier(group)))
            _remember_verifier(conn, schema, name, verifier)
            # Settings are not inherited from the group role: each learner's own role gets the pinned path.
            conn.execute(sql.SQL("ALTER ROLE {} SET search_path = pg_catalog, {}, pg_temp").format(
                role, sql.Identifier(schema)))
            if schema == CLASS_SCHEMA:
                _pin_role(conn, name)
            _let_in(conn, name)
    except psycopg.Error as exc:
        raise classify_pg(exc, where) from exc
    return _credentials(admin_dsn, name, token, host)


def _remember_verifier(conn: Any, schema: str, name: str, verifier: str) -> None:
    """Keep the fingerprint of the verifier just set, so ``class_learners`` can tell a token the learner replaced."""
    import hashlib

    from psycopg import sql

    table = sql.Identifier(schema, TOKENS_TABLE)
    conn.execute(sql.SQL("CREATE TABLE IF NOT EXISTS {} (learner TEXT PRIMARY KEY, verifier_sha256 TEXT NOT NULL, "
                         "set_at DOUBLE PRECISION NOT NULL)").format(table))
    conn.execute(sql.SQL("REVOKE ALL ON {} FROM PUBLIC").format(table))
    conn.execute(sql.SQL(
        "INSERT INTO {} VALUES (%s, %s, pg_catalog.date_part('epoch', pg_catalog.clock_timestamp())) ON CONFLICT "
        "(learner) DO UPDATE SET verifier_sha256 = excluded.verifier_sha256, set_at = excluded.set_at").format(table),
        (name, hashlib.sha256(verifier.encode()).hexdigest()))


def _token_states(conn: Any, schema: str) -> dict[str, TokenState]:
    """``kept``/``changed`` per learner whose verifier both the tutor kept and ``pg_authid`` shows (superuser)."""
    import hashlib

    import psycopg
    from psycopg import sql

    try:
        with conn.transaction():
            kept = dict(conn.execute(sql.SQL("SELECT learner, verifier_sha256 FROM {}").format(
                sql.Identifier(schema, TOKENS_TABLE))).fetchall())
            now = dict(conn.execute("SELECT rolname::pg_catalog.text, rolpassword FROM pg_catalog.pg_authid"
                                    " WHERE rolpassword IS NOT NULL").fetchall())
    except psycopg.Error:  # no fingerprints yet, or pg_authid is a superuser's to read
        return {}
    return {name: ("kept" if hashlib.sha256(str(now[name]).encode()).hexdigest() == digest else "changed")
            for name, digest in kept.items() if name in now}


def _scram_verifier(conn: Any, name: str, token: str) -> str:
    """The SCRAM-SHA-256 verifier of ``token`` for role ``name``, computed here: only it reaches the server."""
    return str(conn.pgconn.encrypt_password(token.encode(), name.encode(), b"scram-sha-256").decode())


def _credentials(admin_dsn: str, name: str, token: str, host: str | None) -> LearnerCredentials:
    """What the instructor hands learner ``name``: the address without the token, and a ``.pgpass`` line."""
    dsn = learner_dsn(admin_dsn, name, token, host)
    address = learner_dsn(admin_dsn, name, "", host)
    return LearnerCredentials(name=name, token=token, dsn=dsn, server=display_dsn(dsn), address=address,
                              pgpass=pgpass_line(address, token))


class NotALearner(ClassError):
    code = N_("class.not_a_learner")


#: Whether a learner's password is still the token the instructor set (``add_learner``/``reset_token``):
#: ``kept``, ``changed`` (the learner ran ALTER ROLE CURRENT_USER PASSWORD, which PostgreSQL lets every role
#: do), or ``unknown`` (the instructor's role may not read ``pg_authid``, which only a superuser may, or the
#: token was set before the tutor kept its fingerprint).
TokenState = Literal["kept", "changed", "unknown"]
#: The SHA-256 of each learner's SCRAM verifier as the instructor set it: readable by the instructor only.
TOKENS_TABLE = "tutor_learner_tokens"


@dataclass(frozen=True)
class LearnerRole:
    """A learner's role as the instructor sees it: whether it may log in, its sessions open now, anything it
    holds beyond a learner's rights (empty for a plain learner), and whether its token is still the one given."""

    name: str
    can_login: bool
    sessions: int
    extra: str
    token: TokenState = "unknown"


_LEARNERS_SQL = """
SELECT r.rolname::pg_catalog.text, r.rolcanlogin,
       (SELECT pg_catalog.count(*) FROM pg_catalog.pg_stat_activity a WHERE a.usesysid = r.oid)
FROM pg_catalog.pg_roles r JOIN pg_catalog.pg_auth_members m ON m.member = r.oid
WHERE m.roleid = (SELECT g.oid FROM pg_catalog.pg_roles g WHERE g.rolname OPERATOR(pg_catalog.=) %s::pg_catalog.name)
ORDER BY 1
"""


def class_learners(admin_dsn: str) -> list[LearnerRole]:
    """This class's learner roles (members of its :func:`class_group`)."""
    import psycopg

    where = display_dsn(admin_dsn)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            schema = pin_search_path(conn, where=where, check=False)
            extra = dict(overprivileged_learners(conn))
            tokens = _token_states(conn, schema)
            group = _learners_group(conn, schema)
            return [LearnerRole(name=str(n), can_login=bool(login), sessions=int(k), extra=extra.get(str(n), ""),
                                token=tokens.get(str(n), "unknown"))
                    for n, login, k in conn.execute(_LEARNERS_SQL, (group,)).fetchall()]
    except psycopg.Error as exc:
        raise classify_pg(exc, where) from exc


def _learner_role(conn: Any, name: str, schema: str) -> None:
    """Refuse any ``name`` that is not one of this class's learner roles (the instructor's own role, another
    program's, another class's learner, a typo): the commands below change or drop only this class's learners."""
    if not valid_learner_name(name):
        from tutor.untrusted import clean_line

        raise BadLearnerName(name=clean_line(name))
    row = conn.execute("SELECT pg_catalog.pg_has_role(%s::pg_catalog.name, %s::pg_catalog.name, 'MEMBER')"
                       " FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) %s::pg_catalog.name",
                       (name, _learners_group(conn, schema), name)).fetchone()
    if not (row and row[0]):
        raise NotALearner(name=name)


def _end_sessions(conn: Any, name: str) -> None:
    """End ``name``'s open sessions, where this role may (a new token, a removed learner); else they run out."""
    import psycopg

    with suppress(psycopg.Error):
        conn.execute("SELECT pg_catalog.pg_terminate_backend(a.pid) FROM pg_catalog.pg_stat_activity a"
                     " WHERE a.usename OPERATOR(pg_catalog.=) %s::pg_catalog.name", (name,))


def reset_token(admin_dsn: str, name: str, *, host: str | None = None) -> LearnerCredentials:
    """Give learner ``name`` a fresh token (a lost or leaked one stops working); their open sessions end."""
    import psycopg
    from psycopg import sql

    where = display_dsn(admin_dsn)
    token = secrets.token_urlsafe(18)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            schema = pin_search_path(conn, where=where)
            _learner_role(conn, name, schema)
            verifier = _scram_verifier(conn, name, token)
            conn.execute(sql.SQL("ALTER ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(name),
                                                                           sql.Literal(verifier)))
            _remember_verifier(conn, schema, name, verifier)
            _let_in(conn, name)
            _end_sessions(conn, name)
    except psycopg.Error as exc:
        raise classify_pg(exc, where) from exc
    return _credentials(admin_dsn, name, token, host)


def remove_learner(admin_dsn: str, name: str) -> None:
    """Drop learner ``name``'s role: they can no longer log in, their sessions end, whatever they own in this
    database goes. Their rows stay (the report keeps what they did, under their name)."""
    import psycopg
    from psycopg import sql

    where = display_dsn(admin_dsn)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            schema = pin_search_path(conn, where=where, check=False)
            _learner_role(conn, name, schema)
            role = sql.Identifier(name)
            conn.execute(sql.SQL("ALTER ROLE {} NOLOGIN").format(role))
            _end_sessions(conn, name)
            with conn.transaction():
                conn.execute(sql.SQL("DROP OWNED BY {}").format(role))
                conn.execute(sql.SQL("DROP ROLE {}").format(role))
    except psycopg.Error as exc:
        raise classify_pg(exc, where) from exc


def pgpass_line(address: str, token: str) -> str:
    """The ``~/.pgpass`` line that gives ``token`` to libpq for ``address`` (``:`` and ``\\`` escaped)."""
    from psycopg.conninfo import conninfo_to_dict

    parts = conninfo_to_dict(address)

    def field(value: object) -> str:
        return str(value or "*").replace("\\", "\\\\").replace(":", "\\:")

    return ":".join(field(parts.get(k)) for k in ("host", "port", "dbname", "user")) + ":" + field(token)


class LeaseNotHeld(ClassError):
    code = N_("class.lease_not_found")


class BreakDenied(ClassError):
    code = N_("class.break_denied")


def class_leases(admin_dsn: str) -> list[HeldLease]:
    """The device leases held on the class's server now (the instructor's ``tutor class leases``)."""
    import psycopg

    where = display_dsn(admin_dsn)
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            pin_search_path(conn, where=where, check=False)
            return held_leases(conn)
    except psycopg.Error as exc:
        raise classify_pg(exc, where) from exc


def break_leases(admin_dsn: str, *, who: str | None = None, older_than_s: float | None = None) -> list[HeldLease]:
    """End the sessions holding a lease: session ``who`` (a number) or every lease of learner ``who``, and/or
    every lease held longer than ``older_than_s`` by the holder's own account (a holder that does not say since
    when is never counted old: name it). Returns the leases broken; :class:`LeaseNotHeld` when none matched."""
    import time

    import psycopg

    where = display_dsn(admin_dsn)
    now = time.time()
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            pin_search_path(conn, where=where, check=False)
            owner = str(conn.execute("SELECT current_user").fetchone()[0])  # type: ignore[index]
            chosen = [h for h in held_leases(conn)
                      if (who is None or (str(h.pid) == who if who.isdigit() else h.learner == who))
                      and (older_than_s is None or (h.since is not None and now - h.since >= older_than_s))]
            if not chosen:
                raise LeaseNotHeld(who=who or "", seconds=f"{older_than_s:g}" if older_than_s is not None else "")
            broken = []
            for held in chosen:
                try:
                    if break_lease(conn, held.pid):
                        broken.append(held)
                except psycopg.errors.InsufficientPrivilege:
                    raise BreakDenied(learner=held.learner, owner=owner) from None
            return broken
    except psycopg.Error as exc:
        raise classify_pg(exc, where) from exc


def class_login(server: str) -> Callable[[str, str], PostgresStore]:
    """``login(name, token)``: the learner's own store on the class's ``server`` (an address without
    credentials). The database checks the token; a name that is not a learner's is refused the same way
    (:class:`StoreDenied`), so a wrong try does not tell which of the two was wrong."""

    def login(name: str, token: str) -> PostgresStore:
        if not valid_learner_name(name) or not token:
            raise StoreDenied(path=display_dsn(server), detail="wrong name or token")
        store = PostgresStore(learner_dsn(server, name, token))
        is_learner = store._query("SELECT pg_catalog.pg_has_role(?::name, 'MEMBER')", (LEARNER_ROLE,))[0][0]
        if store.learner != name or not is_learner:
            store.close()
            raise StoreDenied(path=display_dsn(server), detail="wrong name or token")
        return store

    return login

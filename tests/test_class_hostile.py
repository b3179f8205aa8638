"""A class set up exactly as the README says, attacked by one of its learners with their own credentials.

The class lives in its own database, owned by a ``CREATEROLE`` instructor (not a superuser), its tables in
``public`` — and ``public`` writable by every role, as PostgreSQL 14 and older leave it (``GRANT CREATE ON SCHEMA
public TO PUBLIC`` imitates that on PostgreSQL 15). The attacks are the ones a hostile learner would try: shadow
the built-ins the tutor's SQL calls (CVE-2018-1058), so that they run as another learner or as the instructor.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from tests.conftest import Classroom, Stores, drop_roles
from tutor.progress.classroom import LearnerCredentials, add_learner, class_group, class_owner, init_class
from tutor.progress.lease import postgres_lease
from tutor.progress.store import StoreError

#: Shadows of the advisory-lock built-ins, with the argument types psycopg sends for small Python ints
#: (``smallint`` for the lease's first key, ``smallint`` or ``integer`` for the second): an exact match beats
#: ``pg_catalog``'s ``(integer, integer)`` whatever the order of the search path. Each one records who ran it,
#: then does what the built-in does, so the victim notices nothing.
SHADOWS = [
    (name, types)
    for name in ("pg_try_advisory_lock", "pg_advisory_lock", "pg_advisory_unlock", "pg_advisory_xact_lock")
    for types in ("smallint, integer", "smallint, smallint", "smallint, bigint")
]


@dataclass
class ReadmeClass:
    su: str  # the server's superuser, on the class's database (the test's own hands, never the attacker's)
    instructor: str
    learners: dict[str, LearnerCredentials]


def _returns(name: str) -> str:
    return "void" if name in ("pg_advisory_lock", "pg_advisory_xact_lock") else "boolean"


def shadow_sql(name: str, types: str) -> str:
    returns = _returns(name)
    body = f"SELECT pg_catalog.{name}($1::integer, $2::integer)"
    return (f"CREATE FUNCTION public.{name}({types}) RETURNS {returns} LANGUAGE sql AS $$ "
            f"INSERT INTO public.pwned (who) VALUES (current_user); {body} $$")


@pytest.fixture
def readme_class(pg_admin_dsn: str) -> Iterator[ReadmeClass]:
    with readme_classroom(pg_admin_dsn) as room:
        yield room


@contextmanager
def readme_classroom(pg_admin_dsn: str) -> Iterator[ReadmeClass]:
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import make_conninfo

    suffix = secrets.token_hex(3)
    db, teacher = f"tutor_{suffix}", f"teacher_{suffix}"
    roles = [teacher]
    with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
        su.execute(sql.SQL("CREATE ROLE {} LOGIN CREATEROLE").format(sql.Identifier(teacher)))
        su.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(db), sql.Identifier(teacher)))
    su_dsn = make_conninfo(pg_admin_dsn, dbname=db)
    with psycopg.connect(su_dsn, autocommit=True) as su:
        su.execute("GRANT CREATE ON SCHEMA public TO PUBLIC")  # PostgreSQL <= 14's default
    instructor = make_conninfo(pg_admin_dsn, dbname=db, user=teacher)
    room = ReadmeClass(su_dsn, instructor, {})
    try:
        init_class(instructor)
        with psycopg.connect(su_dsn, autocommit=True) as su:
            roles.append(class_group(su, "tutor"))  # dropped after the learners
            roles.append(class_owner(su))
        for who in ("ana", "ben"):
            creds = add_learner(instructor, f"{who}_{suffix}")
            roles.append(creds.name)
            room.learners[who] = creds
        yield room
    finally:
        with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
            su.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db)))
        drop_roles(pg_admin_dsn, [*roles[2:][::-1], *roles[:2][::-1]])


def plant_shadows(room: ReadmeClass) -> None:
    """As ana: a table anyone may write into, and the shadows (the superuser grants ana CREATE on public first,
    as a careless administrator might after ``class init``)."""
    import psycopg
    from psycopg import sql

    ana = room.learners["ana"]
    with psycopg.connect(room.su, autocommit=True) as su:
        su.execute(sql.SQL("GRANT CREATE ON SCHEMA public TO {}").format(sql.Identifier(ana.name)))
    with psycopg.connect(ana.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE public.pwned (who TEXT)")
        conn.execute("GRANT INSERT ON public.pwned TO PUBLIC")
        for name, types in SHADOWS:
            conn.execute(shadow_sql(name, types))


def victims_of(room: ReadmeClass) -> set[str]:
    import psycopg

    with psycopg.connect(room.su, autocommit=True) as su:
        return {r[0] for r in su.execute("SELECT who FROM public.pwned").fetchall()}


def test_after_class_init_no_learner_can_create_in_public(readme_class: ReadmeClass) -> None:
    import psycopg

    with psycopg.connect(readme_class.learners["ana"].dsn, autocommit=True) as ana:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            ana.execute("CREATE FUNCTION public.pg_try_advisory_lock(smallint, integer) RETURNS boolean "
                        "LANGUAGE sql AS $$ SELECT true $$")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            ana.execute("CREATE TABLE public.pwned (who TEXT)")
        assert ana.execute("SELECT pg_catalog.has_schema_privilege('public', 'public', 'CREATE')").fetchone() == (
            False,)


def test_a_learners_shadow_functions_never_run_as_another_learner_or_the_instructor(
    readme_class: ReadmeClass,
) -> None:
    room = readme_class
    plant_shadows(room)
    ben = room.learners["ben"]
    device = f"test-host:{time.time_ns()}"
    # the measurement lease, taken by another learner and by the instructor (each on a connection of its own)
    for dsn in (ben.dsn, room.instructor):
        with postgres_lease(dsn, device) as lease:
            assert lease.held
    assert victims_of(room) == set()
    # the instructor runs init again (the migration's lock) and the other learner works in their store: the
    # class's objects are in its own schema and public is on nobody's path, so nothing of ana's is ever found
    from tutor.progress.postgres import PostgresStore

    init_class(room.instructor)
    for dsn in (ben.dsn, room.instructor):
        store = PostgresStore(dsn)
        assert store.schema == "tutor"
        path = store._query("SELECT pg_catalog.current_setting('search_path')")[0][0]
        assert path.replace('"', "") == "pg_catalog, tutor, pg_temp"
        store.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={}, confidence=0.5)
        with store.lease(device) as lease:
            assert lease.held
        store.close()
    assert victims_of(room) == set()


def test_a_learners_token_never_reaches_the_server_in_clear_and_is_kept_as_scram(
    readme_class: ReadmeClass, pg_admin_dsn: str,
) -> None:
    """The token is never in a statement the server could log (``log_statement = ddl``), and an ``md5``
    ``password_encryption`` does not apply: ``add_learner`` sends the SCRAM verifier it computed itself."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    md5_instructor = make_conninfo(readme_class.instructor, options="-c password_encryption=md5")
    cleo = add_learner(md5_instructor, f"cleo_{secrets.token_hex(3)}")
    try:
        with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
            [(kept,)] = su.execute("SELECT rolpassword FROM pg_authid WHERE rolname = %s", (cleo.name,)).fetchall()
        assert kept.startswith("SCRAM-SHA-256$") and cleo.token not in kept
        with psycopg.connect(cleo.dsn, autocommit=True) as conn:
            assert conn.execute("SELECT current_user").fetchone() == (cleo.name,)
        assert cleo.token not in cleo.address and cleo.pgpass.endswith(f":{cleo.name}:{cleo.token}")
    finally:
        drop_roles(pg_admin_dsn, [cleo.name])


# -- grades written once; ids nobody can forge ----------------------------------------------------------------------

FORGERIES = (
    "UPDATE attempts SET score = 1, verdict = 'correct' WHERE id = %(id)s",
    "UPDATE attempts SET measurement = '{\"forged\": true}' WHERE id = %(id)s",
    "UPDATE attempts SET state = 'locked', score = NULL, verdict = NULL, graded_at = NULL WHERE id = %(id)s",
    "UPDATE attempts SET prediction = '{\"choice\": \"memory\"}' WHERE id = %(id)s",
    "UPDATE attempts SET created_at = 0 WHERE id = %(id)s",
    "UPDATE attempts SET hints_used = 0 WHERE id = %(id)s",
    "UPDATE lab_runs SET result = '{}'",
    ("INSERT INTO attempts (exercise_id, lesson_id, prediction, confidence, created_at, state, verdict, score, "
     "graded_at) VALUES ('n0-e1', 'n0-l1', '{}', 0.9, 1.0, 'graded', 'correct', 1.0, 1.0)"),
    ("INSERT INTO attempts (exercise_id, lesson_id, prediction, confidence, created_at, state) "
     "VALUES ('n0-e1', 'n0-l1', '{}', 0.9, 1.0, 'graded')"),
)


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_a_learner_cannot_change_a_grade_once_written(classroom: Classroom) -> None:
    import psycopg

    from tutor.content import load_course
    from tutor.paths import bundled_course
    from tutor.progress.class_report import class_report
    from tutor.progress.postgres import PostgresStore

    ana = classroom.store("ana")
    wrong = ana.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "compute"},
                                confidence=0.9)
    ana.record_hints(wrong, 1)
    ana.record_grade(wrong, measurement={"x": 1}, truth={"choice": "memory"}, verdict="wrong", score=0.0)
    ana.record_hints(wrong, 2)  # hints opened after the reveal still count
    failed = ana.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "memory"},
                                 confidence=0.5)
    ana.record_hints(failed, 1)
    ana.record_failure(failed, state="cancelled", reason="cancelled while waiting for the device")
    course = load_course(bundled_course())
    owner = PostgresStore(classroom.admin)
    before = class_report(course, owner)
    refused = []
    with psycopg.connect(classroom.learners["ana"].dsn, autocommit=True) as conn:
        for statement in FORGERIES:
            for row in (wrong, failed):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement, {"id": row})
                refused.append(statement)
    with pytest.raises(StoreError):
        ana.record_grade(wrong, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct", score=1.0)
    with pytest.raises(StoreError):
        ana.record_grade(failed, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct", score=1.0)
    [w, f] = ana.attempts()
    assert (w.verdict, w.score, w.hints_used, f.state, f.hints_used) == ("wrong", 0.0, 2, "cancelled", 1)
    assert class_report(course, owner) == before
    owner.close()
    # when it was locked and graded is the server's clock: a backdated prediction is not backdated
    with psycopg.connect(classroom.learners["ana"].dsn, autocommit=True) as conn:
        [(backdated, created)] = conn.execute(
            "INSERT INTO attempts (exercise_id, lesson_id, prediction, confidence, created_at) "
            "VALUES ('n0-e1', 'n0-l1', '{}', 0.9, 1.0) RETURNING id, created_at").fetchall()
        assert created > time.time() - 60
        conn.execute("UPDATE attempts SET state = 'graded', verdict = 'wrong', score = 0, graded_at = 2.0 "
                     "WHERE id = %s", (backdated,))
        assert conn.execute("SELECT graded_at FROM attempts WHERE id = %s", (backdated,)).fetchone()[0] > 1e9


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_ids_a_learner_inserts_ahead_block_nobody(classroom: Classroom) -> None:
    import psycopg

    ana, ben = classroom.learners["ana"], classroom.learners["ben"]
    with psycopg.connect(ana.dsn, autocommit=True) as conn:
        for table, cols, values in (
            ("attempts", "exercise_id, lesson_id, prediction, confidence, created_at", "'e', 'l', '{}', 0.5, 1.0"),
            ("lab_runs", "lab_id, lesson_id, result, created_at", "'lab', 'l', '{}', 1.0"),
            ("bench_runs", "fingerprint, device_kind, report, created_at", "'f', 'cpu', '{}', 1.0"),
        ):
            for overriding in ("", "OVERRIDING SYSTEM VALUE "):
                for future in range(1, 4):
                    with pytest.raises((psycopg.errors.InsufficientPrivilege, psycopg.errors.GeneratedAlways)):
                        conn.execute(f"INSERT INTO {table} (id, {cols}) {overriding}VALUES ({future}, {values})")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"INSERT INTO {table} (learner, {cols}) VALUES (%s, {values})", (ben.name,))
        # burning through the identity's sequence is not possible either
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT pg_catalog.nextval(pg_catalog.pg_get_serial_sequence('attempts', 'id'))")
    store = classroom.store("ben")
    ids = [store.lock_prediction(exercise_id="e", lesson_id="l", prediction={}, confidence=0.5) for _ in range(3)]
    assert len(set(ids)) == 3 and [a.id for a in store.attempts()] == ids
    store.close()


def test_a_createrole_instructor_is_told_how_to_be_allowed_to_break_a_lease(
    readme_class: ReadmeClass, capsys: pytest.CaptureFixture[str],
) -> None:
    import psycopg
    from psycopg import sql

    from tutor.cli import main
    from tutor.progress.lease import device_key, lease_device

    room = readme_class
    ben = room.learners["ben"]
    teacher = psycopg.conninfo.conninfo_to_dict(room.instructor)["user"]
    with psycopg.connect(ben.dsn, autocommit=True) as hostile:
        hostile.execute("SELECT pg_advisory_lock(%s, %s)", device_key(lease_device("auto")))
        assert main(["class", "break-lease", ben.name, "--store", room.instructor, "--lang", "en"]) == 2
        err = capsys.readouterr().err
        assert f"may not end {ben.name}'s session" in err and f"GRANT pg_signal_backend TO {teacher}" in err
        with psycopg.connect(room.su, autocommit=True) as su:
            su.execute(sql.SQL("GRANT pg_signal_backend TO {}").format(sql.Identifier(str(teacher))))
        assert main(["class", "break-lease", ben.name, "--store", room.instructor, "--lang", "en"]) == 0
        with pytest.raises(psycopg.OperationalError):
            hostile.execute("SELECT 1")


BAD_NAMES = ("eve\n", "eve\nmallory", "current_user", "session_user", "user", "public", "none", "all", "select",
             "pg_eve", "tutor_instructor", "tutor_learner", "tutor_x", "Eve", "e", "eve-b", "év", "e" * 32, "1eve",
             "eve ", " eve", "eve;drop", "")


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_names_that_are_not_plain_learner_names_are_refused(classroom: Classroom,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import psycopg

    from tutor.cli import main
    from tutor.progress.classroom import BadLearnerName, class_login

    login = class_login(classroom.admin)
    for name in BAD_NAMES:
        with pytest.raises(BadLearnerName):
            add_learner(classroom.admin, name)
        with pytest.raises(StoreError):
            login(name, "whatever")
    assert main(["class", "add-learner", "eve\n", "--store", classroom.admin, "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a valid learner name 'eve" in err and "reserves" in err
    with psycopg.connect(classroom.admin, autocommit=True) as conn:
        created = [n for n in BAD_NAMES if n not in ("tutor_instructor", "tutor_learner")]  # those two exist
        assert conn.execute("SELECT count(*) FROM pg_roles WHERE rolname = ANY(%s)", (created,)).fetchone() == (0,)


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_init_refuses_a_learner_with_more_than_a_learners_rights(classroom: Classroom, pg_admin_dsn: str) -> None:
    import psycopg
    from psycopg import sql

    from tutor.progress.classroom import LearnerPrivileged

    ben = sql.Identifier(classroom.learners["ben"].name)
    init_class(classroom.admin, allow_superuser=True)  # a plain class passes
    for grant, undo in (
        (sql.SQL("GRANT tutor_instructor TO {}").format(ben), sql.SQL("REVOKE tutor_instructor FROM {}").format(ben)),
        (sql.SQL("GRANT pg_execute_server_program TO {}").format(ben),
         sql.SQL("REVOKE pg_execute_server_program FROM {}").format(ben)),
        (sql.SQL("ALTER ROLE {} CREATEROLE").format(ben), sql.SQL("ALTER ROLE {} NOCREATEROLE").format(ben)),
        (sql.SQL("GRANT pg_read_server_files TO tutor_learner"),
         sql.SQL("REVOKE pg_read_server_files FROM tutor_learner")),
    ):
        with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
            su.execute(grant)
        try:
            with pytest.raises(LearnerPrivileged) as refused:
                init_class(classroom.admin, allow_superuser=True)
            assert "more than a learner's rights" in str(refused.value)
        finally:
            with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
                su.execute(undo)
    init_class(classroom.admin, allow_superuser=True)


# -- tutor serve: only its own pages open sessions, and not without limit ---------------------------------------


def test_only_the_servers_own_page_is_its_origin() -> None:
    from tutor.commands.serve import same_origin

    assert same_origin("http://127.0.0.1:8000", "127.0.0.1:8000", None)
    assert same_origin("https://tutor.example.org", "10.0.0.5:8000", "https://tutor.example.org")
    for origin in ("https://evil.example", "http://127.0.0.1:8001", "null", "", None, "file://", "javascript:x",
                   "http://127.0.0.1:8000.evil.example"):
        assert not same_origin(origin, "127.0.0.1:8000", "https://tutor.example.org"), origin


async def test_serve_refuses_another_sites_page_and_sessions_past_the_cap() -> None:
    from aiohttp import WSServerHandshakeError
    from aiohttp.test_utils import TestClient, TestServer

    from tutor.commands.serve import guarded_server

    server = guarded_server("true", host="127.0.0.1", port=0, public_url=None, max_sessions=2)
    async with TestClient(TestServer(await server._make_app())) as client:
        own = f"http://{client.host}:{client.port}"
        for headers, status in (({"Origin": "https://evil.example"}, 403), ({}, 403)):
            with pytest.raises(WSServerHandshakeError) as refused:
                await client.ws_connect("/ws", headers=headers)
            assert refused.value.status == status
        type(server).sessions = 2  # two tabs already open
        with pytest.raises(WSServerHandshakeError) as refused:
            await client.ws_connect("/ws", headers={"Origin": own})
        assert refused.value.status == 503


def test_the_browsers_app_processes_inherit_none_of_the_instructors_secrets(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    from textual_serve.server import Server

    from tutor.cli import main

    for set_by_serve in ("PGPASSFILE", "TUTOR_CLASS_SERVER", "TUTOR_SERVE_LOGINS"):  # restored after the test
        monkeypatch.delenv(set_by_serve, raising=False)
    monkeypatch.setenv("TUTOR_STORE", "postgresql://teacher:s3cret@db.example/tutor")
    monkeypatch.setenv("PGPASSWORD", "s3cret")
    monkeypatch.setenv("TUTOR_TOKEN_FILE", "/home/teacher/.token")
    seen: dict[str, str] = {}
    monkeypatch.setattr(Server, "serve", lambda self, debug=False: seen.update(os.environ))
    assert main(["serve", "--port", "8765", "--lang", "en"]) == 0
    assert "s3cret" not in "".join(seen.values()) and "TUTOR_TOKEN_FILE" not in seen
    assert seen["PGPASSFILE"] == os.devnull and "db.example" in seen["TUTOR_CLASS_SERVER"]
    capsys.readouterr()


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_a_learner_cannot_import_graded_attempts_into_the_class(classroom: Classroom, tmp_path: object) -> None:
    """An export is a file the learner can edit: importing it would be writing grades directly."""
    from pathlib import Path

    from tutor.progress import ProgressStore
    from tutor.progress.exchange import export_document, import_document

    alone = ProgressStore(Path(str(tmp_path)) / "mine.sqlite3")
    attempt = alone.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "memory"},
                                    confidence=0.9)
    alone.record_grade(attempt, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct", score=1.0)
    doc = export_document(alone)
    alone.close()
    ana = classroom.store("ana")
    with pytest.raises(StoreError):
        import_document(ana, doc)
    assert ana.attempts() == []
    ana.close()


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_a_learner_cannot_delete_a_graded_attempt_to_keep_only_the_right_ones(classroom: Classroom) -> None:
    import psycopg

    ana = classroom.store("ana")
    wrong = ana.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "compute"},
                                confidence=0.9)
    ana.record_grade(wrong, measurement={"x": 1}, truth={"choice": "memory"}, verdict="wrong", score=0.0)
    unmeasured = ana.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "memory"},
                                     confidence=0.5)
    with psycopg.connect(classroom.learners["ana"].dsn, autocommit=True) as conn:
        for statement in ("DELETE FROM attempts", "DELETE FROM attempts WHERE id = %(id)s"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement, {"id": wrong})
        with pytest.raises(StoreError):
            ana.reset()  # in a class, graded attempts stay: the whole reset is refused, nothing deleted
        assert conn.execute("DELETE FROM attempts WHERE id = %s", (unmeasured,)).rowcount == 1  # never measured
    assert [a.id for a in ana.attempts()] == [wrong]
    ana.close()
    with psycopg.connect(classroom.admin, autocommit=True) as owner:  # the instructor may remove it
        assert owner.execute("DELETE FROM attempts WHERE id = %s", (wrong,)).rowcount == 1


def test_a_learner_or_assistant_of_one_class_cannot_enter_another_classs_database(
    readme_class: ReadmeClass, pg_admin_dsn: str,
) -> None:
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    from tutor.progress.postgres import PostgresStore

    room = readme_class
    ana = room.learners["ana"]
    ana_rows = PostgresStore(ana.dsn)
    ana_rows.mark_section_read("l1", "s1")
    ana_rows.close()
    with readme_classroom(pg_admin_dsn) as other:
        other_db = conninfo_to_dict(other.instructor)["dbname"]
        with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
            psycopg.connect(make_conninfo(ana.dsn, dbname=other_db)).close()
        with psycopg.connect(other.learners["ana"].dsn) as own:  # the other class's own learners still get in
            assert own.execute("SELECT current_user").fetchone() == (other.learners["ana"].name,)
        # a teaching assistant of this class reads this class, and not the other one
        ta = f"ta_{secrets.token_hex(3)}"
        with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
            su.execute(sql.SQL("CREATE ROLE {} LOGIN IN ROLE tutor_instructor").format(sql.Identifier(ta)))
        try:
            db = conninfo_to_dict(room.instructor)["dbname"]
            with psycopg.connect(room.su, autocommit=True) as su:
                su.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(str(db)),
                                                                               sql.Identifier(ta)))
            with psycopg.connect(make_conninfo(pg_admin_dsn, dbname=db, user=ta)) as conn:
                assert conn.execute("SELECT learner FROM tutor.sections_read").fetchall() == [(ana.name,)]
            with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
                psycopg.connect(make_conninfo(pg_admin_dsn, dbname=other_db, user=ta)).close()
        finally:
            drop_roles(pg_admin_dsn, [ta])
    # init again keeps the way in for a learner who wrote in the class; reset-token gives it back to any learner
    init_class(room.instructor)
    with psycopg.connect(ana.dsn) as conn:
        assert conn.execute("SELECT current_user").fetchone() == (ana.name,)


# -- shadow operators: planted while a careless administrator let a learner create in public, then revoked -----

#: The types the tutor's SQL compares and adds: its columns (bigint ids, integer counts, double precision times
#: and scores, text) against what psycopg sends for Python values (smallint, integer or bigint for an int, double
#: precision for a float, text). Where pg_catalog has no operator for the exact pair, a shadow for that pair is a
#: better match than the built-in whatever the search path says; where it has one, pg_catalog first wins.
SHADOW_TYPES = ("smallint", "integer", "bigint", "double precision", "numeric", "text")
SHADOW_OPERATORS = ("=", "<>", "<", ">", "<=", ">=", "+", "-")


def plant_shadow_operators(room: ReadmeClass, schema: str) -> int:
    """As ana, while the superuser lets her create in ``schema``: one recording function per type pair and an
    operator for each of ``SHADOW_OPERATORS`` on it (a comparison answers as the built-in would, so the victim's
    query still works), then the superuser revokes CREATE again. Returns how many operators were planted."""
    import psycopg
    from psycopg import sql

    ana = room.learners["ana"]
    with psycopg.connect(room.su, autocommit=True) as su:
        su.execute(sql.SQL("GRANT USAGE, CREATE ON SCHEMA {} TO {}").format(sql.Identifier(schema),
                                                                         sql.Identifier(ana.name)))
        # where the shadows write who ran them (the test's own table: any role may insert into it)
        su.execute("CREATE TABLE public.pwned (who TEXT, what TEXT)")
        su.execute("GRANT INSERT ON public.pwned TO PUBLIC")
    planted = 0
    with psycopg.connect(ana.dsn, autocommit=True) as conn:
        for i, left in enumerate(SHADOW_TYPES):
            for j, right in enumerate(SHADOW_TYPES):
                if (left == "text") != (right == "text"):
                    continue
                for k, op in enumerate(SHADOW_OPERATORS):
                    if left == "text" and op in ("+", "-"):
                        continue
                    arithmetic = op in ("+", "-")
                    returns = "double precision" if arithmetic else "boolean"
                    body = (f"$1::double precision OPERATOR(pg_catalog.{op}) $2::double precision" if left != "text"
                            else f"$1::text OPERATOR(pg_catalog.{op}) $2::text")
                    fn = f"{schema}.shadow_{i}_{j}_{k}"
                    conn.execute(f"CREATE FUNCTION {fn}({left}, {right}) RETURNS {returns} LANGUAGE sql AS $$ "
                                 f"INSERT INTO public.pwned VALUES (current_user, '{left} {op} {right}'); "
                                 f"SELECT {body} $$")
                    conn.execute(f"CREATE OPERATOR {schema}.{op} (LEFTARG = {left}, RIGHTARG = {right}, "
                                 f"FUNCTION = {fn})")
                    planted += 1
        # and functions the tutor's SQL might call unqualified, with argument types a literal could match
        conn.execute(f"CREATE FUNCTION {schema}.to_regclass(text) RETURNS regclass LANGUAGE sql AS $$ "
                     "INSERT INTO public.pwned VALUES (current_user, 'to_regclass'); "
                     "SELECT pg_catalog.to_regclass($1) $$")
        conn.execute(f"CREATE FUNCTION {schema}.hashtext(text) RETURNS integer LANGUAGE sql AS $$ "
                     "INSERT INTO public.pwned VALUES (current_user, 'hashtext'); SELECT pg_catalog.hashtext($1) $$")
    with psycopg.connect(room.su, autocommit=True) as su:
        su.execute(sql.SQL("REVOKE CREATE ON SCHEMA {} FROM {}, PUBLIC").format(sql.Identifier(schema),
                                                                              sql.Identifier(ana.name)))
    return planted


def ran_shadows(room: ReadmeClass) -> set[tuple[str, str]]:
    import psycopg

    with psycopg.connect(room.su, autocommit=True) as su:
        return {(r[0], r[1]) for r in su.execute("SELECT who, what FROM public.pwned").fetchall()}


def test_shadow_operators_a_learner_left_in_the_class_schema_never_run_as_another_learner_or_the_instructor(
    readme_class: ReadmeClass,
) -> None:
    """The class's schema is closed again (nobody but its owner may create there), but ana's operators and
    functions are still in it. Ben works through the tutor and the instructor runs init and the report: the tutor
    refuses the schema, naming the role whose objects are there, so no shadow ever runs as them; once a
    superuser drops ana's objects, both work and still nothing of ana's ran as anyone else."""
    import psycopg
    from psycopg import sql

    from tutor.content import load_course
    from tutor.paths import bundled_course
    from tutor.progress.class_report import class_report
    from tutor.progress.postgres import PostgresStore

    room = readme_class
    ana, ben = room.learners["ana"], room.learners["ben"]
    assert plant_shadow_operators(room, "tutor") == 206
    for who, open_it in (("ben", lambda: PostgresStore(ben.dsn)), ("instructor", lambda: init_class(room.instructor)),
                         ("report", lambda: PostgresStore(room.instructor))):
        with pytest.raises(StoreError) as refused:
            opened = open_it()
            if isinstance(opened, PostgresStore):  # what the old code let through: use it as the tutor would
                attempt = opened.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1",
                                                 prediction={"choice": "memory"}, confidence=1)
                opened.record_hints(attempt, 1)
                opened.record_grade(attempt, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct",
                                    score=1)
                opened.attempts("n0-e1")
                opened.mark_section_read("n0-l1", "s1")
                opened.sections_read("n0-l1")
                class_report(load_course(bundled_course()), opened)
                opened.close()
        said = str(refused.value)
        assert ana.name in said and "tutor" in said and "\n" not in said, (who, said)
        assert {w for w, _ in ran_shadows(room)} <= {ana.name}, (who, ran_shadows(room))
    # the way out the message gives: a superuser drops what ana owns in the class's database
    with psycopg.connect(room.su, autocommit=True) as su:
        su.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(ana.name)))
    init_class(room.instructor)
    store = PostgresStore(ben.dsn)
    attempt = store.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "memory"},
                                    confidence=1)
    store.record_grade(attempt, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct", score=1)
    assert [a.score for a in store.attempts()] == [1]
    store.close()


# -- a learner's own password: PostgreSQL lets every role change it; the instructor sees it and can undo it ------


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_learner_who_replaces_their_token_is_shown_to_the_instructor_and_reset_token_undoes_it(
    classroom: Classroom, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    import json

    import psycopg

    from tutor.cli import main
    from tutor.progress.classroom import learner_dsn
    from tutor.progress.postgres import PostgresStore

    ana, ben = classroom.learners["ana"], classroom.learners["ben"]
    with psycopg.connect(ana.dsn, autocommit=True) as conn:  # nothing in PostgreSQL refuses it
        conn.execute("ALTER ROLE CURRENT_USER PASSWORD 'ana-knows-this-one'")
    PostgresStore(learner_dsn(classroom.admin, ana.name, "ana-knows-this-one")).close()
    assert main(["class", "learners", "--store", classroom.admin, "--json"]) == 0
    states = {r["name"]: r["token"] for r in json.loads(capsys.readouterr().out)}
    assert (states[ana.name], states[ben.name]) == ("changed", "kept")
    assert main(["class", "learners", "--store", classroom.admin, "--lang", lang]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.strip()}
    changed = "TOKEN CHANGED" if lang == "en" else "TOKEN CAMBIADO"
    assert changed in lines[ana.name] and f"reset-token {ana.name}" in lines[ana.name]
    assert changed not in lines[ben.name]
    assert main(["class", "reset-token", ana.name, "--store", classroom.admin, "--lang", "en"]) == 0
    capsys.readouterr()
    with pytest.raises(StoreError):
        PostgresStore(learner_dsn(classroom.admin, ana.name, "ana-knows-this-one"))
    assert main(["class", "learners", "--store", classroom.admin, "--json"]) == 0
    assert {r["name"]: r["token"] for r in json.loads(capsys.readouterr().out)}[ana.name] == "kept"


def test_an_instructor_who_may_not_read_pg_authid_is_told_the_token_check_is_not_made(
    readme_class: ReadmeClass, capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    import psycopg

    from tutor.cli import main

    ana = readme_class.learners["ana"]
    with psycopg.connect(ana.dsn, autocommit=True) as conn:
        conn.execute("ALTER ROLE CURRENT_USER PASSWORD 'ana-knows-this-one'")
    assert main(["class", "learners", "--store", readme_class.instructor, "--json"]) == 0
    assert {r["token"] for r in json.loads(capsys.readouterr().out)} == {"unknown"}
    assert main(["class", "learners", "--store", readme_class.instructor, "--lang", "en"]) == 0
    assert "only a superuser may read pg_authid" in capsys.readouterr().out


def test_shadow_operators_a_learner_left_in_public_are_on_nobodys_path(readme_class: ReadmeClass) -> None:
    """The same operators and functions in ``public`` (PostgreSQL 14's default let ana create there): the class
    keeps its objects in its own schema and every role's path is ``pg_catalog, tutor, pg_temp``, so the tutor
    works and none of them runs, as anyone."""
    from tutor.content import load_course
    from tutor.paths import bundled_course
    from tutor.progress.class_report import class_report
    from tutor.progress.postgres import PostgresStore

    room = readme_class
    plant_shadow_operators(room, "public")
    init_class(room.instructor)
    ben = PostgresStore(room.learners["ben"].dsn)
    attempt = ben.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "memory"},
                                  confidence=1)
    ben.record_hints(attempt, 1)
    ben.record_grade(attempt, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct", score=1)
    ben.mark_section_read("n0-l1", "s1")
    assert [a.score for a in ben.attempts("n0-e1")] == [1] and ben.sections_read("n0-l1") == {("n0-l1", "s1")}
    ben.close()
    owner = PostgresStore(room.instructor)
    assert class_report(load_course(bundled_course()), owner) is not None
    owner.close()
    assert ran_shadows(room) == set()


def test_a_class_an_older_init_left_in_public_is_moved_to_its_own_schema(
    pg_admin_dsn: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``tutor class init`` before this version kept a class's tables, triggers and policies in ``public``, and
    pinned its learners to ``pg_catalog, public, pg_temp``. Set up that way (today's init with the move turned
    off) with a learner's graded attempt, then init again: everything is in ``tutor``, the rows with it, row-level
    security and the write-once trigger still hold, and every role's path is the class's."""
    import psycopg

    from tutor.progress import classroom
    from tutor.progress.postgres import PostgresStore

    older = monkeypatch.context()
    patched = older.__enter__()
    patched.setattr(classroom, "CLASS_SCHEMA", "public")
    patched.setattr(classroom, "_class_schema", lambda conn: "public")
    with readme_classroom(pg_admin_dsn) as room:
        older.__exit__(None, None, None)
        ana, ben = room.learners["ana"], room.learners["ben"]
        store = PostgresStore(ana.dsn)
        assert store.schema == "public"
        graded = store.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "memory"},
                                       confidence=0.9)
        store.record_grade(graded, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct", score=1)
        store.mark_section_read("n0-l1", "s1")
        store.close()
        init_class(room.instructor)
        with psycopg.connect(room.su, autocommit=True) as su:
            left = su.execute("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                              " WHERE n.nspname = 'public' AND c.relkind = 'r'").fetchall()
            assert left == []
            assert su.execute("SELECT learner, score FROM tutor.attempts").fetchall() == [(ana.name, 1.0)]
            assert su.execute("SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                              " WHERE n.nspname = 'public' AND p.proname LIKE 'tutor_%'").fetchone() == (0,)
        for who in (ana, ben):
            mine = PostgresStore(who.dsn)
            assert mine.schema == "tutor"
            assert [a.id for a in mine.attempts()] == ([graded] if who is ana else [])
            mine.close()
        with psycopg.connect(ana.dsn, autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE attempts SET score = 0 WHERE id = %s", (graded,))
        owner = PostgresStore(room.instructor)
        assert owner.schema == "tutor" and {a.learner for a in owner.attempts()} == {ana.name}
        owner.close()
        init_class(room.instructor)  # again: nothing to move, nothing changes
        with psycopg.connect(room.su, autocommit=True) as su:
            assert su.execute("SELECT count(*) FROM tutor.attempts").fetchone() == (1,)


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_init_follows_membership_chains_up_from_a_learner_and_down_to_who_can_become_one(
    classroom: Classroom, pg_admin_dsn: str,
) -> None:
    """Up: ben in ``helpers`` in ``tutor_instructor`` reads every learner's rows; the refusal names where the chain
    leads. Down: a role granted ana's role can ``SET ROLE`` to her and write in her name; it is refused too, and
    so is one two steps down (granted a role that holds ana's)."""
    import psycopg
    from psycopg import sql

    from tutor.progress.classroom import LearnerPrivileged

    ana, ben = (sql.Identifier(classroom.learners[w].name) for w in ("ana", "ben"))
    suffix = secrets.token_hex(3)
    helpers, stranger, deeper = (sql.Identifier(f"{w}_{suffix}") for w in ("helpers", "stranger", "deeper"))
    classroom.roles += [f"deeper_{suffix}", f"stranger_{suffix}", f"helpers_{suffix}"]
    with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
        su.execute(sql.SQL("CREATE ROLE {} NOLOGIN IN ROLE tutor_instructor").format(helpers))
        su.execute(sql.SQL("CREATE ROLE {} LOGIN").format(stranger))
        su.execute(sql.SQL("CREATE ROLE {} LOGIN").format(deeper))
    cases = (
        (sql.SQL("GRANT {} TO {}").format(helpers, ben), sql.SQL("REVOKE {} FROM {}").format(helpers, ben),
         (classroom.learners["ben"].name, "tutor_instructor")),
        (sql.SQL("GRANT {} TO {}").format(ana, stranger), sql.SQL("REVOKE {} FROM {}").format(ana, stranger),
         (f"stranger_{suffix}", "MEMBER OF", classroom.learners["ana"].name)),
        (sql.SQL("GRANT {} TO {}; GRANT {} TO {}").format(ana, stranger, stranger, deeper),
         sql.SQL("REVOKE {} FROM {}; REVOKE {} FROM {}").format(stranger, deeper, ana, stranger),
         (f"deeper_{suffix}", "MEMBER OF", classroom.learners["ana"].name)),
    )
    for grant, undo, named in cases:
        with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
            su.execute(grant)
        try:
            with pytest.raises(LearnerPrivileged) as refused:
                init_class(classroom.admin, allow_superuser=True)
            said = str(refused.value)
            assert all(word in said for word in named) and "\n" not in said, said
        finally:
            with psycopg.connect(pg_admin_dsn, autocommit=True) as su:
                su.execute(undo)
    init_class(classroom.admin, allow_superuser=True)


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_init_refuses_to_set_a_class_up_as_a_superuser_unless_told(
    classroom: Classroom, capsys: pytest.CaptureFixture[str],
) -> None:
    """The class needs a CREATEROLE instructor (the README's ``teacher``, as in ``readme_class``); as a superuser
    anything a learner made run as the instructor would run with every right on the server."""
    from tutor.cli import main
    from tutor.progress.classroom import InstructorSuperuser

    with pytest.raises(InstructorSuperuser) as refused:
        init_class(classroom.admin)
    assert "is a superuser" in str(refused.value) and "--allow-superuser" in str(refused.value)
    assert main(["class", "init", "--store", classroom.admin, "--lang", "es"]) == 2
    said = capsys.readouterr().err
    assert "es superusuario" in said and "createuser --createrole" in said
    assert main(["class", "init", "--store", classroom.admin, "--lang", "en", "--allow-superuser"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("stores", ["postgresql"], indirect=True)
def test_a_learner_of_another_class_in_the_same_database_reaches_nothing_of_this_one(stores: Stores) -> None:
    """Two classes in two schemas of one database (the case CONNECT cannot separate): each class's schema is
    usable only by its own group, so bob of class B cannot read or write a row of class A, cannot open A as his
    store, and A's instructor cannot reset or remove him; class A's own learner is unaffected."""
    import psycopg

    from tutor.progress.classroom import (
        NotALearner,
        class_learners,
        learner_dsn,
        remove_learner,
        reset_token,
    )
    from tutor.progress.postgres import PostgresStore

    first, second = stores.spec("cla"), stores.spec("clb")
    for admin in (first, second):
        init_class(admin, allow_superuser=True)
    suffix = secrets.token_hex(3)
    ana = add_learner(first, f"ana_{suffix}")
    bob = add_learner(second, f"bob_{suffix}")
    try:
        schema_a = first.rsplit("search_path=", 1)[1].strip("'\" ")
        own = PostgresStore(ana.dsn)
        own.mark_section_read("n0-l1", "s1")
        own.close()
        bob_in_a = learner_dsn(first, bob.name, bob.token)
        with psycopg.connect(bob_in_a, autocommit=True) as conn:
            for statement in (f'SELECT * FROM "{schema_a}".sections_read',
                              f"INSERT INTO \"{schema_a}\".sections_read (lesson_id, section_id, read_at) "
                              "VALUES ('x', 'y', 1.0)"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
        with pytest.raises(StoreError):
            PostgresStore(bob_in_a)
        for action in (reset_token, remove_learner):
            with pytest.raises(NotALearner):
                action(first, bob.name)
        assert [r.name for r in class_learners(first)] == [ana.name]
        assert [r.name for r in class_learners(second)] == [bob.name]
        with psycopg.connect(first, autocommit=True) as owner:
            assert owner.execute("SELECT learner FROM sections_read").fetchall() == [(ana.name,)]
    finally:
        with psycopg.connect(first, autocommit=True) as a, psycopg.connect(second, autocommit=True) as b:
            groups = [class_group(c, str(c.execute("SELECT current_schema()").fetchone()[0])) for c in (a, b)]
        drop_roles(str(stores.admin_dsn), [ana.name, bob.name, *groups])


def test_the_class_schema_and_everything_in_it_belong_to_a_role_no_one_logs_in_as(
    readme_class: ReadmeClass, pg_admin_dsn: str,
) -> None:
    """The instructor's login role owns none of the class's objects: a NOLOGIN owner does, the instructor holds
    its rights as a member, and still writes their own rows, reads every learner's and removes a graded attempt."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    from tutor.progress.postgres import PostgresStore

    room = readme_class
    ana = PostgresStore(room.learners["ana"].dsn)
    graded = ana.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "memory"},
                                 confidence=0.9)
    ana.record_grade(graded, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct", score=1)
    ana.close()
    init_class(room.instructor)  # again, after the learner's tables grew a row: nothing changes hands
    with psycopg.connect(room.su, autocommit=True) as su:
        owner = class_owner(su)
        assert su.execute("SELECT n.nspowner::regrole::text, r.rolcanlogin FROM pg_namespace n JOIN pg_roles r"
                          " ON r.oid = n.nspowner WHERE n.nspname = 'tutor'").fetchone() == (owner, False)
        owners = {r[0] for r in su.execute(
            "SELECT c.relowner::regrole::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'tutor' AND c.relkind = 'r' UNION SELECT p.proowner::regrole::text FROM pg_proc p"
            " JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'tutor'").fetchall()}
        assert owners == {owner}
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(make_conninfo(pg_admin_dsn, dbname=room.su.split("dbname=")[1].split()[0], user=owner))
    teacher = PostgresStore(room.instructor)
    mine = teacher.lock_prediction(exercise_id="n0-e2", lesson_id="n0-l1", prediction={}, confidence=0.5)
    assert {a.id for a in teacher.attempts()} == {graded, mine}
    with teacher.transaction() as conn:
        assert conn.execute("DELETE FROM attempts WHERE id = ?", (graded,)).rowcount == 1
    teacher.close()

"""A class on PostgreSQL: learners kept apart by the database itself (roles and row-level security).

One learner's credentials are used, through the tutor and through raw SQL, to read, change and delete another's
rows: every attempt is refused or finds nothing, and the instructor still reads everyone's rows intact.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from tests.conftest import Classroom, Stores
from tutor.cli import main
from tutor.progress.classroom import add_learner
from tutor.progress.rows import LabResult
from tutor.progress.store_errors import StoreNoSuchRow

pytestmark = pytest.mark.parametrize("stores", ["postgresql"], indirect=True)


def ana_attempt(room: Classroom) -> tuple[int, int]:
    ana = room.store("ana")
    attempt = ana.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "memory"},
                                  confidence=0.8)
    ana.record_grade(attempt, measurement={"x": 1}, truth={"choice": "memory"}, verdict="correct", score=1.0)
    sweep = {"kind": "sweep", "name": "gemm_sizes", "points": [{"n": 32, "gflops": 1.0}]}
    run = ana.record_lab_run(lab_id="lab", lesson_id="n0-l1", result=LabResult.from_json(sweep))
    ana.close()
    return attempt, run


def test_a_learner_sees_and_changes_only_their_own_rows_through_the_tutor(classroom: Classroom) -> None:
    attempt, _run = ana_attempt(classroom)
    ben = classroom.store("ben")
    assert ben.learner == classroom.learners["ben"].name
    assert ben.attempts() == [] and ben.attempt(attempt) is None and ben.lab_runs() == []
    with pytest.raises(StoreNoSuchRow, match="no attempt"):
        ben.record_grade(attempt, measurement={}, truth={}, verdict="wrong", score=0.0)
    with pytest.raises(StoreNoSuchRow):
        ben.record_failure(attempt, state="failed", reason="sabotage")
    with pytest.raises(StoreNoSuchRow):
        ben.record_hints(attempt, 9)
    assert ben.reset() == {t: 0 for t in ("sections_read", "attempts", "lab_runs", "notebook_entries",
                                          "bench_runs", "doctor_runs")}
    mine = ben.lock_prediction(exercise_id="n0-e1", lesson_id="n0-l1", prediction={"choice": "compute"},
                               confidence=0.5)
    assert [a.id for a in ben.attempts()] == [mine]
    ana = classroom.store("ana")
    [kept] = ana.attempts()
    assert kept.id == attempt and kept.verdict == "correct" and kept.hints_used == 0
    assert len(ana.lab_runs()) == 1


def test_raw_sql_with_a_learners_credentials_cannot_reach_anothers_rows(classroom: Classroom) -> None:
    import psycopg

    attempt, run = ana_attempt(classroom)
    ana_name = classroom.learners["ana"].name
    with psycopg.connect(classroom.learners["ben"].dsn, autocommit=True) as ben:
        assert ben.execute("SELECT count(*) FROM attempts").fetchone() == (0,)
        assert ben.execute("SELECT * FROM attempts WHERE id = %s", (attempt,)).fetchall() == []
        assert ben.execute("SELECT count(*) FROM lab_runs").fetchone() == (0,)
        assert ben.execute("UPDATE attempts SET score = 0, verdict = 'wrong' WHERE id = %s", (attempt,)).rowcount == 0
        assert ben.execute("UPDATE attempts SET score = 0").rowcount == 0
        assert ben.execute("DELETE FROM attempts WHERE id = %s", (attempt,)).rowcount == 0
        assert ben.execute("DELETE FROM lab_runs").rowcount == 0
        refused: list[str] = []
        for statement in (
            # writing a row in another learner's name
            ("INSERT INTO attempts (learner, exercise_id, lesson_id, prediction, confidence, created_at) "
             f"VALUES ('{ana_name}', 'x', 'l', '{{}}', 0.5, 1.0)"),
            # taking the table's protection off, or reaching round it
            "ALTER TABLE attempts DISABLE ROW LEVEL SECURITY",
            "DROP POLICY learner_own_rows ON attempts",
            "TRUNCATE attempts",
            f'SET ROLE "{ana_name}"',
            "SET ROLE tutor_instructor",
            "CREATE TABLE stolen AS SELECT * FROM attempts",
        ):
            with pytest.raises(psycopg.Error) as caught:
                ben.execute(statement)
            refused.append(type(caught.value).__name__)
        assert set(refused) <= {"InsufficientPrivilege", "UndefinedObject"}, refused
        # moving one's own row into another's name is refused too
        ben.execute("INSERT INTO attempts (exercise_id, lesson_id, prediction, confidence, created_at) "
                    "VALUES ('x', 'l', '{}', 0.5, 1.0)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            ben.execute("UPDATE attempts SET learner = %s", (ana_name,))
    with psycopg.connect(classroom.admin, autocommit=True) as owner:
        rows = owner.execute("SELECT learner, id, verdict, score FROM attempts ORDER BY id").fetchall()
        assert rows[0] == (ana_name, attempt, "correct", 1.0)
        assert {r[0] for r in rows} == {ana_name, classroom.learners["ben"].name}
        assert owner.execute("SELECT count(*) FROM lab_runs WHERE id = %s", (run,)).fetchone() == (1,)


def test_the_instructor_role_reads_every_learner_but_writes_nothing(classroom: Classroom) -> None:
    import psycopg
    from psycopg import sql

    attempt, _ = ana_attempt(classroom)
    classroom.store("ben").lock_prediction(exercise_id="e", lesson_id="l", prediction={}, confidence=0.3)
    teacher = add_learner(classroom.admin, f"teacher_{secrets.token_hex(3)}")
    classroom.roles.append(teacher.name)
    with psycopg.connect(classroom.admin, autocommit=True) as owner:  # a second instructor, not a learner
        owner.execute(sql.SQL("REVOKE tutor_learner FROM {}").format(sql.Identifier(teacher.name)))
        owner.execute(sql.SQL("GRANT tutor_instructor TO {}").format(sql.Identifier(teacher.name)))
    with psycopg.connect(teacher.dsn, autocommit=True) as conn:
        learners = {r[0] for r in conn.execute("SELECT learner FROM attempts").fetchall()}
        assert learners == {classroom.learners["ana"].name, classroom.learners["ben"].name}
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("DELETE FROM attempts WHERE id = %s", (attempt,))


def test_the_class_commands_print_a_token_once_and_only_it_opens_the_store(
    classroom: Classroom, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    monkeypatch.delenv("TUTOR_TOKEN_FILE", raising=False)  # --token-file sets it for the process's workers
    name = f"cleo_{secrets.token_hex(3)}"
    classroom.roles.append(name)
    assert main(["class", "init", "--store", classroom.admin, "--lang", "en", "--allow-superuser"]) == 0
    assert "Row-level security is on for 9 tables" in capsys.readouterr().out
    assert main(["class", "add-learner", name, "--store", classroom.admin, "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert f"Alumno {name} creado" in out and "no se vuelven a mostrar" in out
    token = next(line.split(":", 1)[1].strip() for line in out.splitlines() if line.strip().startswith("token:"))
    dsn = next(line.split(":", 1)[1].strip() for line in out.splitlines() if line.strip().startswith("conexión:"))
    pgpass = next(line.split(":", 1)[1].strip() for line in out.splitlines() if "línea de .pgpass:" in line)
    assert token not in dsn and len(token) >= 20 and pgpass.endswith(f":{name}:{token}")
    # the token from a file only its owner may read, from a .pgpass file, never from the command line
    token_file = tmp_path / "token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    assert main(["progress", "--store", dsn, "--token-file", str(token_file), "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and token not in captured.out
    passfile = tmp_path / "pgpass"
    passfile.write_text(pgpass + "\n")
    passfile.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(passfile))
    assert main(["progress", "--store", dsn, "--json"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.delenv("PGPASSFILE")
    os.environ.pop("TUTOR_TOKEN_FILE")
    # with neither (and no terminal to ask in) one line says how to give it
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))
    assert main(["progress", "--store", dsn, "--lang", "en"]) == 2
    assert "wants your token: pass --token-file FILE" in capsys.readouterr().err
    token_file.chmod(0o644)
    assert main(["progress", "--store", dsn, "--token-file", str(token_file), "--lang", "en"]) == 2
    assert "may be read by others: it is not used; chmod 600" in capsys.readouterr().err
    os.environ.pop("TUTOR_TOKEN_FILE")
    # a token in --store still works, with a loud warning
    in_argv = dsn.replace(f"{name}@", f"{name}:{token}@")
    assert main(["progress", "--store", in_argv, "--json", "--lang", "en"]) == 0
    assert "WARNING: the token in --store is on this process's command line" in capsys.readouterr().err
    wrong = dsn.replace(f"{name}@", f"{name}:not-the-token@")
    assert main(["progress", "--store", wrong]) == 2
    err = capsys.readouterr().err
    assert "password authentication failed" in err and "not-the-token" not in err
    assert err.count("\n") == 2  # the warning, then the one line
    assert main(["class", "add-learner", name, "--store", classroom.admin, "--lang", "en"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["class", "add-learner", "Robert'); DROP TABLE attempts;--", "--store", classroom.admin,
                 "--lang", "en"]) == 2
    assert "not a valid learner name" in capsys.readouterr().err


def test_class_commands_need_a_postgresql_store(capsys: pytest.CaptureFixture[str], stores: Stores) -> None:
    assert main(["class", "init", "--lang", "en"]) == 2
    assert "needs a PostgreSQL store" in capsys.readouterr().err


def test_in_a_terminal_the_token_is_asked_for_once_and_serves_the_lease_too(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tutor.progress.postgres import PostgresStore

    ana = classroom.learners["ana"]
    asked: list[str] = []

    def prompt(server: str) -> str:
        asked.append(server)
        return ana.token

    monkeypatch.setattr(PostgresStore, "token_prompt", prompt)
    monkeypatch.setenv("PGPASSFILE", "/nonexistent")
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.delenv("TUTOR_TOKEN_FILE", raising=False)
    store = PostgresStore(ana.address)
    try:
        assert store.learner == ana.name and asked == [ana.server]
        with store.lease("test-host:prompt") as lease:
            assert lease.held
        assert asked == [ana.server] and ana.token not in store.path
    finally:
        store.close()


def test_the_instructor_lists_learners_resets_a_token_and_removes_a_learner(
    classroom: Classroom, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    import psycopg
    from psycopg import sql

    from tutor.progress.classroom import learner_dsn
    from tutor.progress.postgres import PostgresStore
    from tutor.progress.store_errors import StoreDenied

    ana, ben = classroom.learners["ana"], classroom.learners["ben"]
    ana_attempt(classroom)
    classroom.store("ben").lock_prediction(exercise_id="e", lesson_id="l", prediction={}, confidence=0.3)
    open_session = psycopg.connect(ana.dsn, autocommit=True)
    assert main(["class", "learners", "--store", classroom.admin, "--json"]) == 0
    listed = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert listed[ana.name] == {"name": ana.name, "can_login": True, "sessions": 1, "extra": "", "token": "kept"}
    assert ben.name in listed
    # a new token: the old one stops working, the open session ends, the new one logs in
    assert main(["class", "reset-token", ana.name, "--store", classroom.admin, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert f"New token for {ana.name}" in out and ana.token not in out
    token = next(line.split(":", 1)[1].strip() for line in out.splitlines() if line.strip().startswith("token:"))
    with pytest.raises(psycopg.OperationalError):
        open_session.execute("SELECT 1")
    open_session.close()
    with pytest.raises(StoreDenied):
        PostgresStore(ana.dsn)
    renewed = PostgresStore(learner_dsn(classroom.admin, ana.name, token))
    assert renewed.learner == ana.name and len(renewed.attempts()) == 1
    renewed.close()
    # only learners: another role on the server is not the instructor's to change or drop
    stranger = f"stranger_{secrets.token_hex(3)}"
    classroom.roles.append(stranger)
    with psycopg.connect(classroom.admin, autocommit=True) as owner:
        owner.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(stranger)))
    for action in ("reset-token", "remove-learner"):
        assert main(["class", action, stranger, "--store", classroom.admin, "--lang", "en"]) == 2
        assert "is not a learner of this class" in capsys.readouterr().err
    # removing a learner: the role goes, their rows stay for the report
    assert main(["class", "remove-learner", ben.name, "--store", classroom.admin, "--lang", "en"]) == 0
    assert f"Learner {ben.name} removed" in capsys.readouterr().out
    with psycopg.connect(classroom.admin, autocommit=True) as owner:
        assert owner.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (ben.name,)).fetchone() is None
        assert owner.execute("SELECT count(*) FROM attempts WHERE learner = %s", (ben.name,)).fetchone() == (1,)
    with pytest.raises(StoreDenied):
        PostgresStore(ben.dsn)

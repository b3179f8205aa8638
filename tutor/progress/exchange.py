"""Export and import of the whole progress store as one JSON document.

Import validates the document (format, schema version, every table and column) before touching the store, and
never overwrites silently: into a store that already holds data it refuses unless told ``merge`` (add what is
missing, skipping rows already there — same natural key) or ``replace`` (delete everything, then load; one
transaction, so a failure leaves the old data). The store is checked in the transaction that writes, held against
any other import (:meth:`~tutor.progress.store.StoreBase.import_transaction`): of two imports into an empty store at
once, one lands and the other is refused. Row ids are reassigned; notebook entries keep their lab run.

The file is untrusted: it is read through :class:`tutor.untrusted.JsonDocument` (a regular file, bounded size,
bounded nesting, no NaN/Infinity/``1e400``, each refused with its line and column), and every value is checked
against its column's domain (a confidence in [0, 1], a finite score in [0, 1], a timestamp between 1970 and 2100,
the right type, an id in the course's id grammar; every list bounded) before anything is written; a refusal names
the field and where it is in the file (``x.json:12:21: error: tables.attempts[3].confidence: …``).
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from tutor.content.models import CHOICE_GRAMMAR, ID_GRAMMAR
from tutor.i18n import N_
from tutor.i18n.message import Message, Param
from tutor.progress.store import MAX_TIMESTAMP, SCHEMA_VERSION, TABLES, StoreBase
from tutor.untrusted import (
    JsonDocument,
    JsonLoc,
    UnsafeFile,
    clean_line,
    control_characters,
    describe_control,
    first_oversized,
    json_field_path,
)

# An export holds every attempt and report; far larger than any real one, small enough to parse in memory.
IMPORT_LIMIT_BYTES = 64 * 1024 * 1024

EXPORT_FORMAT = "gpu-tutor/progress/v1"
ImportMode = Literal["refuse", "merge", "replace"]

# column → accepted Python types ("json" columns hold JSON text in the store and real JSON in the file).
_COLUMNS: dict[str, dict[str, tuple[type, ...]]] = {
    "sections_read": {"lesson_id": (str,), "section_id": (str,), "read_at": (int, float)},
    "attempts": {
        "id": (int,), "exercise_id": (str,), "lesson_id": (str,), "pass": (int,), "prediction": (object,),
        "confidence": (int, float), "hints_used": (int,), "state": (str,), "measurement": (object,),
        "truth": (object,), "verdict": (str, type(None)), "score": (int, float, type(None)),
        "fingerprint": (str, type(None)), "created_at": (int, float), "graded_at": (int, float, type(None)),
    },
    "lab_runs": {"id": (int,), "lab_id": (str,), "lesson_id": (str,), "fingerprint": (str, type(None)),
                 "prediction": (object,), "result": (object,), "created_at": (int, float)},
    "notebook_entries": {"id": (int,), "lab_run_id": (int, type(None)), "lab_id": (str,), "entry": (object,),
                         "created_at": (int, float), "updated_at": (int, float)},
    "bench_runs": {"id": (int,), "fingerprint": (str,), "device_kind": (str,), "report": (object,),
                   "created_at": (int, float)},
    "doctor_runs": {"id": (int,), "passed": (int, bool), "lock_matches": (int, bool, type(None)),
                    "report": (object,), "created_at": (int, float)},
}
_JSON_COLUMNS = {"attempts": ("prediction", "measurement", "truth"), "lab_runs": ("prediction", "result"),
                 "notebook_entries": ("entry",), "bench_runs": ("report",), "doctor_runs": ("report",)}
_REQUIRED_JSON = {("lab_runs", "result"), ("notebook_entries", "entry"), ("bench_runs", "report"),
                  ("doctor_runs", "report"), ("attempts", "prediction")}
# What makes two rows "the same" when merging.
_NATURAL_KEY: dict[str, tuple[str, ...]] = {
    "sections_read": ("lesson_id", "section_id"),
    "attempts": ("exercise_id", "pass", "created_at", "prediction"),
    "lab_runs": ("lab_id", "created_at"),
    "notebook_entries": ("lab_id", "created_at"),
    "bench_runs": ("fingerprint", "created_at"),
    "doctor_runs": ("created_at",),
}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _timestamp(value: Any) -> Message | None:
    if not _number(value) or not 0 <= value <= MAX_TIMESTAMP:
        return Message.of("exchange.must.timestamp")
    return None


def _unit_interval(value: Any) -> Message | None:
    return None if _number(value) and 0 <= value <= 1 else Message.of("exchange.must.unit_interval")


def _count(low: int, high: int) -> Callable[[Any], Message | None]:
    def check(value: Any) -> Message | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        return None if ok else Message.of("exchange.must.count", low=low, high=high)

    return check


def _flag(value: Any) -> Message | None:
    return None if isinstance(value, bool) or value in (0, 1) else Message.of("exchange.must.flag")


def _prediction(value: Any) -> Message | None:
    if not isinstance(value, Mapping):
        return Message.of("exchange.must.prediction")
    number = value.get("value")
    if number is not None and (not _number(number) or abs(number) > 1e30):
        return Message.of("exchange.must.prediction_value")
    choice = value.get("choice")
    if choice is not None and not isinstance(choice, str):
        return Message.of("exchange.must.prediction_choice")
    if isinstance(choice, str) and _CHOICE_ID.fullmatch(choice) is None:
        return Message.of("exchange.must.prediction_choice_id")
    if "confidence" in value and _unit_interval(value["confidence"]) is not None:
        return Message.of("exchange.must.prediction_confidence")
    return None


_ID = _count(0, 2**62)
_COURSE_ID = re.compile(ID_GRAMMAR)
_CHOICE_ID = re.compile(CHOICE_GRAMMAR)


def _course_id(value: Any) -> Message | None:
    """A lesson's, section's, exercise's or lab's id: the course's own grammar (a line break, a dot or an escape
    in one would be shown, keyed and compared as an id the course never defined)."""
    return None if isinstance(value, str) and _COURSE_ID.fullmatch(value) else Message.of("exchange.must.id")


def _entry_ids(entry: Any) -> tuple[str, Message] | None:
    """The ids a notebook entry's JSON names (its lesson and lab, which C0 reads): each an id, or empty."""
    if not isinstance(entry, Mapping):
        return None
    for key in ("lesson_id", "lab_id"):
        value = entry.get(key)
        if value is not None and value != "" and _course_id(value) is not None:
            return key, Message.of("exchange.must.entry_id")
    return None


# column → the domain of its values (beyond the type), as "what it must be" for the error message.
_DOMAINS: dict[tuple[str, str], Callable[[Any], Message | None]] = {
    ("sections_read", "lesson_id"): _course_id,
    ("sections_read", "section_id"): _course_id,
    ("sections_read", "read_at"): _timestamp,
    ("attempts", "exercise_id"): _course_id,
    ("attempts", "lesson_id"): _course_id,
    ("lab_runs", "lab_id"): _course_id,
    ("lab_runs", "lesson_id"): _course_id,
    ("notebook_entries", "lab_id"): _course_id,
    ("attempts", "id"): _ID,
    ("attempts", "pass"): _count(1, 1000),
    ("attempts", "prediction"): _prediction,
    ("attempts", "confidence"): _unit_interval,
    ("attempts", "hints_used"): _count(0, 1000),
    ("attempts", "score"): lambda v: None if v is None else _unit_interval(v),
    ("attempts", "created_at"): _timestamp,
    ("attempts", "graded_at"): lambda v: None if v is None else _timestamp(v),
    ("lab_runs", "id"): _ID,
    ("lab_runs", "created_at"): _timestamp,
    ("notebook_entries", "id"): _ID,
    ("notebook_entries", "lab_run_id"): lambda v: None if v is None else _ID(v),
    ("notebook_entries", "created_at"): _timestamp,
    ("notebook_entries", "updated_at"): _timestamp,
    ("bench_runs", "id"): _ID,
    ("bench_runs", "created_at"): _timestamp,
    ("doctor_runs", "id"): _ID,
    ("doctor_runs", "passed"): _flag,
    ("doctor_runs", "lock_matches"): lambda v: None if v is None else _flag(v),
    ("doctor_runs", "created_at"): _timestamp,
}
# Longest text accepted in an id-like column (a real id is a few dozen characters).
_MAX_TEXT = 1000


def _non_finite(value: Any, where: JsonLoc, depth: int = 0) -> JsonLoc | None:
    """Where the first NaN/infinite number inside a JSON value is (a document built in memory may hold one)."""
    if isinstance(value, float) and not math.isfinite(value):
        return where
    if depth > 64:
        return where
    if isinstance(value, Mapping):
        for k, v in value.items():
            found = _non_finite(v, (*where, str(k)), depth + 1)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _non_finite(v, (*where, i), depth + 1)
            if found is not None:
                return found
    return None


MAX_ROWS = 100_000
"""Rows a table of an import may hold (a learner doing an exercise a minute for a year makes about 500 000
attempts a year only if they never sleep; a real export holds hundreds)."""
MAX_TOTAL_ROWS = 200_000
"""Rows an import may hold, all tables together."""
def _show(value: Any) -> str:
    text = clean_line(repr(value))
    return text if len(text) <= 60 else text[:57] + "..."


class ExchangeError(Exception):
    """An export file that cannot be imported, or an import that would overwrite data. One line: ``said`` in the
    reader's language (:meth:`describe`), its English rendering as ``str()``. ``loc`` is the value at fault inside
    the document (``("tables", "attempts", 3, "confidence")``; ``key`` when it is the key itself, an unknown
    column), which :func:`import_from` turns into the file's line and column."""

    def __init__(self, said: Message, loc: JsonLoc | None = None, *, key: bool = False) -> None:
        super().__init__(said.render("en"))
        self.said = said
        self.loc = loc
        self.key = key

    def describe(self, lang: str) -> str:
        return self.said.render(lang)


def _refuse(key: str, /, **params: Param) -> ExchangeError:
    return ExchangeError(Message.of(key, **params))


def _refuse_at(loc: JsonLoc, code: str, /, *, key: bool = False, **params: Param) -> ExchangeError:
    """A refusal about the value at ``loc`` (its ``where`` named from it)."""
    return ExchangeError(Message.of(code, where=json_field_path(loc), **params), loc, key=key)


def export_document(store: StoreBase) -> dict[str, Any]:
    tables: dict[str, list[dict[str, Any]]] = {}
    for table in TABLES:
        rows = store.rows(table)
        for row in rows:
            for col in _JSON_COLUMNS.get(table, ()):
                text = row.get(col)
                row[col] = None if text is None else json.loads(text)
        tables[table] = rows
    return {"format": EXPORT_FORMAT, "schema_version": SCHEMA_VERSION, "exported_at": time.time(), "tables": tables}


def export_to(store: StoreBase, path: Path) -> dict[str, int]:
    """Write the store to ``path`` (atomically); returns the row count per table."""
    doc = export_document(store)
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8")
    tmp.replace(path)
    return {t: len(rows) for t, rows in doc["tables"].items()}


def validate_document(doc: Any) -> dict[str, list[dict[str, Any]]]:
    """The tables of a valid export document; raises :class:`ExchangeError` naming the first problem (and where
    it is: :attr:`ExchangeError.loc`). Every list is bounded (:data:`MAX_ROWS` rows a table, at most
    :data:`MAX_TOTAL_ROWS` in all) before any row is looked at."""
    if not isinstance(doc, Mapping):
        raise ExchangeError(Message.of("exchange.not_object"), ())
    if doc.get("format") != EXPORT_FORMAT:
        raise ExchangeError(Message.of("exchange.format", found=_show(doc.get("format")), expected=EXPORT_FORMAT),
                            ("format",))
    version = doc.get("schema_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise ExchangeError(Message.of("exchange.schema", found=_show(version), known=SCHEMA_VERSION),
                            ("schema_version",))
    tables = doc.get("tables")
    if not isinstance(tables, Mapping):
        raise ExchangeError(Message.of("exchange.no_tables"), ("tables",))
    unknown = sorted(set(tables) - set(TABLES))
    if unknown:
        raise ExchangeError(Message.of("exchange.unknown_table", table=_show(unknown[0])), ("tables", unknown[0]),
                            key=True)
    total = 0
    for table in TABLES:
        rows = tables.get(table, [])
        if not isinstance(rows, list):
            raise _refuse_at(("tables", table), "exchange.not_list")
        if len(rows) > MAX_ROWS:
            raise _refuse_at(("tables", table, MAX_ROWS), N_("exchange.too_many_rows"), count=len(rows), limit=MAX_ROWS)
        total += len(rows)
        if total > MAX_TOTAL_ROWS:
            raise _refuse_at(("tables", table), N_("exchange.too_many_total"), limit=MAX_TOTAL_ROWS)
    out: dict[str, list[dict[str, Any]]] = {}
    for table in TABLES:
        rows = tables.get(table, [])
        columns = _COLUMNS[table]
        for i, row in enumerate(rows):
            at: JsonLoc = ("tables", table, i)
            if not isinstance(row, Mapping):
                raise _refuse_at(at, "exchange.not_row")
            extra = sorted(set(row) - set(columns))
            if extra:
                raise _refuse_at((*at, extra[0]), "exchange.unknown_column", key=True, column=_show(extra[0]))
            for col, types in columns.items():
                if col not in row:
                    nullable = object in types or type(None) in types
                    if col == "id" or (table, col) in _REQUIRED_JSON or not nullable:
                        raise ExchangeError(Message.of("exchange.missing_column", where=json_field_path(at),
                                                       column=repr(col)), at)
                    continue
                value = row[col]
                here: JsonLoc = (*at, col)
                if object not in types and (not isinstance(value, types) or
                                            (isinstance(value, bool) and bool not in types)):
                    raise _refuse_at(here, "exchange.unexpected", value=_show(value))
                if isinstance(value, str) and col not in _JSON_COLUMNS.get(table, ()):
                    if len(value) > _MAX_TEXT:
                        raise _refuse_at(here, "exchange.too_long", limit=_MAX_TEXT)
                    controls = control_characters(value)
                    if controls:
                        # an id or a word is shown in the progress report and screen: no terminal escapes in it
                        code = describe_control(value[controls[0]])
                        raise _refuse_at(here, "exchange.control", char=code)
                bad = _non_finite(value, here)
                if bad is not None:
                    raise _refuse_at(bad, "exchange.not_finite")
                oversized = first_oversized(value, here)
                if oversized is not None:
                    raise ExchangeError(Message.of("json.at", where=json_field_path(oversized[0]),
                                                   what=oversized[1]), oversized[0])
                domain = _DOMAINS.get((table, col))
                must = domain(value) if domain is not None else None
                if must is not None:
                    raise _refuse_at(here, "exchange.outside", value=_show(value), must=must)
                if (table, col) == ("notebook_entries", "entry") and (named := _entry_ids(value)) is not None:
                    key, must = named
                    raise _refuse_at((*here, key), "exchange.outside", value=_show(value[key]), must=must)
        out[table] = [dict(r) for r in rows]
    return out


def _key(table: str, row: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(json.dumps(row.get(c), sort_keys=True) for c in _NATURAL_KEY[table])


def _attempt_moment(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """What names one attempt across stores (ids are reassigned on import): its exercise, pass and the moment its
    prediction was locked."""
    return tuple(json.dumps(row.get(c)) for c in ("exercise_id", "pass", "created_at"))


def import_document(store: StoreBase, doc: Any, mode: ImportMode = "refuse") -> dict[str, int]:
    """Load a validated export into ``store``; returns rows added per table (see the module docstring)."""
    tables = validate_document(doc)
    added: dict[str, int] = {}
    with store.import_transaction() as conn:
        # checked inside the transaction that writes: two imports at once cannot both find the store empty
        if mode == "refuse" and any(int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in TABLES):
            raise _refuse("exchange.not_empty")
        if mode == "replace":
            for table in reversed(TABLES):
                conn.execute(f"DELETE FROM {table}")
        existing: dict[str, set[tuple[Any, ...]]] = {}
        locked: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # an attempt's moment -> its key (with its prediction)
        for table in TABLES:
            rows = conn.execute(f"SELECT * FROM {table}").fetchall()
            keys = set()
            for r in rows:
                d = dict(r)
                for col in _JSON_COLUMNS.get(table, ()):
                    d[col] = None if d[col] is None else json.loads(d[col])
                keys.add(_key(table, d))
                if table == "attempts":
                    locked[_attempt_moment(d)] = _key(table, d)
            existing[table] = keys
        lab_ids: dict[int, int] = {}
        for table in TABLES:
            count = 0
            for i, row in enumerate(tables[table]):
                key = _key(table, row)
                if table == "attempts" and locked.get(_attempt_moment(row), key) != key:
                    # the same attempt (exercise, pass, the moment it was locked) with another prediction: a locked
                    # prediction never changes, and a twin beside it would read as a second attempt
                    raise _refuse_at(("tables", "attempts", i, "prediction"), N_("exchange.prediction_changed"),
                                     exercise=clean_line(str(row["exercise_id"])))
                if key in existing[table]:
                    if table == "lab_runs":
                        match = conn.execute("SELECT id FROM lab_runs WHERE lab_id = ? AND created_at = ?",
                                             (row["lab_id"], row["created_at"])).fetchone()
                        if match is not None:
                            lab_ids[int(row["id"])] = int(match[0])
                    continue
                values: dict[str, Any] = {c: row.get(c) for c in _COLUMNS[table] if c != "id"}
                for col in _JSON_COLUMNS.get(table, ()):
                    values[col] = None if values.get(col) is None and (table, col) not in _REQUIRED_JSON \
                        else json.dumps(values.get(col), sort_keys=True, ensure_ascii=False)
                if table == "notebook_entries" and values.get("lab_run_id") is not None:
                    values["lab_run_id"] = lab_ids.get(int(values["lab_run_id"]))
                for col in ("passed", "lock_matches"):
                    if isinstance(values.get(col), bool):
                        values[col] = int(values[col])
                cols = ", ".join(f'"{c}"' for c in values)
                marks = ", ".join("?" for _ in values)
                sql = f"INSERT INTO {table} ({cols}) VALUES ({marks})"
                if table == "lab_runs":
                    new = conn.execute(sql + " RETURNING id", tuple(values.values())).fetchone()
                    lab_ids[int(row["id"])] = int(new[0])
                else:
                    conn.execute(sql, tuple(values.values()))
                existing[table].add(key)
                if table == "attempts":
                    locked[_attempt_moment(row)] = key
                count += 1
            added[table] = count
    return added


def import_from(store: StoreBase, path: Path, mode: ImportMode = "refuse") -> dict[str, int]:
    """Import the export at ``path``; every refusal is one :class:`ExchangeError` line that starts with the path,
    and, for a value inside the file, its line and column: ``path:line:col: error: tables.attempts[3].confidence:
    …``. Nothing is imported when it is refused."""
    try:
        document = JsonDocument.read(path, limit=IMPORT_LIMIT_BYTES)
    except UnsafeFile as exc:
        raise _refuse("exchange.at_path", path=exc.where(), problem=_complaint(exc)) from None
    try:
        return import_document(store, document.value, mode)
    except ExchangeError as exc:
        if exc.loc is None:  # about the store, not the file (it already holds data)
            raise _refuse("exchange.at_path", path=clean_line(str(path)), problem=exc.said) from None
        line, col = document.position(exc.loc, key=exc.key)
        where = f"{clean_line(str(path))}:{line}:{col}"
        raise _refuse("exchange.at_path", path=where, problem=_located(exc.said)) from None


def _located(said: Message) -> Message:
    """``error: complaint``, the way a located line reads (``path:line:col: error: …``)."""
    return Message.of("exchange.located", severity=Message.of("problem.severity.error"), problem=said)


def _complaint(exc: UnsafeFile) -> Message:
    return _located(exc.said) if exc.line is not None else exc.said

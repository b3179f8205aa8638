"""Reading a result's JSON into its typed form: one reader that knows where it is, so a malformed stored row or
worker message raises :class:`ResultError` naming the field (``measurement.time_s.median: expected a number, got
'fast'``), never a ``KeyError`` traceback. Pure: no torch, no Textual, no Rich."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeGuard

from tutor.i18n.message import Message
from tutor.results.wire import JsonObject


class ResultError(ValueError):
    """A result's JSON does not have the shape its type needs. ``where`` is the field's dotted path; ``said`` is the
    complaint as a catalog message (``result.expected``, ``result.missing``), so a report shows it in the reader's
    language; ``message`` and ``str()`` are its English rendering."""

    def __init__(self, where: str, said: Message | str) -> None:
        self.said = said if isinstance(said, Message) else Message.verbatim(said)
        self.where = where
        self.message = self.said.render("en")
        super().__init__(f"{where}: {self.message}")


def expected(where: str, what: str, value: Any, *, show: bool = False) -> ResultError:
    """``where: expected <what>, got <kind>`` (``what``: a ``result.what.*`` code suffix; ``show`` adds the value)."""
    got = _kind(value) + (f" {value!r:.40}" if show else "")
    return ResultError(where, Message.of("result.expected", what=Message.of(f"result.what.{what}"), got=got))


def missing(where: str) -> ResultError:
    return ResultError(where, Message.of("result.missing"))


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def is_number(value: Any) -> TypeGuard[int | float]:
    """A JSON number (bool excluded), finite or not."""
    return isinstance(value, int | float) and not isinstance(value, bool)


class Reader:
    """The fields of one JSON object, read by type; :meth:`rest` returns the keys nobody read."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, Mapping):
            raise expected(where, "object", data)
        self.data: Mapping[str, Any] = data
        self.where = where
        self._read: set[str] = set()

    def at(self, key: str) -> str:
        return f"{self.where}.{key}"

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def raw(self, key: str) -> Any:
        self._read.add(key)
        return self.data.get(key)

    def number(self, key: str) -> float:
        value = self.raw(key)
        if value is None:
            raise missing(self.at(key))
        if not is_number(value):
            raise expected(self.at(key), "number", value, show=True)
        return float(value)

    def opt_number(self, key: str) -> float | None:
        return None if self.raw(key) is None else self.number(key)

    def integer(self, key: str, default: int) -> int:
        value = self.raw(key)
        if value is None:
            return default
        if not is_number(value) or not math.isfinite(value) or int(value) != value:
            raise expected(self.at(key), "integer", value, show=True)
        return int(value)

    def opt_integer(self, key: str) -> int | None:
        return None if self.raw(key) is None else self.integer(key, 0)

    def text(self, key: str, default: str = "") -> str:
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise expected(self.at(key), "text", value)
        return value

    def opt_text(self, key: str) -> str | None:
        return None if self.raw(key) is None else self.text(key)

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise expected(self.at(key), "flag", value)
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.raw(key)
        if value is None:
            return ()
        if not isinstance(value, list | tuple):
            raise expected(self.at(key), "texts", value)
        return tuple(str(v) for v in value)

    def numbers(self, key: str) -> dict[str, float]:
        """A ``{name: number}`` object (``peak_gflops`` per dtype); entries that are not numbers are refused."""
        value = self.raw(key)
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise expected(self.at(key), "numbers", value)
        out: dict[str, float] = {}
        for name, v in value.items():
            if v is None:
                continue
            if not is_number(v):
                raise expected(f"{self.at(key)}.{name}", "number", v)
            out[str(name)] = float(v)
        return out

    def mapping(self, key: str) -> JsonObject:
        """An open object (parameters, tables), copied; empty when absent."""
        value = self.raw(key)
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise expected(self.at(key), "object", value)
        return dict(value)

    def scalars(self, key: str) -> dict[str, int | float | str | bool]:
        """A ``{name: scalar}`` object (a request's parameters: bounded integers, dtypes and choices, flags);
        a value that is not a JSON number, text or flag is refused (as not the number most parameters are).
        Empty when absent."""
        value = self.raw(key)
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise expected(self.at(key), "object", value)
        out: dict[str, int | float | str | bool] = {}
        for name, v in value.items():
            if not isinstance(v, int | float | str | bool):
                raise expected(f"{self.at(key)}.{name}", "number", v)
            out[str(name)] = v
        return out

    def opt_mapping(self, key: str) -> JsonObject | None:
        return None if self.raw(key) is None else self.mapping(key)

    def rest(self) -> JsonObject:
        """The fields no ``read`` asked for, kept as they are (a newer engine's figures, an older row's extras)."""
        return {k: v for k, v in self.data.items() if k not in self._read}


def put(out: JsonObject, key: str, value: Any) -> None:
    """Set ``key`` unless ``value`` is None or empty (a field a result did not carry stays absent)."""
    if value is None or (isinstance(value, dict | tuple | list) and not value):
        return
    out[key] = value

"""What the core says, without words: a catalog key and its parameters. Only the catalog turns it into a sentence.

The core (telemetry, grading, measurement) returns ``Message("tel.status.host")`` or ``Message.of("truth.formula",
formula=Message.of("formula.kv_cache_bytes"))``; the UI and the CLI call ``message.render(lang)``. A parameter is a
string (shown as it is: a file name, a driver's own error text), a number (written per locale), or another
``Message`` (rendered in the same language). ``Message.verbatim(text)`` carries text that has no translation — data
from a trace, an exception from a library — so it is shown as it came.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from tutor.i18n import N_

Param = Union[str, int, float, "Message"]

VERBATIM = N_("text.verbatim")


@dataclass(frozen=True)
class Message:
    """A catalog key with its parameters (a tuple of pairs, so a message is hashable and comparable)."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def of(cls, code: str, **params: Param) -> Message:
        return cls(code, tuple(params.items()))

    @classmethod
    def verbatim(cls, text: str) -> Message:
        """Text shown as it is, in every language (it came from outside the tutor)."""
        return cls(VERBATIM, (("text", text),))

    def param(self, name: str) -> Param | None:
        return dict(self.params).get(name)

    def render(self, lang: str) -> str:
        """The sentence in ``lang`` (``es`` or ``en``), parameters included."""
        from tutor.i18n import as_lang, t
        from tutor.i18n.numbers import format_number, integer

        code = as_lang(lang)
        fields: dict[str, object] = {}
        for name, value in self.params:
            if isinstance(value, Message):
                fields[name] = value.render(code)
            elif isinstance(value, bool | str):
                fields[name] = str(value)
            elif isinstance(value, int):
                fields[name] = integer(value, code)
            elif math.isfinite(value) and 1e3 <= abs(value) < 1e15:
                fields[name] = integer(round(value), code)  # 2 501, not 2,5E3: a reader's number, grouped
            else:
                fields[name] = format_number(value, code, ".3g")
        try:
            return t(self.code, code, **fields)
        except (KeyError, IndexError, ValueError):  # a code read from a file with the wrong parameters
            return " ".join([self.code, *(str(v) for v in fields.values())])

    def as_dict(self) -> dict[str, Any]:
        """JSON form (traces, reports): ``{"code": ..., "params": {...}}``, nested messages as dicts."""
        return {"code": self.code,
                "params": {k: v.as_dict() if isinstance(v, Message) else v for k, v in self.params}}

    @classmethod
    def from_dict(cls, data: Any, text: Callable[[str], str] = str) -> Message | None:
        """A message read back from JSON (untrusted: anything odd gives ``None``; string values pass through
        ``text``, e.g. :func:`tutor.untrusted.clean_line`)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("code"), str):
            return None
        raw = data.get("params") or {}
        if not isinstance(raw, Mapping):
            return None
        params: list[tuple[str, Param]] = []
        for key, value in list(raw.items())[:16]:
            if not isinstance(key, str):
                continue
            if isinstance(value, Mapping):
                nested = cls.from_dict(value, text)
                if nested is not None:
                    params.append((key, nested))
            elif isinstance(value, int | float) and not isinstance(value, bool):
                params.append((key, value))
            else:
                params.append((key, text(str(value))))
        return cls(data["code"][:120], tuple(params))

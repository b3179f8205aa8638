"""Display-safe text by construction (issue 28, left from round two): :class:`tutor.untrusted.PlainText`.

A pack's words reach the screen as ``PlainText``, whatever built the model; only the cleaning boundary makes one,
and mypy refuses a raw ``str`` where ``PlainText`` is asked for.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

import tutor
from tutor.content.models import Exercise, Lesson, Text, texts_of
from tutor.untrusted import clean, clean_line

HOSTILE = "A\x1b]52;c;SGVsbG8=\x07\x1b[2J\u202e\u061c\u200b\x9b31m\ue000\u2028Z"
"""Every unsafe class but a lone surrogate (pydantic refuses one as text: a refusal, also safe)."""


def _clean(text: str) -> bool:
    return not any(unicodedata.category(c) in {"Cc", "Cf", "Zl", "Zp", "Co", "Cs"} and c not in "\n\t" for c in text)


def test_only_the_boundary_makes_plain_text() -> None:
    # PlainText is a NewType: PlainText(raw) would pass mypy anywhere, so no module but tutor/untrusted.py calls it
    root = Path(tutor.__file__).parent
    makers = [str(p.relative_to(root)) for p in sorted(root.rglob("*.py"))
              if re.search(r"\bPlainText\(", p.read_text(encoding="utf-8"))]
    assert makers == ["untrusted.py"]
    assert _clean(clean(HOSTILE + "\udc9b")) and _clean(clean_line(HOSTILE)) and "\n" not in clean_line("a\nb")
    assert clean(HOSTILE).startswith("A]52;c;SGVsbG8=[2J") and clean(HOSTILE).endswith("Z")


def _hostile_lesson() -> dict[str, object]:
    text = {"es": HOSTILE, "en": HOSTILE}
    return {
        "format_version": 1, "id": "p-l1", "level": "p", "order": 1, "title": text, "outcome": text, "summary": text,
        "sections": [{"id": "s1", "title": text, "body": text}],
        "labs": [{"id": "lab", "title": text, "goal": text, "run": {"op": "roofline"}, "prediction": text,
                  "prediction_unit": "GB\x1b", "procedure": text, "hypothesis": text, "next_question": text}],
    }


def _hostile_exercise() -> dict[str, object]:
    text = {"es": HOSTILE, "en": HOSTILE}
    return {
        "format_version": 1, "id": "p-e1", "lesson": "p-l1", "kind": "diagnose", "title": text, "prompt": text,
        "target": text, "choices": [{"id": "a", "label": text}, {"id": "b", "label": text}], "answer": "a",
        "hints": [text], "explanation": text,
    }


@pytest.mark.parametrize(("model", "data"), [(Lesson, _hostile_lesson()), (Exercise, _hostile_exercise())])
def test_every_text_field_of_a_model_is_plain_text_whoever_built_it(model: type[Lesson | Exercise],
                                                                    data: dict[str, object]) -> None:
    # The loader refuses such a file outright; a model built any other way (a test, a tool, a future reader)
    # still holds only display-safe text.
    built = model.model_validate(data)
    found = texts_of(built)
    assert len(found) >= (9 if model is Lesson else 7)
    for loc, text in found:
        for lang in ("es", "en"):
            shown = text.get(lang)
            assert shown == clean(HOSTILE) and _clean(shown), (loc, lang, shown)
            assert getattr(text, lang) == clean(HOSTILE)
    if isinstance(built, Lesson):
        assert built.labs[0].prediction_unit == "GB"


def test_a_missing_language_reads_the_other() -> None:
    assert Text(es="hola").get("en") == "hola"


def test_mypy_refuses_a_raw_str_where_plain_text_is_asked_for(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from tutor.content.models import Text\n"
        "from tutor.untrusted import PlainText, clean\n"
        "def show(text: PlainText) -> None: ...\n"
        "raw: str = open('pack.yaml').read()\n"
        "show(Text(es=raw).get('es'))\n"  # a model's text: accepted
        "show(clean(raw))\n"  # cleaned at the boundary: accepted
        "show(raw)\n"  # line 7: a raw str from a file: refused
        "show(Text(es=raw).get('es') + raw)\n",  # line 8: text built from it with str's + is a str again: refused
        encoding="utf-8",
    )
    out, _err, status = api.run([str(sample), "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                                 "--ignore-missing-imports", "--follow-imports", "silent"])
    lines = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1, out
    assert [line.split(":")[1] for line in lines] == ["7", "8"], out
    assert all('"str"' in line and '"PlainText"' in line for line in lines), out

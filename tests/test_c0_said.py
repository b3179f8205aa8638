"""C0 says what holds in codes (issue 29 item 4): each condition's title and evidence are catalog messages, rendered
only by the UI or the CLI (and by ``to_json``, the boundary the progress screen, the class report and
``tutor progress --json`` read), with the figures written in the reader's language."""

from __future__ import annotations

from tests.test_c0 import bench, everything
from tutor.i18n.catalog import messages
from tutor.i18n.message import Message
from tutor.progress.c0 import evaluate_c0


def _codes(message: Message) -> list[str]:
    nested = [c for _, v in message.params if isinstance(v, Message) for c in _codes(v)]
    return [message.code, *nested]


def test_every_condition_is_codes_that_both_catalogs_hold() -> None:
    for kind in ("cpu", "cuda"):
        for checkpoint in (evaluate_c0(**everything(kind)), evaluate_c0(**{**everything(kind), "attempts": []})):
            for cond in checkpoint.conditions:
                assert isinstance(cond.title, Message) and isinstance(cond.evidence, Message)
                for code in _codes(cond.title) + _codes(cond.evidence):
                    if code.startswith(("grade.said.", "c0.said.")):
                        continue  # a number, a list, a figure's label: rendered by its own type
                    assert code in messages("en") and code in messages("es"), code


def test_the_json_boundary_renders_both_languages_and_keeps_the_codes() -> None:
    ev = {**everything("cpu"), "bench_runs": [bench(1), bench(2, scale=1.5)]}
    cond = evaluate_c0(**ev).conditions[1]
    out = cond.to_json()
    assert out["evidence"] == {"es": cond.evidence.render("es"), "en": cond.evidence.render("en")}
    assert "50,0 %" in out["evidence"]["es"] and "50.0 %" in out["evidence"]["en"]  # the locale's decimal mark
    assert Message.from_dict(out["evidence_said"]) is not None and out["title_said"]["code"] == cond.title.code

"""Babel's extraction method for the tutor's message ids (``babel.cfg`` names it; ``make i18n`` runs it).

The ids are symbolic (``"grade.bound.right"``): the code passes them to :func:`tutor.i18n.t`, :func:`tutor.i18n.tn`,
:class:`tutor.i18n.message.Message` and a few helpers of the core that take an id and its parameters (listed in
``babel.cfg`` as ``id_functions``). Babel's own Python extractor reads tokens, so ``t("a" if x else "b")`` would give it
one id ``"ab"``, and it has no way to say that ``tn``'s one id is a plural entry. This method reads the syntax tree:

* an id is a string literal at the keyword's position (``name`` = first argument, ``name:2`` = second,
  ``name:2=code`` = second positional or the keyword argument ``code``), or each branch of a conditional
  expression / ``or`` there, or a module-level string constant named there;
* ``plural_id_functions`` (``tn``, ``N_plural``) give a plural entry: msgid and msgid_plural are both the id (or
  the second argument, when it is a string), and the catalog's ``msgstr[0]``/``msgstr[1]`` hold the forms, chosen
  by the catalog's ``Plural-Forms``;
* an id built at run time (``f"fail.{code}"``) is not seen: list it where it is built (a dict of literals) or in
  :mod:`tutor.i18n.built_ids`, so the catalog tests can tell a missing id from an unused one.

Results are yielded under Babel's default keywords ``gettext``/``ngettext`` (so ``pybabel extract`` needs no ``-k``).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

_Result = tuple[int, str, str | tuple[str, str], list[str]]


def _specs(text: str) -> dict[str, tuple[int, str | None]]:
    """``"t tn FieldRule:2 within:4=code"`` → ``{"t": (1, None), ..., "within": (4, "code")}``."""
    out: dict[str, tuple[int, str | None]] = {}
    for word in text.split():
        name, _, where = word.partition(":")
        position, _, keyword = where.partition("=")
        out[name] = (int(position) if position else 1, keyword or None)
    return out


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _ids(node: ast.expr, constants: Mapping[str, str]) -> list[str]:
    """The literal ids an argument can be."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _ids(node.body, constants) + _ids(node.orelse, constants)
    if isinstance(node, ast.BoolOp):
        return [found for value in node.values for found in _ids(value, constants)]
    if isinstance(node, ast.Name) and node.id in constants:
        return [constants[node.id]]
    return []


def ids_in_source(source: str | bytes, keywords: Mapping[str, tuple[int, str | None]],
                  plural: Collection[str] = ()) -> Iterator[tuple[int, str, str | None]]:
    """``(line, id, msgid_plural)`` for every id passed to one of ``keywords`` in ``source``; ``msgid_plural`` is
    ``None`` for a singular entry, the next positional argument when that is a string literal
    (``N_plural("expected %s argument", "expected %s arguments")``), else the id itself (``tn(id, n, lang)``)."""
    tree = ast.parse(source)
    constants = {
        node.targets[0].id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node.func)
        spec = keywords.get(name)
        if spec is None:
            continue
        position, keyword = spec
        arg: ast.expr | None = node.args[position - 1] if len(node.args) >= position else None
        if arg is None and keyword is not None:
            arg = next((k.value for k in node.keywords if k.arg == keyword), None)
        if arg is None:
            continue
        msgid_plural: str | None = None
        if name in plural:
            after = node.args[position] if len(node.args) > position else None
            literal = isinstance(after, ast.Constant) and isinstance(after.value, str)
            msgid_plural = after.value if literal else ""  # type: ignore[union-attr]
        for found in _ids(arg, constants):
            yield node.lineno, found, None if msgid_plural is None else msgid_plural or found


def extract(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
            options: Mapping[str, Any]) -> Iterator[_Result]:
    """The Babel extraction method (``[tutor.i18n.extract.extract: **.py]`` in ``babel.cfg``, run over ``tutor/``)."""
    plural = _specs(options.get("plural_id_functions", ""))
    specs = {**_specs(options.get("id_functions", "")), **plural}
    for line, found, msgid_plural in ids_in_source(fileobj.read(), specs, plural):
        if msgid_plural is not None:
            yield line, "ngettext", (found, msgid_plural), []
        else:
            yield line, "gettext", found, []

"""A JSON body nested deeper than ``MAX_DEPTH`` is refused with 400, not answered with a 500.

``"[" * 100000`` makes Python's JSON decoder raise ``RecursionError``, which Flask answers with 500
(and which ``request.get_json(silent=True)`` does not swallow: it catches ``ValueError`` only). No
table data comes near 32 levels, so:

* ``DepthLimitedJSONProvider`` is the app's ``app.json``: every ``request.get_json()`` goes through its
  ``loads``, which scans the text without recursion first and raises ``NestedTooDeeply``. That is a
  werkzeug ``BadRequest`` (an ``HTTPException``, not a ``ValueError``), so ``silent=True`` lets it
  through instead of taking the body for "no body".
* ``answer_nested_too_deeply`` is the app's handler for it: a JSON 400 naming the problem, whichever
  blueprint's route parsed the body (an app handler for a 400 comes before a blueprint's handlers).
* ``refuse_deep_body`` handles a ``RecursionError`` that still reaches the app from a route that parses
  JSON itself with the standard library (a game log's lines, a board-profile file): a 400 when the
  request's body or uploaded file is nested too deeply, else the 500 it was.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask, jsonify, request
from flask.json.provider import DefaultJSONProvider
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest

from companion.errors import KeshiError
from companion.i18n import Msg

MAX_DEPTH = 32
#: A JSON string (closed or running to the end of the text), or one bracket.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


class NestedTooDeeply(KeshiError, BadRequest):
    """A JSON body with more than ``MAX_DEPTH`` levels of ``[ ]`` and ``{ }``."""

    def __init__(self) -> None:
        message = Msg("the request body is nested too deeply: at most {limit} levels of brackets are accepted",
                      limit=MAX_DEPTH)
        super().__init__(description=str(message))  # in the request's language


def nested_too_deeply(text: str, limit: int = MAX_DEPTH) -> bool:
    """True when ``text`` opens more than ``limit`` brackets at once (outside strings); a loop, no recursion.

    Works on a JSON Lines text too (each line starts again at depth 0 when the one before is closed).
    """
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                return True
        elif token in ("]", "}"):
            depth = max(depth - 1, 0)
    return False


def as_text(data: str | bytes) -> str:
    """A body as the JSON decoder reads it (UTF-8, -16 or -32 detected as ``json.loads`` does)."""
    if isinstance(data, str):
        return data
    return data.decode(json.detect_encoding(data), "surrogatepass")


class DepthLimitedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, refusing a text nested deeper than ``MAX_DEPTH`` before it is decoded."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        text = as_text(s)
        if nested_too_deeply(text):
            raise NestedTooDeeply()
        return super().loads(text, **kwargs)


def answer_nested_too_deeply(exc: NestedTooDeeply) -> ResponseReturnValue:
    """The 400 every route gives for it, as JSON like the API's other refusals."""
    return jsonify(error=exc.description, kind=type(exc).__name__), 400


def refuse_deep_body(exc: RecursionError) -> ResponseReturnValue:
    """A ``RecursionError`` from a body nested too deeply is that 400; any other stays a server error."""
    bodies = [request.get_data()]  # the raw body (empty once a form was parsed: its files are below)
    for upload in request.files.values():
        upload.stream.seek(0)
        bodies.append(upload.stream.read())
    for body in bodies:
        try:
            deep = nested_too_deeply(as_text(body))
        except UnicodeDecodeError:
            continue
        if deep:
            return answer_nested_too_deeply(NestedTooDeeply())
    raise exc


def install(app: Flask) -> None:
    """Limit the JSON depth of ``app``'s request bodies (see the module docstring)."""
    app.json = DepthLimitedJSONProvider(app)
    app.register_error_handler(NestedTooDeeply, answer_nested_too_deeply)
    app.register_error_handler(RecursionError, refuse_deep_body)

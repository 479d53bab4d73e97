"""Check a message's values against what the hub's PostgreSQL columns can hold, before any insert.

One bad value must never reach the database: an integer beyond ``bigint``/``integer``, a NUL in a
text (PostgreSQL's text cannot hold one), NaN or ±Infinity (a stored ``started_at: NaN`` breaks every
report that reads it), JSON nested deeper than any real message (``"[" * 100000`` would exhaust the
parser's recursion) or a message larger than any real one. Each check raises ``ValueError`` naming
the field and the problem; ``companion.hub.messages`` turns that into the dead-letter reason.
"""

from __future__ import annotations

import json
import math
from typing import Any

#: Bytes in one message: a toss message is about 1.5 kB and a game event a few kB.
MAX_PAYLOAD = 256 * 1024
#: Nesting of objects and lists in one message: a toss message has 3 levels, game events a few more.
MAX_DEPTH = 32
#: Characters of an identifier (a toss, game or session id, a tower name, a kind).
MAX_ID = 200
INT_RANGE = (-(2**31), 2**31 - 1)  # PostgreSQL integer
BIGINT_RANGE = (-(2**63), 2**63 - 1)  # PostgreSQL bigint
COUNT_RANGE = (0, 1000)  # keshis of one colour in one toss (the fairness arrays hold 16-bit counts)
MAX_DROPS = 1000


def parse_body(payload: bytes) -> Any:
    """The JSON of a message, refusing what no table sends: too large, NaN/Infinity, too deep, a NUL."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"is {len(payload):,} bytes, more than the {MAX_PAYLOAD:,} any message needs")
    if _depth_bound(payload) > MAX_DEPTH:
        raise ValueError(f"nests lists or objects more than {MAX_DEPTH} deep")
    try:
        body = json.loads(payload, parse_constant=_refuse_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"is not JSON: {exc}") from None
    except RecursionError:  # _depth_bound should have stopped it: never let it end the writer
        raise ValueError(f"nests lists or objects more than {MAX_DEPTH} deep") from None
    _check_values(body)
    return body


def _depth_bound(payload: bytes) -> int:
    """An upper bound of the nesting depth: brackets opened before they close, strings skipped."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in payload:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> float:
    raise ValueError(f"holds {name}, which is not a number a toss can have")


def _check_values(body: Any) -> None:
    """No NUL in any text or key, no infinite number anywhere (``1e999`` parses as infinity)."""
    stack = [body]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise ValueError(f"has a NUL character in the text {value[:40]!r}")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError(f"holds {value}, which is not a number a toss can have")
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def text(body: dict[str, Any], name: str, *, optional: bool = False, limit: int = MAX_ID) -> Any:
    """``body[name]`` as a text of at most ``limit`` characters (None allowed when ``optional``)."""
    value = body[name]
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a text, not {_shown(value)}")
    if len(value) > limit:
        raise ValueError(f"{name} has {len(value):,} characters, more than {limit}")
    return value


def whole(body: dict[str, Any], name: str, bounds: tuple[int, int] = BIGINT_RANGE, *, optional: bool = False) -> Any:
    """``body[name]`` as a whole number within ``bounds`` (the column's range)."""
    value = body[name]
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {_shown(value)}")
    if not bounds[0] <= value <= bounds[1]:
        raise ValueError(f"{name} is {_shown(value)}, outside {bounds[0]}…{bounds[1]}")
    return value


def finite(body: dict[str, Any], name: str) -> float:
    """``body[name]`` as a finite number (parse_body has already refused NaN and infinity)."""
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, not {_shown(value)}")
    return float(value)


def counts(body: dict[str, Any], name: str, *, optional: bool = False) -> Any:
    """``body[name]`` as a map of colours to whole counts within ``COUNT_RANGE`` (colours: TossRecord)."""
    value = body[name]
    if value is None and optional:
        return None
    if not isinstance(value, dict):
        raise ValueError(f"{name} must be a map of colours to counts, not {_shown(value)}")
    for colour in value:
        whole(value, colour, COUNT_RANGE)
    return value


def drop_times(body: dict[str, Any], name: str) -> list[float]:
    """``body[name]`` as a list of at most ``MAX_DROPS`` numbers."""
    value = body[name]
    if not isinstance(value, list) or len(value) > MAX_DROPS:
        raise ValueError(f"{name} must be a list of at most {MAX_DROPS} numbers")
    return [finite({name: item}, name) for item in value]


def _shown(value: Any) -> str:
    """A value in a reason: short, whatever it is (a 4,000-digit integer is not printed whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return f"a {len(str(abs(value)))}-digit number"
    text_ = repr(value)
    return text_ if len(text_) <= 40 else text_[:37] + "…"

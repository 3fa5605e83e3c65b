"""The one set of rules every URL parameter is read with: no parameter value, however strange, reaches a traceback.

Whole numbers are ASCII digits only (``'²'.isdigit()`` is True but ``int('²')`` fails) and at most
:data:`MAX_INT_DIGITS` long; numbers are ASCII decimal/exponent text of at most :data:`MAX_NUMBER_CHARS`
characters and finite (``float('٣')`` would accept Arabic-Indic digits). Numbers are written with
:func:`format_number`, the shortest text that reads back as the same float (``repr``), so a link reopens to
exactly the shared numbers. Anything unusable is refused with :class:`LinkError` (or None), whose message names
the parameter and never quotes the link's (untrusted) text. The link formats built on these rules are in
:mod:`ui.url_codecs` and :mod:`ui.url_state`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

MAX_PARAM_CHARS = 30_000  # browsers and proxies get unreliable beyond ~32 k characters of URL
MAX_LINK_DOCUMENTS = 1_000
MAX_NAME_CHARS = 200
MAX_INT_DIGITS = 9
MAX_NUMBER_CHARS = 40  # repr of any float fits in 24 characters
_NUMBER = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]{1,4})?")


class LinkError(ValueError):
    """A parameter that cannot be used; the message says why in plain words (no link text quoted)."""


def parse_flag(text: object) -> bool | None:
    """``"1"`` → True, ``"0"`` → False, anything else None (a switch such as ``present``)."""
    return {"1": True, "0": False}.get(text) if isinstance(text, str) else None


def parse_int(text: object, *, low: int, high: int, digits: int = MAX_INT_DIGITS) -> int | None:
    """An ASCII whole number in [low, high] of at most ``digits`` digits, or None (never an exception, whatever the
    text). ``digits`` is raised only where the range needs it (a bootstrap seed up to 2^31 - 1 has 10)."""
    if not isinstance(text, str) or not 0 < len(text) <= digits or not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if low <= value <= high else None


def parse_number(text: object, what: str, *, negative: bool = False) -> float:
    """A finite float from ASCII number text; :class:`LinkError` naming ``what`` otherwise."""
    if not isinstance(text, str) or len(text) > MAX_NUMBER_CHARS or not _NUMBER.fullmatch(text):
        raise LinkError(f"{what} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise LinkError(f"{what} is too large (beyond about 1.8e308)")
    if value < 0 and not negative:
        raise LinkError(f"{what} is negative")
    return value if negative else value + 0.0  # "-0" is 0 where a value cannot be negative (a grade, a gain)


def parse_text(text: object, *, limit: int) -> str | None:
    """Free text of at most ``limit`` characters with no control characters, or None (never an exception)."""
    if not isinstance(text, str) or len(text) > limit:
        return None
    return text if all(ch.isprintable() or ch in "\t\n" for ch in text) else None


def format_number(value: float) -> str:
    """The shortest text that reads back as exactly ``value``: 3, 2.5, 12345678901.5, 1e22."""
    text = repr(float(value)).replace("e+", "e")
    return text[:-2] if text.endswith(".0") else text


def choice(params: Mapping[str, str], name: str, allowed: Sequence[str], problems: list[str], label: str):
    """``params[name]`` when it is one of ``allowed``; else None (and ``label`` joins ``problems`` if present)."""
    value = params.get(name)
    if value is None:
        return None
    if value in allowed:
        return value
    problems.append(label)
    return None

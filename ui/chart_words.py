"""A chart in words: the text alternative a screen reader reads for a plotly chart (its title and its series).

:func:`ui.present.plotly_chart` draws it, out of sight, just before every chart. The series are read from the
figure itself, typed arrays included (ui/charts.py sends numbers in plotly.js's base64 form), so the words always
say what the bars and lines show.
"""

from __future__ import annotations

import base64
import html
import math
import re

import numpy as np

from ui.formatting import MISSING, compact

MAX_POINTS = 12  # per series; a chart of 10,000 queries is summed up, not read out
_DTYPES = {"i1": np.int8, "u1": np.uint8, "i2": np.int16, "u2": np.uint16, "i4": np.int32, "u4": np.uint32,
           "f4": np.float32, "f8": np.float64}


def _get(item, key: str):
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def values(array) -> list:
    """A trace's x, y or z as a flat Python list, from a list, a numpy array or a typed-array dict."""
    if array is None:
        return []
    if isinstance(array, dict) and "bdata" in array:
        dtype = _DTYPES.get(str(array.get("dtype")))
        return [] if dtype is None else np.frombuffer(base64.b64decode(array["bdata"]), dtype=dtype).tolist()
    return np.asarray(array, dtype=object).ravel().tolist()


def _word(value) -> str:
    if value is None:
        return MISSING
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return MISSING if math.isnan(float(value)) else compact(float(value))
    return re.sub(r"<[^>]+>", " ", str(value)).strip()


def _series(trace) -> str | None:
    if _get(trace, "visible") in (False, "legendonly"):
        return None
    name = _word(_get(trace, "name") or "")
    xs, ys = values(_get(trace, "x")), values(_get(trace, "y"))
    if _get(trace, "orientation") == "h":
        xs, ys = ys, xs
    if not ys:
        z = [v for v in values(_get(trace, "z")) if v is not None]
        if not z:
            return None
        return f"{name or 'values'}: {len(z):,} cells from {_word(min(z))} to {_word(max(z))}"
    xs = xs if len(xs) == len(ys) else list(range(1, len(ys) + 1))
    shown = ", ".join(f"{_word(x)}: {_word(y)}" for x, y in zip(xs[:MAX_POINTS], ys[:MAX_POINTS], strict=True))
    more = f", and {len(ys) - MAX_POINTS:,} more" if len(ys) > MAX_POINTS else ""
    return f"{name or 'series'} ({shown}{more})"


def chart_words(fig) -> str:
    """'Chart: <title>. x: <x title>, y: <y title>. <series> (<x>: <y>, ...); ...' for a go.Figure or a figure dict.

    >>> chart_words({"layout": {"title": {"text": "Gain"}}, "data": [{"type": "bar", "name": "A", "x": [1, 2], "y": [3, 0.5]}]})
    'Chart: Gain. A (1: 3, 2: 0.5).'
    """
    layout = _get(fig, "layout") or {}
    title = _get(layout, "title")
    text = _word((_get(title, "text") if title is not None and not isinstance(title, str) else title) or "")
    axes = [f"{axis[0]}: {words}" for axis in ("xaxis", "yaxis")
            if (words := _word(_axis_title(_get(layout, axis))))]
    series = [words for trace in (_get(fig, "data") or ()) if (words := _series(trace))]
    return (f"Chart: {text or 'untitled'}." + (f" {', '.join(axes)}." if axes else "")
            + (f" {'; '.join(series)}." if series else ""))


def _axis_title(axis) -> str:
    title = _get(axis, "title") if axis is not None else None
    return (title if isinstance(title, str) else _get(title, "text") if title is not None else None) or ""


def hidden_html(fig) -> str:
    """The words as HTML for a markdown element: in the accessibility tree, not on screen (ui/app_style.py)."""
    return f'<div class="ndcg-chart-words">{html.escape(chart_words(fig))}</div>'

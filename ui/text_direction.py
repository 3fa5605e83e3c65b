"""Text direction in sentences that name user documents, queries and runs (Arabic, Hebrew and any other script).

``visible`` leaves out the direction controls a name may carry (an override typed in a name reversed the rest of
the sentence); ``isolated`` and ``names_list`` set names apart, so a right-to-left name keeps its own direction and
a list of them keeps its order. ``ui.widgets.plain`` and ``text_line`` show text through ``visible``.
``isolate_quoted`` does the same for the names quoted in ndcg_core's refusals (``ui.messages.user_message``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# Direction overrides, embeddings and isolates (U+202A-U+202E, U+2066-U+2069): invisible, and an override typed in a
# document's name ("D\u202e1") reversed the rest of the sentence that named it, up to the paragraph's end.
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
# A name the app itself set apart (``isolated``): a first-strong isolate holding no control. It cannot reach past its
# closing mark, so it is kept; every other control is left out.
_ISOLATED_NAME = re.compile("\u2068[^\u202a-\u202e\u2066-\u2069]*\u2069")
# A name as ndcg_core quotes it in a message: Python's repr of a string, '…' (or "…" when the name holds a '), its
# backslash escapes inside. A quote with a letter or digit just outside it is an apostrophe ("the battery's cases").
_QUOTED_NAME = re.compile(r"""(?<!\w)(['"])((?:(?!\1)[^\\\n]|\\.)*)\1(?!\w)""")



def visible(text: object) -> str:
    """``text`` without invisible direction controls (see ``_BIDI_CONTROLS``), for display; the names ``isolated``
    set apart keep their isolates."""
    text = str(text)
    kept, start = [], 0
    for name in _ISOLATED_NAME.finditer(text):
        kept += [_BIDI_CONTROLS.sub("", text[start:name.start()]), name.group()]
        start = name.end()
    return "".join([*kept, _BIDI_CONTROLS.sub("", text[start:])])


def isolated(name: object) -> str:
    """``name`` set apart inside a sentence: drawn in its own direction (its first letter's), the sentence in its own.

    Arabic or Hebrew ids side by side in a list ("سؤال-120, سؤال-3977, سؤال-4845") were drawn as one right-to-left
    run: in reverse order, the commas moved ("4845-سؤال ,3977-سؤال ,120-سؤال"). Each name inside a first-strong
    isolate (U+2068 … U+2069, invisible) keeps the list in its order. The name's own controls are left out.
    """
    return f"\u2068{_BIDI_CONTROLS.sub('', str(name))}\u2069"


def names_list(names: Sequence[object], *, limit: int | None = None, more: str = " …") -> str:
    """``names`` joined with ", ", each ``isolated``; past ``limit``, ``more`` (with ``{n}``: how many are left out)."""
    names = list(names)
    shown = ", ".join(isolated(name) for name in names[:limit])
    return shown + (more.format(n=len(names) - limit) if limit is not None and len(names) > limit else "")


def isolate_quoted(text: object) -> str:
    """``text`` with each quoted name ``isolated`` inside its quotes, as ndcg_core quotes ids in its refusals.

    "IDCG is 0 for queries 'سؤال-120', 'سؤال-3977', 'سؤال-4845': …" was drawn with the three ids as one right-to-left
    run: in reverse order, the quotes and commas moved ("',3977-سؤال' ,'120-سؤال 4845-سؤال''"). ndcg_core's messages
    stay plain text (a terminal, a log or a test's ``match`` reads them; invisible marks there would only be in the
    way): the app sets the quoted names apart where it shows the message. Only names with a right-to-left letter need
    it (a left-to-right one reads the same either way), so the other messages are left as ndcg_core wrote them.
    """

    def set_apart(quoted: re.Match) -> str:
        quote, name = quoted.group(1), quoted.group(2)
        return f"{quote}{isolated(name)}{quote}" if _right_to_left(name) else quoted.group()

    return _QUOTED_NAME.sub(set_apart, str(text))


def _right_to_left(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter (Hebrew, Arabic, Syriac, Thaana, N'Ko, …: bidi class R or AL)."""
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)

"""ndcg_core's refusals in the sidebar's words: one place that maps the core's argument names to labels.

``ndcg_core.InvalidInput`` messages name arguments (``zero_idcg rule ('zero', 'one' or 'skip')``, "linear
gain"); the app's readers only know the sidebar. :func:`user_message` rewrites those phrases;
tests/test_messages.py fails if the core's wording drifts away from what is mapped here. It also sets apart the ids a
message quotes (Arabic or Hebrew query ids in a list came out reversed): here, where a message reaches the screen,
not in ndcg_core, whose messages stay plain text for terminals, logs and tests.
"""

from __future__ import annotations

import ndcg_core
from ui.settings_model import GAIN_LABELS, GAIN_SETTING, ZERO_IDCG_LABELS, ZERO_IDCG_SETTING, MetricSettings
from ui.text_direction import isolate_quoted

_OTHER_RULES = ", ".join(f"“{ZERO_IDCG_LABELS[rule]}”" for rule in ("zero", "one", "skip"))
REWRITES = (
    ("Choose another zero_idcg rule ('zero', 'one' or 'skip') to give it a value.",
     f"Choose another “{ZERO_IDCG_SETTING}” setting in the sidebar ({_OTHER_RULES}) to give it a value."),
    ("Choose another zero_idcg rule ('zero', 'one' or 'skip').",
     f"Choose another “{ZERO_IDCG_SETTING}” setting in the sidebar ({_OTHER_RULES})."),
    ("zero_idcg rule", f"“{ZERO_IDCG_SETTING}” setting"),
    ("Use linear gain or smaller grades", f"Set “{GAIN_SETTING}” to “{GAIN_LABELS['linear']}” in the sidebar, "
                                          "or use smaller grades"),
    ("Use smaller grades or linear gain.", f"Use smaller grades, or set “{GAIN_SETTING}” to "
                                           f"“{GAIN_LABELS['linear']}” in the sidebar."),
)


_ADVICE = (REWRITES[0][0], REWRITES[1][0])  # ndcg_core's "choose another zero_idcg rule" sentences


def reason_only(error: Exception | str) -> str:
    """:func:`user_message` without ndcg_core's advice to choose another zero-IDCG rule: for a view that already
    shows what every rule gives."""
    text = str(error)
    for advice in _ADVICE:
        text = text.replace(advice, "")
    return user_message(text.strip())


def user_message(error: Exception | str) -> str:
    """The error's first line with ndcg_core's argument names replaced by the sidebar's words, and the ids it quotes
    set apart (``isolate_quoted``: right-to-left ids in a list kept their order only so)."""
    text = str(error)
    for core, words in REWRITES:
        text = text.replace(core, words)
    return isolate_quoted(text)


def zero_idcg_refused(grades, ideal, settings: MetricSettings) -> bool:
    """Whether the settings refuse this list only because IDCG = 0 (the rule "Refuse"), per ndcg_core."""
    if settings.zero_idcg != "error":
        return False
    try:
        result = ndcg_core.evaluate(list(grades), ideal_relevances=list(ideal), **{**settings.kwargs(),
                                                                                   "zero_idcg": "zero"})
    except ndcg_core.InvalidInput:
        return False
    return result.idcg == 0


# The source documents' own titles (their first heading), shown where a document is named; the file names
# (000_0bdd5abdb117b00b.txt) are storage details, not titles.
DOCUMENT_TITLES = {
    "000": "Intro to NDCG",
    "001": "Normalized Discounted Cumulative Gain",
    "002": "What is NDCG?",
    "003": "nDCG (Normalized Discounted Cumulative Gain)",
    "004": "NDCG: definition and worked example",
}


def document_title(source: str) -> str:
    """'Source 000 · Intro to NDCG' for a source file name such as '000_0bdd5abdb117b00b.txt'."""
    number = str(source)[:3]
    title = DOCUMENT_TITLES.get(number)
    return f"Source {number} · {title}" if title else f"Source {number}"

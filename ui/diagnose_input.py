"""The "Why do my numbers differ?" page's input: text fields, strict parsing, ready-made examples, the URL.

Canonical state: the widget values under the keys in ``FIELDS`` (plain text, through :mod:`ui.session`), read
into a :class:`Question` by :func:`read_question`. The URL holds the same texts (format and rules in
:mod:`ui.url_state`); a link's value is used only if it passes the same checks as typed text (anything else is
dropped with a warning naming the field), so no parameter value can reach a traceback.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import ndcg_core
from ui import session, url_state
from ui.ranking import first_repeated_name
from ui.widgets import plain

# the page's fields (texts are keyed by these names, as in ui.url_state.WHY_DIFFER_PARAMS) -> their widget keys
FIELDS = {name: f"why_{name}" for name in url_state.WHY_DIFFER_PARAMS}
MAX_DOCUMENTS = 2_000
MAX_TEXT = url_state.MAX_TEXT_CHARS
MAX_LABEL = 60
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_SPLIT = re.compile(r"[\s,;]+")
LINK_KEY = "why_link"
SCOPE = "why_differ"  # the page's link warning in ui.url_state


@dataclass
class LinkState:
    """The page's link: read once, on the session's first visit; the parameters of the last valid input."""

    read: bool = False
    published: dict[str, str | None] = field(default_factory=dict)  # kept while the input is being fixed


@dataclass(frozen=True)
class Question:
    """One query's input and the numbers the user got (validated)."""

    grades: tuple[float, ...]
    scores: tuple[float, ...] | None
    extra: tuple[float, ...]
    ids: tuple[str, ...] | None
    k: int | None
    reported: tuple[tuple[str, str], ...]  # (label, number as typed: the core reads its printed precision)


@dataclass(frozen=True)
class Example:
    title: str
    grades: str
    scores: str = ""
    extra: str = ""
    ids: str = ""
    k: str = ""
    sources: tuple[str, str] = ("scikit-learn", "LightGBM")

    def texts(self) -> dict[str, str]:
        """The widget texts of this example; the numbers are each library preset's value (from ndcg_core)."""
        inputs = {"grades": self.grades, "scores": self.scores, "extra": self.extra, "ids": self.ids, "k": self.k}
        numbers = [_preset_value(source, read_question(inputs, need_numbers=False)) for source in self.sources]
        return {**inputs, "from_1": self.sources[0], "number_1": numbers[0], "from_2": self.sources[1],
                "number_2": numbers[1]}


PRESET_OF_SOURCE = {"scikit-learn": "sklearn", "LightGBM": "lightgbm", "trec_eval": "trec_eval", "XGBoost": "xgboost"}

EXAMPLES = {
    "lightgbm_sklearn": Example("LightGBM vs scikit-learn", "3, 2, 0, 1, 2",
                                "0.9, 0.8, 0.7, 0.6, 0.5"),
    "all_zero": Example("No relevant document", "0, 0, 0", "0.3, 0.2, 0.1"),
    "unretrieved": Example("Judged but not retrieved", "2, 1, 0",
                           "0.9, 0.5, 0.1", extra="3", sources=("scikit-learn", "trec_eval")),
    "ties": Example("Tied scores", "3, 0, 1, 2", "0.9, 0.9, 0.4, 0.4",
                    ids="A12, B07, C33, D01", sources=("scikit-learn", "trec_eval")),
}
DEFAULT_EXAMPLE = "lightgbm_sklearn"


def _preset_value(source: str, question: Question) -> str:
    convention = ndcg_core.CONVENTIONS[PRESET_OF_SOURCE[source]]
    result = convention.evaluate(list(question.grades), None if question.scores is None else list(question.scores),
                                 k=question.k, ideal_relevances=[*question.grades, *question.extra],
                                 doc_ids=question.ids)
    return f"{result.ndcg:.4f}"


def _unbracketed(text: str) -> str:
    """A whole list as Python or numpy prints it ("[3, 2, 0]", "[0.9 0.8]", "(3, 2)"): its items, without the
    brackets. A script's print(grades) pasted as it is had its first and last items refused ('[3')."""
    stripped = text.strip()
    if len(stripped) >= 2 and (stripped[0], stripped[-1]) in (("[", "]"), ("(", ")")):
        return stripped[1:-1]
    return text


def numbers(text: str, *, what: str) -> tuple[float, ...]:
    """Numbers separated by commas, spaces or semicolons (a printed list's brackets allowed around them); refuse
    anything else, naming the item."""
    text = str(text)
    if len(text) > MAX_TEXT:
        raise ndcg_core.InvalidInput(f"{what}: the text is too long (more than {MAX_TEXT:,} characters).")
    text = _unbracketed(text)
    _refuse_decimal_commas(text, what=what)
    items = [item for item in _SPLIT.split(text.strip()) if item]
    if len(items) > MAX_DOCUMENTS:
        raise ndcg_core.InvalidInput(f"{what}: {len(items):,} numbers; this page diagnoses one query of up to "
                                     f"{MAX_DOCUMENTS:,} documents (a whole run's figures: the Dataset page).")
    for position, item in enumerate(items, start=1):
        if not _NUMBER.match(item):
            hint = _UNJUDGED_HINT if what == "Grades" and item in _UNJUDGED_MARKS else ""
            raise ndcg_core.InvalidInput(f"{what}: item {position} ({item[:20]!r}) is not a number.{hint}")
    values = tuple(float(item) for item in items)
    if not all(math.isfinite(value) for value in values):
        raise ndcg_core.InvalidInput(f"{what}: a number is too large.")
    return values


# What people type for a document nobody judged ("2 - 3 0 ? 1"): every library searched here reads it as grade 0.
_UNJUDGED_MARKS = frozenset({"-", "?", "x", "X", "na", "NA", "n/a", "N/A", "_"})
_UNJUDGED_HINT = (" A document nobody judged counts as grade 0 in every library searched here (trec_eval, "
                  "scikit-learn, ranx, …): type 0 for it. The Step by step page's lesson 9 shows what leaving such "
                  "documents out (the condensed list) does to NDCG.")

_DECIMAL_COMMA = re.compile(r"-?\d+,\d+")


def _refuse_decimal_commas(text: str, *, what: str) -> None:
    """Refuse "1,5 2,5 0" (read as five numbers, 1 5 2 5 0, without a word): items apart by spaces or semicolons
    that hold one comma between digits are decimals written with a comma. "1,5,0" stays a list of three."""
    items = [item for item in re.split(r"[\s;]+", text.strip()) if item]
    commas = [item for item in items if _DECIMAL_COMMA.fullmatch(item)]
    if len(items) > 1 and commas:
        raise ndcg_core.InvalidInput(
            f"{what}: {commas[0][:20]!r} looks like a number with a decimal comma. Write decimals with a point "
            f"({commas[0][:20].replace(',', '.')!r}); commas, spaces and semicolons separate the numbers.")


def _ids(text: str) -> tuple[str, ...] | None:
    if len(str(text)) > MAX_TEXT:
        raise ndcg_core.InvalidInput(f"Document ids: the text is too long (more than {MAX_TEXT:,} characters).")
    printed = _unbracketed(str(text))
    items = [item.strip() for item in re.split(r"[,;\s]+", printed.strip()) if item.strip()]
    if printed != str(text):  # print(ids) quotes each id: "['A12', 'B07']"
        items = [item[1:-1] if len(item) >= 2 and item[0] == item[-1] and item[0] in "'\"" else item
                 for item in items]
    repeated = first_repeated_name(items)
    if repeated is not None:  # trec_eval orders tied scores by id: two documents with one id have no order
        raise ndcg_core.InvalidInput(f"Document ids: {repeated[0][:20]!r} is typed twice. A ranking holds each "
                                     "document once, and trec_eval orders tied scores by their ids.")
    return tuple(items) or None


def _k(text: str) -> int | None:
    text = str(text).strip()
    if not text:
        return None
    if not re.fullmatch(r"\d{1,6}", text) or int(text) < 1:
        raise ndcg_core.InvalidInput(f"k must be a whole number from 1 to 999999, or empty for no cutoff; got {text[:20]!r}.")
    return int(text)


def _reported(text: str, *, what: str) -> str | None:
    text = str(text).strip().lower()
    if not text:
        return None
    if text in ("nan", "none", "no value", "skipped"):
        return "nan"
    if len(text) > 40 or not _NUMBER.match(text):
        raise ndcg_core.InvalidInput(f"{what} must be a number such as 0.8123 (or 'no value'); got {text[:20]!r}.")
    value = float(text)
    if not 0 <= value <= 1:
        raise ndcg_core.InvalidInput(f"{what} is {value:g}, but NDCG lies between 0 and 1.")
    return text


def _label(text: str, fallback: str) -> str:
    cleaned = "".join(ch for ch in str(text) if ch.isprintable()).strip()[:MAX_LABEL]
    return cleaned or fallback


def read_question(texts: dict[str, str], *, need_numbers: bool = True) -> Question:
    """Validate the page's texts into a :class:`Question`; raise ``InvalidInput`` naming the field."""
    grades = numbers(texts.get("grades", ""), what="Grades")
    if not grades:
        raise ndcg_core.InvalidInput("Grades: paste at least one grade, e.g. 3, 2, 0, 1.")
    scores = numbers(texts.get("scores", ""), what="Scores") or None
    if scores is not None and len(scores) != len(grades):
        raise ndcg_core.InvalidInput(f"Got {len(grades)} grades but {len(scores)} scores: give one score per grade "
                                     "(or no scores: the grades are then in ranked order).")
    ids = _ids(texts.get("ids", ""))
    if ids is not None and len(ids) != len(grades):
        raise ndcg_core.InvalidInput(f"Got {len(grades)} grades but {len(ids)} document ids.")
    extra = numbers(texts.get("extra", ""), what="Judged, not ranked")
    reported = []
    for index in (1, 2):
        value = _reported(texts.get(f"number_{index}", ""), what=f"Number {index}")
        if value is not None:
            reported.append((_label(texts.get(f"from_{index}", ""), f"Number {index}"), value))
    if need_numbers and not reported:
        raise ndcg_core.InvalidInput("Type at least one NDCG number you got.")
    return Question(grades=grades, scores=scores, extra=extra, ids=ids, k=_k(texts.get("k", "")),
                    reported=tuple(reported))


def current_texts() -> dict[str, str]:
    """The page's texts by field name (what the widgets hold)."""
    return {name: str(session.widget(key, "")) for name, key in FIELDS.items()}


def _fill(texts: dict[str, str]) -> None:
    for name, key in FIELDS.items():
        session.set_widget(key, texts.get(name, ""))


def load_example(key: str) -> None:
    """Button callback: put an example's texts into the widgets."""
    _fill(EXAMPLES[key].texts())
    url_state.warn(SCOPE, None)


def restore_from_link() -> None:
    """On a session's first visit: the widgets from the URL when the link's texts pass the checks, else an example."""
    link = session.page_state(LINK_KEY, LinkState)
    url_state.publish(link.published)  # the address stays the last valid input's while the fields are invalid
    if link.read:
        return
    link.read = True
    linked, problem = url_state.why_differ_texts(url_state.params())
    texts = linked
    if texts is not None and problem is None:
        try:
            read_question(texts, need_numbers=False)
        except ndcg_core.InvalidInput as error:
            problem = str(error)  # bounded: a reason quotes at most 20 characters of the link
    if problem is not None:
        url_state.warn(SCOPE, plain(f"The link's input could not be used ({problem}), so an example is shown "
                                    "instead."))
    _fill(texts if texts is not None and problem is None else EXAMPLES[DEFAULT_EXAMPLE].texts())
    if texts is not None and problem is None:
        mirror_to_url(texts)


def mirror_to_url(texts: dict[str, str]) -> None:
    """Publish the (valid) texts so the address bar is the share link; empty fields are left out (ui.url_state)."""
    link = session.page_state(LINK_KEY, LinkState)
    link.published = url_state.why_differ_params(texts)
    url_state.publish(link.published)


def share_link(texts: dict[str, str]) -> str:
    """The page's address with these texts (absolute when the browser's URL is known)."""
    params = url_state.why_differ_params(texts)
    return url_state.link(url_state.page_address("/why_differ"), {param: value for param, value in params.items() if value is not None})

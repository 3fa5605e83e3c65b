"""A conformance battery: test vectors for the cases NDCG implementations get wrong, with every preset's answer.

Each :class:`TestVector` is one query: grades in the order of the documents
(``None`` for a retrieved document without a judgment, counted as not relevant
by every library), scores, document ids, grades of judged documents that were
not retrieved, and a cutoff. :func:`battery_expected` gives the NDCG every
:data:`CONVENTIONS` preset reports for it - or the reason the library refuses
the input - reading the grades as the library reads them:

* trec_eval and ranx read grades as whole numbers (C ``atol`` / ``int``: 1.5
  counts as 1) and give a negative grade no gain (it counts as 0), so the
  figures use those grades; pytrec_eval and ir_measures (through it) take
  negative whole grades the same way but refuse a fractional one ("Expected
  relevance to be integer");
* scikit-learn refuses negative grades and lists of one document;
* LightGBM refuses fractional grades, grades above 30 (its default
  ``label_gain`` has 31 entries) and negative grades; XGBoost likewise above 31;
* torchmetrics adds negative gains as they are, which ndcg_core refuses (NDCG
  could leave [0, 1]): that one cell is left out (``None`` with the reason).

``tests/test_battery.py`` checks every figure against the installed library.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._conventions import CONVENTIONS
from ._list import ListResult
from ._validation import InvalidInput, as_finite_numbers, as_grades, check_sequence

BATTERY_VERSION = 1


@dataclass(frozen=True)
class TestVector:
    """One query of the battery (see the module docstring).

    ``key`` names the case ("plain", "ties", ...: the keys of an outputs file)
    and ``title`` says what it tests. ``grades`` are the retrieved documents'
    grades in input order (None: retrieved, not judged), ``scores`` their
    model scores and ``doc_ids`` their ids (trec_eval breaks ties on them).
    ``unretrieved`` are the grades of judged documents no system retrieved
    (they enter the ideal list only); ``k`` is the cutoff (None: whole list).
    """

    key: str
    title: str
    grades: tuple[float | None, ...]
    scores: tuple[float, ...]
    doc_ids: tuple[str, ...]
    unretrieved: tuple[float, ...] = ()
    k: int | None = None

    __test__ = False  # not a pytest test class, whatever its name

    def judged_grades(self) -> np.ndarray:
        """Grades of the retrieved documents, an unjudged one counted as 0."""
        return np.array([0.0 if grade is None else float(grade) for grade in self.grades])


def _ids(n: int) -> tuple[str, ...]:
    return tuple(f"d{i + 1}" for i in range(n))


BATTERY: tuple[TestVector, ...] = (
    TestVector("plain", "Distinct scores, graded relevance, no cutoff", (3, 2, 3, 0, 1, 2),
               (6, 5, 4, 3, 2, 1), _ids(6)),
    TestVector("plain_k3", "The same list at k = 3", (3, 2, 3, 0, 1, 2), (6, 5, 4, 3, 2, 1), _ids(6), k=3),
    TestVector("ties", "Two groups of tied scores (ids decide in trec_eval)", (3, 0, 1, 2), (0.75, 0.75, 0.25, 0.25),
               ("A12", "B07", "C33", "D01")),
    TestVector("tie_straddles_k", "A tied group straddling the cutoff", (1, 3, 0, 0), (2, 1, 1, 1), _ids(4), k=2),
    TestVector("idcg_zero", "No relevant document: IDCG = 0", (0, 0, 0), (3, 2, 1), _ids(3)),
    TestVector("k_beyond_list", "k larger than the list, with a judged document not retrieved", (1, 2, 0), (3, 2, 1),
               _ids(3), unretrieved=(2,), k=10),
    TestVector("unjudged", "Retrieved documents without a judgment", (None, 2, None, 1, 0), (5, 4, 3, 2, 1), _ids(5)),
    TestVector("unretrieved", "Judged documents the ranking missed", (2, 1, 0), (3, 2, 1), _ids(3), unretrieved=(3, 2)),
    TestVector("unretrieved_k2", "Judged documents the ranking missed, at k = 2", (2, 1, 0), (3, 2, 1), _ids(3),
               unretrieved=(3, 2), k=2),
    TestVector("grade_31", "A grade of 31 with exponential gain (2^31 - 1)", (31, 0, 1), (3, 2, 1), _ids(3)),
    TestVector("grade_30", "A grade of 30: the largest LightGBM's default gain table holds", (30, 0, 1), (3, 2, 1),
               _ids(3)),
    TestVector("fractional", "Fractional grades", (1.5, 0.5, 2), (3, 2, 1), _ids(3)),
    TestVector("negative", "A negative grade", (-1, 2, 0), (3, 2, 1), _ids(3)),
    TestVector("single", "A single document", (2,), (1,), _ids(1)),
    TestVector("single_zero", "A single non-relevant document", (0,), (1,), _ids(1)),
    TestVector("off_by_one", "Relevant documents at ranks 1 and 2 (an off-by-one discount shows here)", (2, 3, 0, 1),
               (4, 3, 2, 1), _ids(4)),
)


TRUNCATING = ("trec_eval", "pytrec_eval", "ranx_ndcg", "ranx_ndcg_burges", "ir_measures")  # C int reading; negatives: no gain
_WHOLE_GRADES_ONLY = ("pytrec_eval", "ir_measures")  # pytrec_eval's qrels raise TypeError for 1.5 (ir_measures too)
_NEGATIVE_AS_ZERO = ("trec_gdeval",)  # gdeval keeps positive judgments only, and refuses fractions
# Libraries that take a fractional grade without a word and compute on its whole part (trec_eval's C reader, ranx):
# their number on 1.5 is their figure on 1, so it is still "theirs" (pytrec_eval and ir_measures refuse it instead).
SILENTLY_TRUNCATING = tuple(key for key in TRUNCATING if key not in _WHOLE_GRADES_ONLY)


def read_as_whole(grades) -> np.ndarray:
    """Grades as trec_eval and ranx read them (``TRUNCATING``): int() towards zero, a negative grade no gain."""
    return np.maximum(np.trunc(np.asarray(grades, dtype=float)), 0)


def evaluate_as_read(key: str, relevances, scores=None, *, k=None, ideal_relevances=None,
                     doc_ids=None) -> tuple[ListResult, tuple[tuple[float, float], ...]]:
    """Preset ``key``'s result on these grades as its library reads them, and the (typed, read) grades it changed.

    :meth:`Convention.evaluate` refuses a fractional grade for every library that takes whole grades only, but
    trec_eval and ranx (``SILENTLY_TRUNCATING``) print a number for 1.5 without a word: their figure on 1. That
    figure is returned here, with the grades it read; any other refusal raises :class:`InvalidInput` as before.

    >>> result, read = evaluate_as_read("ranx_ndcg", [1.5, 0, 2.5], [0.9, 0.5, 0.1])
    >>> round(result.ndcg, 4), read
    (0.7602, ((1.5, 1.0), (2.5, 2.0)))
    """
    if not isinstance(key, str) or key not in CONVENTIONS:  # CONVENTIONS[key] raised a bare KeyError
        raise InvalidInput(f"Unknown preset {key!r}. Choose one of: {', '.join(CONVENTIONS)}.")
    convention = CONVENTIONS[key]
    typed = as_grades(relevances, what="relevances")
    judged = None if ideal_relevances is None else as_grades(ideal_relevances, what="ideal_relevances")
    if key not in SILENTLY_TRUNCATING or convention.refusal(typed, ideal_relevances=judged) is None:
        return convention.evaluate(typed, scores, k=k, ideal_relevances=judged, doc_ids=doc_ids), ()
    result = convention.evaluate(read_as_whole(typed), scores, k=k, doc_ids=doc_ids,
                                 ideal_relevances=None if judged is None else read_as_whole(judged))
    everything = typed if judged is None else np.concatenate([typed, judged])
    fractions = everything[everything != np.floor(everything)]
    return result, tuple(dict.fromkeys(zip(fractions.tolist(), read_as_whole(fractions).tolist(), strict=True)))


def read_words(read: tuple[tuple[float, float], ...]) -> str:
    """The grades a library changed, as it read them: "1.5 as 1, 2.5 as 2" (the first three, then how many more).

    ``read`` is the second item :func:`evaluate_as_read` returns: (typed, read) pairs of numbers.
    """
    pairs = check_sequence(read, what="read", of="(typed, read) pairs of grades, as evaluate_as_read returns")
    for pair in pairs:
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise InvalidInput(f"read must hold (typed, read) pairs of grades, got {pair!r:.40}.")
        as_finite_numbers(pair, what="read")
    read = tuple(pairs)
    shown = [f"{typed:g} as {whole:g}" for typed, whole in read[:3]]
    more = len(read) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def refusal(key: str, vector: TestVector) -> str | None:
    """Why the library behind preset ``key`` refuses this input, or None.

    Non-negative grades: the preset's own rule, :meth:`Convention.refusal` (whole numbers only, a largest grade,
    a shortest list), except that trec_eval and ranx read a fractional grade as its whole part (``TRUNCATING``:
    the expected figure is then computed on those grades). Negative grades, which ndcg_core refuses outright, as
    each library reads them (below).
    """
    grades = np.r_[vector.judged_grades(), np.array(vector.unretrieved, dtype=float)]
    if (grades < 0).any():
        return _negative_refusal(key)
    convention = CONVENTIONS[key]
    if key in TRUNCATING and key not in _WHOLE_GRADES_ONLY:
        ranked, extra = library_grades(key, vector)
        return convention.refusal(ranked, ideal_relevances=np.r_[ranked, extra])
    return convention.refusal(vector.judged_grades(), ideal_relevances=grades)


def _negative_refusal(key: str) -> str | None:
    """A negative grade, as the library behind ``key`` reads it (None: it reads one, as ``library_grades`` says)."""
    label = CONVENTIONS[key].label
    if key == "sklearn":
        return f"{label} refuses negative grades."
    if key in ("lightgbm", "xgboost", "xgboost_minus"):
        return f"{label} refuses negative labels."
    if key == "torchmetrics":
        return "torchmetrics adds negative gains as they are (NDCG can leave [0, 1]); ndcg_core refuses them."
    if key in TRUNCATING or key in _NEGATIVE_AS_ZERO:
        return None  # a negative grade gives no gain
    return f"{label} would add a negative gain (NDCG could leave [0, 1]); ndcg_core refuses it."


def library_grades(key: str, vector: TestVector) -> tuple[np.ndarray, np.ndarray]:
    """Ranked and unretrieved grades as the library behind ``key`` reads them (see the module docstring)."""
    grades = vector.judged_grades()
    extra = np.array(vector.unretrieved, dtype=float)
    if key in TRUNCATING:  # int() towards zero, and a negative grade gives no gain
        grades, extra = read_as_whole(grades), read_as_whole(extra)
    elif key in _NEGATIVE_AS_ZERO:
        grades, extra = np.maximum(grades, 0), np.maximum(extra, 0)
    return grades, extra


def expected_ndcg(key: str, vector: TestVector) -> float | None:
    """NDCG the library behind preset ``key`` reports for ``vector`` (None: see :func:`refusal`)."""
    if refusal(key, vector) is not None:
        return None
    grades, extra = library_grades(key, vector)
    result = CONVENTIONS[key].evaluate(grades, np.array(vector.scores, dtype=float), k=vector.k,
                                       ideal_relevances=np.r_[grades, extra], doc_ids=list(vector.doc_ids))
    return result.ndcg


def battery_expected() -> dict[str, dict[str, float | None]]:
    """``{vector key: {preset key: NDCG or None}}`` for the whole battery."""
    return {vector.key: {key: expected_ndcg(key, vector) for key in CONVENTIONS} for vector in BATTERY}


def battery_json() -> str:
    """The battery as JSON: inputs, every preset's expected NDCG (null where refused, with the reason, or where
    the library gives no value, listed in ``no_value``)."""
    cases = []
    for vector in BATTERY:
        cases.append({
            "case": vector.key, "title": vector.title, "grades": list(vector.grades), "scores": list(vector.scores),
            "doc_ids": list(vector.doc_ids), "unretrieved_grades": list(vector.unretrieved), "k": vector.k,
            "expected": {key: _json_number(expected_ndcg(key, vector)) for key in CONVENTIONS},
            "refused": {key: reason for key in CONVENTIONS if (reason := refusal(key, vector))},
            "no_value": [key for key in CONVENTIONS if _is_nan(expected_ndcg(key, vector))],
        })
    presets = {key: {"label": c.label, "library": c.library} for key, c in CONVENTIONS.items()}
    document = {"battery_version": BATTERY_VERSION, "how_to": "Rank each case's documents by descending score "
                "(ties: your rule), evaluate NDCG at k (null: the whole list), and return one number per case. "
                "A null grade is a retrieved document without a judgment; unretrieved_grades are judged documents "
                "the ranking missed.", "presets": presets, "cases": cases}
    return json.dumps(document, indent=1, ensure_ascii=False)


def _is_nan(value: float | None) -> bool:
    return value is not None and math.isnan(value)


def _json_number(value: float | None) -> float | None:
    """JSON has no NaN: a library that gives no value (gdeval skips the topic) is null, listed in no_value."""
    return None if value is None or math.isnan(value) else value


def battery_csv() -> str:
    """The battery as CSV: one row per case; lists space-separated, an unjudged grade as ``-``; empty where
    the library refuses the input, ``nan`` where it gives no value."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["case", "title", "grades", "scores", "doc_ids", "unretrieved_grades", "k",
                     *(f"expected_{key}" for key in CONVENTIONS)])
    for vector in BATTERY:
        expected = [expected_ndcg(key, vector) for key in CONVENTIONS]
        writer.writerow([
            vector.key, vector.title, " ".join("-" if g is None else f"{g:g}" for g in vector.grades),
            " ".join(f"{s:g}" for s in vector.scores), " ".join(vector.doc_ids),
            " ".join(f"{g:g}" for g in vector.unretrieved), "" if vector.k is None else vector.k,
            *("" if value is None else repr(value) for value in expected),
        ])
    return out.getvalue()


def read_outputs(data: str | bytes) -> dict[str, float]:
    """A user's battery outputs: CSV ``case,ndcg`` (header optional) or JSON ``{case: ndcg}``.

    Every case must be a battery case and every value a number (empty, ``nan``,
    JSON ``null`` or ``NaN``, as Python's ``json.dumps`` writes it: no value). Raises :class:`InvalidInput` naming the line or case.
    """
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, (str, bytes)):  # len(5) raised a bare TypeError
        raise InvalidInput(f"Give the outputs as CSV or JSON text (or its bytes), got {type(data).__name__}; "
                           "for a mapping case -> NDCG call check_implementation directly.")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InvalidInput("The outputs file is not UTF-8 text: save it as CSV or JSON.") from None
    if len(data) > 1_000_000:
        raise InvalidInput("The outputs file is larger than 1 MB; the battery has only a few cases.")
    text = data.strip()
    known = {vector.key for vector in BATTERY}
    if text.startswith("{"):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidInput(f"The JSON could not be read (line {error.lineno}: {error.msg}).") from None
        if not isinstance(parsed, dict):
            raise InvalidInput("The JSON must be an object {\"case\": ndcg, ...}.")
        pairs = list(parsed.items())
    else:
        rows = [row for row in csv.reader(io.StringIO(text)) if row and any(cell.strip() for cell in row)]
        if rows and rows[0][0].strip().lower() == "case":
            rows = rows[1:]
        for number, row in enumerate(rows, start=1):
            if len(row) != 2:
                raise InvalidInput(f"Line {number}: expected two columns, case and NDCG; got {len(row)}.")
        pairs = [(row[0].strip(), row[1].strip()) for row in rows]
    outputs: dict[str, float] = {}
    for case, value in pairs:
        if case not in known:
            raise InvalidInput(f"Unknown case {str(case)[:40]!r}: the battery's cases are {', '.join(sorted(known))}.")
        outputs[case] = _number(value, f"case {case!r}")
    if not outputs:
        raise InvalidInput("No outputs found: give one line 'case,ndcg' per battery case.")
    return outputs


def _number(value, where: str) -> float:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "nan", "null", "none")):
        return math.nan
    if isinstance(value, float) and math.isnan(value):  # JSON's NaN, as Python's json.dumps writes a NaN output
        return math.nan
    if isinstance(value, bool):
        raise InvalidInput(f"{where}: {value!r} is not a number.")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"{where}: {str(value)[:20]!r} is not a number.") from None
    except OverflowError:  # a JSON integer beyond float's range
        raise InvalidInput(f"{where}: the number is too large to be an NDCG (they lie between 0 and 1).") from None
    if not math.isfinite(number):
        raise InvalidInput(f"{where}: {value!r} is not a finite number.")
    return number

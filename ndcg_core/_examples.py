"""The worked examples of the five source documents, as data.

Each :class:`WorkedExample` records the inputs a document uses (grades in
ranked order, document names, extra judged documents, settings), the figures
the document states exactly as printed, and the figures ndcg_core computes for
the same inputs (at import; it is cheap). ``status`` compares the two:

* ``"matches"``: every stated figure equals the computed one at the printed
  precision (e.g. 0.98 for 0.9762...).
* ``"matches after rounding"``: a stated figure differs at its printed precision
  only because the document shortened its intermediate terms (rounded or cut
  them): its own terms are each within one unit of their last printed digit of
  the exact terms, and add up to the stated figure (e.g. 3 + 4.41 + 0.5 + 1.29 =
  9.20 while the exact DCG is 9.2085).
* ``"erratum"``: a stated figure is wrong beyond rounding, or the document's
  code does not compute what its text or printed output says; ``erratum``
  explains the cause in plain words (it is None otherwise).
* ``"not stated"``: the document asks for a figure but gives none (and its
  text and code are right): the figure is computed here, nothing to compare.

``code_erratum`` is an error in the document's code that does not touch the
example's printed figure (000's 'Worst' and 'Best': the figures are right, the
code would print another): it leaves ``status`` to the figures, since a badge
of "erratum" on a figure that matches reads as "this figure is wrong".

Sources: 000_0bdd5abdb117b00b.txt (NDCG intro with C# and Python code),
001_7b77f9f41f0adfb3.txt (CG/DCG/NDCG with D1..D5), 002_f0069fcf9a1a890a.txt
(B, A, D, C and a numpy snippet), 003_f44d929bf8cc7fa4.txt (pandas notebook,
D1..D8), 004_d08dec0f5f88387e.txt (NDCG@5 and a scikit-learn snippet).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ._list import ListResult, evaluate, evaluate_scores

METRICS = ("cg", "dcg", "idcg", "ndcg")
STATUSES = ("matches", "matches after rounding", "erratum", "not stated")

SOURCE_000 = "000_0bdd5abdb117b00b.txt"
SOURCE_001 = "001_7b77f9f41f0adfb3.txt"
SOURCE_002 = "002_f0069fcf9a1a890a.txt"
SOURCE_003 = "003_f44d929bf8cc7fa4.txt"
SOURCE_004 = "004_d08dec0f5f88387e.txt"


@dataclass(frozen=True)
class WorkedExample:
    """One worked example of a source document, with stated and computed figures.

    ``key`` identifies it (the document's number and the example, e.g.
    "000-ndcg5"), ``source`` is the document's file and ``title`` the
    example's heading. ``gain``, ``log_base``, ``k``, ``ties`` and
    ``zero_idcg`` are the settings the document uses (:meth:`kwargs` passes
    them to :func:`ndcg_core.evaluate`). ``status`` is the overall badge
    ("matches", "matches after rounding", "erratum" or "not stated");
    ``erratum`` explains a wrong printed figure (None when there is none),
    ``code_erratum`` an error in the document's code beside figures that are
    right (000's ``sorted(dataset)``, which leaves the grades unsorted; None when
    there is none: it does not make the example's badge "erratum"), and
    ``note`` anything else worth knowing about the example (or None).
    ``stated_terms`` maps a metric to the per-position terms the document
    prints for it (its DCG sum's terms), when it prints them.
    ``grades`` are in ranked order (position 1 first) and ``documents`` names
    them; ``extra_documents``/``extra_grades`` are judged documents that are not
    in the ranking (they only enter the ideal list). ``scores`` are the model
    scores when the document ranks by scores. ``stated`` maps a metric ("cg",
    "dcg", "idcg", "ndcg") to the figure as the document prints it, and
    ``stated_text`` keeps the printed digits ("9.20"). ``computed`` has the same
    keys (plus any figure the document asks about without stating it) with
    ndcg_core's values; ``figure_status`` gives each figure's status.
    """

    key: str
    source: str
    title: str
    documents: tuple[str, ...]
    grades: tuple[float, ...]
    extra_documents: tuple[str, ...]
    extra_grades: tuple[float, ...]
    scores: tuple[float, ...] | None
    gain: str | dict
    log_base: float
    k: int | None
    stated: dict[str, float]
    computed: dict[str, float]
    status: str
    erratum: str | None
    note: str | None
    ties: str = "average"
    zero_idcg: str = "zero"
    stated_text: dict[str, str] = field(default_factory=dict)
    stated_terms: dict[str, tuple[float, ...]] = field(default_factory=dict)
    figure_status: dict[str, str] = field(default_factory=dict)
    code_erratum: str | None = None

    def kwargs(self) -> dict:
        """Keyword arguments for :func:`ndcg_core.evaluate` that reproduce this example."""
        ideal = (*self.grades, *self.extra_grades) if self.extra_grades else None
        return {
            "k": self.k,
            "gain": self.gain,
            "log_base": self.log_base,
            "ideal_relevances": ideal,
            "zero_idcg": self.zero_idcg,
        }

    def result(self) -> ListResult:
        """The example evaluated by ndcg_core (ranked by ``scores`` when the document gives them)."""
        if self.scores is None:
            return evaluate(self.grades, **self.kwargs())
        return evaluate_scores(self.grades, self.scores, ties=self.ties, **self.kwargs())


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def _agrees(stated: float, exact: float, decimals: int) -> bool:
    """True when ``exact`` rounds to ``stated`` at ``decimals`` places (a few float ulps of slack)."""
    slack = 4 * float(np.spacing(max(abs(stated), abs(exact), 1.0)))
    return abs(stated - exact) <= 0.5 * 10.0**-decimals + slack


def _exact_terms(result: ListResult, metric: str) -> np.ndarray:
    """The exact per-position terms the document's rounded terms stand for."""
    counted = result.table[result.table["in_cutoff"]]
    column = {"cg": "gain", "dcg": "contribution", "idcg": "ideal_contribution"}[metric]
    return counted[column].to_numpy()


def _figure_status(metric: str, text: str, exact: float, terms: tuple[float, ...] | None, result: ListResult) -> str:
    decimals = _decimals(text)
    if _agrees(float(text), exact, decimals):
        return "matches"
    if terms is not None:
        exact_terms = _exact_terms(result, metric)
        term_units = np.array([10.0 ** -_decimals(repr(float(term))) for term in terms])
        each_close = len(terms) == exact_terms.size and bool(
            (np.abs(np.array(terms) - exact_terms) <= term_units + 1e-12).all()
        )
        if each_close and _agrees(float(text), math.fsum(terms), decimals):
            return "matches after rounding"
    return "erratum"


def _example(
    *,
    key: str,
    source: str,
    title: str,
    documents: tuple[str, ...],
    grades: tuple[float, ...],
    gain: str | dict,
    stated: dict[str, str],
    log_base: float = 2.0,
    k: int | None = None,
    extra_documents: tuple[str, ...] = (),
    extra_grades: tuple[float, ...] = (),
    scores: tuple[float, ...] | None = None,
    asked: tuple[str, ...] = (),
    terms: dict[str, tuple[float, ...]] | None = None,
    erratum: str | None = None,
    note: str | None = None,
    zero_idcg: str = "zero",
    code_erratum: str | None = None,
) -> WorkedExample:
    """Build an example: compute its figures with ndcg_core and derive the status."""
    draft = WorkedExample(
        key=key, source=source, title=title, documents=documents, grades=grades,
        extra_documents=extra_documents, extra_grades=extra_grades, scores=scores, gain=gain,
        log_base=log_base, k=k, stated={}, computed={}, status="matches", erratum=erratum, note=note,
        zero_idcg=zero_idcg,
    )
    result = draft.result()
    terms = terms or {}
    computed = {metric: float(getattr(result, metric)) for metric in METRICS if metric in stated or metric in asked}
    figure_status = {
        metric: _figure_status(metric, text, computed[metric], terms.get(metric), result)
        for metric, text in stated.items()
    }
    if erratum is not None or "erratum" in figure_status.values():
        status = "erratum"
    elif "matches after rounding" in figure_status.values():
        status = "matches after rounding"
    elif not stated:  # a "✓ matches" with nothing to match was counted among the matches
        status = "not stated"
    else:
        status = "matches"
    return WorkedExample(
        key=key, source=source, title=title, documents=documents, grades=grades,
        extra_documents=extra_documents, extra_grades=extra_grades, scores=scores, gain=gain,
        log_base=log_base, k=k, stated={metric: float(text) for metric, text in stated.items()},
        computed=computed, status=status, erratum=erratum, note=note, zero_idcg=zero_idcg,
        stated_text=dict(stated), stated_terms=dict(terms), figure_status=figure_status, code_erratum=code_erratum,
    )


_G000 = (3, 1, 2, 0, 2)
_DOCS5 = ("D1", "D2", "D3", "D4", "D5")
_CODE_GAIN_000 = {0: 0, 1: 1, 2: 3, 3: 7, 4: 15}  # gain[i] = 2^i - 1 for i < p = 5
_SORTED_BUG_000 = (
    "The printed figure is right for this order, but the document's code would not print it: "
    "`sorted(dataset)` (C#: `dataset.OrderBy(x => x)`) sorts the dataset, a list holding one list, "
    "not the grades inside it, so the dataset stays [[3, 1, 2, 0, 2]] and the code prints 0.9508... "
    "for 'Worst' and 'Best' too. Sorting the grades themselves gives this order."
)

WORKED_EXAMPLES: tuple[WorkedExample, ...] = (
    # ---------------------------------------------------------------- 000
    _example(
        key="000-ndcg5",
        source=SOURCE_000,
        title="G = [3, 1, 2, 0, 2]: NDCG@5 with gain 2^G - 1",
        documents=_DOCS5,
        grades=_G000,
        gain="exponential",
        k=5,
        stated={"ndcg": "0.950849602851865"},
        asked=("dcg", "idcg"),
        note="The text's formulas use log2; the printed output comes from the code, which uses the natural "
        "log. The base cancels in DCG / IDCG, so NDCG is the same (DCG and IDCG are not). Ideal order: "
        "[3, 2, 2, 1, 0].",
    ),
    _example(
        key="000-code-natural-log",
        source=SOURCE_000,
        title="The document's code: natural log and the default gain list",
        documents=_DOCS5,
        grades=_G000,
        gain=_CODE_GAIN_000,
        log_base=math.e,
        k=5,
        zero_idcg="skip",
        stated={"ndcg": "0.950849602851865"},
        note="The C# and Python code divide by Math.Log / math.log (natural log) and take the gain from a "
        "list gain[i] = 2^i - 1 for i < p: a gain table for grades 0..p-1 (a grade of p or more would "
        "crash with an index error). The dataset NDCG is the mean of per-list NDCG (the second of the "
        "document's two dataset formulas, NDCG_D = (1/n) sum NDCG_i), and lists with IDCG of about 0 are "
        "skipped (not counted). The first formula, sum DCG_i / sum IDCG_i, weights lists by their IDCG; "
        "with a one-list dataset, as here, both formulas give the same value.",
    ),
    _example(
        key="000-worst",
        source=SOURCE_000,
        title="Worst order [0, 1, 2, 2, 3]: NDCG@5",
        documents=("D4", "D2", "D3", "D5", "D1"),
        grades=(0, 1, 2, 2, 3),
        gain="exponential",
        log_base=math.e,
        k=5,
        stated={"ndcg": "0.5664478625498256"},
        code_erratum=_SORTED_BUG_000,
    ),
    _example(
        key="000-best",
        source=SOURCE_000,
        title="Best order [3, 2, 2, 1, 0]: NDCG@5",
        documents=("D1", "D3", "D5", "D2", "D4"),
        grades=(3, 2, 2, 1, 0),
        gain="exponential",
        log_base=math.e,
        k=5,
        stated={"ndcg": "1.0"},
        code_erratum=_SORTED_BUG_000,
    ),
    # ---------------------------------------------------------------- 001
    _example(
        key="001-cg-clicks",
        source=SOURCE_001,
        title="Binary relevance: 3 clicks out of 5 items, CG",
        documents=_DOCS5,
        grades=(1, 0, 1, 1, 0),
        gain="linear",
        stated={"cg": "3"},
        note="The document does not say which 3 items were clicked; CG ignores order, so any order gives 1+1+1 = 3.",
    ),
    _example(
        key="001-cg-five-stars",
        source=SOURCE_001,
        title="Graded 1-5: all top 5 got 5 stars, CG",
        documents=_DOCS5,
        grades=(5, 5, 5, 5, 5),
        gain="linear",
        stated={"cg": "25"},
    ),
    _example(
        key="001-binary-dcg3",
        source=SOURCE_001,
        title="Binary [1, 0, 1, 1, 0]: DCG@3",
        documents=_DOCS5,
        grades=(1, 0, 1, 1, 0),
        gain="linear",
        k=3,
        stated={"dcg": "1.5"},
        terms={"dcg": (1, 0, 0.5)},
        note="DCG@3 = 1/log2(2) + 0/log2(3) + 1/log2(4) = 1 + 0 + 0.5.",
    ),
    _example(
        key="001-binary-swapped",
        source=SOURCE_001,
        title="Swapped [1, 1, 0, 1, 0]: DCG@3",
        documents=("D1", "D3", "D2", "D4", "D5"),
        grades=(1, 1, 0, 1, 0),
        gain="linear",
        k=3,
        stated={},
        asked=("dcg",),
        note="The document asks what happens when the 3rd item moves to position 2 but does not give the "
        "figure: DCG@3 = 1 + 1/log2(3) + 0 = 1.631, up from 1.5.",
    ),
    _example(
        key="001-graded",
        source=SOURCE_001,
        title="D1..D5 graded 0-3: CG, DCG, IDCG, NDCG",
        documents=_DOCS5,
        grades=(3, 2, 0, 0, 1),
        gain="linear",
        stated={"cg": "6", "dcg": "4.67", "idcg": "4.76", "ndcg": "0.98"},
        terms={"dcg": (3, 1.26, 0, 0, 0.3868), "idcg": (3, 1.26, 0.5, 0, 0)},
        erratum="DCG is stated as about 4.67, but the document's own terms 3 + 1.26 + 0 + 0 + 0.3868 add up to "
        "4.65 (exactly 4.6487). Also the line '3/2' divides by log2(2) = 1, printed wrongly as 2 (the next "
        "line uses 3 again). The NDCG of 0.98 survives: 4.6487 / 4.7619 = 0.976 also rounds to 0.98.",
        note="Ideal order D1, D2, D5, D3, D4 = [3, 2, 1, 0, 0].",
    ),
    # ---------------------------------------------------------------- 002
    _example(
        key="002-badc",
        source=SOURCE_002,
        title="B, A, D, C with gain 2^rel - 1: DCG, IDCG, NDCG",
        documents=("B", "A", "D", "C"),
        grades=(2, 3, 1, 2),
        gain="exponential",
        stated={"dcg": "9.20", "idcg": "10.82", "ndcg": "0.85"},
        terms={"dcg": (3, 4.41, 0.5, 1.29), "idcg": (7, 1.89, 1.5, 0.43)},
        note="The exact DCG is 9.2085 (it would round to 9.21); the document adds terms cut to two decimals "
        "(7/log2 3 = 4.4165 is written 4.41, where rounding gives 4.42), which gives 9.20. Ideal order A, B, C, D = "
        "[3, 2, 2, 1].",
    ),
    _example(
        key="002-numpy-snippet",
        source=SOURCE_002,
        title="The numpy snippet: actual [3, 2, 3, 0, 1], ideal [3, 3, 2, 1, 0]",
        documents=_DOCS5,
        grades=(3, 2, 3, 0, 1),
        gain="linear",
        stated={},
        asked=("ndcg",),
        erratum="The text teaches the gain 2^rel - 1, but the code divides the raw grades by log2(i + 1), "
        "which is linear gain: run as written it prints NDCG: 0.9723642841729143 (0.9724), while the text's own formula gives "
        "0.9575 for the same lists (see 004). The document shows no output.",
    ),
    # ---------------------------------------------------------------- 003
    _example(
        key="003-cg-dcg6",
        source=SOURCE_003,
        title="D1..D6 graded 0-3: CG and DCG_6",
        documents=("D1", "D2", "D3", "D4", "D5", "D6"),
        grades=(3, 2, 3, 0, 1, 2),
        gain="linear",
        k=6,
        stated={"cg": "11", "dcg": "6.861000000000001"},
        terms={"dcg": (3.0, 1.262, 1.5, 0.0, 0.387, 0.712)},
        note="The notebook's dcg_i function rounds each term to 3 decimals before summing, so it prints "
        "6.861000000000001; the exact DCG_6 is 6.8611.",
    ),
    _example(
        key="003-swap-d3-d4",
        source=SOURCE_003,
        title="D3 and D4 swapped: DCG_6",
        documents=("D1", "D2", "D4", "D3", "D5", "D6"),
        grades=(3, 2, 0, 3, 1, 2),
        gain="linear",
        k=6,
        stated={"dcg": "6.653156362813681"},
        note="Putting the grade-0 D4 above the grade-3 D3 lowers DCG from 6.861 to 6.653 (exact terms, "
        "no rounding in this cell).",
    ),
    _example(
        key="003-ndcg6-d7-d8",
        source=SOURCE_003,
        title="Ideal from all judgments (D7 = 3, D8 = 2): IDCG_6 and nDCG",
        documents=("D1", "D2", "D3", "D4", "D5", "D6"),
        grades=(3, 2, 3, 0, 1, 2),
        extra_documents=("D7", "D8"),
        extra_grades=(3, 2),
        gain="linear",
        k=6,
        stated={"idcg": "8.740262365546284", "ndcg": "0.785"},
        note="The ideal order of all eight judgments is [3, 3, 3, 2, 2, 2, 1, 0], cut at 6. The notebook "
        "cuts it with `relevance >= 2`, which keeps exactly six rows only by coincidence, labels the ideal "
        "'DCG value new', borrows the positions from another table, and lists D8 at order 9 (a typo that "
        "does not matter). nDCG = 6.861 / 8.740 = 0.785; with the exact DCG it is 0.78500.",
    ),
    # ---------------------------------------------------------------- 004
    _example(
        key="004-ndcg5",
        source=SOURCE_004,
        title="[3, 2, 3, 0, 1] with gain 2^rel - 1: DCG@5, IDCG@5, NDCG@5",
        documents=_DOCS5,
        grades=(3, 2, 3, 0, 1),
        gain="exponential",
        k=5,
        stated={"dcg": "12.78", "idcg": "13.65", "ndcg": "0.94"},
        terms={"dcg": (7, 1.89, 3.5, 0, 0.39)},
        erratum="IDCG@5 is wrong: the ideal order [3, 3, 2, 1, 0] gives 7/1 + 7/1.585 + 3/2 + 1/2.322 + 0 = "
        "7 + 4.42 + 1.5 + 0.43 = 13.35 (exactly 13.3472), not 13.65. With it NDCG@5 = 12.7796 / 13.3472 = "
        "0.9575 (12.78 / 13.35 = 0.9573 from the rounded figures), not 0.94 (0.94 is 12.78 / 13.65).",
    ),
    _example(
        key="004-sklearn-snippet",
        source=SOURCE_004,
        title="The scikit-learn snippet: ndcg_score(y_true, y_scores, k=5)",
        documents=_DOCS5,
        grades=(3, 2, 3, 0, 1),
        scores=(0.9, 0.8, 0.3, 0.2, 0.1),
        gain="linear",
        k=5,
        stated={"ndcg": "0.94"},
        erratum="The printed output '0.94' is not what the snippet prints: scikit-learn's ndcg_score uses the "
        "grades themselves as gains (linear gain), not 2^rel - 1, so it prints 0.9723... (and the exponential "
        "formula of the text gives 0.9575, not 0.94).",
        note="The scores 0.9 > 0.8 > 0.3 > 0.2 > 0.1 keep the documents in the given order.",
    ),
)
"""Every worked example of the five source documents, in document order."""

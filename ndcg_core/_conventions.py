"""Presets that reproduce what popular libraries compute for NDCG.

Libraries agree on NDCG = DCG / IDCG with the discount log2(i + 1), and
disagree on four choices. Each :class:`Convention` fixes them:

* ``gain``: ``"linear"`` (gain = grade) or ``"exponential"`` (2**grade - 1);
* ``ties``: what happens to documents with equal scores, one of the tie rules
  of :mod:`ndcg_core._ties`: ``"average"`` (the tied gains are averaged,
  McSherry and Najork), ``"stable"`` (input order), ``"trec_eval"`` (by
  document id, Z before A);
* ``ideal``: where the ideal list comes from: ``"ranking"`` (the grades of the
  ranked documents only; the library never sees other judgments) or
  ``"all_judged"`` (every judged document for the query, as in a qrels file);
* ``zero_idcg``: NDCG when IDCG is 0 (no relevant document): ``"zero"`` or ``"one"``;
* ``score_precision``: ``"float32"`` when the library rounds scores to single
  precision before ranking (scores closer than about 1e-7 relative then tie);
* ``default_k``: the cutoff the library applies when none is asked for
  (XGBoost's ``ndcg`` without ``@k`` counts the top 32 only).

Every attribute below was checked against the installed library (its source
code or by running it): see ``tests/test_conventions.py``, which compares each
preset with the library it names on random inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._list import ListResult, evaluate, evaluate_scores
from ._validation import InvalidInput, as_finite_numbers, as_grades

CONVENTION_TIES = ("average", "stable", "trec_eval")
IDEAL_SOURCES = ("ranking", "all_judged")


@dataclass(frozen=True)
class Convention:
    """How one library computes NDCG, as ndcg_core settings.

    Attributes
    ----------
    key : str
        Short name, the key in :data:`CONVENTIONS`.
    label : str
        The library function, e.g. ``"scikit-learn ndcg_score"``.
    library : str
        The package (as pip names it).
    gain : {"linear", "exponential"}
    ties : {"average", "stable", "trec_eval"}
    ideal : {"ranking", "all_judged"}
    zero_idcg : {"zero", "one"}
    reason : str
        One line: why these settings (what the library's code does).
    call : str
        The library call this preset reproduces.
    caveat : str or None
        Where the library's own result may differ (e.g. float32 arithmetic).
    whole_grades : bool
        The library only takes whole-number grades (it refuses or truncates 1.5),
        so :meth:`evaluate` refuses them too rather than report a number the
        library would never give.
    max_grade : int or None
        The largest grade the library accepts (LightGBM: 30, XGBoost: 31).
    score_precision : {"double", "float32"}
        The precision the library keeps scores in: with ``"float32"``, scores
        are rounded to single precision before ranking, so scores that differ
        by less than float32's resolution tie (and the tie rule decides).
    default_k : int or None
        The cutoff the library uses when the metric names none; ``k=None``
        then means this cutoff for this preset (XGBoost: 32).
    """

    key: str
    label: str
    library: str
    gain: str
    ties: str
    ideal: str
    zero_idcg: str
    reason: str
    call: str = ""
    caveat: str | None = None
    whole_grades: bool = False
    max_grade: int | None = None
    score_precision: str = "double"
    default_k: int | None = None

    def evaluate(self, relevances, scores=None, *, k=None, ideal_relevances=None, doc_ids=None) -> ListResult:
        """NDCG of one list as this library computes it.

        Parameters
        ----------
        relevances : sequence of non-negative numbers
            Grades of the documents (in ranked order when ``scores`` is None).
        scores : sequence of numbers, optional
            Model scores, one per document; the documents are ranked by
            descending score with this convention's tie rule. ``None`` keeps the
            given order.
        k : positive int or None
            Cutoff (``None``: the library's own default, ``default_k``, when it
            has one; otherwise no cutoff on the ranking nor on the ideal list,
            as everywhere in ndcg_core).
        ideal_relevances : sequence of non-negative numbers, optional
            All judged grades for the query, including documents not ranked.
            Used only when ``ideal == "all_judged"``: a ``"ranking"`` library
            sees the ranked documents alone, so extra judgments are ignored.
            For ``"all_judged"`` with ``k=None``, the ideal list is not cut
            (trec_eval's ``ndcg``, ranx with k=0).
        doc_ids : sequence of str, optional
            Document ids, for ``ties="trec_eval"``: among equal scores the
            larger id (string comparison) ranks first, as trec_eval does. Without
            ids, the later input position ranks first.
        """
        settings = {"gain": self.gain, "zero_idcg": self.zero_idcg, "log_base": 2.0,
                    "k": self.default_k if k is None else k}
        grades = as_grades(relevances, what="relevances")
        ideal = ideal_relevances if self.ideal == "all_judged" else None
        self._check_library_accepts(grades if ideal is None else np.concatenate([grades, as_grades(ideal, what="ideal_relevances")]))
        if scores is None:
            return evaluate(grades, ideal_relevances=ideal, **settings)
        if self.score_precision == "float32":  # rounded as the library stores them: near scores tie
            scores = as_finite_numbers(scores, what="scores").astype(np.float32).astype(float)
        return evaluate_scores(grades, scores, ties=self.ties, ideal_relevances=ideal,
                               doc_ids=doc_ids if self.ties == "trec_eval" else None, **settings)

    def _check_library_accepts(self, grades: np.ndarray) -> None:
        """Refuse grades the library itself refuses (or silently truncates)."""
        if self.whole_grades and not np.array_equal(grades, np.floor(grades)):
            fraction = float(grades[grades != np.floor(grades)][0])
            raise InvalidInput(
                f"{self.label} only takes whole-number grades (0, 1, 2, ...); it would refuse or truncate "
                f"the grade {fraction:g}."
            )
        if self.max_grade is not None and grades.size and grades.max() > self.max_grade:
            raise InvalidInput(
                f"{self.label} accepts grades from 0 to {self.max_grade} only; got {grades.max():g}."
            )


_LIST = [
    Convention(
        key="sklearn",
        label="scikit-learn ndcg_score",
        library="scikit-learn",
        gain="linear",
        ties="average",
        ideal="ranking",
        zero_idcg="zero",
        reason="ndcg_score uses y_true itself as the gain, averages gains over tied scores (ignore_ties=False), "
        "builds the ideal from the same y_true row, and returns 0 where IDCG is 0.",
        call="sklearn.metrics.ndcg_score([relevances], [scores], k=k)",
    ),
    Convention(
        key="trec_eval",
        label="trec_eval ndcg_cut",
        library="pytrec-eval-terrier",
        gain="linear",
        ties="trec_eval",
        ideal="all_judged",
        zero_idcg="zero",
        reason="trec_eval uses the qrels grade as the gain, sorts equal scores by document id descending, "
        "builds the ideal from every judged document of the query, and gives 0 when nothing is relevant.",
        call="trec_eval -m ndcg_cut.k qrels run (or -m ndcg without a cutoff)",
        caveat="trec_eval 10 ranks by the scores as double-precision numbers. pytrec_eval runs trec_eval's code "
        "but stores each score as a single-precision float, so scores closer than about 1e-7 (relative) tie "
        "there and are ordered by document id: see the pytrec_eval preset.",
        whole_grades=True,
    ),
    Convention(
        key="pytrec_eval",
        label="pytrec_eval ndcg_cut",
        library="pytrec-eval-terrier",
        gain="linear",
        ties="trec_eval",
        ideal="all_judged",
        zero_idcg="zero",
        reason="pytrec_eval runs trec_eval's measures (gain = grade, ties by document id descending, ideal from "
        "every judgment) on scores it keeps in single precision (float32).",
        call="pytrec_eval.RelevanceEvaluator(qrels, {'ndcg_cut.k'}) (or {'ndcg'} without a cutoff)",
        caveat="pytrec_eval keeps scores as single-precision floats: scores 1 + 1e-9 and 1 tie (then the larger "
        "document id ranks first), where trec_eval 10 ranks them apart. This preset rounds scores the same way.",
        whole_grades=True,
        score_precision="float32",
    ),
    Convention(
        key="ranx_ndcg",
        label="ranx ndcg",
        library="ranx",
        gain="linear",
        ties="stable",
        ideal="all_judged",
        zero_idcg="zero",
        reason="ranx's ndcg is the Järvelin formulation (gain = grade) with the ideal from all qrels of the "
        "query; when IDCG is 0 it divides by 1, so NDCG is 0.",
        call="ranx.evaluate(Qrels(qrels), Run(run), 'ndcg@k')",
        caveat="Inside score ties ranx's order comes from an unstable internal sort; with distinct scores it "
        "matches exactly. ranx reads grades as whole numbers (1.5 counts as 1).",
        whole_grades=True,
    ),
    Convention(
        key="ranx_ndcg_burges",
        label="ranx ndcg_burges",
        library="ranx",
        gain="exponential",
        ties="stable",
        ideal="all_judged",
        zero_idcg="zero",
        reason="ranx's ndcg_burges is the Burges formulation (gain = 2^grade - 1), otherwise as ranx's ndcg.",
        call="ranx.evaluate(Qrels(qrels), Run(run), 'ndcg_burges@k')",
        caveat="Inside score ties ranx's order comes from an unstable internal sort; with distinct scores it "
        "matches exactly. ranx reads grades as whole numbers (1.5 counts as 1).",
        whole_grades=True,
    ),
    Convention(
        key="lightgbm",
        label="LightGBM ndcg metric",
        library="lightgbm",
        gain="exponential",
        ties="stable",
        ideal="ranking",
        zero_idcg="one",
        reason="LightGBM's default label_gain is 2^i - 1, it sorts scores stably (input order in ties), takes "
        "the ideal from the query's own labels, and scores a query with no relevant document as 1.",
        call="lgb.Booster({'objective': 'lambdarank', 'metric': 'ndcg', 'ndcg_eval_at': [k]}, "
        "lgb.Dataset(X, label, group, init_score=scores)).eval_train()",
        caveat="LightGBM needs whole-number grades from 0 to 30 (its default label_gain table).",
        whole_grades=True,
        max_grade=30,
    ),
    Convention(
        key="xgboost",
        label="XGBoost ndcg@k",
        library="xgboost",
        gain="exponential",
        ties="stable",
        ideal="ranking",
        zero_idcg="one",
        reason="XGBoost's ndcg uses 2^grade - 1 (ndcg_exp_gain=true), sorts scores stably, takes the ideal from "
        "the group's own labels, and scores a group with no relevant document as 1.",
        call="xgb.train({'eval_metric': 'ndcg@k'}, DMatrix(X, label, base_margin=scores), 0).eval(dmatrix)",
        caveat="XGBoost keeps scores in float32, so scores closer than about 1e-7 tie there (this preset rounds "
        "them the same way); 'ndcg' without '@k' is not the whole list: XGBoost cuts it at 32 documents (its "
        "LambdaRankParam default), so this preset's 'no cutoff' is k = 32. Whole-number grades up to 31.",
        whole_grades=True,
        max_grade=31,
        score_precision="float32",
        default_k=32,
    ),
    Convention(
        key="xgboost_minus",
        label="XGBoost ndcg@k-",
        library="xgboost",
        gain="exponential",
        ties="stable",
        ideal="ranking",
        zero_idcg="zero",
        reason="The trailing '-' in XGBoost's 'ndcg@k-' scores a group with no relevant document as 0 "
        "instead of 1; everything else is as 'ndcg@k'.",
        call="xgb.train({'eval_metric': 'ndcg@k-'}, ...)",
        caveat="XGBoost keeps scores in float32, so scores closer than about 1e-7 tie there (this preset rounds "
        "them the same way); without '@k' XGBoost cuts the list at 32 documents, so 'no cutoff' is k = 32 here.",
        whole_grades=True,
        max_grade=31,
        score_precision="float32",
        default_k=32,
    ),
    Convention(
        key="torchmetrics",
        label="torchmetrics retrieval_normalized_dcg",
        library="torchmetrics",
        gain="linear",
        ties="average",
        ideal="ranking",
        zero_idcg="zero",
        reason="retrieval_normalized_dcg translates scikit-learn's code: target as the gain, tied predictions "
        "averaged, ideal from the same target, 0 when IDCG is 0 (RetrievalNormalizedDCG's "
        "empty_target_action='neg' also gives 0).",
        call="torchmetrics.functional.retrieval.retrieval_normalized_dcg(preds, target, top_k=k)",
        score_precision="float32",
        caveat="torchmetrics computes in float32: expect differences around 1e-7, and scores closer than "
        "float32 precision tie.",
    ),
]

CONVENTIONS: dict[str, Convention] = {convention.key: convention for convention in _LIST}
"""Library presets by key: "sklearn", "trec_eval", "pytrec_eval", "ranx_ndcg", "ranx_ndcg_burges", "lightgbm",
"xgboost", "xgboost_minus", "torchmetrics"."""

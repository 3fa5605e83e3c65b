"""One NDCG preset: :class:`Convention`, the settings that reproduce a library (or the original paper).

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
  (XGBoost's ``ndcg`` without ``@k`` counts the top 32 only);
* ``discount`` and ``log_base``: ``"log"`` (log_b(i + 1), every library) or
  ``"jk"``, the discount of Järvelin and Kekäläinen's 2002 paper (no discount
  before rank b, log_b(i) after), defined once in :mod:`ndcg_core._discounts`.

Every preset of :data:`ndcg_core.CONVENTIONS` was checked against the installed library (its source
code or by running it): see ``tests/test_conventions.py``, which compares each
preset with the library it names on random inputs. The ``"jarvelin_kekalainen_2002"``
preset follows the paper (no library): ``tests/test_jarvelin_kekalainen.py``
reproduces its printed example.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ._list import ListResult, evaluate, evaluate_scores
from ._score_order import score_order, stored_scores
from ._validation import InvalidInput, as_grades

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
    min_documents : int
        The fewest ranked documents the library scores (scikit-learn: 2; it
        raises for a list of one).
    score_precision : {"double", "float32"}
        The precision the library keeps scores in: with ``"float32"``, scores
        are rounded to single precision before ranking, so scores that differ
        by less than float32's resolution tie (and the tie rule decides).
    default_k : int or None
        The cutoff the library uses when the metric names none; ``k=None``
        then means this cutoff for this preset (XGBoost: 32).
    ideal_depth : {"cutoff", "ranking_length", "uncut"}
        Places of the ideal list that count: k (``"cutoff"``, trec_eval),
        min(k, ranking length) (``"ranking_length"``: Elasticsearch cuts the
        ideal at the number of hits returned) or all of them (``"uncut"``:
        Quepid's nDCG@10 sums the ideal over every rated document). With
        ``"uncut"`` the result's table holds the top k only.
    discount : {"log", "jk"}
        The position discount (:func:`ndcg_core.discounts`): ``"log"``,
        log_b(i + 1), for every library; ``"jk"`` for Järvelin and Kekäläinen 2002.
    log_base : float
        The base b of the discount (2 for every preset). Only under ``"jk"``
        does it change NDCG.
    source : str
        Where the settings were read, and the version ("as of ...").
    whole_list_label : str or None
        The label of the library's measure without a cutoff, when it has another
        name (trec_eval's ``ndcg``, not ``ndcg_cut``); see :meth:`label_for`.
    unstable_ties : bool
        The library orders tied scores with an unstable sort (ranx), so inside a
        tie its order, and its figure, cannot be reproduced: ``ties`` is the
        nearest rule, and :func:`ndcg_core.diagnose` checks a number labelled
        with this preset against the range over the ties' orders.
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
    min_documents: int = 1
    score_precision: str = "double"
    default_k: int | None = None
    ideal_depth: str = "cutoff"
    source: str = ""
    discount: str = "log"
    log_base: float = 2.0
    whole_list_label: str | None = None
    unstable_ties: bool = False

    def label_for(self, *, whole_list: bool) -> str:
        """The label of the measure used with a cutoff, or without one (``whole_list``).

        >>> from ndcg_core import CONVENTIONS
        >>> CONVENTIONS["trec_eval"].label_for(whole_list=True)
        'trec_eval ndcg'
        >>> CONVENTIONS["sklearn"].label_for(whole_list=True)
        'scikit-learn ndcg_score'
        """
        return self.whole_list_label if whole_list and self.whole_list_label else self.label

    def cutoff(self, k: int | None) -> int | None:
        """The cutoff this library applies when asked for ``k``: ``k`` itself, or when ``k`` is None its own
        default (``default_k``: XGBoost's 'ndcg' counts the top 32), else None (no cutoff).

        >>> from ndcg_core import CONVENTIONS
        >>> CONVENTIONS["xgboost"].cutoff(None), CONVENTIONS["xgboost"].cutoff(5), CONVENTIONS["sklearn"].cutoff(None)
        (32, 5, None)
        """
        return self.default_k if k is None else k

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
        settings = {"gain": self.gain, "zero_idcg": self.zero_idcg, "log_base": self.log_base,
                    "discount": self.discount, "k": self.cutoff(k)}
        grades = as_grades(relevances, what="relevances")
        refused = self.refusal(grades, ideal_relevances=ideal_relevances)
        if refused:
            raise InvalidInput(refused)
        ideal = self._ideal_pool(ideal_relevances)
        if self.ideal_depth == "ranking_length":  # the ideal list is cut where the ranking ends (as the DCG is)
            settings["k"] = grades.size if settings["k"] is None else min(settings["k"], grades.size)
        if self.ideal_depth == "uncut" and settings["k"] is not None:
            # Quepid: DCG over the top k, IDCG over every judged grade (not cut at k) = the top k with no cutoff
            order = np.arange(grades.size)
            if scores is not None:
                order = np.asarray(score_order(grades, scores, ties=self.ties,
                                               doc_ids=doc_ids if self.ties == "trec_eval" else None).order, dtype=int)
            pool = grades if ideal is None else ideal
            return replace(evaluate(grades[order[: settings["k"]]], ideal_relevances=pool, **{**settings, "k": None}),
                           k=settings["k"])
        if scores is None:
            return evaluate(grades, ideal_relevances=ideal, **settings)
        scores = stored_scores(scores, precision=self.score_precision)  # as the library keeps them: near scores may tie
        return evaluate_scores(grades, scores, ties=self.ties, ideal_relevances=ideal,
                               doc_ids=doc_ids if self.ties == "trec_eval" else None, **settings)

    def _ideal_pool(self, ideal_relevances):
        """The judged grades this library builds its ideal from: all of them, or (None) the ranked ones alone."""
        return ideal_relevances if self.ideal == "all_judged" else None

    def refusal(self, relevances, *, ideal_relevances=None) -> str | None:
        """Why the library would give no number of its own for these grades (it refuses them, or silently
        truncates them to others), or None. :meth:`evaluate` raises ``InvalidInput`` with this message.
        ``ideal_relevances`` (every judged grade) count only for a library whose ideal is built from them.

        >>> from ndcg_core import CONVENTIONS
        >>> CONVENTIONS["trec_eval"].refusal([1.5, 0, 2])
        'trec_eval ndcg_cut only takes whole-number grades (0, 1, 2, ...); it would refuse or truncate the grade 1.5.'
        >>> CONVENTIONS["sklearn"].refusal([1.5, 0, 2]) is None
        True
        """
        ranked = as_grades(relevances, what="relevances")
        ideal_relevances = self._ideal_pool(ideal_relevances)
        grades = ranked if ideal_relevances is None else np.concatenate(
            [ranked, as_grades(ideal_relevances, what="ideal_relevances")])
        if self.whole_grades and not np.array_equal(grades, np.floor(grades)):
            fraction = float(grades[grades != np.floor(grades)][0])
            return (f"{self.label} only takes whole-number grades (0, 1, 2, ...); it would refuse or truncate "
                    f"the grade {fraction:g}.")
        if self.max_grade is not None and grades.size and grades.max() > self.max_grade:
            return f"{self.label} accepts grades from 0 to {self.max_grade} only; got {grades.max():g}."
        if ranked.size < self.min_documents:
            return (f"{self.label} refuses a list of {ranked.size} document{'s' if ranked.size != 1 else ''} "
                    f"(it needs at least {self.min_documents}).")
        return None


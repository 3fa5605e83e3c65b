"""ndcg_core: CG, DCG, IDCG and NDCG, with every convention spelled out.

Pure computation (numpy and pandas only). Public API:

* :func:`evaluate` - one ranked list of grades.
* :func:`evaluate_scores` - one list ranked by scores, with a tie rule.
* :func:`tie_band` - lowest, expected and highest NDCG over every order of tied scores.
* :func:`diagnose` - which conventions reproduce the NDCG numbers you got.
* :data:`BATTERY`, :func:`battery_json`, :func:`battery_csv`, :func:`check_implementation` - the conformance
  battery and the check of a user's outputs against it.
* :func:`incomplete_judgments` - condensed-list NDCG (Sakai 2007), judged@k and bounds for unjudged documents;
  :func:`incomplete_run` - the same for every query of a run, vectorised.
* :func:`winner_grid` - does a convention flip which of two rankers wins?
  :func:`run_winner_grid` - the same for two runs, tie rule included, vectorised over queries.
* :func:`score_order` - the order of a list by its scores under a tie rule, and its tie groups.
* :func:`evaluate_run` - many queries at once (a TREC run), vectorised;
  :func:`encode_run` prepares a run once (an :class:`EncodedRun` the caller
  keeps) for several evaluations; :func:`ranked_query` gives one query of a
  run as the list :func:`evaluate` takes.
* :func:`check_grades` - the grade check for a given gain; :func:`ideal_order`
  and :func:`worst_order` - the best and the worst order of grades.

``k=None`` means "no cutoff" everywhere: DCG over the whole ranking, IDCG
over every judged grade.
* :func:`read_qrels`, :func:`read_run`, :func:`read_table` - file readers.
* :data:`CONVENTIONS` - presets reproducing popular libraries.
* :data:`WORKED_EXAMPLES` - the worked examples of the source documents.
* :class:`InvalidInput` - raised for every refused input.
"""

from ._battery import (
    BATTERY,
    TestVector,
    battery_csv,
    battery_expected,
    battery_json,
    evaluate_as_read,
    read_outputs,
    read_words,
)
from ._battery_check import ImplementationCheck, Mismatch, check_implementation
from ._compare import AggregateGap, Comparison, aggregate_gap, compare_runs
from ._conventions import CONVENTIONS, Convention
from ._diagnose import Diagnosis, Finding, Match, calculation_table, diagnose
from ._discounts import discounts
from ._encoded_run import EncodedRun, encode_run
from ._examples import WORKED_EXAMPLES, WorkedExample
from ._flips import winner_grid
from ._gains import check_gain, check_grades, gains_of
from ._ideal import ideal_order, worst_order
from ._incomplete import IncompleteJudgments, incomplete_judgments
from ._incomplete_run import incomplete_run, incomplete_summary
from ._io import read_qrels, read_run, read_table
from ._list import ListResult, evaluate, evaluate_scores
from ._ranked_query import RankedQuery, ranked_query
from ._run_flips import RunRatios, run_ratios, run_winner_grid
from ._runs import RunResult, evaluate_run, ndcg_curve
from ._score_order import ScoreOrder, score_order
from ._tie_band import TieBand, tie_band
from ._ties import TIE_RULES
from ._validation import InvalidInput

__all__ = [
    "AggregateGap",
    "Comparison",
    "aggregate_gap",
    "compare_runs",
    "InvalidInput",
    "ListResult",
    "discounts",
    "evaluate",
    "evaluate_scores",
    "TieBand",
    "tie_band",
    "Diagnosis",
    "Finding",
    "Match",
    "calculation_table",
    "diagnose",
    "winner_grid",
    "run_winner_grid",
    "RunRatios",
    "run_ratios",
    "ScoreOrder",
    "score_order",
    "IncompleteJudgments",
    "incomplete_judgments",
    "incomplete_run",
    "incomplete_summary",
    "BATTERY",
    "TestVector",
    "battery_csv",
    "battery_expected",
    "battery_json",
    "read_outputs",
    "evaluate_as_read",
    "read_words",
    "ImplementationCheck",
    "Mismatch",
    "check_implementation",
    "evaluate_run",
    "RunResult",
    "EncodedRun",
    "encode_run",
    "RankedQuery",
    "ranked_query",
    "check_grades",
    "ideal_order",
    "worst_order",
    "TIE_RULES",
    "ndcg_curve",
    "read_qrels",
    "read_run",
    "read_table",
    "check_gain",
    "gains_of",
    "CONVENTIONS",
    "Convention",
    "WORKED_EXAMPLES",
    "WorkedExample",
]

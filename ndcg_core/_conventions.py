"""The presets: :data:`CONVENTIONS`, what popular libraries (and the original paper) compute for NDCG.

Each is a :class:`~ndcg_core._convention.Convention` (its attributes, and how it
evaluates a list, are documented there); each cites its source and version.
"""

from __future__ import annotations

from ._convention import CONVENTION_TIES, IDEAL_SOURCES, Convention

__all__ = ["CONVENTIONS", "CONVENTION_TIES", "IDEAL_SOURCES", "Convention"]

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
        source="scikit-learn sklearn/metrics/_ranking.py (ndcg_score, _dcg_sample_scores, _tie_averaged_dcg), as of "
        "scikit-learn 1.9.1 (tested against the installed package).",
        min_documents=2,  # ndcg_score: "Computing NDCG is only meaningful when there is more than 1 document"
    ),
    Convention(
        key="trec_eval",
        label="trec_eval ndcg_cut",
        whole_list_label="trec_eval ndcg",
        library="pytrec-eval-terrier",
        gain="linear",
        ties="trec_eval",
        ideal="all_judged",
        zero_idcg="zero",
        reason="trec_eval uses the qrels grade as the gain, sorts equal scores by document id descending, "
        "builds the ideal from every judged document of the query, and gives 0 when nothing is relevant.",
        call="trec_eval -m ndcg_cut.k qrels run (or -m ndcg without a cutoff)",
        source="usnistgov/trec_eval m_ndcg_cut.c and m_ndcg.c (gains from the qrels, ideal from every judgment), "
        "form_res_rels.c (equal scores sorted by docno descending), as of trec_eval 9.0.x-10; tested through the "
        "trec_eval code pytrec_eval-terrier 0.5.11 runs, with double-precision scores.",
        caveat="trec_eval 10 ranks by the scores as double-precision numbers. pytrec_eval runs trec_eval's code "
        "but stores each score as a single-precision float, so scores closer than about 1e-7 (relative) tie "
        "there and are ordered by document id: see the pytrec_eval preset.",
        whole_grades=True,
    ),
    Convention(
        key="pytrec_eval",
        label="pytrec_eval ndcg_cut",
        whole_list_label="pytrec_eval ndcg",
        library="pytrec-eval-terrier",
        gain="linear",
        ties="trec_eval",
        ideal="all_judged",
        zero_idcg="zero",
        reason="pytrec_eval runs trec_eval's measures (gain = grade, ties by document id descending, ideal from "
        "every judgment) on scores it keeps in single precision (float32).",
        call="pytrec_eval.RelevanceEvaluator(qrels, {'ndcg_cut.k'}) (or {'ndcg'} without a cutoff)",
        source="pytrec_eval src/pytrec_eval.cpp (scores stored as float) over trec_eval's m_ndcg_cut.c, as of "
        "pytrec_eval-terrier 0.5.11 (tested against the installed package).",
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
        source="ranx ranx/metrics/ndcg.py (_dcg and _idcg, jarvelin gain), as of ranx 0.3.21 (tested against the "
        "installed package).",
        caveat="Inside score ties ranx's order comes from an unstable internal sort; with distinct scores it "
        "matches exactly. ranx reads grades as whole numbers (1.5 counts as 1).",
        whole_grades=True,
        unstable_ties=True,
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
        source="ranx ranx/metrics/ndcg.py (_dcg and _idcg, burges gain), as of ranx 0.3.21 (tested against the "
        "installed package).",
        caveat="Inside score ties ranx's order comes from an unstable internal sort; with distinct scores it "
        "matches exactly. ranx reads grades as whole numbers (1.5 counts as 1).",
        whole_grades=True,
        unstable_ties=True,
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
        "lgb.Dataset(X, label=relevances, group=[len(relevances)], init_score=scores)).eval_train()",
        caveat="LightGBM needs whole-number grades from 0 to 30 (its default label_gain table).",
        whole_grades=True,
        max_grade=30,
        source="LightGBM src/metric/rank_metric.hpp (NDCGMetric: a query with no relevant document scores 1) and "
        "src/metric/dcg_calculator.cpp (DCGCalculator: default label_gain 2^i - 1, stable sort of the scores), as of "
        "LightGBM 4.7.0 (tested against the installed package).",
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
        source="XGBoost src/metric/rank_metric.cc (EvalNDCG) and src/common/ranking_utils.h (LambdaRankParam: "
        "ndcg_exp_gain and the default truncation of 32 documents), as of XGBoost 3.2.0 "
        "(tested against the installed package).",
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
        source="XGBoost src/metric/rank_metric.cc (EvalNDCG) and src/common/ranking_utils.h (LambdaRankParam: "
        "ndcg_exp_gain and the default truncation of 32 documents), as of XGBoost 3.2.0 "
        "(tested against the installed package).",
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
        source="torchmetrics src/torchmetrics/functional/retrieval/ndcg.py (retrieval_normalized_dcg, "
        "_tie_average_dcg), as of torchmetrics 1.9.0 (tested against the installed package).",
    ),
]

# Presets added with the diagnosis (issue 13): each cites the source it follows and its version.
_LIST += [
    Convention(
        key="ir_measures",
        label="ir_measures nDCG",
        library="ir-measures",
        gain="linear",
        ties="trec_eval",
        ideal="all_judged",
        zero_idcg="zero",
        reason="ir_measures evaluates nDCG and nDCG@k with its pytrec_eval provider, so it is trec_eval's ndcg / "
        "ndcg_cut: gain = grade, ties by document id descending, ideal from every judged document.",
        call="ir_measures.calc_aggregate([ir_measures.nDCG @ k], qrels, run)",
        caveat="Through pytrec_eval, scores are kept as single-precision floats: scores 1 + 1e-9 and 1 tie (then "
        "the larger document id ranks first); this preset rounds scores the same way. nDCG(judged_only=True) "
        "removes unjudged documents first (the condensed list, ndcg_core.incomplete_judgments); "
        "nDCG(gains={...}) maps grades to custom gains.",
        whole_grades=True,
        score_precision="float32",
        source="as of ir_measures 0.4.3 (PyPI), default provider pytrec_eval; tested against the installed package.",
    ),
    Convention(
        key="trec_gdeval",
        label="TREC Web Track gdeval.pl",
        library="gdeval.pl (Perl script from the TREC 2010-2014 Web Track; not on PyPI)",
        gain="exponential",
        ties="trec_eval",
        ideal="all_judged",
        zero_idcg="skip",
        reason="gdeval's sub dcg adds (2^judgment - 1) / log(rank + 1), its run order is score descending then "
        "docno descending, the ideal comes from every positive judgment in the qrels, and a topic with no "
        "relevant document is left out of the mean.",
        call="perl gdeval.pl qrels run   (ndcg@20; version 1.3 takes -k)",
        caveat="It reports @20 unless told otherwise; judgments above 4 are refused and negative ones count as 0; "
        "natural-log discount (the same NDCG as log2).",
        whole_grades=True,
        max_grade=4,
        source="gdeval.pl version 1.2 (12 Oct 2010) and 1.3 (29 Apr 2013): sub dcg, sub runOrder, qrels reading.",
    ),
    Convention(
        key="es_rank_eval",
        label="Elasticsearch / OpenSearch rank_eval dcg (normalize: true)",
        library="elasticsearch (server); opensearch (fork)",
        gain="exponential",
        ties="stable",
        ideal="all_judged",
        zero_idcg="zero",
        ideal_depth="ranking_length",
        reason="DiscountedCumulativeGain.computeDCG adds (2^rating - 1) / log2(rank + 1) over the hits in the "
        "order the search returned them; with normalize the ideal is every rated document of the request, "
        "sorted and cut at the number of hits; IDCG = 0 gives 0.",
        call='POST /index/_rank_eval {"metric": {"dcg": {"k": k, "normalize": true}}, "requests": [...]}',
        caveat="Unrated hits count 0 unless unknown_doc_rating is set; k defaults to 10 and the search returns at "
        "most k hits, so the ideal is cut at min(k, hits returned).",
        whole_grades=True,
        source="elasticsearch modules/rank-eval/src/main/java/org/elasticsearch/index/rankeval/"
        "DiscountedCumulativeGain.java, evaluate() and computeDCG(), as of Elasticsearch 7.x-8.x "
        "(OpenSearch 1.x-2.x keeps the same code).",
    ),
    Convention(
        key="keras_rs",
        label="Keras-RS nDCG / TF-Ranking NDCGMetric",
        library="keras-rs; tensorflow-ranking",
        gain="exponential",
        ties="stable",
        ideal="ranking",
        zero_idcg="zero",
        reason="default_gain_fn is 2^label - 1 and default_rank_discount_fn 1 / log2(rank + 1); the ideal comes "
        "from the same list's labels and a list with no relevant item scores 0 (divide_no_nan).",
        call="keras_rs.metrics.NDCG(k=k)(y_true, y_pred)  /  tfr.keras.metrics.NDCGMetric(topn=k)",
        caveat="Score ties are broken at random by default (shuffle_ties=True): with tied scores expect any value "
        "of the tie band (ndcg_core.tie_band); with shuffle_ties=False the input order is kept, as here.",
        source="keras-rs keras_rs/src/metrics/ranking_metrics_utils.py (sort_by_scores, default_gain_fn, "
        "default_rank_discount_fn), as of keras-rs 0.2 (2025); TF-Ranking 0.5 utils.py has the same defaults.",
    ),
]

_LIST.append(
    Convention(
        key="quepid",
        label="Quepid nDCG@10",
        library="Quepid (web application; scorer db/scorers/ndcg@10.js)",
        gain="exponential",
        ties="stable",
        ideal="all_judged",
        zero_idcg="zero",
        ideal_depth="uncut",
        default_k=10,
        reason="The nDCG@10 scorer adds (2^rating - 1) / log2(rank + 1) over the first 10 results (an unrated one "
        "counts 0), builds the ideal from every rated document of the query and sums it over all of them, not "
        "only 10; a query with nothing rated relevant scores 0.",
        call="Quepid case -> Select scorer 'nDCG@10' (the @Rank line sets k)",
        caveat="Before its fix the scorer took the ideal from the top 10 results' own ratings with gain = rating; "
        "cases scored then show the older figure.",
        whole_grades=True,
        source="o19s/quepid db/scorers/ndcg@10.js, the version with eachDocWithRating and "
        "DCG(ideal, ideal.length) (2025); the earlier version used topRatings(k) and linear gain.",
    )
)

# The original definition (issue 13): no library, the paper itself.
_LIST.append(
    Convention(
        key="jarvelin_kekalainen_2002",
        label="Järvelin–Kekäläinen 2002 DCG",
        library="none (the paper: Järvelin and Kekäläinen, ACM TOIS 20(4), 2002)",
        gain="linear",
        ties="stable",
        ideal="all_judged",
        zero_idcg="zero",
        discount="jk",
        log_base=2.0,
        reason="The paper's DCG adds the grade itself (its gain vector G) without discount before rank b and "
        "divided by log_b(rank) from rank b on (b = 2 in its examples, so ranks 1 and 2 count in full); the "
        "ideal vector is every judged document of the query (the recall base) sorted by grade, descending.",
        call="ndcg_core.evaluate(grades, gain='linear', discount='jk', log_base=2, ideal_relevances=judged)",
        caveat="The paper does not say how to order documents with equal scores (this preset keeps the input "
        "order) nor what the normalised figure is when the ideal DCG is 0 (undefined there; 0 here). b = 10 "
        "would model a more patient user, and gives another NDCG: under this discount NDCG depends on b.",
        source="K. Järvelin and J. Kekäläinen, \"Cumulated gain-based evaluation of IR techniques\", ACM TOIS "
        "20(4), 2002, pp. 422-446: section 2.2 (the DCG recursion, b = 2) and its example G' = <3, 2, 3, 0, 0, 1, 2, "
        "2, 3, 0, ...>, DCG' = <3, 5, 6.89, 6.89, 6.89, 7.28, 7.99, 8.66, 9.61, 9.61, ...>; as of the 2002 paper.",
    )
)

CONVENTIONS: dict[str, Convention] = {convention.key: convention for convention in _LIST}
"""Presets by key: "sklearn", "trec_eval", "pytrec_eval", "ranx_ndcg", "ranx_ndcg_burges", "lightgbm", "xgboost",
"xgboost_minus", "torchmetrics", and (issue 13) "ir_measures", "trec_gdeval", "es_rank_eval", "keras_rs", "quepid",
"jarvelin_kekalainen_2002" (the paper's own DCG, discount "jk")."""

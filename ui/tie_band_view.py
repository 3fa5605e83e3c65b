"""The tie band: how far tied scores alone can move NDCG, with each library's value marked inside it.

``tie_band_rows`` gathers the figures from ``ndcg_core.tie_band`` and the presets; ``show_tie_band``
draws them (one bar per gain x ideal-list setting). Any page with grades and scores can call
``show_tie_band(grades, scores, k=..., judged=..., doc_ids=...)``.
"""

from __future__ import annotations

import textwrap

import plotly.graph_objects as go
import streamlit as st

import ndcg_core
from ui import present
from ui.chart_style import base_layout, spec_figure
from ui.formatting import grouped, preset_discount_words
from ui.widgets import plain

GAIN_WORDS = {"linear": "gain = grade", "exponential": "gain = 2^grade − 1"}
IDEAL_WORDS = {"ranking": "ideal from the ranked list", "all_judged": "ideal from every judgment"}
# With no judged document outside the ranking both ideal sources are one list, and every library shares one row:
# naming one source put the libraries that take the other under it.
ONE_IDEAL = "one ideal list (every judged document is ranked)"
LABEL_CHARS = 42  # a row's label, wrapped to lines that fit a 390 px phone's chart


def _own_cutoff(convention: ndcg_core.Convention, k: int | None, grades, judged) -> int | None:
    """The cutoff a library applies when none is asked for (XGBoost's 'ndcg': 32) if it cuts these lists, else None.

    Its figure then lies in the band of that cutoff, not in the uncut one (drawn there, a dot could sit outside the
    range of every tie order)."""
    if k is not None:
        return None
    seen = len(grades) if convention.ideal == "ranking" or judged is None else max(len(grades), len(judged))
    cut = convention.cutoff(k)
    return cut if cut is not None and cut < seen else None


def tie_band_rows(grades, scores, *, k=None, judged=None, doc_ids=None) -> list[dict]:
    """One row per (gain, ideal source[, discount][, cutoff]): the band and the presets of that setting with their
    values.

    Rows use the usual log discount and the cutoff ``k``; a preset with another discount (Järvelin–Kekäläinen 2002),
    or one that cuts the list at its own default when ``k`` is None (XGBoost's 32), gets a row of its own, since its
    figure lies in a different band.
    """
    extra = judged is not None and len(judged) > len(grades)
    presets = ndcg_core.CONVENTIONS.values()
    own_cuts = {c.key: _own_cutoff(c, k, grades, judged) for c in presets}
    other = sorted({(c.discount, c.log_base, c.gain, None) for c in presets if c.discount != "log"})
    cut = sorted({(c.discount, c.log_base, c.gain, own_cuts[c.key]) for c in presets
                  if own_cuts[c.key] is not None and c.ideal_depth == "cutoff"})
    settings = [("log", 2.0, gain, None) for gain in ("linear", "exponential")] + other + cut
    rows = []
    for ideal in ("ranking", "all_judged") if extra else ("ranking",):
        pool = list(judged) if ideal == "all_judged" else None
        for discount, base, gain, own_cut in settings:
            # with no cutoff a library that sees every judgment keeps all of them in the ideal list
            depth = own_cut or (max(len(grades), len(judged)) if (k is None and pool is not None) else k)
            try:
                band = ndcg_core.tie_band(grades, scores, k=depth, gain=gain, ideal_relevances=pool,
                                          discount=discount, log_base=base)
            except ndcg_core.InvalidInput:
                continue  # a gain these grades cannot take (2^1e300 overflows): that setting has no band
            markers = {}
            for convention in ndcg_core.CONVENTIONS.values():
                # without extra judgments both ideal sources are the same list
                same_ideal = not extra or (convention.ideal == "all_judged") == (ideal == "all_judged")
                # under the log discount the base leaves NDCG unchanged; under Järvelin–Kekäläinen's it does not
                same_discount = convention.discount == discount and (discount == "log" or convention.log_base == base)
                same_cut = own_cuts[convention.key] == own_cut
                if (convention.gain != gain or not same_ideal or not same_discount or not same_cut
                        or convention.ideal_depth != "cutoff"):
                    continue  # its figure belongs to another band
                try:
                    result = convention.evaluate(grades, scores, k=k, ideal_relevances=judged, doc_ids=doc_ids)
                except ndcg_core.InvalidInput:
                    continue  # the library refuses these grades
                if result.idcg > 0 or convention.zero_idcg == "zero":  # the band gives 0 when IDCG is 0
                    markers[convention.label] = result.ndcg
            if markers or (discount == "log" and own_cut is None):
                words = "" if discount == "log" else f", {preset_discount_words(discount, base, short=True)}"
                words += "" if own_cut is None else f", cut at {own_cut} (the library's default)"
                ideal_words = IDEAL_WORDS[ideal] if extra else ONE_IDEAL
                rows.append({"setting": f"{GAIN_WORDS[gain]}, {ideal_words}{words}", "band": band,
                             "markers": markers})
    return rows


def show_tie_band(grades, scores, *, k=None, judged=None, doc_ids=None, key: str = "tie_band") -> None:
    """The band chart and a one-line reading, or nothing when no scores tie."""
    rows = tie_band_rows(grades, scores, k=k, judged=judged, doc_ids=doc_ids)
    if not rows:  # no gain can take these grades (1e308 twice: even their linear DCG overflows)
        return
    band = rows[0]["band"]
    if band.tied_groups == 0:
        return
    st.markdown("### The tie band")
    st.caption(
        f"{band.tied_documents} documents share a score with another ({band.tied_groups} tied group"
        f"{'s' if band.tied_groups > 1 else ''}, {grouped(band.orders)} possible orders). Each bar runs from the worst to the "
        "best order of the ties; the diamond is the average over all orders (scikit-learn's value); dots mark each "
        "library's own tie rule."
    )
    present.plotly_chart(tie_band_chart(rows), key=key, config={"displayModeBar": False}, theme=None)
    widest = max(rows, key=lambda row: row["band"].width)
    st.caption(plain(f"With {widest['setting']}, the tie order alone moves NDCG from {widest['band'].low:.4f} to "
                     f"{widest['band'].high:.4f}."))


def tie_band_chart(rows: list[dict]) -> go.Figure:
    """One bar per row of :func:`tie_band_rows`: the band, its average (diamond) and each library's value (dots)."""
    data = []
    for row in rows:
        b = row["band"]
        labels = list(row["markers"])
        data += [
            {"type": "scatter", "x": [b.low, b.high], "y": [row["setting"]] * 2, "mode": "lines",
             "line": {"width": 14, "color": "#BFD7EA"}, "showlegend": False, "hoverinfo": "skip"},
            {"type": "scatter", "x": [b.expected], "y": [row["setting"]], "mode": "markers",
             "name": "average over orders", "marker": {"symbol": "diamond", "size": 12, "color": "#1f4e79"},
             "showlegend": False, "hovertemplate": "expected %{x:.4f}<extra></extra>"},
            {"type": "scatter", "x": [row["markers"][name] for name in labels], "y": [row["setting"]] * len(labels),
             "mode": "markers", "text": labels, "marker": {"size": 9, "color": "#E07B39"}, "showlegend": False,
             "hovertemplate": "%{text}: %{x:.4f}<extra></extra>"},
        ]
    # Each row's setting is written above its bar, wrapped, across the chart's width: as tick labels beside the
    # bars (up to 100 characters) they took two thirds of a laptop's chart and, on a phone, ran off its left edge
    # ("list (every judged document is ranked)", the gain cut off) beside a plot ~60 px wide.
    layout = base_layout(title="", x_title="NDCG", y_title="", height=60 + 80 * len(rows),
                         margin={"l": 10, "r": 10, "t": 10, "b": 30}, xaxis={"range": [0, 1.02]},
                         yaxis={"showticklabels": False})
    layout["annotations"] = [
        {"x": 0, "xref": "paper", "xanchor": "left", "y": row["setting"], "yanchor": "bottom", "yshift": 9,
         "text": "<br>".join(textwrap.wrap(row["setting"], LABEL_CHARS)), "showarrow": False, "align": "left"}
        for row in rows
    ]
    return spec_figure(data, layout)

"""The metric settings every page shares, shown in the sidebar and mirrored to the URL.

One canonical :class:`MetricSettings` lives in ``st.session_state["settings"]``.
``app.py`` calls :func:`settings_sidebar` before running the page, so the same
widgets (and values) appear on every page; pages read :func:`current_settings`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import pandas as pd
import streamlit as st

import ndcg_core
from ui import ensure_app_shell

STATE_KEY = "settings"
PENDING_KEY = "settings_pending"  # settings set after the sidebar was drawn
NOTICE_KEY = "settings_notice"  # (why, before, after): settings a page changed, shown until the user changes them
GAIN_LABELS = {
    "exponential": "Exponential: 2^grade − 1",
    "linear": "Linear: gain = grade",
    "custom": "Custom table: grade → gain",
}
LOG_BASES = {"2": 2.0, "e": math.e, "10": 10.0}
ZERO_IDCG_LABELS = {
    "zero": "0 (scikit-learn, trec_eval)",
    "one": "1 (LightGBM, XGBoost)",
    "skip": "Skip (left out of averages)",
    "error": "Refuse (show an error)",
}
DEFAULT_GAIN_TABLE: tuple[tuple[float, float], ...] = ((0.0, 0.0), (1.0, 1.0), (2.0, 3.0), (3.0, 7.0), (4.0, 15.0))


@dataclass(frozen=True)
class MetricSettings:
    """Gain, log base, cutoff and zero-IDCG rule, as chosen in the sidebar."""

    gain: str = "exponential"
    gain_table: tuple[tuple[float, float], ...] = DEFAULT_GAIN_TABLE
    log_base: str = "2"
    k: int | None = None
    zero_idcg: str = "zero"

    def gain_spec(self) -> str | dict[float, float]:
        """The ``gain`` argument for ndcg_core."""
        return dict(self.gain_table) if self.gain == "custom" else self.gain

    def kwargs(self) -> dict:
        """Keyword arguments for ``ndcg_core.evaluate`` and friends."""
        return {"k": self.k, "gain": self.gain_spec(), "log_base": LOG_BASES[self.log_base], "zero_idcg": self.zero_idcg}

    def describe(self) -> str:
        """A one-line summary such as 'exponential gain, log2, k = 5, IDCG 0 → 0'."""
        cutoff = "whole list" if self.k is None else f"k = {self.k}"
        return f"{self.gain} gain · log base {self.log_base} · {cutoff} · IDCG = 0 → {self.zero_idcg}"


def current_settings() -> MetricSettings:
    """The session's settings (defaults until the sidebar has run)."""
    ensure_app_shell()  # a page run without app.py (Streamlit's legacy pages/ mode) reruns through it
    return st.session_state.get(STATE_KEY, MetricSettings())


def set_settings(settings: MetricSettings, *, announce: str | None = None) -> None:
    """Replace the session's settings (e.g. when a worked example is opened); widgets follow on the next run.

    With ``announce`` (what caused the change, e.g. "worked example 003"), a change is never silent: the
    sidebar says what changed and why, until the user changes a setting.
    """
    before = current_settings()
    if announce and settings != before:
        st.session_state[NOTICE_KEY] = (announce, before, settings, False)
    st.session_state[STATE_KEY] = settings
    try:
        _push_to_widgets(settings)
    except st.errors.StreamlitAPIException:
        # The sidebar's widgets were already drawn in this run (a page's button, before st.switch_page):
        # they cannot change now, so the sidebar applies these settings at the start of the next run.
        st.session_state[PENDING_KEY] = settings


def _push_to_widgets(settings: MetricSettings) -> None:
    st.session_state["settings_gain"] = settings.gain
    st.session_state["settings_log_base"] = settings.log_base
    st.session_state["settings_k"] = settings.k
    st.session_state["settings_zero_idcg"] = settings.zero_idcg
    st.session_state["settings_gain_table_df"] = _table_frame(settings.gain_table)
    st.session_state.pop("settings_gain_table", None)


def _table_frame(table: tuple[tuple[float, float], ...]) -> pd.DataFrame:
    return pd.DataFrame(table, columns=["grade", "gain"])


def settings_sidebar() -> MetricSettings:
    """Draw the settings in the sidebar and return the canonical settings."""
    if STATE_KEY not in st.session_state:
        set_settings(_from_query_params())
    pending = st.session_state.pop(PENDING_KEY, None)
    if pending is not None:
        set_settings(pending)
    with st.sidebar:
        st.header("Metric settings")
        _show_notice()
        gain = st.radio(
            "Gain",
            list(GAIN_LABELS),
            format_func=GAIN_LABELS.get,
            key="settings_gain",
            help=(
                "How a grade becomes a gain. Exponential (2^grade − 1) rewards highly relevant documents much more: "
                "documents 000, 002 and 004, LightGBM, XGBoost, ranx ndcg_burges. Linear (gain = grade): documents "
                "001 and 003, scikit-learn, trec_eval, ranx ndcg. A custom table sets any gain per grade "
                "(trec_eval gain levels, LightGBM label_gain, the customGain list of document 000)."
            ),
        )
        table = _gain_table_editor() if gain == "custom" else current_settings().gain_table
        log_base = st.radio(
            "Log base of the discount",
            list(LOG_BASES),
            horizontal=True,
            key="settings_log_base",
            help=(
                "The gain at rank i is divided by log_b(i + 1). Base 2 is usual (all libraries); document 000's "
                "code uses the natural log (e). DCG and IDCG change with the base, NDCG never does: the base "
                "scales both by the same factor."
            ),
        )
        k = st.number_input(
            "Cutoff k (empty = whole list)",
            min_value=1,
            max_value=100_000,
            step=1,
            value=None,
            placeholder="whole list",
            key="settings_k",
            help=(
                "Only the top k positions count (NDCG@k). Empty evaluates the whole ranking. The ideal list is cut "
                "at k too; with extra judged documents and k beyond the ranking, IDCG@k includes them (trec_eval's "
                "ndcg_cut)."
            ),
        )
        zero_idcg = st.selectbox(
            "NDCG when IDCG = 0",
            list(ZERO_IDCG_LABELS),
            format_func=ZERO_IDCG_LABELS.get,
            key="settings_zero_idcg",
            help=(
                "If no judged document is relevant, IDCG is 0 and NDCG = 0/0. scikit-learn and trec_eval report 0, "
                "LightGBM and XGBoost report 1; 'skip' leaves such queries out of dataset averages."
            ),
        )
    settings = MetricSettings(gain=gain, gain_table=table, log_base=log_base, k=k, zero_idcg=zero_idcg)
    st.session_state[STATE_KEY] = settings
    _to_query_params(settings)
    return settings


def _gain_table_editor() -> tuple[tuple[float, float], ...]:
    """Edit the custom gain table; an invalid edit keeps the previous table and says why."""
    previous = current_settings().gain_table
    edited = st.data_editor(
        st.session_state.get("settings_gain_table_df", _table_frame(previous)),
        num_rows="dynamic",
        hide_index=True,
        key="settings_gain_table",
        column_config={
            "grade": st.column_config.NumberColumn("Grade", min_value=0, step=1),
            "gain": st.column_config.NumberColumn("Gain", min_value=0),
        },
        use_container_width=True,
    )
    try:
        rows = edited.dropna(how="all")
        if rows.isna().any().any():
            raise ndcg_core.InvalidInput("Every row of the gain table needs both a grade and a gain.")
        if rows["grade"].duplicated().any():
            raise ndcg_core.InvalidInput("Each grade may appear only once in the gain table.")
        table = ndcg_core.check_gain(dict(zip(rows["grade"].tolist(), rows["gain"].tolist(), strict=True)))
    except (ndcg_core.InvalidInput, TypeError, ValueError) as error:
        st.error(f"Gain table not applied: {error}", icon="⚠️")
        return previous
    return tuple(sorted((float(g), float(v)) for g, v in table.items()))


def _changes(before: MetricSettings, after: MetricSettings) -> str:
    """The settings that differ, in the sidebar's words, e.g. 'gain exponential → linear; cutoff k whole list → 6'."""
    def words(settings: MetricSettings) -> dict[str, str]:
        gain = "custom table" if settings.gain == "custom" else settings.gain
        table = ", ".join(f"{g:g}→{v:g}" for g, v in settings.gain_table) if settings.gain == "custom" else None
        return {"gain": gain, "gain table": table, "log base": settings.log_base,
                "cutoff k": "whole list" if settings.k is None else str(settings.k),
                "NDCG when IDCG = 0": ZERO_IDCG_LABELS[settings.zero_idcg]}
    old, new = words(before), words(after)
    return "; ".join(f"{name} {old[name] or '—'} → {new[name]}" for name in new if new[name] != old[name] and new[name])


def _show_notice() -> None:
    """Say which settings a page changed (a toast once, a note in the sidebar while they still hold)."""
    notice = st.session_state.get(NOTICE_KEY)
    if notice is None:
        return
    why, before, after, toasted = notice
    if current_settings() != after:  # the user has changed a setting since: the note no longer applies
        del st.session_state[NOTICE_KEY]
        return
    message = f"Settings changed to match {why}: {_changes(before, after)}."
    if not toasted:
        st.toast(message, icon=":material/tune:")
        st.session_state[NOTICE_KEY] = (why, before, after, True)
    st.info(message, icon=":material/tune:")


# --- URL mirroring -----------------------------------------------------------------------------------------

def settings_to_params(settings: MetricSettings) -> dict[str, str]:
    """The query parameters that describe ``settings`` (as used in share links)."""
    params = {"gain": settings.gain, "base": settings.log_base, "z": settings.zero_idcg}
    if settings.k is not None:
        params["k"] = str(settings.k)
    if settings.gain == "custom":
        params["gt"] = ",".join(f"{g:g}:{v:g}" for g, v in settings.gain_table)
    return params


def _to_query_params(settings: MetricSettings) -> None:
    params = settings_to_params(settings)
    params.setdefault("k", "")
    for name, value in params.items():
        if value == "":
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != value:
            st.query_params[name] = value
    if settings.gain != "custom" and "gt" in st.query_params:
        del st.query_params["gt"]


def _from_query_params() -> MetricSettings:
    """Settings from the URL; anything malformed falls back to its default with a warning."""
    defaults = MetricSettings()
    params = st.query_params
    problems: list[str] = []
    settings = defaults

    gain = params.get("gain")
    if gain is not None:
        if gain in GAIN_LABELS:
            settings = replace(settings, gain=gain)
        else:
            problems.append("gain")
    base = params.get("base")
    if base is not None:
        if base in LOG_BASES:
            settings = replace(settings, log_base=base)
        else:
            problems.append("log base")
    k = params.get("k")
    if k is not None and k != "":
        if k.isdigit() and 1 <= int(k) <= 100_000:
            settings = replace(settings, k=int(k))
        else:
            problems.append("k")
    zero = params.get("z")
    if zero is not None:
        if zero in ZERO_IDCG_LABELS:
            settings = replace(settings, zero_idcg=zero)
        else:
            problems.append("zero-IDCG rule")
    table = params.get("gt")
    if table is not None:
        parsed = parse_gain_table_param(table)
        if parsed is None:
            problems.append("gain table")
        else:
            settings = replace(settings, gain_table=parsed)
    if problems:
        # Shown until the settings change, so every page the link opens says why a default was used.
        st.session_state["settings_url_warning"] = (
            f"The link's {', '.join(problems)} could not be read, so the default was used.", settings
        )
    return settings


def parse_gain_table_param(text: str) -> tuple[tuple[float, float], ...] | None:
    """Parse 'grade:gain,grade:gain' (numbers only); None when malformed."""
    if len(text) > 2_000:
        return None
    pairs: dict[float, float] = {}
    try:
        for chunk in text.split(","):
            grade_text, gain_text = chunk.split(":")
            pairs[float(grade_text)] = float(gain_text)
        checked = ndcg_core.check_gain(pairs)
    except (ValueError, ndcg_core.InvalidInput):
        return None
    return tuple(sorted(checked.items()))


def show_url_warning() -> None:
    """Show the warning left by a malformed settings link, until the settings are changed."""
    stored = st.session_state.get("settings_url_warning")
    if not stored:
        return
    message, settings = stored
    if current_settings() != settings:
        del st.session_state["settings_url_warning"]
        return
    st.warning(message, icon=":material/link_off:")

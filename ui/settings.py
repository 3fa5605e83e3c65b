"""The metric settings every page shares, shown in the sidebar and mirrored to the URL.

One canonical :class:`MetricSettings` lives in the session (``"settings"``). ``app.py`` calls
:func:`settings_sidebar` before running the page, so the same widgets (and values) appear on every page that
uses them (``ui.navigation.uses_shared_settings``); the widgets persist for the session, so a page without them
leaves them as they were for the next page. Pages read :func:`current_settings`. The link format and its parsing are in :mod:`ui.url_state`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

import ndcg_core
from ui import cells, session, url_state
from ui.settings_model import (  # noqa: F401 - re-exported: pages and tests import them from here
    DEFAULT_GAIN_TABLE,
    GAIN_LABELS,
    LOG_BASES,
    MAX_K,
    ZERO_IDCG_LABELS,
    MetricSettings,
)

STATE_KEY = "settings"
LINK_KEY = "settings_link"
SCOPE = "settings"
WIDGETS = {"gain": "settings_gain", "log_base": "settings_log_base", "k": "settings_k", "zero_idcg": "settings_zero_idcg"}
TABLE_KEY = "settings_gain_table"
TABLE_BASE_KEY = "settings_gain_table_df"
HELP = {  # each setting's help in the sidebar: what it does and which document or library uses it
    "gain": "How a grade becomes a gain. Exponential (2^grade − 1) rewards highly relevant documents much more: "
    "documents 000, 002 and 004 (their formulas), LightGBM, XGBoost, ranx ndcg_burges. Linear (gain = grade): "
    "documents 001 and 003, the code of 002 and 004, scikit-learn, trec_eval, ranx ndcg. A custom table sets any gain per grade (trec_eval gain levels, LightGBM "
    "label_gain, the customGain list of document 000).",
    "log_base": "The gain at rank i is divided by log_b(i + 1). Base 2 is usual (all libraries); document 000's code "
    "uses the natural log (e). DCG and IDCG change with the base, NDCG never does: the base scales both by the same "
    "factor.",
    "k": "Only the top k positions count (NDCG@k). Empty evaluates the whole ranking. The ideal list is cut at k too; "
    "with extra judged documents and k beyond the ranking, IDCG@k includes them (trec_eval's ndcg_cut).",
    "zero_idcg": "If no judged document is relevant, IDCG is 0 and NDCG = 0/0. scikit-learn and trec_eval report 0, "
    "LightGBM and XGBoost report 1; 'skip' leaves such queries out of dataset averages.",
}


@dataclass
class SettingsLink:
    """Settings set after the sidebar was drawn, and the settings a link warning is about."""

    pending: MetricSettings | None = None
    warned_for: MetricSettings | None = None
    notice: str | None = None  # why another page changed the settings, shown in the sidebar until they change
    notice_for: MetricSettings | None = None


def _link() -> SettingsLink:
    return session.page_state(LINK_KEY, SettingsLink)


def current_settings() -> MetricSettings:
    """The session's settings (defaults until the sidebar has run)."""
    return session.widget(STATE_KEY, MetricSettings())


def set_settings(settings: MetricSettings, *, reason: str | None = None) -> None:
    """Replace the session's settings (e.g. when a worked example is opened); widgets follow on the next run.

    ``reason`` (what the user did) is shown in the sidebar with what changed, so no setting changes silently.
    """
    before = current_settings()
    if reason is not None:
        link = _link()
        # An action that changes nothing still says so: opening a worked example whose convention the sidebar
        # already had (document 002's B, A, D, C in a new session) said nothing, so nothing told the user the
        # numbers were under that example's convention; it also ends an earlier action's notice, which would
        # name the wrong example.
        if settings != before:
            link.notice = f"{reason}, so the settings changed: {setting_changes(before, settings)}."
        else:
            link.notice = f"{reason}; the settings already matched it, so none changed."
        link.notice_for = settings
    session.set_widget(STATE_KEY, settings)
    try:
        _push_to_widgets(settings)
    except st.errors.StreamlitAPIException:
        # The sidebar's widgets were already drawn in this run (a page's button, before st.switch_page):
        # they cannot change now, so the sidebar applies these settings at the start of the next run.
        _link().pending = settings


def setting_changes(before: MetricSettings, after: MetricSettings) -> str:
    """'Gain: Linear → Exponential; Cutoff k: whole list → 5' in the sidebar's words."""
    words = []
    if before.gain != after.gain or (after.gain == "custom" and before.gain_table != after.gain_table):
        words.append(f"Gain: {GAIN_LABELS[before.gain]} → {GAIN_LABELS[after.gain]}")
    if before.log_base != after.log_base:
        words.append(f"Log base: {before.log_base} → {after.log_base}")
    if before.k != after.k:
        words.append(f"Cutoff k: {before.k or 'whole list'} → {after.k or 'whole list'}")
    if before.zero_idcg != after.zero_idcg:
        words.append(f"NDCG when IDCG = 0: {ZERO_IDCG_LABELS[before.zero_idcg]} → {ZERO_IDCG_LABELS[after.zero_idcg]}")
    return "; ".join(words)


def _push_to_widgets(settings: MetricSettings) -> None:
    for name, key in WIDGETS.items():
        session.set_widget(key, getattr(settings, name))
    session.set_widget(TABLE_BASE_KEY, _table_frame(settings.gain_table))
    session.forget(TABLE_KEY)


def _table_frame(table: tuple[tuple[float, float], ...]) -> pd.DataFrame:
    return pd.DataFrame(table, columns=["grade", "gain"])


def settings_sidebar() -> MetricSettings:
    """Draw the settings in the sidebar, publish them to the URL and return the canonical settings."""
    if not session.has(STATE_KEY):
        settings, problem = url_state.settings_from_link(url_state.params())
        if problem:
            # Shown until the settings change, so every page the link opens says why a default was used.
            url_state.warn(SCOPE, problem)
            _link().warned_for = settings
        set_settings(settings)
    link = _link()
    if link.pending is not None:
        set_settings(link.pending)
        link.pending = None
    with st.sidebar:
        st.header("Metric settings")
        notice_slot = st.empty()  # filled below, once this run's settings are known
        gain = st.radio("Gain", list(GAIN_LABELS), format_func=GAIN_LABELS.get, key=WIDGETS["gain"], help=HELP["gain"],
                        persist_state="session")
        table = _gain_table_editor() if gain == "custom" else current_settings().gain_table
        log_base = st.radio("Log base of the discount", list(LOG_BASES), horizontal=True, key=WIDGETS["log_base"], persist_state="session",
                            help=HELP["log_base"])
        k = st.number_input("Cutoff k (empty = whole list)", min_value=1, max_value=MAX_K, step=1, value=None,
                            placeholder="whole list", key=WIDGETS["k"], help=HELP["k"], persist_state="session")
        zero_idcg = st.selectbox("NDCG when IDCG = 0", list(ZERO_IDCG_LABELS), format_func=ZERO_IDCG_LABELS.get,
                                 key=WIDGETS["zero_idcg"], help=HELP["zero_idcg"], persist_state="session")
    settings = MetricSettings(gain=gain, gain_table=table, log_base=log_base, k=k, zero_idcg=zero_idcg)
    session.set_widget(STATE_KEY, settings)
    if link.notice is not None and settings == link.notice_for:
        notice_slot.info(link.notice, icon=":material/tune:")
    else:
        link.notice = None  # the user has changed the settings since
    url_state.publish({"k": None, "gt": None, **url_state.settings_params(settings)})
    return settings


TABLE_COLUMNS = {"grade": cells.grade, "gain": cells.gain}


def _gain_table_editor() -> tuple[tuple[float, float], ...]:
    """Edit the custom gain table; an invalid edit keeps the previous table and says why."""
    previous = current_settings().gain_table
    base = session.widget(TABLE_BASE_KEY, None) if session.has(TABLE_BASE_KEY) else _table_frame(previous)
    if refused := session.guard_editor(TABLE_KEY, rows=len(base), columns=["grade", "gain"]):
        st.error(refused, icon="⚠️")
    typed = st.data_editor(
        cells.shown(base, TABLE_COLUMNS),
        num_rows="dynamic",
        hide_index=True,
        key=TABLE_KEY,
        column_config={  # text, read by ui.cells: number columns dropped "-1", "2,5" and "1.5" without a word
            "grade": st.column_config.TextColumn("Grade", help="A relevance grade (0 or more)"),
            "gain": st.column_config.TextColumn("Gain", help="The gain that grade earns (0 or more)"),
        },
        width="stretch",
    )
    try:
        rows = cells.read(typed, TABLE_COLUMNS).dropna(how="all")
        if rows.isna().any().any():
            raise ndcg_core.InvalidInput("Every row of the gain table needs both a grade and a gain.")
        if rows["grade"].duplicated().any():
            raise ndcg_core.InvalidInput("Each grade may appear only once in the gain table.")
        table = ndcg_core.check_gain(dict(zip(rows["grade"].tolist(), rows["gain"].tolist(), strict=True)))
    except (cells.CellError, ndcg_core.InvalidInput, TypeError, ValueError, OverflowError) as error:
        st.error(f"Gain table not applied: {cells.refusal(error)}", icon="⚠️")
        return previous
    return tuple(sorted((float(g), float(v)) for g, v in table.items()))


def settings_to_params(settings: MetricSettings) -> dict[str, str]:
    """The query parameters that describe ``settings`` (as used in share links): see ui.url_state."""
    return url_state.settings_params(settings)


def parse_gain_table_param(text: str) -> tuple[tuple[float, float], ...] | None:
    """Parse 'grade:gain,grade:gain' (numbers only); None when malformed: see ui.url_state."""
    return url_state.parse_gain_table(text)


def show_url_warning() -> None:
    """Show the warning left by a malformed settings link, until the settings are changed."""
    link = _link()
    if url_state.warning(SCOPE) is None:
        return
    if current_settings() != link.warned_for:
        url_state.warn(SCOPE, None)
        return
    url_state.show_warning(SCOPE)

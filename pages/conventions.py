"""Library conventions: one input under every preset in ndcg_core.CONVENTIONS, side by side."""

import streamlit as st

import ndcg_core
import ui
from ui import conventions_view as view
from ui import session, tie_band_section, url_state
from ui.messages import user_message
from ui.settings import current_settings, show_url_warning
from ui.widgets import plain

ui.page_shell()  # first: a run Streamlit started without app.py goes through it (see ui/__init__.py)

show_url_warning()
st.title("Why libraries disagree on the same input")
st.caption(
    "The same grades (and scores) evaluated the way scikit-learn, trec_eval, ranx, LightGBM, XGBoost and "
    "torchmetrics do. Cells that differ from the majority of their column are highlighted."
)

CASE_TITLES = {key: case.title for key, case in view.CASES.items()} | {view.CUSTOM: "Your own input"}
url_state.restore_choice("conventions_case", "case", list(CASE_TITLES), scope="conventions", label="case")
case_key = st.selectbox("Case", list(CASE_TITLES), format_func=CASE_TITLES.get, key="conventions_case")
url_state.publish({"case": case_key})
case = view.CASES.get(case_key)
if case is not None:
    st.info(case.lesson, icon=":material/lightbulb:")

# The editor's base is the chosen case (or the last valid custom input); it is keyed by case so switching resets it.
# A share link's own rows (?rows=...) replace the case's on a session's first visit.
settings = current_settings()  # before the input is checked: grades are validated under the sidebar's gain
base_key = f"conventions_base_{case_key}"
case_frame = case.frame() if case else view.CASES["ties"].frame()
if not session.has(base_key):
    session.set_widget(base_key, case_frame)
    if "rows" in url_state.params() and not session.has("conventions_rows_read"):
        try:
            linked = view.decode_input(url_state.params()["rows"])
            view.checked_input(linked, gain=settings.gain_spec())  # grades and scores as an edit would be checked
            session.set_widget(base_key, linked)
        except (ValueError, ndcg_core.InvalidInput) as error:
            reason = plain(user_message(str(error).splitlines()[0][:200]))
            url_state.warn("conventions", f"The link's input table could not be used ({reason}), so the case's own "
                                          "input is shown.")
session.set_widget("conventions_rows_read", True)
url_state.show_warning("conventions")
if refused := session.guard_editor(f"conventions_editor_{case_key}", rows=len(session.widget(base_key)),
                                   columns=view.INPUT_COLUMNS):
    st.error(refused, icon=":material/warning:")
edited = st.data_editor(
    session.widget(base_key), num_rows="dynamic", hide_index=True, key=f"conventions_editor_{case_key}",
    column_config={
        "document": st.column_config.TextColumn("Document id", help="Used by trec_eval to break score ties."),
        "grade": st.column_config.NumberColumn("Grade", min_value=0),
        "score": st.column_config.NumberColumn("Score", help="Empty column = use the order of the rows."),
        "score_2": st.column_config.NumberColumn("Score, ranker 2", help="Optional: a second ranker to compare."),
        "ranked": st.column_config.CheckboxColumn(
            "Ranked", help="Untick for a judged document the ranker did not return (it only enters the ideal list)."
        ),
    },
    width="stretch",
)
last_valid_key = f"conventions_valid_{case_key}"
try:
    given = view.checked_input(edited, gain=settings.gain_spec())
    session.set_widget(last_valid_key, given)
except ndcg_core.InvalidInput as error:
    st.error(f"Edit not applied: {plain(user_message(error))}", icon=":material/warning:")
    given = session.widget(last_valid_key) or view.checked_input(session.widget(base_key), gain=settings.gain_spec())
    edited = None
if edited is not None:  # the input is in the share link unless it is the case's own (or too big for a URL)
    linked_rows = view.encode_input(edited)
    same_as_case = linked_rows == view.encode_input(case_frame)
    session.set_widget(f"conventions_link_{case_key}", None if same_as_case else linked_rows)
    if not same_as_case:
        url_state.warn("conventions", None)  # the user's own input replaced the link's
url_state.publish({"rows": session.widget(f"conventions_link_{case_key}")})  # an invalid edit keeps the last valid

table = view.conventions_table(given, k=settings.k)
cutoff = "the whole list" if settings.k is None else f"k = {settings.k} (from the sidebar)"
st.subheader(f"NDCG under each library's convention, at {cutoff}")
labels = {
    "library": "Library", "ndcg": "NDCG" if given.scores_2 is None else "NDCG, ranker 1", "ndcg_2": "NDCG, ranker 2",
    "better": "Better ranker", "gain": "Gain", "ties": "Tied scores", "ideal": "Ideal from", "zero_idcg": "IDCG = 0 gives",
}
st.dataframe(view.styled(table, labels), hide_index=True, key="conventions_table")
values = table["ndcg"].dropna().round(4).unique()
if len(values) == 1:
    st.text(f"All {len(table)} conventions agree: NDCG = {values[0]:.4f}.")
else:
    st.text(f"The conventions give {len(values)} different values, from {values.min():.4f} to {values.max():.4f}.")
if "better" in table:
    for ranker in ("ranker 1", "ranker 2"):
        winners = table.loc[table["better"] == ranker, "library"].tolist()
        if winners:
            st.text(f"{ranker.capitalize()} wins under: {', '.join(winners)}.")
tie_band_section.show_for_conventions(given, k=settings.k)  # issue 13 item 2: how far ties alone move NDCG
with st.expander("Why each library computes it this way"):
    st.markdown("\n".join(f"- **{plain(label)}**: {plain(reason)}" for label, reason in view.reasons()))
with st.expander("How to get the same number from each library"):
    for convention in ndcg_core.CONVENTIONS.values():
        st.markdown(f"**{plain(convention.label)}** ({plain(convention.library)})")
        st.code(convention.call, language="python", wrap_lines=True)
        if convention.caveat:
            st.caption(plain(convention.caveat))
st.caption("Highlighted (orange, bold) = differs from the most common value in its column. The sidebar's gain and "
           "zero-IDCG settings do not apply here: each library's own convention does.")

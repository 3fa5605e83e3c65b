"""Shared Streamlit code for the pages: settings sidebar, widgets, charts, URL state."""


def ensure_app_shell(*, at_import: bool = False) -> None:
    """Make every run go through app.py (page config, sidebar settings, navigation).

    Streamlit treats an app with a ``pages/`` folder as a legacy (v1) multipage app until some run
    calls ``st.navigation``; in that mode a deep link such as /playground?docs=... on a fresh server
    runs ``pages/playground.py`` on its own, without app.py's sidebar. AppTest re-enters that mode on
    every ``run()``. Pages reach this through ``ui`` (at import and in ``current_settings``): it switches
    the legacy mode off and reruns, so app.py runs properly. Costs nothing once the mode is off.
    """
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if PagesManager.uses_pages_directory and ctx is not None:
        PagesManager.uses_pages_directory = False
        if at_import and ctx.script_requests is not None:
            # Queue the rerun rather than raise it here: an exception inside `import ui` makes another session's
            # concurrent import of ui fail with KeyError: 'ui' (bench/load_test.py on a fresh server). The queued
            # rerun fires at the page's first st.* call, outside any import.
            from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

            ctx.script_requests.request_rerun(
                RerunData(query_string=ctx.query_string, page_script_hash=ctx.page_script_hash,
                          context_info=ctx.context_info)
            )
            return
        import streamlit as st

        st.rerun()


ensure_app_shell(at_import=True)

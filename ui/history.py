"""One browser history entry per page visited, not one per rerun.

Streamlit 1.67's frontend calls ``history.pushState`` for every query-string message a run sends (it uses
``replaceState`` only while replaying Back/Forward), and Python has no way to ask for a replace. The app writes
the URL once per run (:func:`ui.url_state.flush`), which still makes every drag, edit or setting a history
entry, so leaving a page would take one Back per change. This constant script (no user data in it), installed
once per browser tab by app.py, turns a ``pushState`` that keeps the same path (the same page, a new query
string) into a ``replaceState``; a push to another path (another page) stays a push. tests/browser checks Back.
"""

HISTORY_SCRIPT = """
<script>
(() => {
  const history = window.history;
  if (history.__ndcgSamePageReplace) return;
  const push = history.pushState.bind(history);
  history.pushState = (state, unused, url) => {
    try {
      if (url != null && new URL(url, window.location.href).pathname === window.location.pathname) {
        return history.replaceState(state, unused, url);
      }
    } catch (error) {
      // an unparsable URL: leave it to the browser's own pushState
    }
    return push(state, unused, url);
  };
  history.__ndcgSamePageReplace = true;
})();
</script>
"""

"""What a person typed or picked on a page outlives a visit to another page.

Streamlit forgets a widget's value at the end of any run that does not draw the widget, so opening another page
and coming back reset every page's inputs: the numbers typed on "Why do my numbers differ?" came back empty,
Dataset's tie rule came back as trec_eval, Compare came back in its other mode, Step by step at position 1.
Re-assigning a value from code makes Streamlit keep it (its documented way to carry widget values across pages),
so app.py calls :func:`hold_other_pages` in every run for the inputs of every page but the one running: that page
draws its own widgets, which then take the kept values. (Only widgets whose value code may set are listed:
selectboxes, radios, text inputs, sliders, toggles, pills; never buttons, file uploaders or data editors, which
refuse it. The pages' typed state objects, ui/state.py and friends, need nothing of this.)
"""

from __future__ import annotations

import re

from ui import dataset_state, session
from ui.compare_runs import CHOICE_KEYS
from ui.compare_view import MODE_KEY, SLIDE_KEY
from ui.conventions_input import CASE_KEY
from ui.diagnose_input import FIELDS
from ui.predict import STEP_TOGGLE_KEY
from ui.quiz import REVEAL_KEY, SEED_INPUT_KEY
from ui.walk_lists import POSITION_KEY, SOURCE_KEY

# Each page's (url_path's) inputs: exact keys, and patterns for the keys a page makes per question or per query.
INPUTS: dict[str, tuple[str, ...]] = {
    "": ("playground_chart",),  # the Playground, the default page (its url_path is "")
    "step_by_step": (SOURCE_KEY, POSITION_KEY, STEP_TOGGLE_KEY,
                     r"lesson_(long_length|relevance_kind|cutoff_grades|cutoff_k|gain_grades|unjudged_grades|"
                     r"unjudged_k|extra_docs|swap_a|swap_b|zero_size|zero_rescue|dataset_.+|ideal_grades_.+)"),
    "worked_examples": ("examples_sources", "examples_status"),
    "quiz": (SEED_INPUT_KEY, REVEAL_KEY, r"quiz_\d+_\d+_(choice|guess)"),
    "live_class": ("live_join_code", "live_join_nickname"),
    "dataset": (dataset_state.SOURCE_KEY, dataset_state.RUN_KEY, dataset_state.TIES_KEY, dataset_state.MISSING_KEY,
                dataset_state.ORDER_KEY, dataset_state.QUERY_KEY, dataset_state.SEARCH_KEY, dataset_state.PAGE_KEY),
    "compare": (MODE_KEY, SLIDE_KEY, *CHOICE_KEYS),
    "conventions": (CASE_KEY,),
    "why_differ": (*FIELDS.values(), "battery_paste"),
}
_MATCHERS = {path: re.compile("|".join(f"(?:{re.escape(key) if key.isidentifier() else key})" for key in keys))
             for path, keys in INPUTS.items()}


def hold_other_pages(current: str) -> None:
    """Keep the inputs of every page but ``current`` (a url_path) through this run, in which they are not drawn."""
    others = [matcher for path, matcher in _MATCHERS.items() if path != current]
    for key in session.names():
        if any(matcher.fullmatch(key) for matcher in others):
            session.keep(key)

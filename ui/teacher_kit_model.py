"""The teacher kit's content as data: objectives, the 45-minute plan, the worksheet and its answer key.

No Streamlit calls here, so tests read the same objects the page draws. Every figure of the answer key is
read from ``ndcg_core`` (the worked example's own :meth:`~ndcg_core.WorkedExample.result`), never typed; the
links are built with the app's share-link format (:mod:`ui.url_state`), root-relative (the page prefixes
the server's address when it knows it).
"""

from __future__ import annotations

from dataclasses import dataclass

import ndcg_core
from ui import url_state
from ui.formatting import num
from ui.live.activities import TITLES as LIVE_TITLES
from ui.messages import document_title
from ui.ranking import Ranking
from ui.settings_model import MetricSettings
from ui.walk_lists import example_by_key, example_ranked, example_settings

LESSON_SEED = 45  # the quiz seed of the lesson's live activities (any seed works; one for all)
# The exit quiz's seed: another one, as quiz seed 45's first questions are the ones just revealed in class.
EXIT_SEED = LESSON_SEED + 1
DIGITS = 4  # decimals of the answer key's non-whole figures
FIGURE_NAMES = {"cg": "CG", "dcg": "DCG", "idcg": "IDCG", "ndcg": "NDCG"}

OBJECTIVES: tuple[str, ...] = (
    "**compute** CG, DCG and NDCG by hand for a ranked list of five documents, writing down each position's "
    "gain, discount log₂(i + 1) and contribution;",
    "**build the ideal list** (the grades sorted from best to worst) and compute IDCG, including from judged "
    "documents the ranking did not retrieve;",
    "**explain why** DCG is divided by IDCG: raw DCG grows with the number of relevant documents a query has, "
    "so only the share of the best possible DCG can be compared across queries (NDCG = 1 means an ideal order);",
    "**predict** whether moving a document up or down raises NDCG, and why a move near the top matters more "
    "than the same move near the bottom;",
    "**name the conventions** that make libraries disagree on the same input (linear gain or 2^grade − 1, the "
    "cutoff k, where the ideal list comes from, how tied scores are ordered, NDCG when IDCG = 0) and say which "
    "one explains a given pair of numbers;",
    "**check a published calculation** by recomputing it, and say whether a difference is rounding or an error.",
)


@dataclass(frozen=True)
class Link:
    label: str
    url: str  # root-relative: "/step_by_step?list=..."


def _example_ranking(example: ndcg_core.WorkedExample) -> Ranking:
    names, grades = example_ranked(example)
    return Ranking(names, grades, tuple(example.extra_documents), tuple(float(g) for g in example.extra_grades))


def playground_link(example: ndcg_core.WorkedExample) -> Link:
    """The Playground on the example's list, with its convention in the sidebar."""
    return Link("Open in the Playground",
                url_state.playground_link(_example_ranking(example), example_settings(example, MetricSettings())))


def step_link(example: ndcg_core.WorkedExample, position: int = 1) -> Link:
    """Step by step on the example's list at ``position``, with its convention."""
    settings = example_settings(example, MetricSettings())
    return Link(f"Step by step from position {position}" if position == 1 else f"Step by step at position {position}",
                url_state.link("/step_by_step", {**url_state.settings_params(settings), "list": example.key,
                                                 "pos": str(position)}))


def quiz_link(seed: int = EXIT_SEED) -> Link:
    return Link(f"Quiz, seed {seed}", url_state.link("/quiz", {"seed": str(seed)}))


def conventions_link(case: str) -> Link:
    return Link("Library conventions: linear vs exponential gain", url_state.link("/conventions", {"case": case}))


def why_differ_link(texts: dict[str, str]) -> Link:
    """'Why do my numbers differ?' with its text boxes filled (the page's own link parameters)."""
    params = {param: value for param, value in url_state.why_differ_params(texts).items() if value is not None}
    return Link("Why do my numbers differ?", url_state.link("/why_differ", params))


def page_link(path: str, label: str) -> Link:
    return Link(label, path)


# --- the worksheet ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Exercise:
    """One hand calculation, built from a worked example of the source documents."""

    number: int
    key: str  # the worked example's key
    task: str  # what to compute, in words
    asked: tuple[str, ...]  # figures the student computes ("cg", "dcg", "idcg", "ndcg")
    in_class: bool  # done during the lesson (else: homework)

    @property
    def example(self) -> ndcg_core.WorkedExample:
        return example_by_key(self.key)

    def result(self) -> ndcg_core.ListResult:
        return self.example.result()

    def links(self) -> tuple[Link, Link]:
        return playground_link(self.example), step_link(self.example)


EXERCISES: tuple[Exercise, ...] = (
    Exercise(1, "001-binary-dcg3", "Binary relevance (1 = relevant). Compute DCG@3.", ("dcg",), True),
    Exercise(2, "001-binary-swapped", "The same clicks with positions 2 and 3 swapped. Compute DCG@3. Did "
             "moving the relevant document up help?", ("dcg",), True),
    Exercise(3, "001-graded", "Five documents graded 0–3, linear gain (gain = grade). Compute CG, DCG, the ideal "
             "order, IDCG and NDCG.", ("cg", "dcg", "idcg", "ndcg"), True),
    Exercise(4, "002-badc", "Four documents B, A, D, C with exponential gain 2^grade − 1. Compute DCG, IDCG and "
             "NDCG.", ("dcg", "idcg", "ndcg"), False),
    Exercise(5, "003-ndcg6-d7-d8", "Six ranked documents; D7 (grade 3) and D8 (grade 2) were judged but not "
             "retrieved, so they belong to the ideal list. Compute DCG@6, IDCG@6 and NDCG@6.",
             ("dcg", "idcg", "ndcg"), False),
    Exercise(6, "004-ndcg5", "Grades 3, 2, 3, 0, 1 with exponential gain 2^grade − 1. Compute NDCG@5.",
             ("dcg", "idcg", "ndcg"), False),
    Exercise(7, "004-sklearn-snippet", "The same list as exercise 6, now with linear gain (gain = grade, what "
             "scikit-learn's ndcg_score uses). Compute NDCG@5. Which convention explains the difference from "
             "exercise 6?", ("dcg", "idcg", "ndcg"), False),
    Exercise(8, "000-ndcg5", "Grades 3, 1, 2, 0, 2 with exponential gain 2^grade − 1. Compute DCG@5, the ideal "
             "order, IDCG@5 and NDCG@5.", ("dcg", "idcg", "ndcg"), False),
)


def exercise(number: int) -> Exercise:
    return EXERCISES[number - 1]


def source_line(item: Exercise) -> str:
    example = item.example
    return f"From {document_title(example.source)}: “{example.title}”."


def figure_values(item: Exercise) -> dict[str, float]:
    """The asked figures, from ndcg_core."""
    result = item.result()
    return {name: float(getattr(result, name)) for name in item.asked}


def figure_text(value: float) -> str:
    """An answer-key figure: whole numbers as such, others to :data:`DIGITS` decimals."""
    return num(value, DIGITS)


def counted_rows(item: Exercise):
    """ndcg_core's per-position table, the positions inside the cutoff."""
    table = item.result().table
    return table[table["in_cutoff"]]


def cutoff_words(item: Exercise) -> str:
    example = item.example
    return "whole list" if example.k is None else f"k = {example.k}"


# --- the 45-minute plan -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Block:
    minutes: int
    title: str
    page: str
    what: str
    links: tuple[Link, ...]


def _why_differ_texts() -> dict[str, str]:
    """Exercises 6 and 7 as a 'two tools, two numbers' question: scikit-learn vs the document's 2^grade − 1."""
    linear, exponential = exercise(7).example, exercise(6).example
    sklearn = ndcg_core.CONVENTIONS["sklearn"].evaluate(list(linear.grades), list(linear.scores), k=linear.k)
    return {"grades": ", ".join(num(g) for g in linear.grades),
            "scores": ", ".join(num(s) for s in linear.scores), "k": str(linear.k),
            "from_1": "scikit-learn", "number_1": figure_text(sklearn.ndcg),
            "from_2": "2^grade - 1", "number_2": figure_text(exponential.result().ndcg)}


def lesson_plan() -> tuple[Block, ...]:
    """Eight blocks adding up to 45 minutes, each with the links that open it in the app."""
    graded = exercise(3).example
    size = len(graded.grades)
    return (
        Block(5, "Warm-up: which ranking is better?", "Live class",
              f"Start a live session; under “Next activity” pick “{LIVE_TITLES['compare']}”, quiz seed "
              f"{LESSON_SEED}, and press “Add and open”. Students vote on their phones before seeing any formula; "
              "press “Close” to show the split, and do not reveal or explain yet (“Reveal” projects the worked "
              "calculation).",
              (page_link("/live_class", "Live class"),)),
        Block(8, "Play with a ranking", "Playground",
              "Project exercise 3's list (D1–D5, grades 3, 2, 0, 0, 1, linear gain). Ask what happens if D5 moves "
              "to the top, then drag it; press “Ideal order” and read IDCG off the cards. Students say in words "
              "what NDCG = 1 means.",
              (playground_link(graded),)),
        Block(7, "One position at a time", "Step by step",
              "Walk the same list: gain, discount log₂(i + 1), contribution, running DCG and IDCG. Stop at "
              "position 3 (a grade-0 document adds nothing) and at the end (the NDCG of the whole list).",
              (step_link(graded, 1), step_link(graded, 3), step_link(graded, size))),
        Block(8, "Hand calculation in pairs", "Worksheet",
              "Pairs do worksheet exercises 1–3 on paper, then check every figure with the exercise's link.",
              tuple(Link(f"Exercise {item.number}, step by step", step_link(item.example).url)
                    for item in EXERCISES if item.in_class)),
        Block(4, "A published mistake", "Worked examples",
              "On the Worked examples page, exercise 3's source prints one figure its own terms do not add up to "
              "(an erratum). Ask the class to find which one and why, from their worksheet.",
              (page_link("/worked_examples", "Worked examples"),)),
        Block(6, "Same list, different numbers", "Library conventions · Why do my numbers differ?",
              "Exercises 6 and 7: one list, two NDCG@5 values. Show the gain case on Library conventions, then "
              "paste both numbers into “Why do my numbers differ?” to name the convention behind each.",
              (conventions_link("gain"), why_differ_link(_why_differ_texts()))),
        Block(5, "Predict, then reorder", "Live class",
              "First reveal the warm-up (still the current activity: its “Reveal” button), now that the class "
              "knows the formula. Add "
              f"“{LIVE_TITLES['estimate']}”, then “{LIVE_TITLES['reorder']}” (drag to the best NDCG), each with quiz "
              f"seed {LESSON_SEED} (the box moves on to {LESSON_SEED + 1} after every “Add and open”: set it back, or "
              f"the exit quiz, seed {EXIT_SEED}, repeats the question); open, close and reveal each. Discuss the most "
              "common wrong answer the projector shows.",
              (page_link("/live_class", "Live class"),)),
        Block(2, "Exit ticket", "Quiz",
              f"Give the quiz link (seed {EXIT_SEED}: everyone gets the same questions, new ones after the live "
              f"activities' seed {LESSON_SEED}) and worksheet "
              "exercises 4–8 as homework.",
              (quiz_link(),)),
    )

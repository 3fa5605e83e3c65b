"""The sentences of a diagnosis: what calculation gives a reported number, and why two numbers differ."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ._battery import read_words
from ._conventions import CONVENTIONS
from ._search_space import DIMENSIONS, WORDS, describe, preset_settings

if TYPE_CHECKING:
    from ._diagnose import Finding, Match, WholeReading

# Presets whose order inside score ties cannot be reproduced (ranx sorts with an unstable argsort): a number labelled
# with them is checked against the range over the ties' orders.
UNSTABLE_TIES = frozenset(key for key, convention in CONVENTIONS.items() if convention.unstable_ties)


def uncut_note(keys: list[str], k: int | None) -> str:
    """A label naming a measure without a cutoff was read without the cutoff the user set: say so."""
    if not keys:
        return ""
    measure = CONVENTIONS[keys[0]].label_for(whole_list=True)
    return f" ({measure} has no cutoff, so k = {k} does not apply to it.)"


def _mattering(space, setting, alternatives) -> list[str]:
    """The dimensions whose value changes the figures on this query (the others are left unsaid)."""
    return [name for name in DIMENSIONS if len(alternatives[name]) < len(space.axes[name].values)]


def match_sentence(space, setting, alternatives, exact, nearest, departures, exact_settings) -> str:
    words = describe(space, setting)
    if exact:
        who = " = ".join(CONVENTIONS[key].label_for(whole_list=setting["k"] == "whole") for key in exact)
        said = [_shared(space, name, words[name], [preset[name] for preset in exact_settings])
                for name in _mattering(space, setting, alternatives)]
        return f"{who}: " + ("; ".join(said) if said else "every choice gives the same figure here") + "."
    preset_words = describe(space, space.setting(space.index(preset_settings(nearest, has_k="given" in
                                                                                      space.axes["k"].values))))
    changes = "; ".join(f"{words[name]} instead of {preset_words[name]}" for name, _, _ in departures)
    count = len(departures)
    return f"{CONVENTIONS[nearest].label} with {count} change{'s' if count > 1 else ''}: {changes}."


def _shared(space, name: str, words: str, values: list) -> str:
    """What the presets of one calculation choose on dimension ``name``: one value in words, or each of theirs.

    Presets give the same figures with different values when the difference does not matter on this query
    (linear and exponential gain on all-zero grades): naming one value would put the others under the wrong one.
    """
    distinct = list(dict.fromkeys(values))
    if len(distinct) == 1:
        return words
    labels = [space.axes[name].labels[space.axes[name].values.index(value)] for value in distinct]
    return " or ".join(labels) + " (the same figure here)"


def summary(label, shown: str, matches, named, preset_values, value: float, refusals: dict[str, str],
             id_ranges: dict[str, tuple[float, float]] | None = None, tolerance: float = 0.0,
             whole_reading: WholeReading | None = None) -> str:
    head = f"{label} ({shown})"
    refusing = [key for key in named if key in refusals]  # one sentence, from the first preset the label names
    refused = [f"{refusals[refusing[0]]} So this number did not come from {label} on these grades as typed."] \
        if refusing else []
    if whole_reading is not None:  # the library took the grades without a word: its number is its figure on others
        refused = [whole_reading_sentence(whole_reading)]
    if refused and not matches:
        return f"{head}: " + " ".join(refused)
    if not matches and not preset_values:
        return f"{head}: no convention searched reproduces it; check the grades, their order (or scores) and k."
    # A library whose order of tied scores cannot be reproduced (ranx's unstable sort in a large tie) gives any
    # figure in the range over those orders: no calculation searched may give the number, and it can still be its.
    ranged = [key for key in named if key in preset_values and (id_ranges or {}).get(key)]
    if not matches and ranged:
        return (f"{head}: no calculation searched gives it exactly. "
                + _named_miss(ranged[0], preset_values[ranged[0]], value, id_ranges[ranged[0]], tolerance))
    if not matches:
        closest = min(preset_values, key=lambda key: abs(preset_values[key] - value) if not math.isnan(value) else 0)
        return (f"{head}: no convention searched reproduces it. The closest preset, "
                f"{CONVENTIONS[closest].label}, gives {preset_values[closest]:.4f}; check the grades, their order "
                "(or scores) and k.")
    exact = [m for m in matches if m.presets]
    text = []
    if exact:
        found = {key for m in exact for key in m.presets}
        # Each library's measure as its first match uses it: trec_eval's is ndcg without a cutoff, ndcg_cut with one.
        whole = {key: next(m.setting["k"] == "whole" for m in exact if key in m.presets) for key in found}
        libraries = [CONVENTIONS[key].label_for(whole_list=whole[key])
                     for key in sorted(found, key=lambda key: (key not in named, list(CONVENTIONS).index(key)))]
        text.append(f"{head} is what {_listing(libraries)} compute{'s' if len(libraries) == 1 else ''}.")
    else:
        text.append(f"{head} is no library preset's figure; the nearest reading: {matches[0].sentence}")
    # A label naming several presets ("ranx": ndcg and ndcg_burges) is explained once one of them gives the number.
    named_found = any(key in m.presets for m in matches for key in named)
    for key in named:
        if not named_found and key in preset_values:
            text.append(_named_miss(key, preset_values[key], value, (id_ranges or {}).get(key), tolerance))
    text.extend(refused)
    others = len(matches) - (len(exact) if exact else 1)
    if others > 0:
        text.append(f"{others} other calculation{'s' if others > 1 else ''} also give{'s' if others == 1 else ''} "
                    "this number: the figure alone cannot tell them apart.")
    return " ".join(text)


def whole_reading_sentence(reading: WholeReading) -> str:
    """What a library that reads fractional grades as whole numbers gives here, and whether it is the number."""
    library = _reading_label(reading)
    said = (f"{library} takes fractional grades without an error and reads each as its whole part "
            f"({read_words(reading.read)}). On the grades it reads, its figure is {reading.ndcg:.4f}")
    if reading.gives_number:
        return said + f": this number is {library}'s figure for these grades."
    return said + ", not this number: it came from different settings or a different input."


def _reading_label(reading: WholeReading) -> str:
    """The library's measure as the reading used it (trec_eval's ``ndcg`` without a cutoff, ``ndcg_cut`` with)."""
    return CONVENTIONS[reading.preset].label_for(whole_list=reading.setting.get("k") == "whole")


def _named_miss(key: str, figure: float, value: float, id_range: tuple[float, float] | None, tolerance: float) -> str:
    """Why a number labelled with a library is not that library's figure here (or may be, given the ids)."""
    library = CONVENTIONS[key].label
    if id_range is None:
        return (f"{library}'s own conventions give {figure:.4f} on this input, so the number came from different "
                "settings or a different input.")
    low, high = id_range
    if key in UNSTABLE_TIES:
        guess = (f"{library} orders tied scores with an unstable internal sort, so its figure depends on the order "
                 f"that sort gives them: {figure:.4f} with the ties in input order, anything from {low:.4f} to "
                 f"{high:.4f} over their orders.")
        if low - tolerance <= value <= high + tolerance:
            return guess + f" This number is in that range: it can be {library}'s figure."
        return guess + " This number is outside it, so it came from different settings or a different input."
    guess = (f"{library} orders tied scores by document id, and no ids were given: its figure here, {figure:.4f}, "
             f"takes the later of two tied documents first, and other ids give anything from {low:.4f} to "
             f"{high:.4f}.")
    if low - tolerance <= value <= high + tolerance:
        return guess + " This number is in that range: type the document ids to check it."
    return guess + " This number is outside it, so it came from different settings or a different input."


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def comparison(findings: tuple[Finding, ...]) -> str:
    """Why the first reported number differs from each other one, in the conventions that matter."""
    if len(findings) < 2:
        return ""
    first = findings[0]
    sentences = []
    for other in findings[1:]:
        read = [finding for finding in (first, other) if _read_as_whole(finding)]
        if len(read) == 1 and (read[0] is first or first.matches) and (read[0] is other or other.matches):
            sentences.append(_whole_reading_difference(read[0], other if read[0] is first else first))
            continue
        if len(read) == 2:
            a, b = (finding.whole_reading for finding in read)
            sentences.append(f"{_who(first)} and {_who(other)} are each their library's figure on the grades read "
                             f"as whole numbers ({read_words(a.read)}): there {_reading_label(a)} gives {a.ndcg:.4f} and "
                             f"{_reading_label(b)} {b.ndcg:.4f}, by their own conventions (the Library conventions "
                             "page shows both on whole grades).")
            continue
        if not first.matches or not other.matches:
            # the one nothing explains (not a number its library gave on the grades read as whole numbers)
            unexplained = [finding for finding in (first, other) if not finding.matches and not _read_as_whole(finding)]
            missing = unexplained[0] if unexplained else first if not first.matches else other
            sentences.append(f"{missing.label}: no convention reproduces it, so the difference cannot be explained.")
            continue
        a, b = first.matches[0], other.matches[0]
        differ = [name for name in DIMENSIONS
                  if a.setting[name] not in b.alternatives[name] and b.setting[name] not in a.alternatives[name]]
        if not differ and (abs(first.reported - other.reported) <= max(first.tolerance, other.tolerance)
                           or math.isnan(first.reported) and math.isnan(other.reported)):
            sentences.append(f"{first.label} and {other.label}: the same calculation reproduces both (they differ by "
                             "less than the tolerance).")
            continue
        if differ and _same_figure(a.ndcg, b.ndcg):
            # Two calculations that happen to agree here (a single document, a perfect ranking: NDCG 1 whatever the
            # gain): the numbers do not differ, so no choice explains a difference.
            sentences.append(f"{first.label} and {other.label}: the same number. The calculations that give them "
                             f"differ ({_listing([_word(b, n) for n in differ])} for {other.label}; "
                             f"{_listing([_word(a, n) for n in differ])} for {first.label}), but on this input "
                             "that does not change NDCG.")
            continue
        # No setting alone separates them (each is among the other's alternatives), but together they do.
        names = differ or [name for name in DIMENSIONS if a.setting[name] != b.setting[name]]
        together = "" if differ else " Each of these alone changes nothing on this input; together they make the difference."
        sentences.append(f"{_who(other)}{_fit(b, names, ': it uses')}; "
                         f"{_who(first)}{_fit(a, names, ' used')}.{together}")
    return " ".join(sentences)


def _fit(match: Match, names: list[str], verb: str) -> str:
    """What a number's calculation chose, as a fact when a library preset computes it and as a fit otherwise.

    A number no preset gives is matched by the nearest calculation searched, and a figure printed to two decimals
    is matched by coincidence too: document 004's 0.94 (12.78 / 13.65, a slip in its IDCG) was explained as
    "Document 004's number used gain = 2^grade (the −1 forgotten) and a cutoff at 4", which it did not.
    """
    choices = _listing([_word(match, name) for name in names])
    if match.presets:
        return f"{verb} {choices}"
    return f" is no library preset's figure: {choices} would give it, but so could a slip in the arithmetic"


def _same_figure(a: float, b: float) -> bool:
    """Two calculations' NDCG are the same figure (up to rounding error; two "no value"s are the same too)."""
    return math.isnan(a) and math.isnan(b) or abs(a - b) <= 1e-9


def _read_as_whole(finding: Finding) -> bool:
    """The number is its library's figure on the grades read as whole numbers (and no calculation on the typed
    grades gives it)."""
    return not finding.matches and finding.whole_reading is not None and finding.whole_reading.gives_number


def _whole_reading_difference(read: Finding, typed: Finding) -> str:
    """Why a number a library computed on the grades read as whole numbers differs from one on the typed grades:
    that reading, and the library's choices that differ from the other number's calculation."""
    reading = read.whole_reading
    library = _reading_label(reading)
    match = typed.matches[0]
    names = [name for name in DIMENSIONS
             if reading.setting[name] != match.setting[name] and reading.setting[name] not in match.alternatives[name]]
    text = (f"{_who(read)}: {library} read the fractional grades as whole numbers ({read_words(reading.read)}); "
            f"{_who(typed)} used the grades as typed.")
    if names:
        text += (f" {library} also uses {_listing([_value_words(name, reading.setting[name]) for name in names])}"
                 f" where {_who(typed)} used {_listing([_word(match, name) for name in names])}.")
    return text


def _who(finding: Finding) -> str:
    return f"{finding.label}'s number"


def _word(match: Match, name: str) -> str:
    return _value_words(name, match.setting[name])


def _value_words(name: str, value) -> str:
    """One dimension's value in the comparison's words."""
    if name == "k":
        return "no cutoff" if value == "whole" else ("the given k" if value == "given" else
                                                    f"a cutoff at {str(value).removeprefix('default_')}")
    return WORDS[name].get(value, f"the gain table '{value}'")

"""Text ids compared as integers (ndcg_core._byte_keys) against plain Python on the same ids.

Both functions stand in for a string sort or a hash table on the readers' and the engine's hot paths, so
they must give exactly what comparing the Python strings gives (UTF-8 byte order = code point order),
including ids that share long prefixes, ids that are prefixes of others, non-ASCII ids and, for
``sorted_positions``, ids with NUL bytes (which user DataFrames may hold) and unsorted arrays.
"""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core._byte_keys import byte_order_codes, sorted_positions

# Few letters and shared prefixes, so that ids collide, nest and tie for many bytes.
PIECES = st.sampled_from(["", "a", "b", "ab", "é", "\u00ff", "DOC-", "clueweb09-en", "0", "9" * 9, "\x00"])
IDS = st.builds(lambda parts: "".join(parts), st.lists(PIECES, max_size=6))
NO_NUL = IDS.map(lambda text: text.replace("\x00", ""))


def by_bytes(ids: list[str]) -> list[str]:
    return sorted(set(ids), key=lambda text: text.encode("utf-8"))


@settings(max_examples=300, deadline=None)
@given(st.lists(NO_NUL, min_size=1, max_size=60), st.sampled_from([pa.string(), pa.large_string()]))
def test_byte_order_codes_rank_ids_as_sorted_text(ids, kind):
    found = byte_order_codes(pa.array(ids, type=kind))
    # It may give up (None) only on ids alike beyond its rounds ("first ~25 bytes"): 8 bytes, then at least 7 a
    # round for 60 ids, over 4 rounds, so ids of at most 25 bytes are always ranked.
    if max(len(text.encode("utf-8")) for text in ids) <= 25:
        assert found is not None
    if found is None:  # ids alike beyond the rounds: the caller sorts strings instead
        return
    codes, first = found
    distinct = by_bytes(ids)
    assert codes.tolist() == [distinct.index(text) for text in ids]
    assert [ids[row] for row in first] == distinct


def test_byte_order_codes_hand_example():
    ids = ["b", "a", "ab", "b", "d19", "d1"]
    codes, first = byte_order_codes(pa.array(ids))
    assert codes.tolist() == [2, 0, 1, 2, 4, 3]  # a < ab < b < d1 < d19
    assert [ids[row] for row in first] == ["a", "ab", "b", "d1", "d19"]


@settings(max_examples=300, deadline=None)
@given(st.lists(IDS, max_size=60), st.lists(IDS, max_size=30), st.booleans(),
       st.sampled_from([pa.string(), pa.large_string()]))
def test_sorted_positions_find_ids_or_give_up(pool, wanted, shuffle, kind):
    ids = by_bytes(pool)
    if shuffle:
        ids = ids[::-1]
    positions = sorted_positions(pa.array(ids, type=kind), pa.array(wanted + ids[:3], type=pa.string()))
    if positions is None:  # not sorted, or alike beyond the rounds: the caller hashes
        return
    assert positions.tolist() == [ids.index(text) if text in ids else -1 for text in wanted + ids[:3]]


def test_sorted_positions_skip_shared_prefix_and_refuse_unsorted():
    ids = pa.array(["DOC-1", "DOC-10", "DOC-2", "DOC-20"])
    assert sorted_positions(ids, pa.array(["DOC-2", "DOC-3", "DOC-10", "DOC"])).tolist() == [2, -1, 1, -1]
    assert sorted_positions(pa.array(["b", "a"]), pa.array(["a"])) is None
    # An id equal to another but for a trailing NUL byte is not that id.
    assert sorted_positions(pa.array(["a", "a\x00b"]), pa.array(["a\x00", "a"])).tolist() == [-1, 0]

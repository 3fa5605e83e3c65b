"""Text ids compared as integers: their UTF-8 bytes read eight at a time as big-endian 64-bit words.

Sorting or matching a million text ids with string comparisons or hash
tables is the costliest step of reading a run and of joining it with its
judgments. Read as big-endian integers, the first bytes of the ids sort in
byte order (UTF-8 byte order is code point order), so numpy's vectorised
integer sort and binary search do the work; where ids share their first
bytes, the next bytes are read beside the rank found so far, round by round.

* :func:`byte_order_codes` ranks ids in byte order (the readers' sorted
  categories).
* :func:`sorted_positions` finds ids in an array of distinct ids already
  sorted in byte order (the run's document categories) by binary search: no
  hash table of either array.

Ids must not contain a NUL byte for the zero padding to be unambiguous:
the readers refuse such files; :func:`sorted_positions` checks the lengths
and gives up (None) when two ids could be confused.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# Bit masks keeping the first k bytes (k = 0..8) of a big-endian 64-bit word.
_KEEP_BYTES = np.array([0] + [(2**64 - 1) ^ (2 ** (64 - 8 * k) - 1) for k in range(1, 9)], dtype=np.uint64)
_KEY_ROUNDS = 4  # beyond this many rounds (ids alike in their first ~25 bytes), string sorts and hashes are cheaper


@dataclass(frozen=True)
class _Bytes:
    """Where each id's bytes are: a strided view of every 8-byte word of the data, and starts and lengths."""

    words: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    size: int

    def key(self, position: int, take: int) -> np.ndarray:
        """Bytes ``position .. position + take`` of every id (zero past its end) as one uint64, right-aligned."""
        at = self.starts + position
        np.minimum(at, self.size, out=at)
        key = self.words[at].astype(np.uint64)
        left = np.subtract(self.lengths, position, out=at)  # bytes of the id from `position` on
        np.clip(left, 0, 8, out=left)
        key &= _KEEP_BYTES[left]
        if take < 8:
            key >>= np.uint64(64 - 8 * take)
        return key


def _bytes_of(ids: pa.Array) -> _Bytes:
    """The layout of a pyarrow (large) string or binary array, nothing copied but the data plus 8 bytes."""
    n = len(ids)
    wide = pa.types.is_large_string(ids.type) or pa.types.is_large_binary(ids.type)
    _, offsets, data = ids.buffers()
    bounds = np.frombuffer(offsets, dtype=np.int64 if wide else np.int32, count=n + 1,
                           offset=ids.offset * (8 if wide else 4))
    base = int(bounds[0])
    raw = np.frombuffer(data, dtype=np.uint8)[base:int(bounds[-1])] if data is not None else np.zeros(0, np.uint8)
    padded = np.concatenate([raw, np.zeros(8, dtype=np.uint8)])
    # The big-endian 64-bit word starting at every byte (a strided view, nothing copied).
    words = np.ndarray(shape=(padded.size - 7,), dtype=">u8", buffer=padded, strides=(1,))
    return _Bytes(words, bounds[:-1].astype(np.int64) - base, np.diff(bounds).astype(np.int64), raw.size)


def byte_order_codes(ids: pa.Array) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes ranking text ids in byte order (UTF-8 bytes: code point order), equal ids sharing a code.

    Returns ``(codes as int32, a row holding each code)``, or None when the
    ids are alike in too long a prefix for this to pay. The first 8 bytes of
    each id are ranked by numpy's integer sort; then, while two ids share a
    rank, that rank shifted left and the next bytes of the id (as many as fit
    beside it) are ranked again. A million 11-byte ids take two integer
    sorts, about a third of a string sort.

    >>> byte_order_codes(pa.array(["b", "a", "ab", "b"]))[0].tolist()
    [2, 0, 1, 2]
    """
    n = len(ids)
    if n == 0:
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64)
    layout = _bytes_of(ids)
    longest = int(layout.lengths.max(initial=0))
    codes, count, position = None, 0, _shared_prefix(layout.key(0, 8))
    for _ in range(_KEY_ROUNDS):
        take = 8 if codes is None else (64 - max(count - 1, 1).bit_length()) // 8
        key = layout.key(position, take)
        if codes is not None:
            key |= codes.astype(np.uint64) << np.uint64(8 * take)
        codes, first = _dense_ranks(key)
        count = first.size
        position += take
        if position >= longest or count == n:  # all bytes seen, or every id told apart by its prefix
            return codes, first
    return None


def _search(key: np.ndarray, wanted_key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each wanted key: the first place of an equal key in the sorted ``key`` (clipped to a valid index),
    whether there is one, and whether there are several."""
    low = np.minimum(np.searchsorted(key, wanted_key), key.size - 1)
    found = key[low] == wanted_key
    after = np.minimum(low + 1, key.size - 1)
    several = found & (after > low) & (key[after] == wanted_key)
    return low, found, several


def _shared_prefix(*keys: np.ndarray) -> int:
    """How many leading bytes (0-8) every key shares: ids such as ``DOC-1234567`` or ``clueweb09-...`` then
    compare from their first differing byte on, often in one round instead of two or three."""
    low = min(int(key.min()) for key in keys if key.size)
    high = max(int(key.max()) for key in keys if key.size)
    return (64 - (low ^ high).bit_length()) // 8


def _dense_ranks(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank of each key among the distinct keys (0, 1, ...; int32), and a position holding each rank."""
    order = np.argsort(keys)  # unstable is fine: equal keys get equal ranks
    ordered = keys[order]
    new = np.empty(keys.size, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    ranks = np.empty(keys.size, dtype=np.int32)
    ranks[order] = np.cumsum(new.view(np.int8), dtype=np.int32) - 1  # int8 view: a much faster cumsum than bool
    return ranks, order[new]


def sorted_positions(ids: pa.Array, wanted: pa.Array) -> np.ndarray | None:
    """Position of each id of ``wanted`` in ``ids`` (distinct ids sorted in byte order), -1 when absent.

    Binary search on the ids' bytes as integers, round by round (8 bytes,
    then the rank so far beside the next bytes): no hash table, and the
    sorted ``ids`` are never sorted again. Each found id is compared in full
    at the end. None when ``ids`` are not sorted in byte order, or are alike
    in too long a prefix: the caller then hashes.

    >>> sorted_positions(pa.array(["a", "ab", "b"]), pa.array(["b", "c", "a", "ab"])).tolist()
    [2, -1, 0, 1]
    """
    n, m = len(ids), len(wanted)
    if m == 0:
        return np.zeros(0, dtype=np.int64)
    if n == 0:
        return np.full(m, -1, dtype=np.int64)
    sorted_bytes, wanted_bytes = _bytes_of(ids), _bytes_of(wanted)
    longest = max(int(sorted_bytes.lengths.max()), int(wanted_bytes.lengths.max()))
    key, wanted_key = sorted_bytes.key(0, 8), wanted_bytes.key(0, 8)
    position = _shared_prefix(key, wanted_key)
    if position:
        key, wanted_key = sorted_bytes.key(position, 8), wanted_bytes.key(position, 8)
    if (key[1:] < key[:-1]).any():
        return None
    low, found, several = _search(key, wanted_key)
    position, bits = position + 8, max(n - 1, 1).bit_length()
    for _ in range(_KEY_ROUNDS):
        if position >= longest or not several.any():
            break
        # Rank of each sorted id's prefix so far (sorted ids: ranks count up), beside its next bytes.
        new = np.empty(n, dtype=bool)
        new[:1] = True
        np.not_equal(key[1:], key[:-1], out=new[1:])
        rank = np.cumsum(new.view(np.int8), dtype=np.int64) - 1
        take = (64 - bits) // 8
        key = sorted_bytes.key(position, take)
        key |= rank.astype(np.uint64) << np.uint64(8 * take)
        if (key[1:] < key[:-1]).any():
            return None
        wanted_key = wanted_bytes.key(position, take)
        wanted_key |= rank[low].astype(np.uint64) << np.uint64(8 * take)
        low, still, several = _search(key, wanted_key)
        found &= still
        several &= found
        position += take
    if several.any():  # alike beyond the rounds, or two ids equal but for trailing NUL bytes
        return None
    candidate = np.flatnonzero(found)
    at = low[candidate]
    if position >= longest:  # every byte compared: equal ids are those of equal length
        same = sorted_bytes.lengths[at] == wanted_bytes.lengths[candidate]
    else:
        if wanted.type != ids.type:
            wanted = wanted.cast(ids.type)
        same = pc.equal(ids.take(pa.array(at)), wanted.take(pa.array(candidate))).to_numpy(zero_copy_only=False)
    positions = np.full(m, -1, dtype=np.int64)
    positions[candidate[same]] = at[same]
    return positions

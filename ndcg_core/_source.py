"""The bytes of a file for the readers: where they come from, their encoding and their line ends.

:func:`read_content` turns a path, ``bytes`` or a file object into a
:class:`Content`: one byte string with ``\\n`` line ends and no byte-order
mark, plus whether all of it is valid UTF-8. The readers hand those bytes to
``pyarrow.csv`` as they are; only a file that is not valid UTF-8 has its ids
decoded one by one (:func:`decode_ids`).

Conventions
-----------
* Byte-order marks: a UTF-8 BOM is dropped (at the start of the file, and at
  the start of any line, which is where concatenated files put theirs); a
  UTF-16 BOM (``FF FE`` or ``FE FF``, what Windows Notepad's "Unicode" writes)
  means the file is UTF-16 and it is converted to UTF-8.
* Line ends: ``\\n`` (Unix), ``\\r\\n`` (Windows) and a lone ``\\r`` (old Mac
  OS) each end a line, also mixed in one file.
* Encodings: UTF-8. An id whose bytes are not valid UTF-8 is read as Latin-1
  (one character per byte), id by id, so a file that mixes UTF-8 and Latin-1
  lines reads every id as it was meant. With ``ids="bytes"`` (trec_eval's
  reading) such an id is kept as its bytes instead, shown with ``\\xNN``
  escapes, so it equals only the same bytes in the other file.
* A NUL byte means a binary file (a spreadsheet, a zip): refused with its line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ._validation import InvalidInput

UTF8_BOM = b"\xef\xbb\xbf"
IDS = ("text", "bytes")


@dataclass(frozen=True)
class Content:
    """A file's bytes ready for parsing.

    ``data`` has ``\\n`` line ends and no BOM; ``utf8`` says whether it is
    valid UTF-8 throughout (then every id can be read as text directly).
    """

    data: bytes
    utf8: bool


def read_content(source, what: str) -> Content:
    """The bytes of ``source`` (a path, bytes or an open file), with BOMs and line ends handled."""
    raw = _read_source(source, what)
    if isinstance(raw, str):
        data = raw.encode("utf-8", "surrogateescape" if _surrogates_escaped(raw) else "replace")
    else:
        data = raw
    data = _without_boms(data, what)
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InvalidInput(
            f"{what}, line {line}: the file contains a NUL byte, so it looks like a binary file "
            "(for example a spreadsheet or a zip), not text. Save it as plain UTF-8 text."
        )
    if b"\r" in data:  # Windows and old-Mac line ends, also mixed: each one ends a line
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if not data or data.isspace():
        raise InvalidInput(f"The {what} is empty: it has no lines with data.")
    return Content(data=data, utf8=_is_utf8(data))


def decode_ids(values: list[bytes], *, ids: str) -> list[str]:
    """Text of ids read as bytes from a file that is not valid UTF-8 throughout (see the module notes)."""
    fallback = "latin-1" if ids == "text" else None
    decoded = []
    for value in values:
        try:
            decoded.append(value.decode("utf-8"))
        except UnicodeDecodeError:
            decoded.append(value.decode(fallback) if fallback else value.decode("utf-8", "backslashreplace"))
    return decoded


def data_lines(data: bytes, *, first_line: int = 1) -> np.ndarray:
    """1-based line numbers of the non-empty lines of ``data`` (the rows a parser returns, in order).

    Only called to name the line of a problem, so it may take a few tens of
    milliseconds on a large file.
    """
    array = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(array == 10)
    starts = np.r_[0, ends + 1]
    ends = np.r_[ends, array.size]
    return np.flatnonzero(ends > starts) + first_line


def _read_source(source, what: str) -> bytes | str:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            raise InvalidInput(f"The {what} {os.fspath(source)!r} does not exist.") from None
        except IsADirectoryError:
            raise InvalidInput(f"The {what} {os.fspath(source)!r} is a folder, not a file.") from None
        except OSError as error:
            raise InvalidInput(f"The {what} {os.fspath(source)!r} cannot be read: {error.strerror}.") from None
    # A file object: prefer getvalue() (BytesIO, Streamlit UploadedFile), which ignores the read position.
    reader = getattr(source, "getvalue", None) or getattr(source, "read", None)
    if reader is None:
        raise InvalidInput(
            f"The {what} must be a file path, the file's bytes or an open file, got {type(source).__name__}."
        )
    data = reader()
    if not isinstance(data, (bytes, bytearray, str)):
        raise InvalidInput(f"Reading the {what} gave {type(data).__name__}, not text or bytes.")
    return data if isinstance(data, str) else bytes(data)


def _surrogates_escaped(text: str) -> bool:
    """True when ``text`` holds lone surrogates from ``decode(..., 'surrogateescape')`` (bytes kept as such)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _without_boms(data: bytes, what: str) -> bytes:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as error:
            line = data[: error.start].decode("utf-16", "replace").count("\n") + 1
            raise InvalidInput(
                f"{what}, line {line}: the file starts with a UTF-16 byte-order mark but is not valid UTF-16. "
                "Save it as UTF-8 text."
            ) from None
        data = data.removeprefix(UTF8_BOM)
    # A UTF-8 BOM goes whatever the rest of the file is (a BOM in front of Latin-1 text must not become "ï»¿").
    data = data.removeprefix(UTF8_BOM)
    if not data.isascii() and UTF8_BOM in data:  # concatenated files: a BOM at the start of a later line
        data = data.replace(b"\n" + UTF8_BOM, b"\n").replace(b"\r" + UTF8_BOM, b"\r")
    return data


def _is_utf8(data: bytes) -> bool:
    if data.isascii():
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True

"""The text of a PDF that Chromium printed, page by page, without a PDF library.

Chromium (Skia) writes plain PDF 1.4: numbered objects, no object streams, Flate-compressed page contents,
and every font with a ``/ToUnicode`` CMap that maps its glyph codes (one or two bytes, as the CMap's code
space says) back to text. That is
all this reader handles: enough to check what a print contains (the page count, and which text landed on
which page), not a general PDF parser. It reads text drawn directly on a page and inside form XObjects.
"""

from __future__ import annotations

import re
import unicodedata
import zlib

_OBJECT = re.compile(rb"(\d+) 0 obj\s*")
_REF = rb"(\d+) 0 R"


def _objects(data: bytes) -> dict[int, bytes]:
    """Object number -> its body (dictionary and raw stream bytes), split at the 'N 0 obj' markers."""
    starts = [(int(m.group(1)), m.end()) for m in _OBJECT.finditer(data)]
    bodies = {}
    for (number, start), (_next, following) in zip(starts, [*starts[1:], (0, len(data))], strict=True):
        bodies[number] = data[start:following]
    return bodies


def _stream(body: bytes) -> bytes:
    """An object's stream, decompressed (uses /Length, so binary data holding 'endstream' cannot confuse it)."""
    head = body.find(b"stream")
    length = int(re.search(rb"/Length (\d+)", body[:head]).group(1))
    start = head + len(b"stream") + (2 if body[head + 6:head + 8] == b"\r\n" else 1)
    raw = body[start:start + length]
    return zlib.decompress(raw) if b"/FlateDecode" in body[:head] else raw


def _dictionary(body: bytes, key: bytes) -> bytes:
    """The text of the ``<< ... >>`` dictionary under ``key`` (nested brackets counted)."""
    at = body.find(key + b" <<")
    if at < 0:
        at = body.find(key + b"<<")
    if at < 0:
        return b""
    start = body.index(b"<<", at)
    depth, index = 0, start
    while index < len(body) - 1:
        pair = body[index:index + 2]
        if pair == b"<<":
            depth, index = depth + 1, index + 2
        elif pair == b">>":
            depth, index = depth - 1, index + 2
            if depth == 0:
                return body[start:index]
        else:
            index += 1
    return body[start:]


def _cmap(text: bytes) -> tuple[int, dict[int, str]]:
    """A ToUnicode CMap's code width in bytes, and its code -> text (bfchar pairs and bfrange runs)."""
    space = re.search(rb"begincodespacerange\s*<([0-9A-Fa-f]+)>", text)
    width = len(space.group(1)) // 2 if space else 2
    mapping: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", text, re.S):
        for source, target in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            mapping[int(source, 16)] = bytes.fromhex(target.decode()).decode("utf-16-be", "replace")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", text, re.S):
        for low, high, rest in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])", block):
            low, high = int(low, 16), int(high, 16)
            if rest.startswith(b"["):
                for offset, target in enumerate(re.findall(rb"<([0-9A-Fa-f]*)>", rest)):
                    mapping[low + offset] = bytes.fromhex(target.decode()).decode("utf-16-be", "replace")
            else:
                first = bytes.fromhex(rest[1:-1].decode()).decode("utf-16-be", "replace")
                for offset in range(high - low + 1):
                    mapping[low + offset] = first[:-1] + chr(ord(first[-1]) + offset)
    return width, mapping


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.objects = _objects(data)
        self.cmaps: dict[int, tuple[int, dict[int, str]]] = {}

    def resolve(self, body: bytes) -> bytes:
        """An inline dictionary as is; a bare reference 'N 0 R' replaced by that object's body."""
        match = re.fullmatch(rb"\s*" + _REF + rb"\s*", body)
        return self.objects[int(match.group(1))] if match else body

    def resources(self, body: bytes) -> bytes:
        inline = _dictionary(body, b"/Resources")
        if inline:
            return inline
        match = re.search(rb"/Resources " + _REF, body)
        return self.objects[int(match.group(1))] if match else b""

    def fonts(self, resources: bytes) -> dict[bytes, tuple[int, dict[int, str]]]:
        fonts = {}
        for name, number in re.findall(rb"/(\w+) " + _REF, _dictionary(resources, b"/Font")):
            font = int(number)
            if font not in self.cmaps:
                unicode_ref = re.search(rb"/ToUnicode " + _REF, self.objects[font])
                self.cmaps[font] = _cmap(_stream(self.objects[int(unicode_ref.group(1))])) if unicode_ref else (2, {})
            fonts[name] = self.cmaps[font]
        return fonts

    def text(self, content: bytes, resources: bytes, depth: int = 0) -> str:
        """Glyphs in drawing order; a new line at each text object (BT) and each form."""
        fonts = self.fonts(resources)
        forms = dict(re.findall(rb"/(\w+) " + _REF, _dictionary(resources, b"/XObject")))
        pieces, (width, cmap) = [], (2, {})
        token = re.compile(rb"/(\w+)\s+[-\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj|\[((?:[^\]\\]|\\.)*)\]\s*TJ|/(\w+)\s+Do|\bBT\b")
        for match in token.finditer(content):
            font, shown, array, form = match.group(1), match.group(2), match.group(3), match.group(4)
            if font is not None:
                width, cmap = fonts.get(font, (2, {}))
            elif shown is not None or array is not None:
                for hexes in [shown] if shown is not None else re.findall(rb"<([0-9A-Fa-f]*)>", array):
                    codes = bytes.fromhex(hexes.decode())
                    pieces.extend(cmap.get(int.from_bytes(codes[i:i + width], "big"), "")
                                  for i in range(0, len(codes), width))
            elif form is not None and form in forms and depth < 8:
                body = self.objects[int(forms[form])]
                if b"/Subtype /Form" in body:
                    pieces.append("\n" + self.text(_stream(body), self.resources(body), depth + 1))
            else:
                pieces.append("\n")
        return "".join(pieces)

    def pages(self) -> list[str]:
        root = int(re.findall(rb"/Root " + _REF, self.data)[-1])  # the (last) trailer's catalog
        tree = int(re.search(rb"/Pages " + _REF, self.objects[root]).group(1))
        return [self.page_text(number) for number in self._leaves(tree)]

    def _leaves(self, number: int) -> list[int]:
        body = self.objects[number]
        if re.search(rb"/Type /Page\b(?!s)", body):
            return [number]
        kids = re.search(rb"/Kids \[([^\]]*)\]", body).group(1)
        return [leaf for kid in re.findall(_REF, kids) for leaf in self._leaves(int(kid))]

    def page_text(self, number: int) -> str:
        body = self.objects[number]
        contents = re.search(rb"/Contents (\[[^\]]*\]|" + _REF + rb")", body).group(1)
        streams = b"\n".join(_stream(self.objects[int(ref)]) for ref in re.findall(_REF, contents))
        return self.text(streams, self.resources(body))


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page of a Chromium-printed PDF, in page order."""
    if not data.startswith(b"%PDF-"):
        raise ValueError("not a PDF")
    return _Reader(data).pages()


def squeeze(text: str) -> str:
    """``text`` without whitespace and ligatures ('ﬀ' -> 'ff'): a PDF places words by coordinates, so its spaces
    are not reliable, and a ligature glyph maps back to one character."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))

"""The text of office documents inside a zip container, as the reader sees
it: a word processor cuts a paragraph into runs of text wherever the
formatting, the spelling checker or an edit changes (``<w:r><w:t>urn:isbn:
</w:t></w:r><w:r><w:t>0451450523</w:t></w:r>``), so a URN is only found
whole in the text, not in the XML.

The members read this way, and the elements that carry their text:

=====================  ==============================  =========================
member                 text                            breaks
=====================  ==============================  =========================
DOCX ``word/*.xml``    ``w:t``, ``w:instrText``        ``w:p`` ends a line;
(ECMA-376 part 1,      (field codes: ``HYPERLINK``)    ``w:br``, ``w:cr`` a line
section 17.3.3)                                        break, ``w:tab`` a tab,
                                                       ``w:noBreakHyphen`` "-"
PPTX ``ppt/*.xml``     ``a:t`` (DrawingML, 21.1.2)     ``a:p`` ends a line,
                                                       ``a:br`` a line break
XLSX                   ``t`` of each shared string     ``si`` ends a line
``xl/sharedStrings``   (18.4.8)
ODT, ODP, ODS          the character data of           ``text:p``, ``text:h``
``content.xml``,       ``text:p`` and ``text:h``       end a line;
``styles.xml``         (OpenDocument 1.2 part 1,       ``text:line-break``,
                       section 5.1)                    ``text:tab``, ``text:s``
=====================  ==============================  =========================

Deleted text of tracked changes is not text: ``w:delText``, the runs moved
away from a place (``w:moveFrom``, ECMA-376 part 1, section 17.13.5.22;
they are read where they were moved to), OpenDocument's
``text:tracked-changes`` (OpenDocument 1.2 part 1, section 5.5.1, which
holds the deleted paragraphs).  Of the branches of a markup compatibility
``mc:AlternateContent`` (ECMA-376 part 3, section 10.2.1) only one is
read, as a consumer processes only one: the first ``mc:Choice``, or the
``mc:Fallback`` when there is none -- Word writes a text box twice, as
DrawingML in a Choice and as VML in the Fallback, and its text is one.  A
text of its own that a paragraph holds where it is anchored -- a text box
(an OpenDocument ``draw:frame``), a footnote or endnote (``text:note``,
OpenDocument 1.2 part 1, section 6.3), a comment (``office:annotation``,
14.1) -- is set apart from the text around it (:data:`APART`), and only
its own paragraphs are read: not the note's citation mark, the comment's
author and date nor a frame's title.  A sentence goes on after it as if it
were not there, as it does around a DOCX ``w:footnoteReference`` or
``w:commentReference``, whose notes and comments are parts of their own
(``word/footnotes.xml``, ``word/comments.xml``).  Attribute values holding
``urn:`` (namespace names, link targets such as ODF's ``xlink:href``) are
kept too, each after the paragraph they were met in, set apart
(:data:`APART`): a value is no part of the text around it, and a name it
ends with must not go on with the next paragraph (``xmlns:w10=
"urn:schemas-microsoft-com:office:word"``, then a footer's page number
``-2``).  A paragraph ends a line only, so a name a writer broke over two
lines or paragraphs is joined as in any text.  Elements are matched by
their local name, since the prefixes are the producers' choice.  The XML
is read as it streams, with the standard library's expat parser, so memory
stays bounded by a chunk; where a member is not well-formed XML, the rest
of it from its last tag before the break is handed on as it is (the
scanner reads raw XML as well, just without the joining).  Expat expands
no external entity and bounds the expansion of internal ones; the
decompression ratio limit (:mod:`.limits`) holds the member's XML as it is
read, not the text drawn from it, so XML that holds little text is no way
around it.
Every other member of the container is read as it is.
"""
from __future__ import annotations

import re
from enum import Enum
from typing import Iterable, Iterator, List, Optional
from xml.parsers import expat

from ..lazyre import LazyPattern


class Flavor(Enum):
    """Which vocabulary a member's text is written in."""

    WORDPROCESSING = "wordprocessing"
    DRAWING = "drawing"
    SHARED_STRINGS = "shared strings"
    OPENDOCUMENT = "opendocument"


#: per flavour: elements whose character data is text, elements whose end
#: ends a line, elements that stand for a character
_TEXT = {
    Flavor.WORDPROCESSING: frozenset({"t", "instrText"}),
    Flavor.DRAWING: frozenset({"t"}),
    Flavor.SHARED_STRINGS: frozenset({"t"}),
    Flavor.OPENDOCUMENT: frozenset({"p", "h"}),
}
_LINE_END = {
    Flavor.WORDPROCESSING: frozenset({"p"}),
    Flavor.DRAWING: frozenset({"p"}),
    Flavor.SHARED_STRINGS: frozenset({"si"}),
    Flavor.OPENDOCUMENT: frozenset({"p", "h"}),
}
#: per flavour: elements that hold a text of their own inside a paragraph
#: (module docstring); OpenDocument 1.2 part 1, sections 6.3.2, 10.4.2 (a
#: frame: a text box, an image) and 14.1; ECMA-376 part 1, section
#: 17.17.1.1 (a text box's content)
_APART = {
    Flavor.WORDPROCESSING: frozenset({"txbxContent"}),
    Flavor.DRAWING: frozenset(),
    Flavor.SHARED_STRINGS: frozenset(),
    Flavor.OPENDOCUMENT: frozenset({"note", "annotation", "frame"}),
}
#: per flavour: elements not read, with all they hold (module docstring)
_NOT_READ = {
    Flavor.WORDPROCESSING: frozenset({"moveFrom"}),
    Flavor.DRAWING: frozenset(),
    Flavor.SHARED_STRINGS: frozenset(),
    Flavor.OPENDOCUMENT: frozenset({"tracked-changes"}),
}
_CHARACTER = {
    # noBreakHyphen: a hyphen the line is not broken at (17.3.3.18), as
    # typed inside an ISBN or a date
    Flavor.WORDPROCESSING: {"br": "\n", "cr": "\n", "tab": "\t", "noBreakHyphen": "-"},
    Flavor.DRAWING: {"br": "\n"},
    Flavor.SHARED_STRINGS: {},
    Flavor.OPENDOCUMENT: {"line-break": "\n", "tab": "\t", "s": " "},
}
#: ``text:s`` stands for this many spaces at most, whatever its ``text:c``
MAX_SPACES = 256
#: the most of a member held to hand on as it is, should its XML break
HELD_BYTES = 4 << 20
_URN_IN_VALUE = LazyPattern(r"urn:", re.IGNORECASE)
#: what sets a piece of text apart from the text around it: two empty
#: lines, which no fold of the scanner crosses (:mod:`..extract.fold`: one
#: empty line stops a fold, except after a ":", where a lone name piece may
#: go on)
APART = "\n\n\n"
_OPENDOCUMENT_MEMBERS = ("content.xml", "styles.xml")
#: the markup compatibility element of which one child is read, and its
#: children (ECMA-376 part 3, section 10.2.1); OpenDocument has none such
_ALTERNATES = "AlternateContent"
_BRANCHES = frozenset({"Choice", "Fallback"})


def flavor_of(name: str, opendocument: bool) -> Optional[Flavor]:
    """The flavour of the zip member ``name``; None for a member read as
    it is.  ``opendocument``: the archive's ``mimetype`` member names an
    OpenDocument type."""
    if opendocument:
        return Flavor.OPENDOCUMENT if name in _OPENDOCUMENT_MEMBERS else None
    if not name.endswith(".xml") or "/_rels/" in name:
        return None
    if name.startswith("word/"):
        return Flavor.WORDPROCESSING
    if name.startswith("ppt/"):
        return Flavor.DRAWING
    if name == "xl/sharedStrings.xml":
        return Flavor.SHARED_STRINGS
    return None


def is_opendocument(mimetype: bytes) -> bool:
    """Whether the content of a zip's ``mimetype`` member names an
    OpenDocument type (OpenDocument 1.2 part 3, section 3.3)."""
    return mimetype.strip().startswith(b"application/vnd.oasis.opendocument.")


def _local(tag: str) -> str:
    return tag.rsplit(":", 1)[-1]


class _Text:
    """The expat handlers of one member: they gather its text in ``out``."""

    def __init__(self, flavor: Flavor):
        self.text_elements = _TEXT[flavor]
        self.line_ends = _LINE_END[flavor]
        self.characters = _CHARACTER[flavor]
        self.apart = _APART[flavor]
        self.not_read_elements = _NOT_READ[flavor]
        self.out: List[str] = []
        self.inside = 0  # open elements whose character data is text
        self.outside: List[int] = []  # per open element set apart: ``inside`` where it began
        self.values: List[str] = []  # attribute values with "urn:", for the end of the line
        self.read = 0  # how much of ``out`` came before the last tag began
        self.skipped = 0  # open elements of a part not read, counted from its top
        self.alternates: List[bool] = []  # per open AlternateContent: whether a branch is read

    def start(self, tag: str, attrs: dict) -> None:
        name = _local(tag)
        if self.skipped or self.not_read(name):
            self.skipped += 1
            return
        if name in self.apart:
            self.out.append(APART)
            self.outside.append(self.inside)
            self.inside = 0
        if name in self.text_elements:
            self.inside += 1
        elif name in self.characters:
            char = self.characters[name]
            if char == " ":
                count = next((v for k, v in attrs.items() if _local(k) == "c"), "1")
                char *= min(int(count), MAX_SPACES) if count.isdigit() else 1
            self.out.append(char)
        for value in attrs.values():
            if _URN_IN_VALUE.search(value):
                self.values.append(value)

    def not_read(self, name: str) -> bool:
        """Whether the element ``name`` starting now is a part not read: a
        branch of an AlternateContent after the one read, deleted text."""
        if name == _ALTERNATES:
            self.alternates.append(False)
        elif name in _BRANCHES and self.alternates:
            if self.alternates[-1]:
                return True
            self.alternates[-1] = True
        return name in self.not_read_elements

    def end(self, tag: str) -> None:
        if self.skipped:
            self.skipped -= 1
            return
        name = _local(tag)
        if name == _ALTERNATES and self.alternates:
            self.alternates.pop()
        if name in self.text_elements:
            self.inside -= 1
        if name in self.line_ends:
            self.out.append("\n")
            self.flush_values()
        if name in self.apart:
            self.out.append(APART)
            self.inside = self.outside.pop()

    def data(self, text: str) -> None:
        if self.inside > 0 and not self.skipped:
            self.out.append(text)

    def flush_values(self) -> None:
        """The attribute values gathered, each set apart."""
        if self.values:
            self.out.append(APART + APART.join(self.values) + APART)
            del self.values[:]

    def take(self, everything: bool = False) -> bytes:
        """The text gathered before the last tag began (all of it when
        ``everything``), taken out."""
        upto = len(self.out) if everything else self.read
        text = "".join(self.out[:upto]).encode("utf-8", "surrogatepass")
        del self.out[:upto]
        self.read -= upto
        return text


def office_text(chunks: Iterable[bytes], flavor: Flavor) -> Iterator[bytes]:
    """The text of a member (module docstring) as UTF-8 chunks, read from
    its XML ``chunks`` as they come."""
    text = _Text(flavor)
    parser = expat.ParserCreate()
    mark = [0]  # where the last tag began: all before it has been read

    def start(tag: str, attrs: dict) -> None:
        mark[0], text.read = parser.CurrentByteIndex, len(text.out)
        text.start(tag, attrs)

    def end(tag: str) -> None:
        mark[0], text.read = parser.CurrentByteIndex, len(text.out)
        text.end(tag)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text.data
    parser.buffer_text = True
    held: List[bytes] = []  # the chunks from the one holding the last tag on
    held_from = 0  # the offset in the member of held[0]
    held_bytes = 0
    it = iter(chunks)
    for chunk in it:
        held.append(chunk)
        try:
            parser.Parse(chunk, False)
        except expat.ExpatError:
            # the rest as it is, from the last tag before the break
            yield text.take()
            yield b"".join(held)[max(0, mark[0] - held_from):]
            yield from it
            return
        held_bytes += len(chunk)
        # a text without tags is let go once it passes HELD_BYTES (should
        # the XML break after it, it is not read twice)
        overflow = held_bytes > HELD_BYTES
        while len(held) > 1 and (held_from + len(held[0]) <= mark[0] or overflow):
            held_bytes -= len(held[0])
            held_from += len(held.pop(0))
        out = text.take(everything=overflow)
        if out:
            yield out
    try:
        parser.Parse(b"", True)
    except expat.ExpatError:  # the member ends inside an element
        yield text.take()
        yield b"".join(held)[max(0, mark[0] - held_from):]
        return
    text.flush_values()
    out = text.take(everything=True)
    if out:
        yield out

"""PDF: one document per page, its text as PDFium extracts it.

PDFium (the PDF engine of Chromium, through the ``pypdfium2`` bindings, a
wheel with the engine inside) is an extra: ``pip install 'urnscan[pdf]'``.
It was chosen over pure-Python extractors for speed: on real manuals it
extracts text about ten times as fast as pypdf (a 33-page manual: 0.07 s
against 0.85 s), and a corpus of papers is mostly PDF.  Without it a PDF
is skipped with that message.  Pages are ``page=1``, ``page=2``... (as in
the ``#page=`` fragment of RFC 8118 section 3).  A page whose text cannot
be extracted is skipped and counted; a file PDFium cannot open, or an
encrypted one it cannot open with the empty password, stops the input.
"""
from __future__ import annotations

from typing import BinaryIO, Iterator

from ..errors import SourceError
from .document import Document


def pdf_available() -> bool:
    """Whether PDF text can be read here."""
    try:
        import pypdfium2  # noqa: F401
    except ImportError:
        return False
    return True


#: what PDFium's text puts for the hyphen that ended a line, the word
#: joined to the rest of it on the next line
_HYPHENATION_MARK = "\ufffe"


def _open(fileobj: BinaryIO):
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(fileobj)
    except pdfium.PdfiumError as exc:
        reason = str(exc)
        if "password" in reason.lower():
            raise SourceError("encrypted PDF: its text cannot be read") from exc
        raise SourceError(f"cannot read the PDF: {reason}") from exc


def _page_text(document, index: int) -> str:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            return textpage.get_text_range()
        finally:
            textpage.close()
    finally:
        page.close()


def pdf_documents(fileobj: BinaryIO) -> Iterator[Document]:
    """The pages of a PDF (a seekable file) as documents."""
    import pypdfium2 as pdfium

    document = _open(fileobj)
    try:
        for number in range(1, len(document) + 1):
            try:
                text = _page_text(document, number - 1)
            except pdfium.PdfiumError:
                yield Document(f"page={number}", (), skipped="page text not extractable")
                continue
            # PDFium ends lines with CRLF, and joins a word that ends a line
            # with "-" to the rest on the next line, marking the hyphen with
            # U+FFFE ("urn:nbn:de:bsz:16\ufffeheidok-74406"): a typesetter
            # breaks a name such as a URN at its own hyphens (TeX hyphenates
            # no word that holds one), so the mark is read as "-".  A lone
            # surrogate cannot be encoded.
            text = text.replace(_HYPHENATION_MARK, "-")
            yield Document(f"page={number}", (text.encode("utf-8", "replace"),) if text else ())
    finally:
        document.close()

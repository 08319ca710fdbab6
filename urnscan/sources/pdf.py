"""PDF: one document per page, its text as PDFium extracts it, then one
per embedded file.

PDFium (the PDF engine of Chromium, through the ``pypdfium2`` bindings, a
wheel with the engine inside) is an extra: ``pip install 'urnscan[pdf]'``.
It was chosen over pure-Python extractors for speed: on real manuals it
extracts text about ten times as fast as pypdf (a 33-page manual: 0.07 s
against 0.85 s), and a corpus of papers is mostly PDF.  Without it a PDF
is skipped with that message.  Pages are ``page=1``, ``page=2``... (as in
the ``#page=`` fragment of RFC 8118 section 3).  A page whose text cannot
be extracted is skipped and counted; a file PDFium cannot open, or an
encrypted one it cannot open with the empty password, stops the input.

The files a PDF embeds (PDF 1.7, ISO 32000-1 section 7.11.4: the
EmbeddedFiles name tree of the document catalog) follow the pages, each
named by its file name and read as a member of an archive is: the XML
invoice of a Factur-X or ZUGFeRD PDF (PDF/A-3), whose namespaces and
specification identifiers are URNs, is ``factur-x.xml``; an embedded file
that holds documents (a PDF, a zip archive) gives those, named
``NAME!DOCUMENT``.  PDFium hands an embedded file whole: one larger than
:data:`MAX_EMBEDDED_BYTES` is skipped with that reason.
"""
from __future__ import annotations

from typing import BinaryIO, Iterator

from ..errors import SourceError
from .document import Document

#: the largest embedded file read (PDFium hands it whole)
MAX_EMBEDDED_BYTES = 64 << 20


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


def pdf_documents(fileobj: BinaryIO, chunk_size: int = 1 << 16, depth: int = 0) -> Iterator[Document]:
    """The pages of a PDF (a seekable file) as documents, then its embedded
    files (``depth``: how deep inside other archives the PDF is)."""
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
        yield from _embedded_files(document, chunk_size, depth)
    finally:
        document.close()


def _embedded_files(document, chunk_size: int, depth: int) -> Iterator[Document]:
    """The files embedded in ``document`` (module docstring), in the order
    of its EmbeddedFiles name tree; one without a name is ``attachment=N``."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    from .tarred import member_documents

    for index in range(document.count_attachments()):
        name = f"attachment={index + 1}"
        try:
            attachment = document.get_attachment(index)
            name = attachment.get_name() or name
            size = ctypes.c_ulong()
            pdfium_c.FPDFAttachment_GetFile(attachment, None, 0, size)
            if size.value > MAX_EMBEDDED_BYTES:
                yield Document(name, (), skipped="embedded file over the size limit")
                continue
            data = bytes(attachment.get_data()) if size.value else b""
        except pdfium.PdfiumError:
            yield Document(name, (), skipped="embedded file not readable")
            continue
        step = max(chunk_size, 1)
        chunks = (data[i:i + step] for i in range(0, len(data), step))
        yield from member_documents(name, chunks, len(data), chunk_size, depth)

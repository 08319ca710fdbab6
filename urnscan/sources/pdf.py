"""PDF: one document per page, its text as ``pypdf`` extracts it.

pypdf (pure Python, well kept, with its own limits on stream sizes) is an
extra: ``pip install 'urnscan[pdf]'``.  Without it a PDF is skipped with
that message.  Pages are ``page=1``, ``page=2``... (as in the ``#page=``
fragment of RFC 8118 section 3).  A page whose text cannot be extracted is
skipped and counted; a file pypdf cannot open, or an encrypted one it
cannot decrypt with the empty password, stops the input.  pypdf's warnings
about damaged files are silenced while it reads.
"""
from __future__ import annotations

import contextlib
import logging
from typing import BinaryIO, Iterator

from ..errors import SourceError
from .documents import Document


def pypdf_available() -> bool:
    """Whether PDF text can be read here."""
    try:
        import pypdf  # noqa: F401
    except ImportError:
        return False
    return True


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def pdf_documents(fileobj: BinaryIO) -> Iterator[Document]:
    """The pages of a PDF (a seekable file) as documents."""
    import pypdf
    from pypdf.errors import PyPdfError

    with _quiet():
        try:
            reader = pypdf.PdfReader(fileobj, strict=False)
            if reader.is_encrypted and not reader.decrypt(""):
                raise SourceError("encrypted PDF: its text cannot be read")
            pages = len(reader.pages)
        except SourceError:
            raise
        except (PyPdfError, ValueError, KeyError, TypeError, OSError, AssertionError) as exc:
            raise SourceError(f"cannot read the PDF: {exc}") from exc
    for number in range(1, pages + 1):
        with _quiet():
            try:
                text = reader.pages[number - 1].extract_text()
            # pypdf raises many kinds of errors on damaged page content
            except Exception:  # noqa: BLE001
                yield Document(f"page={number}", (), skipped="page text not extractable")
                continue
        yield Document(f"page={number}", (text.encode("utf-8", "replace"),) if text else ())

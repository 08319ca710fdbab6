"""Turning what the user names into byte chunks.

This package is the input edge of urnscan.  It knows about files, directories,
globs, standard input and compression; it knows nothing about URNs.

* :func:`expand_inputs` turns the PATH arguments of a run into a
  deterministic list of :class:`InputRef`, one per input, each with a status:
  ``None`` (to be scanned) or the reason it cannot be.  It never raises for a
  bad input, so a run can list every input with what happened to it.
* :func:`open_chunks` opens one input and yields its *decompressed* content
  as ``bytes`` chunks of at most ``chunk_size`` bytes.  Compression is
  detected from the content, never from the file name.
* :func:`looks_binary` is the rule that decides whether an input is text.

One module per job; imports go one way (reader uses inputs and codecs,
which import neither each other nor reader):

* :mod:`.inputs`: expanding PATH arguments (files, directories, globs,
  standard input, include / exclude patterns, symbolic-link loops); its
  docstring has the walking rules.
* :mod:`.codecs`: telling the compression from the first bytes and decoding
  gzip, bzip2, xz and zstd in bounded steps.
* :mod:`.reader`: opening one input, reading it as decompressed chunks and
  telling binary from text; its docstring has the reading rules.
"""
from __future__ import annotations

# Re-exported: the public names, the InputRef.status reasons and the
# walker class.
from .codecs import zstd_available
from .inputs import (
    DANGLING_SYMLINK, GLOB_MATCHED_NOTHING, HIDDEN, IS_A_DIRECTORY, NO_SUCH_FILE, PERMISSION_DENIED,
    STDIN, SYMLINK_LOOP, SYMLINK_NOT_FOLLOWED, InputRef, _Expander, display_name,
    expand_inputs,
)
from .reader import BINARY_BLOCK_SIZE, DEFAULT_CHUNK_SIZE, ChunkReader, looks_binary, open_chunks

__all__ = [
    "InputRef", "ChunkReader", "expand_inputs", "open_chunks", "looks_binary",
    "BINARY_BLOCK_SIZE", "DEFAULT_CHUNK_SIZE", "STDIN", "display_name",
    "zstd_available",
]

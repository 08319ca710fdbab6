"""Linear time on crafted input: 8x the input takes at most twice 8x the
time for every family built against a reading rule (tests/growth.py says
why twice; min of repeats, measured in one run, so machine speed cancels
out).  The families grow one
structure (a run, a line, a URL token), so a rule whose work grows with
what came before (a look-back, a rescan) shows; benchmarks/bench_crafted.py
measures what each costs under the cap."""
import gc
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from crafted import GROWING, colon_fold_chain, growing_list, prose, reference_breaks, rfc8792_chain  # noqa: E402

from urnscan import scan_bytes  # noqa: E402
from urnscan.judge import forget_judgements  # noqa: E402
from urnscan.scanner import DEFAULT_MAX_URN_LENGTH  # noqa: E402

from .growth import GROWTH, MAX_RATIO, least_ratio  # noqa: E402

SMALL = 128 * 1024
#: a family whose SMALL input takes longer than this to scan (under about
#: 2.5 MB/s: long one-line lists, items with no NSS) is measured on inputs
#: a quarter the size
SLOW_SMALL_SECONDS = 0.05
CHUNK = 1 << 16


def best_scan_time(data: bytes, repeat: int, **options) -> float:
    """Best CPU time of ``repeat`` scans of ``data`` in 64 KiB chunks (CPU
    time: other processes on the machine do not count), the collector
    paused (its passes grow with the objects alive, not with the reading
    rules), every URN judged afresh (a warm judgement cache makes a scan
    time how well a dict of every URN seen fits the processor's caches)."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            forget_judgements()
            t = time.process_time()
            for _hit in scan_bytes((data[i:i + CHUNK] for i in range(0, len(data), CHUNK)), **options):
                pass
            best = min(best, time.process_time() - t)
    finally:
        gc.enable()
    return best


@pytest.mark.parametrize("name", ["prose"] + list(GROWING))
def test_eight_times_the_input_takes_at_most_sixteen_times_as_long(name):
    build = prose if name == "prose" else GROWING[name]
    size, small = SMALL, build(SMALL)
    if best_scan_time(small, 1) > SLOW_SMALL_SECONDS:  # (and the caches are warm)
        size = SMALL // 4  # a slow family: a quarter of the input shows the same growth, in a quarter of the time
        small = build(size)
    large = build(GROWTH * size)
    ratio = least_ratio(lambda: best_scan_time(large, 3) / best_scan_time(small, 9))
    assert ratio <= MAX_RATIO, f"{name}: {GROWTH}x the input took {ratio:.1f}x the time"


def _quoted_names(opener: str, size: int) -> bytes:
    """Names just under a kilobyte after ``opener``, their letters outside
    ASCII between apostrophes that letters follow (none closes a quote)."""
    unit = (opener + "urn:a:" + "\u00e9'x" * 300 + " ").encode()
    return unit * (size // len(unit) + 1)


def test_a_typographic_quote_costs_about_what_no_opener_does():
    # the closer of a "\u2018" is looked for in the run only: a search to the
    # cap from every letter outside ASCII cost ten times more
    curly, bare = _quoted_names("\u2018", SMALL), _quoted_names(" ", SMALL)
    best_scan_time(curly, 1)
    ratio = least_ratio(lambda: best_scan_time(curly, 3) / best_scan_time(bare, 3), 5)
    assert ratio <= 5, f"a \u2018-quoted name took {ratio:.1f}x the time of a bare one"


def test_a_reference_before_a_chain_of_marks_costs_about_what_a_blank_does():
    # each name was joined over the marks up to the cap, then cut at the
    # reference in its first piece, and the next "urn:" read the chain
    # again: 20 to 30 times the time of the same names with blanks
    chain = reference_breaks(SMALL // 4)
    blanks = chain.replace("\u00ad".encode(), b" ")
    best_scan_time(chain, 1)
    ratio = least_ratio(lambda: best_scan_time(chain, 3) / best_scan_time(blanks, 3), 4)
    assert ratio <= 4, f"a chain of marks took {ratio:.1f}x the time of blanks"


def _over_long_names(size: int) -> bytes:
    unit = b" urn:a:" + b"b" * (DEFAULT_MAX_URN_LENGTH + 10)
    return unit * (size // len(unit) + 1) + b" "


def _whole_scan_time(data: bytes) -> float:
    t = time.process_time()
    hits = list(scan_bytes(data))  # one buffer: the Python API given a bytes object
    assert len(hits) == data.count(b"urn:")
    return time.process_time() - t


def test_one_buffer_of_over_long_names_is_read_in_linear_time():
    """Each over-long name stops the reading of the buffer, which goes on
    after it: the candidates are found once, not again from each (a
    buffer of thousands was quadratic, and a call deep each: a
    RecursionError)."""
    small, large = _over_long_names(8 * SMALL), _over_long_names(GROWTH * 8 * SMALL)  # 250 and 2000 names
    _whole_scan_time(small)
    ratio = least_ratio(lambda: _whole_scan_time(large) / _whole_scan_time(small))
    assert ratio <= MAX_RATIO, f"{GROWTH}x the over-long names took {ratio:.1f}x the time"


def test_one_buffer_holding_a_list_on_one_line_is_read_in_linear_time():
    """Each item of a list longer than the cap is read on its own; each was
    read up to the end of a buffer given whole (the Python API's bytes, a
    file's last chunk), not a window past it: quadratic in the line."""
    small, large = growing_list(SMALL // GROWTH), growing_list(SMALL)
    _whole_scan_time(small)
    ratio = least_ratio(lambda: _whole_scan_time(large) / _whole_scan_time(small))
    assert ratio <= MAX_RATIO, f"{GROWTH}x the list took {ratio:.1f}x the time"


@pytest.mark.parametrize("folded, unfolded", [
    (colon_fold_chain, lambda size: colon_fold_chain(size).replace(b":urn", b";urn")),
    (rfc8792_chain, lambda size: rfc8792_chain(size).replace(b"\\\n", b" \n")),
])
def test_a_fold_over_thousands_of_lines_is_read_once(folded, unfolded):
    """A fold past the cap is one over-long candidate, and the "urn:" on
    its lines are inside it: read from each, the fold was followed again
    to the cap, each time (700 to 1,800 times the time of the same lines
    unfolded, each a hit of the compiled fast path).
    Following the fold costs about ten times a line's fast-path hit."""
    chain, lines = folded(SMALL), unfolded(SMALL)
    best_scan_time(chain, 1)
    ratio = least_ratio(lambda: best_scan_time(chain, 3) / best_scan_time(lines, 3), 25)
    assert ratio <= 25, f"a fold over every line took {ratio:.1f}x the time of the lines unfolded"


def test_a_name_broken_by_thousands_of_marks_is_joined_in_linear_time():
    """The pieces of a name between break opportunities (breaks.py) are
    gathered in one list: a list made anew at each mark was quadratic in
    the marks of one name (under a cap as large as the name)."""
    def name(size: int) -> bytes:
        return b" urn:a:" + b"b<wbr>" * (size // 6) + b"c "

    options = dict(max_urn_length=1 << 20)
    small, large = name(SMALL // GROWTH), name(SMALL)
    assert [h.rules for h in scan_bytes([small], **options)] == [("decode:break",)]
    best_scan_time(small, 1, **options)
    ratio = least_ratio(lambda: best_scan_time(large, 3, **options) / best_scan_time(small, 9, **options))
    assert ratio <= MAX_RATIO, f"{GROWTH}x the marks took {ratio:.1f}x the time"

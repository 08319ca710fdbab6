"""Validation time grows linearly with the input, whatever the input.

Each family is a crafted string that defeats a backtracking grammar or a
naive walk (long runs of component openers, of "%", of characters that end
a part, a bad escape at the very end).  For every family and every step of
the core, the time at 8x the length is at most twice 8x the time at 1x
(tests/growth.py says why twice), both measured in this run: the CPU time
of this process (a busy machine preempts long measurements more often than
short ones, which inflates wall time unevenly), the best of a few
interleaved repeats.  The last test here checks that a quadratic term is
caught.
"""
import gc
import time

import pytest

import urnscan
from urnscan.batch import validate_keys
from urnscan.equivalence import canonical_of, confusable_in_display, display_form, key_of
from urnscan.judge import judge
from urnscan.namespaces.findings import NAMESPACE_CHECKS
from urnscan.namespaces.normative import NAMESPACE_RULES

from .growth import GROWTH, MAX_RATIO, least_ratio

SMALL = 4_000  # characters of the repeated part at 1x
TARGET_SECONDS = 0.002  # each measurement at 1x runs the call this long at least


def _family(head: str, unit: str, tail: str = ""):
    return lambda n: head + unit * (n // len(unit)) + tail


FAMILIES = {
    "r-component x?= then bad escape": _family("urn:ab:c?+", "x?=", "%zz"),
    "runs of ?+": _family("urn:ab:c?+", "?+", "%zz"),
    "runs of ?=": _family("urn:ab:c", "?=", "%zz"),
    "q-component ?+ and ?=": _family("urn:ab:c?=", "q?+r?=", "%zz"),
    "runs of ?": _family("urn:ab:c?+r", "?", "=%zz"),
    "runs of %": _family("urn:ab:c", "%"),
    "%zz at the end": _family("urn:ab:c", "%41", "%zz"),
    "%00 repeated": _family("urn:ab:c", "%00"),
    "runs of #": _family("urn:ab:c", "#", "%zz"),
    "runs of :": _family("urn:ab:", ":", "%zz"),
    "runs of /": _family("urn:ab:c", "/", "%zz"),
    "runs of &": _family("urn:ab:c?s=", "&", "%zz"),
    "runs of =": _family("urn:ab:c?", "=", "%zz"),
    "repeated directives": _family("urn:ab:c?", "s=a&x=b&", "s=%zz"),
    "long keyword": _family("urn:ab:c?", "a-", "b=1#%zz"),
    "non-ASCII": _family("urn:ab:c", "\u00e9"),
    "encoded UTF-8": _family("urn:ab:c", "%C3%A9a%CC%81%D0%B0"),
    "white space": _family("urn:x-ab:c", " \t", "#"),
    "wrapped white space": _family("<urn:x-ab:c", " a\n", ">"),
    "long NID": _family("urn:", "a-", ":x"),
    "no colon": _family("urn:", "a"),
    "reserved characters": _family("urn:ab:c", "/?#%2F%41", "\\"),
    "lone surrogates": _family("urn:ab:c", "\ud800a"),
}

PROFILE_STEPS = {f"validate/{p}": (lambda p: lambda s: urnscan.validate(s, p))(p) for p in urnscan.PROFILES}


def _key_steps(s: str) -> None:
    urn = urnscan.validate(s, "draft-2012").urn or urnscan.validate(s, "rfc8141").urn
    if urn is not None:
        canonical_of(urn), key_of(urn), key_of(urn, resolution=True)
    display_form(s), confusable_in_display(s)


OTHER_STEPS = {
    "is_valid/rfc8141": urnscan.is_valid,
    "validate_keys/python": lambda s: validate_keys([s], engine="python"),
    "validate_keys/arrow": lambda s: validate_keys([s], engine="arrow"),
    "judge": judge,
    "canonical, keys, display form": _key_steps,
}
STEPS = {**PROFILE_STEPS, **OTHER_STEPS}


def _best_of(step, s: str, calls: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for _ in range(calls):
            step(s)
        best = min(best, time.process_time() - t0)
    return best


def _growth(step, make) -> float:
    small, large = make(SMALL), make(SMALL * GROWTH)
    t0 = time.process_time()
    step(small)
    once = time.process_time() - t0
    calls = max(1, min(1000, int(TARGET_SECONDS / max(once, 1e-7))))
    gc.disable()
    try:
        t_small = t_large = float("inf")
        for _ in range(3):  # interleaved, so a busy machine slows both alike
            t_small = min(t_small, _best_of(step, small, calls, 2))
            t_large = min(t_large, _best_of(step, large, calls, 1))
    finally:
        gc.enable()
    return t_large / t_small


def _superlinear(step, families) -> dict:
    slow = {}
    for name, make in families.items():
        ratio = least_ratio(lambda: _growth(step, make))
        if ratio > MAX_RATIO:
            slow[name] = round(ratio, 1)
    return slow


@pytest.mark.parametrize("step", list(STEPS))
def test_time_grows_linearly(step):
    slow = _superlinear(STEPS[step], FAMILIES)
    assert not slow, f"{step}: {GROWTH}x the input took more than {MAX_RATIO}x the time: {slow}"


def test_judge_grows_linearly_in_every_checked_namespace():
    # namespace rules and checks run on the key of a valid URN
    nids = sorted(set(NAMESPACE_CHECKS) | set(NAMESPACE_RULES))
    families = {nid: _family(f"urn:{nid}:", "a1:-.%41/9X") for nid in nids}
    slow = _superlinear(judge, families)
    assert not slow, f"judge: {GROWTH}x the input took more than {MAX_RATIO}x the time: {slow}"


def _with_quadratic_term(step):
    """``step``, then ``step`` again on every prefix of the input at a stride
    of half the 1x length: a quadratic term about half the time at 1x."""
    stride = SMALL // 2

    def slow(s: str):
        step(s)
        for end in range(stride, len(s), stride):
            step(s[:end])

    return slow


def test_a_quadratic_term_is_caught():
    family = {"%zz at the end": FAMILIES["%zz at the end"]}
    assert not _superlinear(urnscan.is_valid, family)
    slow = _superlinear(_with_quadratic_term(urnscan.is_valid), family)
    assert slow["%zz at the end"] > MAX_RATIO

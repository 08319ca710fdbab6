"""How the tests of linear time judge growth: the CPU time at GROWTH times
the input against the time at 1x, both measured in the same run, so the
machine's speed cancels out.

MAX_RATIO is twice linear.  Linear steps measure between 4x and 13x here,
some above 10x on one machine only: an input eight times longer outgrows a
processor cache, or a string that size is allocated afresh by the system at
every call.  A quadratic term shows as GROWTH + q * (GROWTH**2 - GROWTH),
where q is its share of the time at 1x, so one that takes more than a
seventh of the time at 1x fails; a backtracking grammar or a rescan from the
start takes nearly all of it and gives about 64x."""
from typing import Callable

GROWTH = 8
MAX_RATIO = 2.0 * GROWTH
TRIES = 5


def least_ratio(measure: Callable[[], float], limit: float = MAX_RATIO) -> float:
    """The least of up to TRIES ratios ``measure()`` gives, stopping at one
    within ``limit``: other work on the machine only ever inflates a ratio,
    so the least measurement is the one to trust."""
    ratio = float("inf")
    for _ in range(TRIES):
        ratio = min(ratio, measure())
        if ratio <= limit:
            break
    return ratio

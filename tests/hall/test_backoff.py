"""The pauses between attempts (``hall/backoff.py``)."""

from __future__ import annotations

from dominohall.hall.backoff import FIRST, MOST, Backoff


def test_pauses_double_up_to_the_most_with_jitter_and_start_again_after_a_reset() -> None:
    backoff = Backoff()
    pauses = [backoff.next() for _ in range(12)]
    for n, pause in enumerate(pauses, start=1):
        top = min(MOST, FIRST * 2.0**n)
        assert top / 2 <= pause <= top  # (jitter: half to all of it)
    assert max(pauses) > MOST / 2  # (reached the cap's range, never beyond it)
    backoff.reset()
    assert backoff.next() <= FIRST * 2

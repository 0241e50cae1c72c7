"""While the hall serves, it collects the youngest generation itself, often, and restores the
collector's settings when it stops."""

from __future__ import annotations

import asyncio
import gc

from dominohall.web import collector


def test_serving_collects_the_young_often_and_restores_the_collector() -> None:
    before = gc.get_threshold()

    async def serve_a_while() -> tuple[tuple[int, int, int], int]:
        passes = 0

        def count(phase: str, info: dict[str, int]) -> None:
            nonlocal passes
            if phase == "stop" and info["generation"] == 0:
                passes += 1

        async with collector.collector_for_serving():
            gc.callbacks.append(count)
            try:
                # A few passes come within a few periods; the deadline only guards a stuck test.
                deadline = asyncio.get_running_loop().time() + 10
                while passes < 3 and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(collector.YOUNG_EVERY)
            finally:
                gc.callbacks.remove(count)
            return gc.get_threshold(), passes

    thresholds, passes = asyncio.run(serve_a_while())
    assert thresholds == collector.THRESHOLDS
    assert passes >= 3  # without the hall's own passes, nothing here allocates enough for one
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0

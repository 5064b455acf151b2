"""The bounded queue between a reader thread and poll()."""

from hypothesis import given
from hypothesis import strategies as st

from companion.sensing.source import Sample, SampleQueue


@given(st.integers(1, 20), st.lists(st.integers(0, 30), max_size=8))
def test_keeps_the_newest_and_counts_what_it_dropped(limit, batches):
    queue, pushed, dropped = SampleQueue(limit), [], 0
    for size in batches:
        batch = [Sample(float(len(pushed) + i), 0, len(pushed) + i) for i in range(size)]
        pushed += batch
        dropped += queue.push(batch)
    assert queue.drain() == pushed[-limit:]
    assert dropped == max(0, len(pushed) - limit)
    assert queue.drain() == []

"""The one input lock every game screen holds (companion/ui/input_lock.py), on a clock the
test moves: held for its time and no longer, a longer hold kept, the release called once
when the last hold ends, and nothing called after a release by hand."""

from companion.ui.input_lock import AFTER_ENTRY_S, COMPUTER_NEWS_S, InputLock


class FakeClock:
    """Monotonic time the test sets, and Kivy's schedule_once run by hand."""

    def __init__(self):
        self.t = 100.0
        self.events = []

    def now(self) -> float:
        return self.t

    def schedule(self, callback, delay):
        event = Event(callback, self.t + delay)
        self.events.append(event)
        return event

    def advance(self, seconds: float) -> None:
        self.t += seconds
        for event in list(self.events):
            if not event.cancelled and event.at <= self.t:
                self.events.remove(event)
                event.callback(0)


class Event:
    def __init__(self, callback, at):
        self.callback, self.at, self.cancelled = callback, at, False

    def cancel(self):
        self.cancelled = True


def lock_on(clock, on_release=None) -> InputLock:
    return InputLock(on_release, now=clock.now, schedule=clock.schedule)


def test_a_fresh_lock_takes_taps():
    assert not lock_on(FakeClock()).held


def test_held_for_its_time_and_no_longer():
    clock = FakeClock()
    lock = lock_on(clock)
    lock.hold()
    clock.advance(AFTER_ENTRY_S - 0.01)
    assert lock.held
    clock.advance(0.02)
    assert not lock.held


def test_a_shorter_hold_keeps_the_longer_one():
    clock = FakeClock()
    lock = lock_on(clock)
    lock.hold(COMPUTER_NEWS_S)
    clock.advance(0.3)
    lock.hold(0.01)
    clock.advance(0.03)
    assert lock.held, "the computer's move is still news"
    clock.advance(COMPUTER_NEWS_S)
    assert not lock.held


def test_the_release_comes_once_when_the_last_hold_ends():
    clock, released = FakeClock(), []
    lock = lock_on(clock, lambda: released.append(clock.t))
    lock.hold()
    clock.advance(0.1)
    lock.hold()  # a second entry: the lock now ends 0.3 s after it
    clock.advance(AFTER_ENTRY_S - 0.05)
    assert released == [] and lock.held
    clock.advance(0.1)
    assert released == [100.0 + 0.1 + AFTER_ENTRY_S - 0.05 + 0.1]
    assert not lock.held, "taps are taken when the screen is told so"
    clock.advance(5)
    assert len(released) == 1


def test_an_early_clock_event_still_releases():
    """Kivy's clock may fire a hair before the monotonic deadline: the screen that redraws
    on release must then see the lock lifted, or its board stays dead."""
    clock, seen = FakeClock(), []
    lock = lock_on(clock, lambda: seen.append(lock.held))
    lock.hold()
    clock.events[0].at -= 0.001
    clock.advance(AFTER_ENTRY_S - 0.0005)
    assert seen == [False]


def test_released_by_hand_takes_taps_at_once_and_calls_nothing():
    clock, released = FakeClock(), []
    lock = lock_on(clock, lambda: released.append(True))
    lock.hold()
    lock.release()
    assert not lock.held
    clock.advance(1)
    assert released == []

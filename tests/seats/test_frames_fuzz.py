"""Whatever a seated phone sends, the room answers it: a refusal or a change, never an
internal error (issue 25)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)
FRAMES = st.fixed_dictionaries({"type": st.sampled_from(["hello", "claim", "watch", "act", "lang", "ping", "x"])},
                               optional={"id": JSON | st.integers(), "kind": JSON | st.sampled_from(["cell", "undo"]),
                                         "value": JSON, "room": JSON, "device": JSON, "seat": JSON, "lang": JSON})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frames=st.lists(FRAMES, min_size=1, max_size=6))
def test_any_frame_a_phone_sends_is_answered_without_an_internal_error(store, frames):
    """The room itself (the server's checks aside): whatever a seated phone sends."""
    from companion.games.uttt.controller import UtttController
    from companion.seats.claims import Claims
    from companion.seats.room import Link, Room

    room = Room(Claims(store))
    room.attach(UtttController.open(store))
    sent: list[dict] = []
    link = Link(send=sent.append, close=sent.append)
    room.connect(link)
    room.handle(link, {"type": "hello", "room": room.token})
    room.handle(link, {"type": "claim", "room": room.token, "seat": len(room.claimed()) % 2})
    for frame in frames:
        room.handle(link, frame)
    json.dumps(sent, ensure_ascii=False)
    assert "internal" not in {m.get("code") for m in sent}

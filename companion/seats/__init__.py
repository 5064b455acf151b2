"""The phones: an HTTP + WebSocket server inside the app, pairing, the phone page.

- `claims`: which device holds which seat of which game (only a hash of its key), in SQLite.
- `room`: the pairing state machine and acting, on the game's own thread.
- `server`: aiohttp on its own thread and loop; it only carries frames to the room.
- `static/`: the phone page (one HTML, one script, one style sheet); each game's renderer
  is its own `companion/games/<game>/phone.js`, which the server finds through the registry.
"""

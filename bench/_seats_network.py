"""`bench/seats.py --network PROFILE`: two phones in Debian's Chromium (each a browser
context of its own, as on its own phone) play Ultimate Tic-Tac-Toe through
tests/seats/netem.py's proxy (issue 42), `watchers` more phones watching through it
(`--watchers 7`: the issue's nine phones on one link).

- a link profile (quiet, home, busy, slow): `taps` taps, alternately on each phone;
  tap_to_ack_ms (in the page: from the tap until its "✓"), taps_lost (no "✓" within 20 s),
  sockets_closed (WebSockets that heard the table beyond each page's first, not the tries
  a page dropped unopened: none should close while the link is up).
- outage: for each length (5, 20, 60, 300 s by default) the link goes ("router": no close,
  SYNs lost, bytes held; with --wifi the browsers are offline too, as phones out of range);
  the other seat moves on the table meanwhile; back_s is from the link's return until
  both seats are held by their phones again, table_noticed_s from the cut until the table
  shows both gone.  With --sleep the pages are frozen meanwhile too (a phone with its
  screen off: CDP's Page.setWebLifecycleState), and shown again as the link returns.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

HOOK = """() => {  // tap -> "done" timed inside the page (phone.js's act and its "done" handler)
  window.acks = []; const act0 = act, done0 = handlers.done;
  act = (...a) => { window.tapped = performance.now(); return act0(...a); };
  handlers.done = (m) => { window.acks.push(performance.now() - window.tapped); return done0(m); };
}"""


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(round(0.95 * len(values))) - 1)]


def run(profile: str, taps: int = 40, outages: tuple[float, ...] = (5, 20, 60, 300), wifi: bool = False,
        seed: int = 42, sleep: bool = False, watchers: int = 0) -> dict:
    from playwright.sync_api import sync_playwright

    from companion.games.uttt.controller import UtttController
    from tests.seats.browser import ARGS, CHROMIUM, PHONE, Table
    from tests.seats.netem import PROFILES, Network

    table = Table(Path(tempfile.mkdtemp(prefix="bench-seats-net-")), UtttController.open)
    net = Network(table.port, seed=seed, spread=watchers > 0)  # (6 phones without a seat an address: gate.py)
    rng = random.Random(seed)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            phones, opened, url = {}, [set() for _ in range(2 + watchers)], table.join_url(net.url)
            for n in [*range(2, 2 + watchers), 0, 1]:  # the watchers first (the QR's third button: it goes
                context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
                page = context.new_page()
                page.on("websocket", lambda ws, n=n: ws.on("framereceived", lambda _, ws=ws, n=n: opened[n].add(ws)))
                page.goto(url)
                page.locator(".list button").nth(min(n, 2)).click()
                page.wait_for_function("document.querySelector('#who').textContent.includes('%s')" % (
                    n + 1 if n < 2 else "atch"))
                page.evaluate(HOOK)  # once both seats have their phones), then the two seats
                phones[n] = page
            phones, watching = [phones[0], phones[1]], [phones[n] for n in range(2, 2 + watchers)]
            if profile == "outage":
                report = {"outages": [_outage(table, net, phones, rng, s, wifi, sleep) for s in outages]}
            else:
                net.profile = PROFILES[profile]
                report = _play(table, phones, rng, taps)
                report["sockets_closed"] = sum(map(len, opened)) - len(opened)
                report["watchers_behind"] = sum(not _caught_up(table, page) for page in watching)
            browser.close()
    finally:
        net.stop()
        table.stop()
    return {"network": profile, "engine": "chromium", "phones": 2 + watchers} | report


def _caught_up(table, page) -> bool:
    """Whether a watching phone shows the table's board as it is now, within 20 s."""
    cells = json.dumps(table.call(lambda: table.controller.session.state.view(None)["cells"]), separators=(",", ":"))
    try:
        page.wait_for_function(f"shown && JSON.stringify(shown.model.board.cells) === '{cells}'", timeout=20000)
        return True
    except Exception:  # noqa: BLE001  (playwright's TimeoutError: the watcher fell behind)
        return False


def _tap(table, page, rng) -> bool:
    """The phone's seat taps a random legal cell; whether its "✓" came within 20 s."""
    c = table.controller
    action = rng.choice(table.call(c.session.state.legal_cells))
    page.evaluate("ack('')")
    page.wait_for_function(f"shown && shown.model.offers.some((o) => o.kind === 'cell' && o.choices.includes({action}))",
                           timeout=20000)  # the phone shows the table's latest move (a slow link's seconds)
    cell = page.locator(f'.zoom .cell[data-a="{action}"]')
    if not cell.count():
        page.locator(f'.mini[data-board="{action // 9}"]').click()
    cell.click()
    try:
        page.wait_for_function("document.querySelector('#ack').textContent.startsWith('✓')", timeout=20000)
        return True
    except Exception:  # noqa: BLE001  (playwright's TimeoutError: a tap lost)
        return False


def _play(table, phones, rng, taps: int) -> dict:
    c, lost = table.controller, 0
    for _ in range(taps):
        if table.call(lambda: c.session.state.is_over()):
            break
        lost += not _tap(table, phones[table.call(lambda: c.session.state.to_move())], rng)
    acks = [a for page in phones for a in page.evaluate("window.acks")]
    return {"taps": len(acks) + lost, "taps_lost": lost, "tap_to_ack_ms_median": round(statistics.median(acks), 1),
            "tap_to_ack_ms_p95": round(p95(acks), 1), "tap_to_ack_ms_max": round(max(acks), 1)}


def _outage(table, net, phones, rng, seconds: float, wifi: bool, sleep: bool) -> dict:
    claimed = lambda: table.call(table.room.claimed)  # noqa: E731
    cdp = [page.context.new_cdp_session(page) for page in phones] if sleep else []
    for session in cdp:
        session.send("Page.setWebLifecycleState", {"state": "frozen"})
    net.outage()
    for page in phones if wifi else ():
        page.context.set_offline(True)
    cut = time.monotonic()
    noticed = None
    while time.monotonic() - cut < seconds:
        if noticed is None and claimed() == {0: False, 1: False}:
            noticed = time.monotonic() - cut
            c = table.controller  # what the phones miss: a move on the table
            seat = table.call(lambda: c.session.state.to_move())
            table.call(c.act, seat, "cell", rng.choice(table.call(c.session.state.legal_cells)))
        time.sleep(0.05)
    for page in phones if wifi else ():
        page.context.set_offline(False)
    net.restore()
    back_at = time.monotonic()
    for page, session in zip(phones, cdp):
        session.send("Page.setWebLifecycleState", {"state": "active"})
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    while claimed() != {0: True, 1: True}:
        if time.monotonic() - back_at > 120:
            return {"outage_s": seconds, "back_s": None, "table_noticed_s": noticed}
        time.sleep(0.02)
    back = time.monotonic() - back_at
    moved = _tap(table, phones[table.call(lambda: table.controller.session.state.to_move())], rng)
    return {"outage_s": seconds, "wifi": wifi, "asleep": sleep, "back_s": round(back, 2),
            "table_noticed_s": None if noticed is None else round(noticed, 2), "tap_after": moved}

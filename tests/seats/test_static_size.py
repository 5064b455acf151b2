"""The phone page stays small: the whole static folder (no build step, no CDN) is at
most 50 KB, and every script the page loads is in it."""

import re

from companion.seats.server import STATIC


def test_the_phone_page_is_at_most_50_kb_and_loads_only_its_own_files():
    assert sum(path.stat().st_size for path in STATIC.rglob("*") if path.is_file()) <= 50_000
    page = (STATIC / "index.html").read_text()
    for source in re.findall(r'(?:src|href)="([^"]+)"', page):
        assert "//" not in source and (STATIC / source).is_file(), source

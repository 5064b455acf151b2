"""The phone page stays small: the whole page (the static folder and every game's
phone.js, no build step, no CDN) is at most 50 KB, and every script it loads is its own:
each game's renderer comes from the game's folder, through the registry."""

import re

import pytest

from companion.play import registry
from companion.seats.server import STATIC


def test_the_phone_page_is_at_most_50_kb():
    files = [path for path in STATIC.rglob("*") if path.is_file()] + list(registry.phone_pages().values())
    assert sum(path.stat().st_size for path in files) <= 50_000


def test_every_game_has_its_phone_renderer_in_its_own_folder():
    pages = registry.phone_pages()
    assert set(pages) == set(registry.games())
    for name, page in pages.items():
        assert page.parent.name == name and page.name == "phone.js"
        assert f"renderers.{name} = " in page.read_text(encoding="utf-8"), name
    assert [path.name for path in STATIC.glob("*.js")] == ["phone.js"]  # the shell's only


@pytest.mark.asyncio
async def test_the_served_page_loads_only_its_own_files_and_every_game(phones, table):
    await phones()
    client = phones.client()
    page = await (await client.get("/")).text()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert {f"games/{name}.js" for name in registry.games()} <= set(sources)
    for source in sources:
        assert "//" not in source, source
        response = await client.get(f"/{source}")
        assert response.status == 200, source
    served = await (await client.get("/games/uttt.js")).text()
    assert served == registry.phone_pages()["uttt"].read_text(encoding="utf-8")
    for missing in ("/games/chess.js", "/games/uttt", "/games/uttt.js.map", "/uttt.js"):
        assert (await client.get(missing)).status == 404, missing

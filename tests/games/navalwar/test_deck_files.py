"""Naval War deck files from other computers (issue 41): a Shift-JIS file (what a Japanese
Windows editor writes) is read as written; Latin-1, UTF-16 or binary is refused naming the
file, its line and, on the start form, the setting `navalwar.deck`; a file nested 5,000 deep,
a device, a FIFO, a count of 10**12 or a key given twice is refused at once with file:line:
key; and with any of them the table can still play, with the packaged cards."""

import os
import time

import pytest
import yaml

from companion import i18n
from companion.errors import CompanionError
from companion.games.navalwar.controller import NavalWarController
from companion.games.navalwar.data import default_composition, load_composition
from companion.play.controller import TABLE


def said(error, lang):
    return i18n.said(error, lang)


def refused(path) -> CompanionError:
    with pytest.raises(CompanionError) as caught:
        load_composition(path)
    return caught.value


def test_a_shift_jis_deck_file_is_read_as_written(tmp_path):
    plain = default_composition().to_json()
    yamato = next(s for s in plain["ships"] if s["id"] == "ship-yamato")
    yamato["name"] = "大和"
    text = ("# 私たちの箱：煙幕カードが1枚なくなった\n"
            + yaml.safe_dump({"ships": plain["ships"], "counts": {"smoke": 5}}, allow_unicode=True))
    for encoding in ("cp932", "shift_jis", "utf-8-sig", "utf-8"):
        path = tmp_path / f"deck-{encoding}.yaml"
        path.write_bytes(text.encode(encoding))
        comp = load_composition(path)
        assert comp.ship_by_id["ship-yamato"].name == "大和" and comp.counts["smoke"] == 5, encoding


@pytest.mark.parametrize("data,line", [
    ("counts:\n  smoke: 5  # café crème\n".encode("latin-1"), 2),  # é then a space: not CP932 either
    (b"counts:\n  smoke: 5\n# \xe9t\xe9 \xa0\xff\n", 3),  # valid CP932 bytes, but private-use characters
    ("counts:\n  smoke: 5\n".encode("utf-16"), 1),
    (bytes(range(256)), 1),
])
def test_a_deck_file_in_another_encoding_is_refused_naming_the_file_and_line(tmp_path, data, line):
    path = tmp_path / "my_deck.yaml"
    path.write_bytes(data)
    error = refused(path)
    for lang in ("ja", "en"):
        assert said(error, lang).startswith(f"{path}:{line}: "), said(error, lang)
    assert "UTF-8" in said(error, "en")


def test_5000_deep_nesting_is_refused_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("counts:\n  smoke: " + "[" * 5000 + "1" + "]" * 5000 + "\n")
    error = refused(path)
    assert said(error, "en").startswith(f"{path}:2: counts.smoke") and "nested deeper than" in said(error, "en")
    path.write_text("".join(" " * i + f"k{i}:\n" for i in range(200)) + " " * 200 + "x\n")
    assert "nested deeper than" in said(refused(path), "en")


@pytest.mark.timeout(10)  # today's code hung on the FIFO, and read /dev/zero until memory ran out
def test_a_device_fifo_or_directory_is_refused_at_once(tmp_path):
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    for path, what in ((zero, "a device"), (fifo, "a named pipe (FIFO)"), (tmp_path, "a directory")):
        started = time.monotonic()
        error = refused(path)
        assert time.monotonic() - started < 1
        assert said(error, "en") == f"{path}: not a regular file but {what}; name a card file"
        assert said(error, "ja").startswith(f"{path}: ふつうのファイルではなく")


def test_a_huge_deck_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.yaml"
    with path.open("wb") as out:
        out.truncate(1 << 30)  # sparse: read, it would take a gigabyte
    assert "larger than 256 KB" in said(refused(path), "en")


@pytest.mark.parametrize("text,where", [
    ("counts:\n  smoke: 1000000000000\n", ":2: counts.smoke: 1000000000000 is too large (at most 999)"),
    ("actions:\n  - {type: salvo, calibre: '14', value: 2, count: 1_000_000_000_000}\n",
     ":2: actions[0].count: 1_000_000_000_000 is too large"),
    ("counts:\n  smoke: 2\n  repair: 3\n  smoke: 4\n", ":4: counts.smoke: key given twice"),
    ("counts: {smoke: 2}\ncounts: {smoke: 3}\n", ":2: counts: key given twice"),
])
def test_a_huge_count_or_a_key_given_twice_is_refused_with_file_line_key(tmp_path, text, where):
    path = tmp_path / "deck.yaml"
    path.write_text(text)
    error = refused(path)
    assert said(error, "en").startswith(f"{path}{where}"), said(error, "en")
    assert said(error, "ja").startswith(f"{path}{where.split(' is ')[0].split(' key')[0]}")


@pytest.fixture
def store(tmp_path):
    from companion.store import Store

    with Store.in_dir(tmp_path / "data") as store:
        yield store


def test_the_start_form_names_the_setting_and_the_packaged_cards_still_play(tmp_path, store):
    path = tmp_path / "my_deck.yaml"
    path.write_bytes("counts:\n  smoke: 5  # café\n".encode("latin-1"))
    c = NavalWarController(store, None, str(path))
    text, broken = c.deck_line()
    assert broken
    for lang in ("ja", "en"):
        words = text.say(lang)
        assert "navalwar.deck" in words and f"{path}:2:" in words and "0xE9" in words, words
    assert "カード構成ファイル" in text.say("ja") and "card file" in text.say("en")
    c.act(TABLE, "packaged")
    text, broken = c.deck_line()
    assert not broken and "my_deck.yaml" in text.say("ja")
    c.act(TABLE, "start", ["A", "B", "C", "D"])
    assert c.session is not None and c.session.state.composition == default_composition()

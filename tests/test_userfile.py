"""The guard of every file a person hands the app (companion/userfile.py): any bytes give a
value or a `FileRefused` naming the file, never another exception and never a hang; the
encodings, nesting, numbers and keys it allows and refuses."""

import gzip
import os
import time
from datetime import timedelta

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from companion import i18n, userfile
from companion.userfile import FileRefused, Kind

KIND = Kind("files.what_deck", max_bytes=4096, max_line=1000, max_number=999)


def said(error: FileRefused) -> str:
    return i18n.said(error, "en")


def load(tmp_path, data: bytes, name="f.yaml"):
    path = tmp_path / name
    path.write_bytes(data)
    return userfile.load_yaml(path, KIND)


# any bytes: a value or a clear refusal -----------------------------------------------

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                         | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=20)
yaml_texts = documents.map(lambda d: yaml.safe_dump(d, allow_unicode=True))
encodings = st.sampled_from(["utf-8", "utf-8-sig", "cp932", "latin-1", "utf-16"])
encoded = st.tuples(yaml_texts | st.text(max_size=300), encodings).map(
    lambda pair: pair[0].encode(pair[1], errors="replace"))


@st.composite
def nested(draw):
    """A value nested 0 to 60 deep, as a flow list, a flow mapping or a block list."""
    depth = draw(st.integers(0, 60))
    form = draw(st.sampled_from(["list", "mapping", "block"]))
    if form == "block":
        return "".join("  " * i + "-\n" for i in range(depth)).encode()
    open_, close = ("[", "]") if form == "list" else ("{a: ", "}")
    return (open_ * depth + "1" + close * depth).encode()


any_bytes = st.binary(max_size=600) | encoded | nested()


@pytest.mark.timeout(300)
@settings(max_examples=400, deadline=timedelta(seconds=5),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(any_bytes, st.sampled_from(["f.yaml", "f.yaml.gz"]))
def test_any_bytes_give_a_value_or_a_refusal_naming_the_file(tmp_path, data, name):
    if name.endswith(".gz"):
        data = gzip.compress(data)
    path = tmp_path / name
    try:
        load(tmp_path, data, name)
    except FileRefused as error:
        for lang in i18n.LANGUAGES:
            assert i18n.said(error, lang).startswith(str(path)), i18n.said(error, lang)
            assert "{" not in words_alone(error, lang)  # every value filled in


def words_alone(error: FileRefused, lang: str) -> str:
    """What `error` says in `lang` less the values filled in: a value may quote the file
    (a key '{', PyYAML's "found '{'"), and only the catalog's own words must have no brace."""
    text = i18n.said(error, lang)
    for value in error.params.values():
        if isinstance(value, str):
            text = text.replace(value, "")
    return text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_utf8_text_is_read_as_written(text):
    assume("\0" not in text)
    assert userfile.decode(text.encode("utf-8"), "f", KIND) == text
    assert userfile.decode(userfile.BOM + text.encode("utf-8"), "f", KIND) == text


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="cp932", exclude_characters="¢£¬‖−〜"), max_size=200))  # (these
def test_shift_jis_text_is_read_as_written(text):  # come back as their full-width twins: ¬ ￢)
    data = text.encode("cp932")
    assume("\0" not in text and not userfile.FOREIGN.search(text))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert userfile.decode(data, "f", KIND) == text
    else:
        assume(False)  # (bytes that are also UTF-8 read as UTF-8: ASCII, above all)


# each case ----------------------------------------------------------------------------

def test_shift_jis_and_utf8_with_a_bom_read_alike(tmp_path):
    text = "# 私たちの箱\ncounts:\n  煙幕: 5\n"
    for encoding in ("utf-8", "utf-8-sig", "cp932"):
        assert load(tmp_path, text.encode(encoding)) == {"counts": {"煙幕": 5}}


@pytest.mark.parametrize("data,where,words", [
    (b"a: 1\nb: caf\xe9\n", ":2:", "byte 0xE9 is neither UTF-8 nor Shift-JIS"),
    (b"a: 1\n\nb: \x00\x01\x02\n", ":3:", "holds NUL bytes"),
    ("a: 1\n".encode("utf-16"), ":1:", "saved as UTF-16"),
    (userfile.BOM + "a: ソ\n".encode("cp932"), ":1:", "neither UTF-8 nor Shift-JIS"),  # a BOM says UTF-8
    (b"a: 1\n" + b"#" * 1001 + b"\n", ":2:", "a line longer than 1000 B"),
    (b"a:\n  b: " + b"[" * 40 + b"]" * 40 + b"\n", ":2: a.b", "nested deeper than 32"),
    (b"a: 1\nb: 2\na: 3\n", ":3: a:", "key given twice"),
    (b"a:\n  - {n: 1000}\n", ":2: a[0].n:", "1000 is too large (at most 999)"),
    (b"a: -1_000.5\n", ":1: a:", "is too large"),
    (b"a: " + b"9" * 40 + b"\n", ":1: a:", "far too long a number"),
    (b"a: 1\n---\nb: 2\n", ":2:", "not valid YAML"),
    (b"a: \x07\n", ":1:", "character U+0007 is not allowed"),
])
def test_each_refusal_names_the_file_and_line(tmp_path, data, where, words):
    with pytest.raises(FileRefused) as caught:
        load(tmp_path, data)
    assert said(caught.value).startswith(f"{tmp_path / 'f.yaml'}{where}"), said(caught.value)
    assert words in said(caught.value)


def test_what_is_allowed_loads(tmp_path):
    assert load(tmp_path, b"") is None
    assert load(tmp_path, b"a: &x {n: 999}\nb: *x\nc: .nan\n<<: {d: 1}\n")["b"] == {"n": 999}
    depth = userfile.MAX_DEPTH - 1
    assert load(tmp_path, b"[" * depth + b"1" + b"]" * depth)  # as deep as allowed


def test_aliases_are_checked_once_not_expanded(tmp_path):
    levels = ["&a [" + ", ".join(["1"] * 9) + "]"] + [
        f"&{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]" for i in range(8)]
    started = time.monotonic()
    load(tmp_path, ("x: [" + ", ".join(levels) + "]\n").encode())  # 9**9 leaves, expanded
    assert time.monotonic() - started < 1


@pytest.mark.timeout(10)
def test_anything_but_a_regular_file_is_refused_unread(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for name, words in (("fifo", "named pipe"), ("zero", "a device"), ("", "a directory"),
                        ("dangling", "no such card file"), ("nowhere", "no such card file")):
        with pytest.raises(FileRefused, match=words):
            userfile.read_bytes(tmp_path / name, KIND)


def test_a_file_over_its_cap_is_refused_unread_and_a_gzip_bomb_stops_at_the_cap(tmp_path):
    big = tmp_path / "big.yaml"
    with big.open("wb") as out:
        out.truncate(1 << 40)  # a terabyte, sparse
    with pytest.raises(FileRefused, match="larger than 4 KB"):
        userfile.read_bytes(big, KIND)
    bomb = tmp_path / "bomb.yaml.gz"
    bomb.write_bytes(gzip.compress(b"\n" * (64 << 20)))
    with pytest.raises(FileRefused, match="larger than 4 KB"):
        userfile.read_bytes(bomb, KIND)
    bomb.write_bytes(gzip.compress(b"a: 1\n")[:-6])  # cut short
    with pytest.raises(FileRefused, match="cannot read the card file"):
        userfile.read_bytes(bomb, KIND)

"""The one guard for every file a person hands the app: config.yaml, the saved settings,
a Naval War deck file, a recording.  Such a file may come from another computer, be
saved by any editor, or not be a file at all.

- It is opened without blocking and read only if it is a regular file: a FIFO, a device
  (/dev/zero, also behind a symlink), a directory is refused unread.
- Its size is capped before it is read (each `Kind` of file has its cap; a `.gz` file
  is decompressed, its decompressed size capped).
- Text is UTF-8, with or without a byte-order mark, or Shift-JIS/CP932 (what a Japanese
  Windows editor writes); anything else (Latin-1, UTF-16, binary) is refused naming the
  line of the first byte that is neither.
- YAML is nested at most `MAX_DEPTH` deep (refused before PyYAML recurses), its numbers
  are bounded, and a key given twice is refused.

Every refusal is a `FileRefused` naming file:line: key, in words of
companion/locale/files.yaml.
"""

from __future__ import annotations

import gzip
import os
import re
import stat
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from companion.errors import CompanionError
from companion.i18n import Words

MAX_DEPTH = 32  # a configuration is 4 deep, a deck file 3
MAX_DIGITS = 30  # a number literal longer than this is no setting (and costly to convert)
BOM, NEWLINE = b"\xef\xbb\xbf", b"\n"
# What a Latin-1 (or other) file decodes to as CP932 but no Japanese file holds: C1
# controls, and CP932's undefined and user-defined (private-use) code points.
FOREIGN = re.compile("[\x80-\x9f\ue000-\uf8ff]")
KINDS = {stat.S_ISFIFO: "fifo", stat.S_ISCHR: "device", stat.S_ISBLK: "device",
         stat.S_ISDIR: "directory", stat.S_ISSOCK: "socket"}


@dataclass(frozen=True)
class Kind:
    """A kind of file: `what` names it in messages (a key of files.yaml), `max_bytes` caps
    its size (decompressed), `max_line` its lines (0: any), `max_number` its YAML numbers."""

    what: str
    max_bytes: int
    max_line: int = 0
    max_number: float | None = None


class FileRefused(CompanionError, ValueError):
    """A file refused: `key` and `params` are its words (files.yaml); `where` is
    file or file:line, `key` (when known) the dotted key."""

    def __init__(self, message: str, kind: Kind, **params):
        self.key, self.params = f"files.{message}", {"what": Words(kind.what), **params}
        super().__init__(Words(self.key, **self.params))


def _size(n: int) -> str:
    return next(f"{n // unit} {name}" for unit, name in ((1 << 20, "MB"), (1 << 10, "KB"), (1, "B"))
                if n >= unit and n % unit == 0)


def _kind_of(mode: int) -> str | None:
    """None for a regular file, else what it is ("fifo", "device", ...)."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in KINDS.items() if test(mode)), "other")


def read_bytes(path: str | os.PathLike, kind: Kind) -> bytes:
    """The bytes of `path` (decompressed if its name ends in .gz), at most `kind.max_bytes`."""
    path = Path(path)
    refuse = lambda message, **more: FileRefused(message, kind, where=str(path), **more)  # noqa: E731

    def regular(mode: int) -> None:
        found = _kind_of(mode)
        if found is not None:
            raise refuse("not_regular", kind_of=Words(f"files.kind_{found}"))

    try:
        regular(os.stat(path).st_mode)  # a device is never opened (opening a serial port resets a board)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise refuse("missing") from None
    except OSError as exc:
        raise refuse("unreadable", error=exc.strerror or str(exc)) from None
    try:
        regular(os.fstat(fd).st_mode)  # swapped since the stat: still refused unread
        with os.fdopen(fd, "rb", closefd=False) as handle:
            reader = gzip.GzipFile(fileobj=handle) if path.suffix == ".gz" else handle
            data = reader.read(kind.max_bytes + 1)  # (decompressed in pieces: a gzip bomb stops here)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise refuse("unreadable", error=f"gzip: {exc}") from None
    except OSError as exc:
        raise refuse("unreadable", error=exc.strerror or str(exc)) from None
    finally:
        os.close(fd)
    if len(data) > kind.max_bytes:
        raise refuse("too_large", limit=_size(kind.max_bytes))
    return data


def decode(data: bytes, where: str, kind: Kind) -> str:
    """UTF-8 (a byte-order mark dropped) or else CP932 text; else refused at the line of the
    first bad byte, of whichever encoding read further."""
    def line_of(at: int) -> str:
        return f"{where}:{data.count(NEWLINE, 0, at) + 1}"

    nul = data.find(b"\0")
    if nul >= 0:
        raise FileRefused("binary", kind, where=line_of(nul))
    bom = data.startswith(BOM)
    try:
        return data[len(BOM):].decode("utf-8") if bom else data.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = exc.start + (len(BOM) if bom else 0)
    if not bom:
        try:
            text = data.decode("cp932")
            foreign = FOREIGN.search(text)
            if foreign is None:
                return text
            at = max(at, len(text[:foreign.start()].encode("cp932")))
        except UnicodeDecodeError as exc:
            at = max(at, exc.start)
    raise FileRefused("encoding", kind, where=line_of(at), byte=f"0x{data[at]:02X}")


def read_text(path: str | os.PathLike, kind: Kind) -> str:
    """The text of `path`, its size, encoding and (with `kind.max_line`) lines checked."""
    text = decode(read_bytes(path, kind), str(path), kind)
    if kind.max_line:
        for number, line in enumerate(text.split("\n"), start=1):
            if len(line) > kind.max_line:
                raise FileRefused("long_line", kind, where=f"{path}:{number}", limit=_size(kind.max_line))
    return text


def load_yaml(path: str | os.PathLike, kind: Kind) -> Any:
    """The YAML value of `path` (None for an empty file), every check above made."""
    loader = _Loader(read_text(path, kind), str(path), kind)
    try:
        node = loader.node()
        try:
            return None if node is None else loader.construct_document(node)
        except yaml.YAMLError as exc:
            raise _yaml_refusal(exc, loader) from None
        except (ValueError, OverflowError) as exc:  # e.g. a date such as 2025-13-45
            raise FileRefused("yaml", kind, where=str(path), problem=str(exc)) from None
    finally:
        loader.dispose()


def compose_yaml(text: str, name: str, kind: Kind) -> yaml.Node | None:
    """The YAML node tree of `text` (from the file `name`), every check above made."""
    loader = _Loader(text, name, kind)
    try:
        return loader.node()
    finally:
        loader.dispose()


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, its recursion bounded: the composer recurses once per level,
    so a file 5,000 deep would raise RecursionError; deeper than MAX_DEPTH is refused first."""

    def __init__(self, text: str, name: str, kind: Kind):
        self.text, self.filename, self.kind = text, name, kind
        self.path: list[str] = []  # the keys (and [index]es) composed into
        try:
            super().__init__(text)  # (checks every character at once)
        except yaml.YAMLError as exc:
            raise _yaml_refusal(exc, self) from None

    def refuse(self, message: str, node_or_mark, key: str = "", **params) -> FileRefused:
        mark = getattr(node_or_mark, "start_mark", node_or_mark)
        return FileRefused(message, self.kind, where=f"{self.filename}:{mark.line + 1}",
                           key=key or "top level", **params)

    def compose_node(self, parent, index):
        if len(self.path) >= MAX_DEPTH:
            raise self.refuse("too_deep", self.peek_event(), _dotted(self.path[:3]) + "…", limit=MAX_DEPTH)
        self.path.append(f"[{index}]" if isinstance(index, int)
                         else str(index.value) if isinstance(index, yaml.ScalarNode) else "")
        try:
            return super().compose_node(parent, index)
        finally:
            self.path.pop()

    def node(self) -> yaml.Node | None:
        """The document's node tree, checked (a YAML mistake refused naming its line)."""
        try:
            node = self.get_single_node()
        except yaml.YAMLError as exc:
            raise _yaml_refusal(exc, self) from None
        if node is not None:
            self.check(node, [], set())
        return node

    def check(self, node: yaml.Node, path: list[str], seen: set[int]) -> None:
        """Duplicate keys and numbers out of bounds, each node once (an alias is checked
        where its anchor is); recursion is bounded by the composer's depth."""
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            self.check_number(node, path)
        elif isinstance(node, yaml.SequenceNode):
            for index, child in enumerate(node.value):
                self.check(child, path + [f"[{index}]"], seen)
        elif isinstance(node, yaml.MappingNode):
            keys: set[tuple] = set()
            for key, value in node.value:
                name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    if (key.tag, key.value) in keys:
                        raise self.refuse("twice", key, _dotted(path + [name]))
                    keys.add((key.tag, key.value))
                self.check(key, path + [name], seen)
                self.check(value, path + [name], seen)

    def check_number(self, node: yaml.ScalarNode, path: list[str]) -> None:
        if node.tag not in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
            return
        limit = self.kind.max_number
        if len(node.value) > MAX_DIGITS:
            raise self.refuse("long_number", node, _dotted(path), value=_short(node.value))
        if limit is None:
            return
        try:
            value = self.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError):
            return  # said by whoever reads the value
        if abs(value) > limit:  # (NaN is not: it is the reader's to refuse)
            raise self.refuse("number", node, _dotted(path), value=_short(node.value), limit=limit)


def _yaml_refusal(exc: yaml.YAMLError, loader: _Loader) -> FileRefused:
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML does not allow
        line = loader.text[:exc.position].count("\n") + 1
        return FileRefused("yaml_character", loader.kind, where=f"{loader.filename}:{line}",
                           character=f"U+{exc.character:04X}")  # (text in: a code point)
    mark = getattr(exc, "problem_mark", None)
    where = f"{loader.filename}:{mark.line + 1}" if mark else loader.filename
    return FileRefused("yaml", loader.kind, where=where, problem=getattr(exc, "problem", None) or str(exc))


def _dotted(path: list[str]) -> str:
    """`["ships", "[3]", "defence"]` as `ships[3].defence` (an empty part is the document or a key)."""
    parts = [p for p in path if p]
    return "".join(p if p.startswith("[") or i == 0 else "." + p for i, p in enumerate(parts)) or "top level"


def _short(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:12]}…({len(text)} characters)"

"""Finding a font that renders Japanese (Noto Sans CJK), without importing Kivy."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

KNOWN_PATHS = [
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKjp-Regular.otf",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
]


FONT_MAGIC = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf", b"typ1")  # TrueType, OpenType, collections
HEADER = 12  # a font file's table directory header: its magic, then its table count


def font_problem(path: str | Path) -> str | None:
    """Why the file at `path` is not a font SDL_ttf can load (missing, a directory, a device,
    empty, not TrueType/OpenType), else None.  Reads its first bytes only."""
    path = Path(path)
    try:
        if not path.exists():
            return "does not exist"
        if not path.is_file():
            return "is not a regular file (a directory or a device)"
        with open(path, "rb") as handle:
            head = handle.read(HEADER)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not head:
        return "is empty"
    if len(head) < HEADER or head[:4] not in FONT_MAGIC:
        return "is not a font (not TrueType or OpenType)"
    return None


def find_cjk_font(configured: str = "") -> Path | None:
    """The configured font if it exists, else Noto Sans CJK found on the system."""
    if configured:
        path = Path(configured).expanduser()
        return path if font_problem(path) is None else None
    for known in KNOWN_PATHS:
        if font_problem(known) is None:
            return Path(known)
    if shutil.which("fc-match"):
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", "Noto Sans CJK JP:style=Regular"],
            capture_output=True, text=True, check=False,
        ).stdout.strip()
        if "CJK" in found and font_problem(found) is None:
            return Path(found)
    return None


def bold_variant(regular: Path) -> Path | None:
    bold = regular.with_name(regular.name.replace("Regular", "Bold"))
    return bold if bold != regular and bold.is_file() else None

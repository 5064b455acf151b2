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


def find_cjk_font(configured: str = "") -> Path | None:
    """The configured font if it exists, else Noto Sans CJK found on the system."""
    if configured:
        path = Path(configured).expanduser()
        return path if path.is_file() else None
    for known in KNOWN_PATHS:
        if Path(known).is_file():
            return Path(known)
    if shutil.which("fc-match"):
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", "Noto Sans CJK JP:style=Regular"],
            capture_output=True, text=True, check=False,
        ).stdout.strip()
        if "CJK" in found and Path(found).is_file():
            return Path(found)
    return None


def bold_variant(regular: Path) -> Path | None:
    bold = regular.with_name(regular.name.replace("Regular", "Bold"))
    return bold if bold != regular and bold.is_file() else None

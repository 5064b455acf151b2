"""The mid-word check: no Japanese word is split across two drawn lines.

`problems(app)` reads the lines Kivy actually drew for every visible label on the current
screen and any popup (the same labels tests/gui/layout_check.py looks at) and returns one
sentence per line break that falls inside a Japanese phrase: 「見せてく｜ださい」,
「もう一｜度」.  A break is fine where the text has a space or "\\n", and between two of
BudouX's phrases (the boundaries companion/ui/widgets.py's EvenLabel breaks at).  Breaks
between two Latin letters or digits are layout_check's ("breaks the word").

Two breaks split a unit a reader takes in one glance, in either language, wherever the
text had a space: a count from the name before it (「コンピューター｜3隻」, "Ben: | 0 wins"),
and a legend's mark from its label (「■ Akiの船 □｜コンピューターの船」).

Use it beside the layout check, after each touch:

    assert not word_breaks.problems(gui.app), ...
"""

from __future__ import annotations

import re
from functools import lru_cache

from kivy.core.window import Window
from kivy.uix.modalview import ModalView

from companion.ui.widgets import CJK, _japanese_phrases
from layout_check import _lines, _name, _plain, _texts


COUNTER = re.compile(r"\d*(隻|勝|敗|発|枚|wins?|loss|ships?|shots?|afloat)")  # "3隻", "0 wins": one unit with its name
MARKS = "■□●○◆◇"  # a legend's marks: a line may not end with one


def _splits_unit(before: str, after: str) -> bool:
    """A line that starts with a count (or a number's counter), or ends with a legend's mark."""
    counter = COUNTER.match(after)
    return bool(counter and (counter.start(1) or before[-1].isdigit())) or before[-1] in MARKS


def problems(app) -> list[str]:
    screen = app.manager.current_screen
    modals = [w for w in Window.children if isinstance(w, ModalView)]  # a dialog covers the rest
    roots = modals[:1] or [screen] + [w for w in Window.children if w is not app.root]
    return [fault for label in _texts(roots) for fault in label_faults(label)]


def label_faults(label) -> list[str]:
    """The breaks inside a Japanese phrase or a unit (a name and its count, a mark and its
    label) among `label`'s drawn lines."""
    text = _plain(str(label.text), label.markup)
    lines = [re.sub(r"\s+", "", line) for line in _lines(label)]
    places = [i for i, c in enumerate(text) if not c.isspace()]  # the text's index of each drawn character
    if sum(map(len, lines)) != len(places):
        return []  # not drawn whole: layout_check says so ("is cut")
    faults, at = [], 0
    for before, after in zip(lines, lines[1:]):
        at += len(before)
        if not before or not after:
            continue
        left, right = places[at - 1], places[at]
        if _splits_unit(before, after) and "\n" not in text[left:right]:
            faults.append(f"{_name(label)} splits a unit: {before[-8:]}|{after[:6]}")
            continue
        if right > left + 1:
            continue  # a space or "\n" in the text: a break it allows
        if not (CJK.match(text[left]) or CJK.match(text[right])):
            continue  # Latin on both sides: layout_check's
        if right not in boundaries(text):
            faults.append(f"{_name(label)} breaks a word: {text[max(0, left - 5):left + 1]}|{text[right:right + 5]}")
    return faults


@lru_cache(maxsize=4096)
def boundaries(text: str) -> frozenset[int]:
    """The indexes in `text` where a BudouX phrase (or a line) starts."""
    found, at = set(), 0
    for paragraph in text.split("\n"):
        for phrase in _japanese_phrases().parse(paragraph) if paragraph else []:
            found.add(at)
            at += len(phrase)
        at += 1  # the "\n"
    return frozenset(found)

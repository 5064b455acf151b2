"""The player's `moved` check (player.py) on frames made by hand: a text that slid under the
finger is a fault; a second copy of a text beside one still in its place is not (the Naval
War re-trial: a ship just sunk showed 撃沈 while another's 撃沈 stood where it stood)."""

from drawn import Drawn, Frame
from player import moved

FINGER = (100, 100)


def frame(*items: Drawn) -> Frame:
    return Frame(list(items), [], False)


def test_a_text_that_slid_under_the_finger_is_a_fault():
    before = frame(Drawn("黒のカード", (60, 140, 140, 180), pressable=True))
    after = frame(Drawn("黒のカード", (60, 80, 140, 120), pressable=True))
    assert moved(before, after, FINGER)


def test_a_second_copy_beside_one_still_in_its_place_slid_nowhere():
    sunk = Drawn("撃沈", (60, 150, 100, 170))
    before = frame(sunk, Drawn("Musashi", (60, 90, 140, 110)))
    after = frame(sunk, Drawn("撃沈", (60, 90, 100, 110)))  # Musashi sunk: its own 撃沈
    assert moved(before, after, FINGER) == []


def test_a_text_in_its_place_and_a_new_stage_are_fine():
    before = frame(Drawn("カードを引く", (60, 80, 140, 120), pressable=True))
    assert moved(before, before, FINGER) == []
    assert moved(before, frame(Drawn("捨てる", (60, 80, 140, 120), pressable=True)), FINGER) == []

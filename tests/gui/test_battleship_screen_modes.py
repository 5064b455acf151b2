"""Battleship against the computer (salvo, advanced) and as a tracker of a physical game."""

from test_battleship_screen_helpers import answer_button, assert_no_leak, open_and_start, tap_cell

from companion.games.battleship.fleet import CELLS, LENGTH, index, label, run


def test_computer_game_with_salvo_and_unnamed_hits(gui):
    screen = open_and_start(gui, "opp_cpu", "variant_salvo", "advanced_on", "level_easy")
    assert screen.stage == "place" and screen.session.players == ["you", "cpu"]  # no cover
    gui.tap(screen.ids.random_fleet)
    assert_no_leak(gui, screen)
    gui.screenshot("1-your-fleet")
    gui.tap(screen.ids.done)
    gui.settle(screen)
    assert screen.stage == "play" and screen.session.state.phase == "shoot"
    assert_no_leak(gui, screen)

    # five shots by touch; a second tap on the last one takes it back
    for cell in ("A1", "C3", "E5", "G7", "I9"):
        tap_cell(gui, screen, cell)
    tap_cell(gui, screen, "I9")
    assert screen.session.state.view(None)["pending"] == ["A1", "C3", "E5", "G7"]
    assert not screen.can_bottom and "残り1発" in screen.status_text
    tap_cell(gui, screen, "J10")
    assert screen.can_bottom
    assert_no_leak(gui, screen)
    gui.screenshot("2-salvo-entered")
    gui.tap(screen.ids.bottom)
    gui.settle(screen)
    view = screen.session.state.view(None)
    assert view["to_move"] == 0 and view["boards"][1]["count"] == 5  # the computer fired five
    yours, _ = screen.news_text.split("\nコンピューター： ")  # each volley on its own lines
    assert yours.startswith("あなた： ") and all(c in yours for c in ("A1", "C3", "E5", "G7", "J10"))
    assert_no_leak(gui, screen)
    gui.screenshot("3-after-both-volleys")
    gui.tap(screen.ids.toggle_board)  # where the computer shot at you
    assert screen.grid.marks == list("".join(view["boards"][1]["grid"]))
    assert not screen.grid.interactive
    gui.screenshot("4-computer-shots")
    gui.tap(screen.ids.toggle_board)

    # the rest through the screen, leak-checked at every turn; the test (not the
    # screen) knows the computer's ships and aims at them, to end quickly
    while not screen.session.state.is_over():
        state = screen.session.state
        view = state.view(None)
        if len(view["pending"]) < view["shots_allowed"]:
            left = set(state.fleet_cells(1)) - state.called(0) or set(range(CELLS)) - state.called(0)
            assert screen.act("move", {"type": "shot", "cell": label(min(left))})
        else:
            assert screen.act("move", {"type": "fire"})
            gui.settle(screen)
            assert_no_leak(gui, screen)
    assert "勝ち" in screen.status_text
    gui.screenshot("5-game-over")


P1_FLEET = {"carrier": "A1", "battleship": "C1", "cruiser": "E1", "submarine": "G1", "destroyer": "I1"}
P2_FLEET = {"destroyer": "A1", "carrier": "C1", "battleship": "E1", "cruiser": "G1", "submarine": "I1"}


def ships_at(fleet: dict) -> dict[int, str]:
    return {cell: ship for ship, start in fleet.items() for cell in run(index(start), LENGTH[ship], "h")}


def physical_answer(fleet: dict[int, str], hits: set, cell: int) -> dict:
    """What a player reads off their own board."""
    ship = fleet.get(cell)
    if ship is None:
        return {"type": "answer", "result": "miss"}
    hits.add(cell)
    whole = all(c in hits for c, s in fleet.items() if s == ship)
    return {"type": "answer", "result": "sunk" if whole else "hit", "ship": ship}


def test_tracker_salvo_answers_refusals_undo_and_shot_counts(gui):
    screen = open_and_start(gui, "opp_tracker", "variant_salvo")
    assert screen.stage == "play" and "残り5発" in screen.status_text
    for cell in ("A1", "A2", "A3", "A4", "A5"):
        tap_cell(gui, screen, cell)
    gui.tap(screen.ids.bottom)
    assert screen.answering and "A1 の結果" in screen.status_text
    gui.screenshot("1-answer-pad")

    gui.tap(answer_button(screen, "sunk", "destroyer"))  # no fleet sinks a destroyer with one shot
    assert "ありえません" in screen.notice_text and "矛盾" in screen.notice_text
    assert screen.session.state.view(None)["pending"] == ["A1", "A2", "A3", "A4", "A5"]
    gui.screenshot("2-answer-refused")
    gui.tap(screen.ids.notice)
    gui.tap(answer_button(screen, "hit", "destroyer"))
    gui.tap(answer_button(screen, "sunk", "destroyer"))
    gui.tap(answer_button(screen, "miss"))
    gui.tap(answer_button(screen, "miss"))
    gui.tap(answer_button(screen, "hit", "carrier"))  # a slip: A5 is water
    gui.tap(screen.ids.undo)
    assert screen.session.state.view(None)["pending"] == ["A5"]
    gui.tap(answer_button(screen, "miss"))
    assert "プレイヤー2の攻撃" in screen.status_text and "残り4発" in screen.status_text  # 4 afloat
    assert "駆逐艦撃沈\u00a0A2  はずれ\u00a0A3  A4  A5" in screen.news_text  # grouped by what they met
    gui.screenshot("3-next-salvo-of-four")

    # the rest: Player 1 aims at the ships, Player 2 sweeps row by row; the
    # defenders answer from their boards
    fleets, hits = [ships_at(P1_FLEET), ships_at(P2_FLEET)], [set(), set(ships_at(P2_FLEET)) & {0, 1}]
    while not screen.session.state.is_over():
        state = screen.session.state
        view = state.view(None)
        if view["phase"] == "answer":
            defender = 1 - view["turn"]
            action = physical_answer(fleets[defender], hits[defender], index(view["pending"][0]))
        elif len(view["pending"]) < view["shots_allowed"]:
            free = set(range(CELLS)) - state.called(view["turn"])
            aimed = set(fleets[1]) & free if view["turn"] == 0 else set()
            action = {"type": "shot", "cell": label(min(aimed or free))}
        else:
            action = {"type": "fire"}
        assert screen.act("move", action), screen.notice_text
    assert "プレイヤー1の勝ち" in screen.status_text
    assert_no_leak(gui, screen)
    gui.screenshot("4-tracked-to-the-end")


def test_computer_starts_places_hidden_then_fires_first(gui):
    screen = open_and_start(gui, "opp_cpu", "first_1", "level_hard")
    gui.settle(screen)
    assert screen.stage == "place" and screen.private_seat == 0  # its fleet is in, unseen
    assert screen.session.state.view(None)["placed"] == [0, 5]
    assert_no_leak(gui, screen)
    gui.tap(screen.ids.random_fleet)
    gui.tap(screen.ids.done)
    gui.settle(screen)
    view = screen.session.state.view(None)
    assert view["to_move"] == 0 and view["boards"][1]["count"] == 1
    assert screen.news_text.startswith("コンピューター：") and screen.grid.interactive
    assert_no_leak(gui, screen)

"""The 九九戦艦 learning report: listings gathered per player name, across games and the store."""

from companion.games.kuku.report import ProductStats, report, store_report, weakest_first
from companion.play.session import Session
from companion.store import Store

REFEREE = {"rule": "basic", "first": 0, "mode": "referee"}
PLACE = [{"type": "place", "kind": k, "cell": c} for k, c in
         (("normal", "1×1"), ("normal", "5×5"), ("leader", "9×9"),
          ("normal", "3×8"), ("normal", "7×7"), ("leader", "2×1"))]


def bomb(product, *pairs):
    return [{"type": "bomb", "product": product}] + [{"type": "say", "pair": p} for p in pairs] + [{"type": "done"}]


def test_wrong_listings_are_counted_per_name_and_product_with_missed_and_stray_pairs():
    actions = PLACE + bomb(16, "2×8", "4×4") + bomb(12, "2×6", "3×4", "4×3", "6×2") \
        + bomb(16, "2×8", "4×4", "8×2", "3×5")
    table = report([(REFEREE, ["Aki", "Ben"], actions)])
    aki = table["Aki"][16]
    assert (aki.tries, aki.wrong) == (2, 2)
    assert aki.missed == {"8×2": 1} and aki.stray == {"3×5": 1}
    assert table["Ben"] == {12: ProductStats(tries=1, wrong=0)}


def test_games_add_up_and_the_computer_is_left_out():
    first = PLACE + bomb(24, "3×8", "8×3", "4×6")
    second = PLACE + bomb(49, "7×7") + bomb(24, "3×8", "8×3", "4×6", "6×4", "2×12")
    table = report([(REFEREE, ["Aki", "cpu"], first), (REFEREE, ["cpu", "Aki"], second)])
    assert table["Aki"][24].tries == 2 and table["Aki"][24].wrong == 2
    assert table["Aki"][24].stray == {"2×12": 1} and table["Aki"][24].missed == {"6×4": 1}
    assert "cpu" not in table


def test_a_listing_still_being_said_is_not_judged_yet():
    table = report([(REFEREE, ["Aki", "Ben"], PLACE + [{"type": "bomb", "product": 16}, {"type": "say", "pair": "2×8"}])])
    assert table == {}


def test_weakest_products_come_first():
    products = {6: ProductStats(2, 1), 24: ProductStats(3, 2), 16: ProductStats(1, 1), 49: ProductStats(1, 0)}
    assert [n for n, _ in weakest_first(products)] == [24, 16, 6, 49]


def test_the_store_report_reads_finished_and_active_games_but_not_abandoned_ones(tmp_path):
    store = Store.in_dir(tmp_path)
    for players, abandon in ((["Aki", "Ben"], False), (["Aki", "Ben"], True)):
        session = Session.start(store, "kuku", REFEREE, players=players)
        for action in PLACE + bomb(36, "6×6", "4×9"):
            session.play(action)
        if abandon:
            session.abandon()
    tracker = Session.start(store, "kuku", {**REFEREE, "mode": "tracker"}, players=["Ben", "Aki"])
    for action in bomb(81, "9×9") + [{"type": "report", "hits": []}, {"type": "report", "hits": []}] + bomb(9, "3×3"):
        tracker.play(action)
    table = store_report(store)
    assert table["Aki"][36].wrong == 1 and table["Aki"][36].tries == 1 and table["Aki"][36].missed == {"9×4": 1}
    assert table["Aki"][9].wrong == 1 and table["Ben"][81] == ProductStats(1, 0)

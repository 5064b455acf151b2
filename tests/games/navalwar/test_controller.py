"""The Naval War controller plays whole games without a window: 3 and 9 players, the
two-player house game, the players' own deck file, dice rolled by the companion or
entered from a real die, from the table and from the seats' own phones.

Every input goes through `Step`, which after each one checks every reader's display:
plain JSON, no secret of another seat (the rules' `secrets(seat)`: empty, since the
tracker never knows a hand; the check still runs, so a secret added later is caught),
and a seat's `own` fleet is its own.
"""

import json
import random

import pytest

from companion import i18n
from companion.games.navalwar.choices import plain
from companion.games.navalwar.controller import NavalWarController
from companion.games.navalwar.data import default_composition, reduced_counts
from companion.play.controller import TABLE, Refused, to_json
from companion.store import Store

SHORT = {"counts": reduced_counts(default_composition(), 8)}  # every card kind, a quick game


def words(text, lang="ja"):
    """A Text, or lines of them, said in `lang`."""
    lines = text if isinstance(text, list) else [text]
    return "\n".join(line.render(lambda key, **v: i18n.translate(key, lang, **v)) for line in lines)


@pytest.fixture
def store(tmp_path):
    store = Store.in_dir(tmp_path)
    yield store
    store.close()


def readers(c):
    return [TABLE] + (list(range(c.session.state.seats)) if c.session else [0])


def check_displays(c):
    state = c.session.state if c.session else None
    fleets = state.view(None)["fleets"] if state else None
    for who in readers(c):
        model = to_json(c.display(who))
        text = json.dumps(model, ensure_ascii=False)
        if state is None:
            continue
        for seat in range(state.seats):
            assert state.secrets(seat) == [], "the tracker knows no hand: nothing is secret"
            if seat != who:
                assert not any(secret in text for secret in state.secrets(seat))
        if who == TABLE:
            assert "own" not in model
        else:
            assert model["own"] == fleets[who]


class Step:
    """Input from `who`, then every display checked."""

    def __init__(self, c):
        self.c = c

    def __call__(self, who, kind, value=None):
        self.c.act(who, kind, value)
        check_displays(self.c)

    def enter(self, who, action):
        """Tap through the choices that enter `action`, as `who`."""
        tree = self.c.tree()
        for step in tree.path_of(action)[len(self.c.shown_prefix(who)):]:
            self(who, "choose", step)


def start(store, players=3, names=None, target=1, deck=SHORT, deck_path=None):
    c = NavalWarController.open(store, deck_path=deck_path, rng=random.Random(5))
    c.deck = deck
    step = Step(c)
    assert c.stage() == "setup"
    step(TABLE, "players", players)
    step(TABLE, "target", target)
    step(TABLE, "start", names or [f"P{n + 1}" for n in range(players)])
    assert c.stage() == "play" and c.session.players == (names or [f"P{n + 1}" for n in range(players)])
    return c, step


def play_out(c, step, rng, phones=False, limit=6000):
    """Random senders press random offers until the game is over: the seat whose entry
    it is from its phone (when `phones`) or the table; now and then a sender that may
    not act tries, and is refused without a change."""
    rounds = 0
    for _ in range(limit):
        stage = c.stage()
        if stage == "over":
            return rounds
        if stage == "summary":
            rounds += 1
            step(TABLE, "continue")
            continue
        actor = c.actor()
        if rng.random() < 0.05:
            refused_without_change(c, rng)
        who = actor if phones and actor is not None and rng.random() < 0.7 else TABLE
        offers = {o.kind: o for o in c.offers(who)}
        roll = rng.random()
        if "random" in offers and roll < 0.4:
            step(who, "random")
        elif "back" in offers and roll < 0.45:
            step(who, "back")
        elif "undo" in offers and roll < 0.47:
            step(who, "undo")
        elif roll < 0.6:
            step(who, "enter", rng.choice(c.session.state.legal_actions()))
        else:
            step(who, "choose", rng.choice(offers["choose"].choices))
    raise AssertionError("the game never ended")


def snapshot(c):
    return (c.session and list(c.session.actions), c.stage(),
            json.dumps(to_json({str(w): c.display(w) for w in readers(c)}), ensure_ascii=False))


def refused_without_change(c, rng):
    """An input its sender was not offered is refused and changes nothing."""
    before = snapshot(c)
    seats = list(range(c.session.state.seats))
    who = rng.choice([TABLE, *seats])
    offered = {o.kind for o in c.offers(who)}
    tries = [(kind, value) for kind, value in
             (("choose", "nowhere"), ("enter", {"type": "die", "value": 7}), ("undo", None), ("continue", None),
              ("start", ["A", "B", "C"]), ("new", None), ("players", 5), ("random", None), ("back", None))
             if kind not in offered or kind in ("choose", "enter")]
    kind, value = rng.choice(tries)
    with pytest.raises(Refused) as refused:
        c.act(who, kind, value)
    assert refused.value.key in ("play.not_now", "play.not_yours") and isinstance(refused.value, ValueError)
    assert snapshot(c) == before


@pytest.mark.parametrize("players, seed", [(3, 1), (9, 2), (2, 3)], ids=["3p", "9p", "2p-house"])
def test_whole_games_from_the_table(store, players, seed):
    deck = {"counts": reduced_counts(default_composition(), 3)} if players == 9 else SHORT
    c, step = start(store, players, deck=deck)
    if players == 2:
        assert words(c.display(TABLE)["title"]).endswith("（ハウスルール）")
    play_out(c, step, random.Random(seed))
    model = c.display(TABLE)
    assert model["stage"] == "over" and model["offers"][0].kind == "new"
    assert words(model["summary"]["title"]).startswith("ゲーム終了：") and len(model["summary"]["rows"]) == players
    assert store.game(c.session.id).status == "finished"
    step(TABLE, "new")
    assert c.stage() == "setup" and c.session is None


def test_a_whole_game_entered_from_the_seats_own_phones(store):
    c, step = start(store, 4)
    play_out(c, step, random.Random(11), phones=True)
    assert c.stage() == "over"


def test_the_players_own_deck_file(store, tmp_path):
    path = tmp_path / "my_deck.yaml"
    path.write_text("counts:\n  smoke: 0\n" + "".join(f"  {k}: {n}\n" for k, n in SHORT["counts"].items()
                                                     if k != "smoke"), encoding="utf-8")
    c = NavalWarController.open(store, deck_path=str(path))
    comp = c.composition()
    assert "smoke" not in comp.counts
    assert words(c.display(TABLE)["deck"]["text"]) == f"カード：my_deck.yaml（行動{comp.total_actions}・艦艇54）"
    step = Step(c)
    step(TABLE, "players", 3)
    step(TABLE, "target", 1)
    step(TABLE, "start", ["A", "B", "C"])
    assert c.session.state.composition == comp
    path.unlink()  # a saved game keeps its cards without the file
    again = NavalWarController.open(store, deck_path=str(path))
    assert again.session.id == c.session.id and again.session.state.composition == comp
    play_out(c, step, random.Random(4))


def test_a_broken_file_or_too_few_cards_is_said_on_the_form_in_both_languages(store, tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("actions:\n  - {type: salvo, calibre: 13, value: 2, count: 4}\n", encoding="utf-8")
    c = NavalWarController.open(store, deck_path=str(path))
    deck = c.display(TABLE)["deck"]
    assert deck["broken"] and "broken.yaml" in words(deck["text"]) and "カード構成ファイルの誤り" in words(deck["text"])
    assert "actions[0]: 射撃カードには" in words(deck["text"])
    assert "actions[0]: a salvo needs a calibre" in words(deck["text"], "en")
    c.act(TABLE, "start", ["A", "B", "C", "D"])
    assert c.session is None
    c = NavalWarController.open(store)
    c.deck = SHORT
    c.act(TABLE, "players", 9)
    c.act(TABLE, "start", [f"P{n}" for n in range(9)])
    deck = c.display(TABLE)["deck"]
    assert c.session is None and deck["broken"]
    assert "9人で遊ぶには艦艇カード36枚" in words(deck["text"])
    assert "9 players need at least 36 ship cards" in words(deck["text"], "en")
    c.act(TABLE, "players", 3)  # fewer players: the form is fine again
    assert not c.display(TABLE)["deck"]["broken"]
    for names in (["A", "B"], ["A", " ", "C"], "ABC", None):
        with pytest.raises(Refused):
            c.act(TABLE, "start", names)
    with pytest.raises(Refused):
        c.act(TABLE, "target", 0)
    assert c.session is None


def test_a_card_entered_step_by_step_the_dice_rolled_or_entered_and_undo(store):
    c, step = start(store, 3, names=["Aki", "Ben", "Chie"], target=100)
    model = c.display(TABLE)
    assert words(model["prompt"]) == "最初のプレイヤー（配り手の左隣）を選んでください"
    assert [o.kind for o in c.offers(0)] == [], "who plays first is the table's to enter"
    assert words(model["random"]) == "ランダムに決める"
    step(TABLE, "choose", "seat:1")
    assert words(c.display(TABLE)["last"]) == "入力済み：Ben"
    # the deal: each seat's ships may come from that seat's phone, or the table
    with pytest.raises(Refused):
        c.act(1, "choose", "ship:ship-yamato")
    step(0, "choose", "ship:ship-yamato")
    model = c.display(0)
    assert model["catalogue"] and words(model["prompt"]) == "Akiに配られた艦艇カード（2/5枚目）"
    assert model["own"]["ships"][0]["name"] == "Yamato"
    fleets = [["ship-hood", "ship-akagi", "ship-nelson", "ship-warspite"],
              ["ship-iowa", "ship-bismarck", "ship-roma", "ship-kongo", "ship-enterprise"],
              ["ship-texas", "ship-hyuga", "ship-lutzow", "ship-repulse", "ship-scheer"]]
    for seat, ships in enumerate(fleets):
        for ship in ships:
            step(seat, "enter", {"type": "deal", "ship": ship})
    for _ in range(3):
        step.enter(c.actor(), {"type": "no_red"})
    # Ben's normal turn, from his phone: draw a black card, a salvo card (listed at once), its target
    assert c.actor() == 1 and c.display(1)["choices"] and not c.display(2)["choices"]
    step.enter(1, {"type": "choose", "turn": "draw"})
    step(1, "choose", "hidden")
    assert "type:salvo" not in {ch["id"] for ch in c.display(1)["choices"]}
    step(1, "choose", "card:salvo-16-3")
    assert words(c.display(1)["chosen"]) == "16″・3" and c.display(TABLE)["chosen"] == []
    step(1, "back")
    step(1, "choose", "card:salvo-16-3")
    targets = c.display(1)["targets"]  # tapped on the fleet panel, not listed
    assert targets["ship-yamato"] == "ship:ship-yamato" and "ship-akagi" not in targets  # the carrier screen
    assert not any(ch["id"].startswith("ship:") for ch in c.display(1)["choices"])
    step(1, "choose", "ship:ship-yamato")
    assert c.view()["fleets"][0]["ships"][0]["hits"] == 3
    # said after the hit: the card and the ship, not the damage it had before (issue 29, finding 4)
    assert words(c.display(1)["last"]) == "入力済み：16″・3 → Aki: Yamato"
    # Chie draws a submarine (entered at the table while her phone is a step into
    # discard: the phone's step is dropped), its die entered from the real die, then one rolled
    step(2, "choose", "discard")
    assert words(c.display(2)["chosen"]) == "捨てる"
    step(TABLE, "enter", {"type": "draw", "card": "submarine"})
    assert c.display(2)["chosen"] == [] and "back" not in {o.kind for o in c.offers(2)}
    step(TABLE, "enter", {"type": "play", "card": "submarine", "ship": "ship-iowa"})
    model = c.display(TABLE)
    assert words(model["prompt"]) == "Chieの番\n潜水艦 → Ben: Iowa (0/7)\n5か6で撃沈"
    assert model["columns"] == 3 and [ch["id"] for ch in model["choices"]] == [f"die:{n}" for n in range(1, 7)]
    step(2, "choose", "die:4")
    assert "ship-iowa" in {s["id"] for s in c.view()["fleets"][1]["ships"]}
    banner = c.display(TABLE)["banner"]
    assert words(banner["text"]) == "潜水艦：出目 4\n→ Iowa は無事" and not banner["sunk"]
    assert words(banner["text"], "en") == "Submarine: rolled 4\n→ Iowa survives"
    assert c.display(1)["banner"] == banner  # the phones see it too
    # undo is the table's: every entry is an undo point
    assert "undo" not in {o.kind for o in c.offers(2)}
    entries = len(c.session.actions)
    step(TABLE, "undo")
    assert len(c.session.actions) == entries - 1 and c.display(TABLE)["last"] is None
    step(TABLE, "random")
    assert words(c.display(TABLE)["last"]).startswith("入力済み：コンパニオンの出目：")


def test_a_rounds_scores_show_once_and_again_after_an_undo(store):
    c, step = start(store, 3, target=1000)
    rng = random.Random(8)
    while c.stage() == "play":
        step(TABLE, "enter", rng.choice(c.session.state.legal_actions()))
    model = c.display(TABLE)
    assert c.stage() == "summary" and [o.kind for o in model["offers"]] == ["continue"]
    assert words(model["summary"]["title"]) == "第1ラウンド終了"
    assert [r["total"] for r in model["summary"]["rows"]] == [str(t) for t in c.view()["totals"]]
    assert c.offers(0) == [], "a phone waits for the table"
    step(TABLE, "continue")
    assert c.stage() == "play" and c.view()["round"] == 2 and c.display(TABLE)["summary"] is None
    last = c.session.actions[-1]
    step(TABLE, "undo")
    assert c.stage() == "play" and c.view()["round"] == 1
    step(TABLE, "enter", last)
    assert c.stage() == "summary", "the round's end shows again"


def test_a_seats_odds_mark_its_own_calibres(store):
    c, step = start(store, 3)
    for _ in range(200):
        if c.view()["phase"] == "turn":
            break
        step(TABLE, "enter", c.session.state.legal_actions()[0])
    for seat in range(3):
        calibres = {s["calibre"] for s in c.view()["fleets"][seat]["ships"]} - {None}
        odds = c.display(seat)["odds"]
        assert {s["calibre"] for s in odds["salvo"] if s["mine"]} == calibres
    mover = c.view()["seat"]
    assert c.display(TABLE)["odds"] == c.display(mover)["odds"]


def test_counting_the_deck_walks_through_every_card_and_says_what_differs(store):
    c = NavalWarController.open(store)
    step = Step(c)
    assert {o.kind for o in c.offers(0)} == set(), "the start form is the table's"
    step(TABLE, "count")
    assert c.stage() == "count" and c.display(TABLE)["count"]["page"] == "intro"
    step(TABLE, "count_begin", True)
    model = c.display(TABLE)["count"]
    assert words(model["label"]) == "射撃 11″・1打撃" and model["expected"] == model["counted"] == 8
    step(TABLE, "count_change", -1)
    assert c.display(TABLE)["count"]["counted"] == 7
    while c.display(TABLE)["count"]["page"] == "step":
        last = c.display(TABLE)["count"]
        step(TABLE, "count_next")
    assert words(last["label"]) == "空母" and last["last"]
    model = c.display(TABLE)["count"]
    assert model["diffs"] == [{"card": "salvo-11-1", "expected": 8, "counted": 7}]
    text = words(model["result"])
    assert "射撃 11″・1打撃: 構成では8枚、数えたのは7枚（1枚足りない）" in text and "salvo-11-1: 7" in text
    assert "salvo-11-1: 7" in words(model["result"], "en") and "1 missing" in words(model["result"], "en")
    with pytest.raises(Refused):
        c.act(TABLE, "count_change", 1)  # not on the result page
    step(TABLE, "count_back")
    assert c.display(TABLE)["count"]["page"] == "step"
    step(TABLE, "count_close")
    assert c.stage() == "setup" and c.display(TABLE)["count"] is None


def test_shortcuts_enter_several_actions_as_one_entry_and_undo_takes_it_back_whole(store):
    c, step = start(store, 3, target=1000, deck=None)
    deal = ["ship-yamato", "ship-akagi", "ship-hood", "ship-iowa", "ship-ise",
            "ship-nagato", "ship-musashi", "ship-bismarck", "ship-fuso", "ship-roma",
            "ship-kongo", "ship-hiei", "ship-texas", "ship-lutzow", "ship-scheer"]
    step(TABLE, "enter", {"type": "first", "seat": 1})
    for ship in deal:
        step(TABLE, "enter", {"type": "deal", "ship": ship})
    # the first turn: one entry says nobody has a red card
    rest = {ch["id"]: words(ch["label"]) for ch in c.display(TABLE)["choices"]}
    assert rest["no_red_rest"] == "3人とも赤なし：\nまとめて進める"  # an action, its lines broken by hand (issue 42)
    step(TABLE, "choose", "no_red_rest")
    assert c.session.actions[-3:] == [{"type": "no_red"}] * 3 and c.view()["phase"] == "turn"
    # a black card drawn and a salvo played: the draw is implied by the card
    assert c.view()["seat"] == 1 and c.waiting()["kind"] == "draw"
    before = len(c.session.actions)
    for choice in ["card:salvo-16-3", "ship:ship-hiei"]:
        step(TABLE, "choose", choice)
    assert c.session.actions[before:] == [{"type": "draw", "card": "hidden"},
                                          {"type": "play", "card": "salvo-16-3", "ship": "ship-hiei"}]
    step(TABLE, "undo")
    assert len(c.session.actions) == before, "the entry is taken back whole"
    step(TABLE, "undo")
    assert len(c.session.actions) == before - 3, "the first turn's entry, whole too"
    step(TABLE, "undo")
    assert len(c.session.actions) == before - 4, "an entry of one action: one"
    step(TABLE, "enter", {"type": "deal", "ship": "ship-scheer"})
    # Aki has a carrier: a ship tapped at the turn's choice is the air strike's target
    step(TABLE, "choose", "no_red_rest")
    step(TABLE, "enter", {"type": "draw", "card": "hidden"})
    step(TABLE, "enter", {"type": "discard", "card": "smoke"})
    step(TABLE, "enter", {"type": "draw", "card": "hidden"})
    step(TABLE, "enter", {"type": "discard", "card": "smoke"})
    assert c.view()["seat"] == 0 and c.waiting()["kind"] == "choose"
    assert "ship-hiei" in c.display(TABLE)["targets"]
    step(TABLE, "choose", "ship:ship-hiei")
    assert c.session.actions[-2:] == [{"type": "choose", "turn": "air_strike"}, {"type": "strike", "ship": "ship-hiei"}]
    step(TABLE, "choose", "die:1")
    banner = c.display(TABLE)["banner"]
    assert words(banner["text"]) == "航空攻撃：出目 1\n→ Hiei 撃沈！" and banner["sunk"]
    step(TABLE, "undo")
    assert c.display(TABLE)["banner"] is None


def test_the_last_dies_banner_stays_with_its_round(store):
    # the drawn evening, 8 players: round 1 ended on a die, and its banner (「魚雷艇：出目 5 → Tirpitz
    # 撃沈！」) stood in for round 2's prompt, so no one read whose deal it was
    c, step = start(store, 3, target=1000)
    rng = random.Random(8)
    while c.stage() == "play":
        step(TABLE, "enter", rng.choice(c.session.state.legal_actions()))
    c.banner = (c.position(), plain("魚雷艇：出目 5"))  # as `_play` leaves it after the round's last die
    assert c.stage() == "summary" and c.display(TABLE)["banner"] is not None
    step(TABLE, "continue")
    assert c.view()["round"] == 2 and c.display(TABLE)["banner"] is None


def test_the_deal_lists_the_ships_of_recent_games_first(store):
    c, step = start(store, 3, deck=None)
    for ship in ["ship-yamato", "ship-akagi", "ship-hood"]:
        first = c.waiting()["kind"] == "first"
        step(TABLE, "enter", {"type": "first", "seat": 0} if first else {"type": "deal", "ship": ship})
    store.abandon(c.session.id)  # the next game starts from the form
    c2, step2 = start(store, 3, deck=None)
    step2(TABLE, "enter", {"type": "first", "seat": 0})
    ids = [ch["id"] for ch in c2.display(TABLE)["choices"]]
    assert ids[:2] == ["ship:ship-hood", "ship:ship-akagi"], "the latest first"
    rest = [words(ch["label"]) for ch in c2.display(TABLE)["choices"][2:]]
    assert rest == sorted(rest) and len(ids) == 54

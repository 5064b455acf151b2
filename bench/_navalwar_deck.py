"""A Naval War round as a table plays it from a shuffled deck (bench/navalwar_taps.py).

`round_script(players, seed)` shuffles the packaged composition (108 action cards, 54 ships),
deals the ships and the hands, and plays the first round to its end by the rules' engine:
each player knows their own hand, plays every red card of it in the first turn, draws the
deck's next card (a red one played at once), then plays a card of the hand (a salvo where it
can) or discards one; a player with carriers strikes from the air now and then.  Targets and
the table's dice come from the seeded rng; with `rolls` (the companion's dice, its rng
seeded alike) each die is what the companion will roll.  Returns the actions in order and
where the parts of the round start (first player, deal, first turn, normal turns).
"""

from __future__ import annotations

import random

from companion.games.navalwar.data import default_composition, is_red
from companion.games.navalwar.flow import hand_size
from companion.play import registry

FIRST = 1
AIR_STRIKES = 0.3  # how often a player with carriers strikes instead of drawing


def round_script(players: int, seed: int, rolls: random.Random | None = None) -> tuple[list, dict]:
    rng = random.Random(seed)
    comp = default_composition()
    deck = [key for key, n in comp.actions for _ in range(n)]
    rng.shuffle(deck)
    ships = [s.id for s in comp.ships]
    rng.shuffle(ships)
    game = registry.get("navalwar")
    state = game.new_state(game.options({"players": players}))
    hands: list[list[str]] = [[] for _ in range(players)]
    script, parts = [], {}
    while state.view(None)["round"] == 1 and not state.is_over():
        view = state.view(None)
        kind = view["waiting"]["kind"]
        for part, starts in (("deal", kind == "deal"), ("first turn", view["phase"] == "stage"),
                             ("normal turns", view["phase"] == "turn")):
            if starts and part not in parts:
                parts[part] = len(script)
        action = _decide(state, view, kind, deck, ships, hands, rng, rolls)
        if kind == "deal" and state.apply(action).view(None)["phase"] == "stage":  # the ships dealt: the hands
            for hand in hands:
                hand += [deck.pop() for _ in range(hand_size(players))]
        script.append(action)
        state = state.apply(action)
    return script, {"first player": 0, **parts}


def _decide(state, view, kind, deck, ships, hands, rng, rolls):
    legal = state.legal_actions()
    seat = view["seat"]
    if kind == "first":
        return {"type": "first", "seat": FIRST}
    if kind in ("deal", "harbour"):
        offered = {a["ship"] for a in legal}
        return {"type": "deal", "ship": next(s for s in ships if s in offered)}
    if kind == "die":
        return rolls.choice(legal) if rolls else {"type": "die", "value": rng.randint(1, 6)}
    if kind == "stage_hand":
        red = [k for k in hands[seat] if is_red(k)]
        if not red:
            return {"type": "no_red"}
        hands[seat].remove(red[0])
        return rng.choice([a for a in legal if a.get("card") == red[0]])
    if kind == "draw":
        card = deck.pop()
        if is_red(card):
            return {"type": "draw", "card": card}
        hands[seat].append(card)
        return {"type": "draw", "card": "hidden"}
    if kind == "choose":
        strike = rng.random() < AIR_STRIKES
        return {"type": "choose", "turn": "air_strike" if strike else "draw"}
    if kind == "play":
        hand = hands[seat]
        plays = [a for a in legal if a["type"] == "play" and a["card"] in hand]
        salvos = [a for a in plays if a["card"].startswith("salvo")]
        action = rng.choice(salvos or plays) if plays else {"type": "discard", "card": rng.choice(hand)}
        hand.remove(action["card"])
        return action
    return rng.choice(legal)  # a red card's target, a strike's, a squadron's fleet, a ship it sinks

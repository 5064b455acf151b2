"""Naval War card accounting: the conservation check and the odds of the next draw.

What the companion knows of hidden cards: the drawing pile and the hands are
counts; a hand is known to be all black once its owner's first turn has played
its red cards; a hand thrown away by an eliminated player is discarded unseen.
The red cards not yet seen are therefore spread evenly over the drawing pile
and the hidden cards that may still be red; the black ones over every hidden
position.  That gives the odds of the next draw exactly.
"""

from __future__ import annotations

from companion.games.navalwar.data import CALIBRES, Composition, card_type, salvo_calibre
from companion.games.navalwar.table import hidden_split, placed_cards, unseen_by_colour


def conservation_problems(d: dict, comp: Composition) -> list[str]:
    """Every way the table breaks card conservation; empty when all is well.

    Each ship card is in exactly one of: harbour, a fleet, a sunk pile.  Each
    action card is in exactly one place: the face-up places add up to what
    has been seen, and the unseen cards fill the drawing pile, the hands and
    the unseen part of the discard pile exactly, red ones never where only
    black cards can be.
    """
    t = d["table"]
    problems = []
    places = [*t["harbour"]]
    for fleet in t["fleets"]:
        places += [e["id"] for e in fleet]
    for sunk in t["sunk"]:
        places += sunk
    expected = sorted(s.id for s in comp.ships)
    if sorted(places) != expected:
        doubled = sorted({s for s in places if places.count(s) > 1})
        missing = sorted(set(expected) - set(places))
        problems.append(f"ship cards out of place: doubled {doubled}, missing {missing}")
    placed = placed_cards(t)
    seen = {k: v for k, v in t["seen"].items() if v}
    if placed != seen:
        problems.append(f"face-up cards {placed} differ from the cards seen {seen}")
    for key, count in comp.actions:
        if seen.get(key, 0) > count:
            problems.append(f"{key}: {seen[key]} seen but the deck holds {count}")
    unknown_keys = set(seen) - set(comp.counts)
    if unknown_keys:
        problems.append(f"cards not in the deck: {sorted(unknown_keys)}")
    red, black = unseen_by_colour(t, comp)
    known_black, any_colour = hidden_split(t)
    hidden = t["draw"] + known_black + any_colour
    if red + black != hidden:
        problems.append(f"{red + black} cards unseen but {hidden} hidden (pile, hands, unseen discards)")
    if black < known_black:
        problems.append(f"{known_black} hidden cards are black but only {black} black cards are unseen")
    if t["draw"] < 0 or any(not 0 <= h["unknown"] <= h["n"] for h in t["hands"]):
        problems.append("a negative pile or hand count")
    return problems


def next_draw_odds(state_or_data, comp: Composition | None = None) -> dict:
    """Probabilities for the top card of the drawing pile.

    `{"red": p, "salvo": {calibre: p}, "cards": {key: p}}`; all zero when the
    pile is empty.  Accepts a `NavalWarState` or its JSON with the composition.
    """
    if comp is None:
        comp = state_or_data.composition
        d = state_or_data.to_json()
    else:
        d = state_or_data
    t = d["table"]
    red, black = unseen_by_colour(t, comp)
    _, any_colour = hidden_split(t)
    may_be_red = t["draw"] + any_colour
    if t["draw"] <= 0 or may_be_red <= 0:
        return {"red": 0.0, "salvo": {c: 0.0 for c in CALIBRES}, "cards": {}}
    p_red = red / may_be_red
    cards = {key: (comp.counts[key] - t["seen"].get(key, 0)) / may_be_red for key in comp.red_keys}
    salvo = dict.fromkeys(CALIBRES, 0.0)
    for key in comp.black_keys:
        cards[key] = (1 - p_red) * (comp.counts[key] - t["seen"].get(key, 0)) / black if black else 0.0
        if card_type(key) == "salvo":
            salvo[salvo_calibre(key)] += cards[key]
    return {"red": p_red, "salvo": salvo, "cards": cards}

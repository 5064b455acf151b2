"""Naval War choice panels (no window): every legal action is reachable by its
path of choices, and every button leads only to legal actions."""

from __future__ import annotations

import random

from companion import i18n
from companion.play import registry
from companion.games.navalwar.data import default_composition, reduced_counts
from companion.games.navalwar.choices import ChoiceTree, Labeller


def tr(key, **values):
    return i18n.translate(key, "ja", **values)


def tree_for(state, names):
    view = state.view(None)
    catalogue = {s.id: s.to_json() for s in state.composition.ships}
    actions = state.legal_actions()
    return actions, ChoiceTree(actions, Labeller(view, names, catalogue).paths(actions))


def walk(tree, prefix=()):
    """Every action reachable by tapping through the panels from `prefix`."""
    found = []
    prefix = tree.descend(list(prefix))
    for choice in tree.choices(prefix):
        label = choice.label.render(tr)
        assert label and not label.startswith("navalwar"), choice
        if choice.action is not None:
            found.append(choice.action)
        else:
            found += walk(tree, prefix + [choice.id])
    return found


def test_every_legal_action_has_one_path_and_only_legal_ones_are_offered():
    game = registry.get("navalwar")
    rng = random.Random(7)
    for players, divisor in ((3, 6), (9, 3)):
        deck = {"counts": reduced_counts(default_composition(), divisor)}
        state = game.new_state(game.options({"players": players, "target": 30, "deck": deck}))
        names = [f"P{i}" for i in range(players)]
        steps = 0
        while not state.is_over() and steps < 250:
            actions, tree = tree_for(state, names)
            reachable = walk(tree)
            assert sorted(map(repr, reachable)) == sorted(map(repr, actions))
            for action in rng.sample(actions, min(3, len(actions))):
                path = tree.path_of(action)
                assert tree.choices(path[:-1])  # the last step is a button on its panel
            state = state.apply(rng.choice(actions))
            steps += 1


def test_a_salvo_offers_only_calibres_afloat_and_targets_that_can_be_hit():
    game = registry.get("navalwar")
    state = game.new_state(game.options({"players": 3}))
    state = state.apply({"type": "first", "seat": 0})
    deal = ["ship-yamato", "ship-akagi", "ship-hood", "ship-iowa", "ship-ise",
            "ship-nagato", "ship-enterprise", "ship-bismarck", "ship-fuso", "ship-roma",
            "ship-kongo", "ship-hiei", "ship-texas", "ship-lutzow", "ship-scheer"]
    for ship in deal:
        state = state.apply({"type": "deal", "ship": ship})
    for _ in range(3):
        state = state.apply({"type": "no_red"})
    state = state.apply({"type": "choose", "turn": "draw"}).apply({"type": "draw", "card": "hidden"})  # seat 0 has carriers: choose first
    names = ["A", "B", "C"]
    _, tree = tree_for(state, names)
    top = {c.id for c in tree.choices([])}
    assert "type:salvo" not in top and "discard" in top  # salvos to play are listed at once
    calibres = {c for c in top if c.startswith("card:salvo")}
    assert calibres and all(c.split("-")[1] in {"18", "15", "16", "14"} for c in calibres)
    targets = [c.label.render(tr) for c in tree.choices(["card:salvo-18-4"])]
    assert targets and not any(label.startswith("A:") for label in targets)  # never your own
    assert not any("Enterprise" in label for label in targets)  # the carrier is screened

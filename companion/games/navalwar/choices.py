"""Naval War: the engine's legal actions as a short sequence of labelled choices.

Each legal action gets a *path*: the buttons a person taps to enter it, e.g.
salvo card -> which salvo -> target ship.  `ChoiceTree` groups the actions by
path, so a panel shows only the next step's distinct choices, and every
button leads only to legal actions.  No Kivy here: labels are `Text`s (message keys),
said in each renderer's own language.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.i18n import NO_BREAK
from companion.games.navalwar.data import RED_TYPES, card_type, card_value, salvo_calibre
from companion.play.controller import Text

Step = tuple[str, Text]  # (id, label)


def unit(name: str) -> str:
    """A name kept whole on its line: its spaces no-break (a line breaks between units)."""
    return name.replace(" ", NO_BREAK)


def plain(text) -> Text:
    """Words that are the same in every language (a name, a number)."""
    return Text("navalwar_ui.plain", {"text": str(text)})


def salvo_short(key: str) -> Text:
    """A salvo card among the others listed at once: "16″・3" (calibre, hits)."""
    return Text("navalwar_ui.salvo_short", {"calibre": salvo_calibre(key), "value": card_value(key)})


def card_text(key: str) -> Text:
    """A card as people call it: "射撃 16インチ・3打撃", "機雷 2", "煙幕"."""
    kind = card_type(key)
    if kind == "salvo":
        return Text("navalwar.card.salvo", {"calibre": salvo_calibre(key), "value": card_value(key)})
    name = Text(f"navalwar.card_type.{kind}")
    if kind in ("additional_damage", "minefield"):
        return Text("navalwar.card.valued", {"name": name, "value": card_value(key)})
    return name


def gun_text(ship: dict) -> Text | str:
    return Text("navalwar_ui.carrier_short") if ship["carrier"] else f"{ship['calibre']}″"


def ship_text(ship: dict) -> Text:
    """A ship card: name, calibre (or carrier) and defence."""
    return Text("navalwar_ui.ship_label", {"name": ship["name"], "gun": gun_text(ship), "defence": ship["defence"]})


def entered(labels: list[Text]) -> Text:
    """An entry said after it was made: its steps joined by "→", each ship named without
    the damage it had before (the panel's "Ben: Musashi (2/9)" is out of date once the hit
    is in)."""
    said = [_undamaged(label) for label in labels]
    text = said[0]
    for step in said[1:]:
        text = Text("navalwar_ui.then", {"first": text, "then": step})
    return text


def _undamaged(label: Text) -> Text:
    if label.key == "navalwar_ui.ship_target":
        return Text("navalwar_ui.ship_named", {"player": label.params["player"], "name": label.params["name"]})
    return Text(label.key, {k: _undamaged(v) if isinstance(v, Text) else v for k, v in label.params.items()})


@dataclass
class Labeller:
    """Turns actions into paths, given the public view and the players' names."""

    view: dict
    names: list[str]
    catalogue: dict  # ship id -> ship dict (every ship card)

    def __post_init__(self):
        self.owner = {s["id"]: f["seat"] for f in self.view["fleets"] for s in f["ships"]}
        self.afloat = {s["id"]: s for f in self.view["fleets"] for s in f["ships"]}

    def ship_target(self, ship_id: str) -> Text:
        ship = self.afloat[ship_id]
        return Text("navalwar_ui.ship_target", {"player": self.names[self.owner[ship_id]], "name": ship["name"],
                                                "hits": ship["hits"], "defence": ship["defence"]})

    def _card_steps(self, key: str, keys_of_type: dict[str, set], direct: bool = False) -> list[Step]:
        """The card, after its type when several cards of that type are offered (salvos to
        play: listed at once, `direct`, as most turns play one; a red card always: one
        touch names it, "機雷 2", and the next its target)."""
        kind = card_type(key)
        if direct and kind == "salvo":
            return [(f"card:{key}", salvo_short(key))]
        card = (f"card:{key}", card_text(key))
        if len(keys_of_type.get(kind, ())) > 1 and kind not in RED_TYPES:
            return [(f"type:{kind}", Text(f"navalwar.card_type.{kind}")), card]
        return [card]

    def _target(self, action: dict) -> list[Step]:
        if "salvo" in action:
            ship = self.afloat[action["ship"]]
            salvo = ship["salvos"][action["salvo"]]
            extra = "".join(f"+{card_value(k)}" for k in salvo["extra"])
            text = Text("navalwar_ui.salvo_target", {"target": self.ship_target(action["ship"]),
                                                     "card": card_text(salvo["card"]), "extra": extra})
            return [(f"ship:{action['ship']}#{action['salvo']}", text)]
        if "ship" in action:
            return [self._ship_step(action["ship"])]
        if "squadron" in action:
            return [(f"squadron:{action['squadron']}", self.squadron(action["squadron"]))]
        if "fleet" in action:
            return [self._fleet_step(action["fleet"])]
        return []

    def _ship_step(self, ship) -> Step:
        return (f"ship:{ship}", self.ship_target(ship))

    def _fleet_step(self, seat: int) -> Step:
        return (f"fleet:{seat}", Text("navalwar_ui.fleet_of", {"name": self.names[seat]}))

    def squadron(self, n: int) -> Text:
        owner = next(q["owner"] for q in self.view["squadrons"] if q["n"] == n)
        return Text("navalwar_ui.squadron", {"n": n, "name": unit(self.names[owner])})

    def paths(self, actions: list) -> list[list[Step]]:
        """The path of each action; a card type gets its own step when it offers several cards."""
        plays: dict[str, set] = {}  # card type -> keys offered (to play, or drawn)
        discards: dict[str, set] = {}
        for a in actions:
            if a["type"] in ("play", "draw", "discard") and a["card"] != "hidden":
                group = discards if a["type"] == "discard" else plays
                group.setdefault(card_type(a["card"]), set()).add(a["card"])
        return [self.path(a, plays, discards) for a in actions]

    def path(self, action: dict, plays: dict, discards: dict) -> list[Step]:
        kind = action["type"]
        if kind == "play":
            return self._card_steps(action["card"], plays, direct=True) + self._target(action)
        if kind == "discard":
            if _is_red_step(f"card:{action['card']}"):  # it cannot be played: one button says so
                return [(f"card:{action['card']}", Text("navalwar_ui.red_discard", {"card": card_text(action["card"])}))]
            return [("discard", Text("navalwar.action.discard"))] + self._card_steps(
                action["card"], discards)
        if kind == "draw":
            if action["card"] == "hidden":
                return [("hidden", Text("navalwar.action.hidden"))]
            return self._card_steps(action["card"], plays)
        if kind == "no_red":
            return [("no_red", Text("navalwar.action.no_red"))]
        if kind == "choose":
            return [(action["turn"], Text(f"navalwar.action.{action['turn']}"))]
        if kind == "first":
            return [(f"seat:{action['seat']}", plain(self.names[action["seat"]]))]
        if kind == "deal":
            return [(f"ship:{action['ship']}", ship_text(self.catalogue[action["ship"]]))]
        if kind == "die":
            return [(f"die:{action['value']}", plain(action["value"]))]
        if kind in ("strike", "sink"):
            return [self._ship_step(action["ship"])]
        if kind == "attack":
            return [self._fleet_step(action["fleet"])]
        raise ValueError(f"no label for Naval War action {action!r}")


def target_of(step_id: str) -> tuple[str, object] | None:
    """("ship", id) or ("fleet", seat) for a step naming one ship or fleet (as the fleet
    panel shows them), else None."""
    kind, _, rest = step_id.partition(":")
    if kind == "ship" and "#" not in rest:
        return "ship", rest
    if kind == "fleet":
        return "fleet", int(rest)
    return None


@dataclass(frozen=True)
class Choice:
    """One button: its id, label, and the action it plays (None: it opens a next step)."""

    id: str
    label: Text
    action: object = None
    red: bool = False


class ChoiceTree:
    """Legal actions grouped by their paths; `choices(prefix)` lists the next step."""

    def __init__(self, actions: list, paths: list[list[Step]]):
        self.entries = list(zip(paths, actions))

    def _under(self, prefix: list[str]):
        n = len(prefix)
        return [(p, a) for p, a in self.entries if [s[0] for s in p[:n]] == prefix]

    def descend(self, prefix: list[str]) -> list[str]:
        """`prefix` extended while a step offers one choice that is not yet an action."""
        prefix = list(prefix)
        while True:
            choices = self.choices(prefix)
            if len(choices) != 1 or choices[0].action is not None:
                return prefix
            prefix.append(choices[0].id)

    def choices(self, prefix: list[str]) -> list[Choice]:
        n = len(prefix)
        seen: dict[str, Choice] = {}
        for path, action in self._under(prefix):
            step_id, label = path[n]
            leaf = len(path) == n + 1
            if step_id not in seen:
                red = step_id.startswith(("type:", "card:")) and _is_red_step(step_id)
                seen[step_id] = Choice(step_id, label, action if leaf else None, red)
        return list(seen.values())

    def labels(self, prefix: list[str]) -> list[Text]:
        """The labels of the steps chosen so far."""
        path = next(p for p, _ in self._under(prefix))
        return [label for _, label in path[:len(prefix)]]

    def path_of(self, action) -> list[str]:
        """The step ids that enter `action` (for tests and replays)."""
        return next([s[0] for s in p] for p, a in self.entries if a == action)


def _is_red_step(step_id: str) -> bool:
    key = step_id.split(":", 1)[1]
    return card_type(key) in RED_TYPES

"""Naval War card data: the composition of the deck, a user override, and the deck count.

The packaged composition is `companion/games/navalwar/composition.yaml`.  A user file of the
same form overrides it section by section (`ships:`, `actions:`), and its
`counts:` mapping corrects single entries (an action card key or a ship id ->
how many the box holds), which is what an incomplete old copy needs.

Action cards are named by a *card key*: `salvo-14-2`, `minefield-1`,
`additional_damage-2`, `torpedo_boat`, `smoke`, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Mapping

from companion import i18n, userfile
from companion.errors import CompanionError

PACKAGED = Path(__file__).resolve().parent / "composition.yaml"
MAX_NUMBER = 999  # a box holds 162 cards: any count, value or defence beyond is a typo
DECK_FILE = userfile.Kind("files.what_deck", max_bytes=256 * 1024, max_number=MAX_NUMBER)

CALIBRES = ("11", "12.6", "14", "15", "16", "18")
RED_TYPES = ("additional_ship", "additional_damage", "torpedo_boat", "submarine", "minefield")
BLACK_TYPES = ("salvo", "minesweeper", "repair", "smoke", "destroyer_squadron")
VALUED_TYPES = ("salvo", "additional_damage", "minefield")  # keys carry a value


def card_key(card_type: str, calibre: str | None = None, value: int | None = None) -> str:
    """The key of an action card: `salvo-16-3`, `minefield-2`, `smoke`."""
    parts = [card_type]
    if card_type == "salvo":
        parts.append(str(calibre))
    if card_type in VALUED_TYPES:
        parts.append(str(value))
    return "-".join(parts)


def card_type(key: str) -> str:
    return key.split("-", 1)[0]


def card_value(key: str) -> int:
    """The hits of a salvo, additional damage or minefield key."""
    return int(key.rsplit("-", 1)[1])


def salvo_calibre(key: str) -> str:
    return key.split("-")[1]


def is_red(key: str) -> bool:
    return card_type(key) in RED_TYPES


@dataclass(frozen=True)
class Ship:
    """One ship card.  `defence` is the hits that sink it and the points it scores."""

    id: str
    name: str
    nation: str
    calibre: str | None  # None for carriers (no guns)
    defence: int
    carrier: bool

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "nation": self.nation,
                "calibre": self.calibre, "defence": self.defence, "carrier": self.carrier}


@dataclass(frozen=True)
class Composition:
    """The cards of one physical copy: ship cards and action card counts by key."""

    ships: tuple[Ship, ...]
    actions: tuple[tuple[str, int], ...]  # (card key, count), in deck order
    ship_by_id: dict[str, Ship] = field(init=False, compare=False, repr=False)
    counts: dict[str, int] = field(init=False, compare=False, repr=False)
    red_keys: tuple[str, ...] = field(init=False, compare=False, repr=False)
    black_keys: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ship_by_id", {s.id: s for s in self.ships})
        object.__setattr__(self, "counts", dict(self.actions))
        object.__setattr__(self, "red_keys", tuple(k for k, _ in self.actions if is_red(k)))
        object.__setattr__(self, "black_keys", tuple(k for k, _ in self.actions if not is_red(k)))

    def __hash__(self) -> int:
        return hash((self.ships, self.actions))

    @property
    def total_actions(self) -> int:
        return sum(n for _, n in self.actions)

    def to_json(self) -> dict:
        """The full plain form; a valid `deck` option and user file."""
        return {"ships": [s.to_json() for s in self.ships], "actions": dict(self.actions)}



class DeckError(CompanionError, ValueError):
    """A mistake in a card file or `deck` option, as a message key of
    companion/games/navalwar/locale.yaml (navalwar_deck:) and its values (`where`: the file or option,
    `entry`: the entry); `str()` is the English text."""

    def __init__(self, problem: str, **params):
        self.key, self.params = f"navalwar_deck.{problem}", params
        super().__init__(i18n.translate(self.key, "en", **params))


def _fail(where: str, key: str, problem: str, **values) -> DeckError:
    return DeckError(problem, where=where, entry=key, **values)


def _ship(entry: Any, where: str, key: str) -> Ship:
    if not isinstance(entry, Mapping):
        raise _fail(where, key, "ship_mapping")
    missing = {"id", "name", "calibre", "defence", "carrier"} - set(entry)
    if missing:
        raise _fail(where, key, "ship_missing", missing=sorted(missing))
    carrier = entry["carrier"]
    calibre = None if entry["calibre"] is None else str(entry["calibre"])
    if not isinstance(carrier, bool):
        raise _fail(where, key, "carrier_bool")
    if carrier != (calibre is None):
        raise _fail(where, key, "carrier_calibre")
    if calibre is not None and calibre not in CALIBRES:
        raise _fail(where, key, "calibre", calibre=repr(calibre), calibres=list(CALIBRES))
    defence = entry["defence"]
    if not isinstance(defence, int) or isinstance(defence, bool) or defence < 1:
        raise _fail(where, key, "defence")
    return Ship(str(entry["id"]), str(entry["name"]), str(entry.get("nation", "")),
                calibre, defence, carrier)


def _action_key(entry: Any, where: str, key: str) -> str:
    if not isinstance(entry, Mapping) or "type" not in entry:
        raise _fail(where, key, "action_mapping")
    kind = entry["type"]
    if kind not in RED_TYPES + BLACK_TYPES:
        raise _fail(where, key, "type", type=repr(kind), types=sorted(RED_TYPES + BLACK_TYPES))
    calibre = entry.get("calibre")
    if kind == "salvo" and str(calibre) not in CALIBRES:
        raise _fail(where, key, "salvo_calibre", calibres=list(CALIBRES))
    value = entry.get("value")
    if kind in VALUED_TYPES and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise _fail(where, key, "value", type=kind)
    return card_key(kind, None if calibre is None else str(calibre), value)


def _count(value: Any, where: str, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(where, key, "count")
    return value


def _parse_key(key: str, where: str) -> str:
    """Check a card key such as `salvo-14-2` by rebuilding it."""
    parts = str(key).split("-")
    entry: dict[str, Any] = {"type": parts[0]}
    try:
        if parts[0] == "salvo":
            entry.update(calibre=parts[1], value=int(parts[2]))
        elif parts[0] in VALUED_TYPES:
            entry["value"] = int(parts[1])
    except (IndexError, ValueError):
        raise _fail(where, str(key), "card_key") from None
    if _action_key(entry, where, str(key)) != key:
        raise _fail(where, str(key), "card_key")
    return key


def _from_plain(data: Mapping, where: str) -> Composition:
    ships_raw = data.get("ships")
    if not isinstance(ships_raw, list) or not ships_raw:
        raise _fail(where, "ships", "ships_list")
    ships = tuple(_ship(e, where, f"ships[{i}]") for i, e in enumerate(ships_raw))
    seen: set[str] = set()
    for ship in ships:
        if ship.id in seen:
            raise _fail(where, f"ships {ship.id}", "ship_twice")
        seen.add(ship.id)
    raw = data.get("actions")
    actions: dict[str, int] = {}
    if isinstance(raw, list):
        for i, entry in enumerate(raw):
            k = _action_key(entry, where, f"actions[{i}]")
            actions[k] = actions.get(k, 0) + _count(entry.get("count"), where, f"actions[{i}].count")
    elif isinstance(raw, Mapping):
        for k, n in raw.items():
            actions[_parse_key(k, where)] = _count(n, where, f"actions.{k}")
    else:
        raise _fail(where, "actions", "actions_list")
    return Composition(ships, tuple(actions.items()))


def _apply_counts(comp: Composition, counts: Any, where: str) -> Composition:
    if not isinstance(counts, Mapping):
        raise _fail(where, "counts", "counts_mapping")
    ships = list(comp.ships)
    actions = dict(comp.actions)
    for key, n in counts.items():
        n = _count(n, where, f"counts.{key}")
        if key in comp.ship_by_id:
            if n > 1:
                raise _fail(where, f"counts.{key}", "ship_unique")
            if n == 0:
                ships = [s for s in ships if s.id != key]
        else:
            actions[_parse_key(key, where + ": counts")] = n
    return Composition(tuple(ships), tuple((k, v) for k, v in actions.items() if v))


def _read_yaml(path: Path) -> Mapping:
    """The file's mapping, through the guard of every file a person hands the app (a regular
    file, UTF-8 or Shift-JIS, no key twice, no count beyond MAX_NUMBER): `FileRefused`."""
    data = userfile.load_yaml(path, DECK_FILE)
    if not isinstance(data, Mapping):
        raise DeckError("top", where=str(path))
    return data


@cache
def default_composition() -> Composition:
    """The composition shipped with the package (54 ships, 108 action cards)."""
    return _from_plain(_read_yaml(PACKAGED), str(PACKAGED))


def override(data: Mapping, where: str) -> Composition:
    """The packaged composition overridden by `data` (the form of a user file).

    `ships:` and `actions:` replace those sections; `counts:` then corrects
    single entries.  Also the form of the game's `deck` option.
    """
    if not isinstance(data, Mapping):
        raise DeckError("top", where=where)
    unknown = set(data) - {"ships", "actions", "counts"}
    if unknown:
        raise _fail(where, sorted(map(str, unknown))[0], "section")
    plain = default_composition().to_json()
    plain.update({k: data[k] for k in ("ships", "actions") if k in data})
    comp = _from_plain(plain, where)
    if "counts" in data:
        comp = _apply_counts(comp, data["counts"], where)
    return comp


def load_composition(path: str | Path | None = None) -> Composition:
    """The packaged composition, overridden by the user file at `path` if given.

    Raises `CompanionError` naming the file and the key on any mistake.
    """
    if path is None:
        return default_composition()
    return override(_read_yaml(Path(path)), str(path))


def reduced_counts(comp: Composition, divisor: int) -> dict[str, int]:
    """`counts:` for a short deck: every action card count divided (rounded up).

    Used for quick test games; every kind of card stays in the deck.
    """
    return {k: -(-n // divisor) for k, n in comp.actions}


def count_check(comp: Composition, counted: Mapping[str, int]) -> list[dict]:
    """Differences between a physical count and the composition.

    `counted` maps card keys (and, optionally, ship ids) to how many were
    found; a key left out of `counted` counts as 0 for action cards and is
    not checked for ships unless some ship id is present.  Returns one
    `{"card", "expected", "counted"}` per difference, in deck order.
    """
    expected: dict[str, int] = dict(comp.actions)
    if any(k in comp.ship_by_id for k in counted):
        expected.update({s.id: 1 for s in comp.ships})
    diffs = [{"card": k, "expected": n, "counted": int(counted.get(k, 0))}
             for k, n in expected.items() if int(counted.get(k, 0)) != n]
    diffs += [{"card": k, "expected": 0, "counted": int(n)}
              for k, n in counted.items() if k not in expected and int(n) != 0]
    return diffs

"""When a 九九戦艦 attack ends the game (docs/rules.md §kuku, "The end")."""

from __future__ import annotations

from enum import StrEnum

from companion.play.state import Outcome


class Ending(StrEnum):
    """How a game ends (its `Outcome.reason`)."""

    FLEET_SUNK = "fleet_sunk"  # the attacker sank the last of the other fleet
    SELF_DESTRUCT = "self_destruct"  # the attacker's own last ship went down with its attack
    BOTH_SUNK_ATTACKER_WINS = "both_sunk_attacker_wins"  # both gone, the extra rule
    BOTH_SUNK_LEADER_WINS = "both_sunk_leader_wins"  # both gone, the last ship a leader wins
    BOTH_SUNK_SAME_KIND = "both_sunk_same_kind"  # both gone, last ships alike: a draw


def end_of_attack(
    rule: str, attacker: int, remaining: tuple[int, int], leader_in_final: tuple[bool, bool] | None = None
) -> Outcome | None:
    """The outcome once every cell of one attack is resolved, or None if play goes on.

    `remaining` counts each seat's ships afloat after the attack.  When both
    fleets are gone, the basic rule compares the *last ships*: the set each
    side lost to this final attack counts as a leader if its leader is in it
    (`leader_in_final`, needed only then); the extra rule gives the attacker
    the win.
    """
    opponent = 1 - attacker
    if remaining[attacker] and remaining[opponent]:
        return None
    if remaining[attacker]:
        return _win(attacker, Ending.FLEET_SUNK)
    if remaining[opponent]:
        return _win(opponent, Ending.SELF_DESTRUCT)
    if rule == "extra":
        return _win(attacker, Ending.BOTH_SUNK_ATTACKER_WINS)
    if leader_in_final is None:
        raise ValueError("the basic rule needs to know whose last ship was the leader")
    if leader_in_final[0] == leader_in_final[1]:
        return Outcome(None, Ending.BOTH_SUNK_SAME_KIND, (0.5, 0.5))
    return _win(0 if leader_in_final[0] else 1, Ending.BOTH_SUNK_LEADER_WINS)


def _win(seat: int, reason: Ending) -> Outcome:
    return Outcome(seat, reason, (1.0, 0.0) if seat == 0 else (0.0, 1.0))

"""Refusals are message keys with values, translated in both languages; garbage never
escapes a rules call as anything but `Refused` (a ValueError too)."""

import ast
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.i18n import LANGUAGES, catalog, translate
from companion.play.registry import games
from companion.play.state import Refused

PACKAGE = Path(__file__).resolve().parents[2] / "companion"


def raised_keys():
    """(file:line, key or key prefix, is_prefix, its value names) of every Refused("key", ...)."""
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refused" and node.args:
                first = node.args[0]
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                names = [k.arg for k in node.keywords]
                if isinstance(first, ast.Constant):
                    yield where, first.value, False, names
                elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                    yield where, first.values[0].value, True, names
                else:
                    yield where, None, False, names


def test_every_refusal_is_a_key_with_both_languages_and_its_values_fill_it():
    found = list(raised_keys())
    assert len(found) > 50
    for where, key, is_prefix, names in found:
        assert key, f"{where}: Refused needs a literal message key"
        domain, _, name = key.partition(".")
        entries = catalog(domain)
        matching = [n for n in entries if n.startswith(name)] if is_prefix else [name]
        assert matching, f"{where}: no message {key!r}"
        for entry in matching:
            assert set(entries.get(entry, {})) >= set(LANGUAGES), f"{where}: {domain}.{entry} lacks a language"
            for lang in LANGUAGES:
                text = translate(f"{domain}.{entry}", lang, **{n: "x" for n in names})  # a missing value raises
                assert "{" not in text.replace("{{", "").replace("}}", ""), f"{where}: {text!r}"


def test_a_refusal_speaks_both_languages_and_is_a_value_error():
    with pytest.raises(ValueError) as refused:
        games()["uttt"].new_state().apply(81)
    error = refused.value
    assert isinstance(error, Refused) and error.key == "uttt_errors.not_a_move"
    assert "81" in error.text("ja") and "0〜80 のマス" in error.text("ja")
    assert str(error) == error.text("en") and "a cell 0..80" in str(error)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def states_along(name, options, seed, steps):
    """States of a seeded random playout of `name`, every `steps`-th."""
    game, rng = games()[name], random.Random(seed)
    state = game.new_state(options)
    for i in range(400):
        if i % steps == 0:
            yield state
        if state.is_over():
            return
        state = state.apply(rng.choice(state.legal_actions()))


POSITIONS = [state for name, game in games().items() for options in game.sample_options
             for state in states_along(name, options, 7, 25)]


def mutated(action, value, how: int, field: str):
    """A legal action bent: one field replaced, removed or added, or the whole replaced."""
    if isinstance(action, dict) and action:
        bent = dict(action)
        key = sorted(bent)[how % len(bent)]
        if how % 3 == 0:
            bent[key] = value
        elif how % 3 == 1:
            del bent[key]
        else:
            bent[field] = value
        return bent
    return value


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(POSITIONS), json_values, st.integers(0, 1000), st.text(max_size=5))
def test_garbage_is_refused_as_illegal_and_nothing_else(state, value, how, field):
    legal = state.legal_actions()
    action = mutated(legal[how % len(legal)] if legal else value, value, how, field)
    before = state.to_json()
    try:
        state.apply(json.loads(json.dumps(action)))
    except Refused as error:
        assert error.text("ja") != error.key and error.text("en") != error.key
        assert state.to_json() == before
    else:
        assert json.loads(json.dumps(action)) in legal


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(name for name, game in games().items() if game.default_options)),
       st.integers(0, 100), json_values)
def test_bad_options_are_refused_as_illegal_and_nothing_else(name, which, value):
    game = games()[name]
    key = sorted(game.default_options)[which % len(game.default_options)]
    try:
        game.new_state({key: value})
    except Refused as error:
        assert error.text("ja") != error.key


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(POSITIONS), json_values, st.integers(0, 1000), st.text(max_size=5))
def test_a_bent_saved_state_is_refused_as_illegal_and_nothing_else(state, value, how, field):
    data = mutated(json.loads(json.dumps(state.to_json())), value, how, field)
    game = games()[state.game]
    try:
        game.state_from_json(data)
    except Refused as error:
        assert error.text("ja") != error.key


BUILT_INS = {"ValueError", "KeyError", "TypeError", "RuntimeError", "IndexError", "LookupError", "Exception",
             "AssertionError"}
# Where a bare built-in is raised in what input reaches (games/, play/, seats/), and why no
# player's or phone's input gets there (so it is a programming error, not a refusal).
NOT_INPUT = {
    ("play/controller.py", "playing"): "read only where a game is on: the offers that lead there are made only then",
    ("games/navalwar/choices.py", "path"): "a label for an action the rules listed as legal",
    ("games/navalwar/moves.py", "options"): "a decision kind the flow itself names",
    ("games/battleship/ai.py", "act"): "the controller asks the computer only on its own turn",
    ("games/gunkan/controller.py", "on_weighing"): "the weighing is offered to the table only: the screen's tick",
    ("games/gunkan/weighplan.py", "scripted"): "tests' and the bench's simulated hand, bounded in simulated time",
    ("games/gunkan/table.py", "judge_identified"): "rules.py checks the pieces (SHIPS, PIECES) before asking",
    ("games/gunkan/table.py", "judge_seesaw"): "rules.py checks the comparison (COMPARISONS) before asking",
    ("games/uttt/ai.py", "search_move"): "the core asked for by name (tests, bench) is not built: the set-up, said how to fix",
    ("games/kuku/end.py", "end_of_attack"): "the rules ask whose last ship was the leader before both fleets end",
    ("games/kuku/ai.py", "act"): "the controller asks the computer only in referee mode",
    ("play/state.py", "evolve"): "a field the code names (a state is written only by its own methods)",
    ("play/session.py", "resume"): "caught three lines on, turned into UnreadableGame naming the game",
}


def bare_raises():
    """(path, function) of every `raise <built-in>(...)` under games/, play/ and seats/."""
    for part in ("games", "play", "seats"):
        for path in sorted((PACKAGE / part).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                            and getattr(node.exc.func, "id", None) in BUILT_INS:
                        yield str(path.relative_to(PACKAGE)), function.name


def test_no_bare_built_in_is_raised_where_input_reaches_but_for_a_stated_reason():
    """A player's or a phone's input is refused with `Refused` (its words in both languages);
    a bare ValueError/KeyError/... there is a programming error, listed with why no input
    gets to it.  A new one must be a `Refused`, or join the list with its reason."""
    unexplained = sorted(set(bare_raises()) - set(NOT_INPUT))
    assert not unexplained, f"raise Refused(key, ...) instead, or say why no input reaches: {unexplained}"

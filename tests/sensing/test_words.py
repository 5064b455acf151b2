"""The load cells' and terminal's messages come from the catalogs (companion/locale/sensing.yaml,
terminal.yaml), said in one language where it is known, in both where it is not (a log)."""

import io
import re
import tokenize
from pathlib import Path

import pytest

from companion import i18n
from companion.sensing.calibration import Calibrator, build_classes
from companion.sensing.pipeline import CalibrationError, NotStableError, Pipeline
from companion.sensing.source import Sample

ROOT = Path(__file__).resolve().parents[2] / "companion"
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


@pytest.mark.parametrize("path", sorted((ROOT / "sensing").glob("*.py")) + [ROOT / "terminal.py"],
                         ids=lambda path: path.name)
def test_no_message_is_written_out_in_the_code(path):
    """Words are in the catalogs: no string in the sensing code or the terminal commands
    holds Japanese (the inline "日本語 / English" messages once did)."""
    with path.open("rb") as source:
        strings = [token.string for token in tokenize.tokenize(source.readline) if token.type == tokenize.STRING]
    assert not [string for string in strings if CJK.search(string)]


def test_a_moving_pan_is_refused_in_either_language_and_both_in_a_log():
    pipeline = Pipeline(1)
    pipeline.feed([Sample(t=i / 80, channel=0, raw=(i % 2) * 50_000) for i in range(40)])
    with pytest.raises(NotStableError) as refused:
        pipeline.tare()
    assert i18n.said(refused.value, "ja") == "パン 0 が揺れています。手を離して静止させてから、もう一度どうぞ。"
    assert i18n.said(refused.value, "en") == "Pan 0 is moving: let go, wait until it is still, then try again."
    assert str(refused.value) == " / ".join(i18n.said(refused.value, lang) for lang in ("ja", "en"))


def test_calibration_steps_and_warnings_keep_their_words_for_each_language():
    steps = Calibrator(Pipeline(2), known_g=50).steps
    assert [step.prompt.text("en") for step in steps] == [
        "Empty both pans and let them settle.", "Put the 50 g mass on pan 0 only.", "Put the 50 g mass on pan 1 only."]
    assert steps[1].prompt.text("ja") == "50 g の分銅を皿 0 だけに載せてください。"
    report = build_classes({"light": [10.0, 10.1], "twin": [10.0, 10.1]})
    assert [w.text("ja") for w in report.warnings] == ["「light」と「twin」は重さで区別できません（判定は「light|twin」）。"]
    with pytest.raises(CalibrationError) as refused:
        build_classes({"alone": [5.0]})
    assert i18n.said(refused.value, "en") == "Weigh 'alone' at least twice (got 1)."


def test_said_leaves_other_things_their_own_words():
    assert i18n.said(ValueError("plain"), "ja") == "plain"
    assert i18n.said("text", "ja") == "text"
    assert i18n.said(i18n.Words("terminal.press_enter"), "en") == "  press Enter when ready: "

"""hardware/pieces.md agrees with the masses the judge expects (companion/games/gunkan/pieces.py)."""

import re
from pathlib import Path

from companion.games.gunkan import pieces

PAGE = Path(__file__).resolve().parents[2] / "hardware" / "pieces.md"


def page_table() -> dict[str, tuple[float, float]]:
    """{piece: (mass, tolerance)} from the page's first table (columns by header name)."""
    rows = [line for line in PAGE.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    name_col, mass_col, tol_col = header.index("piece"), header.index("mass (g)"), header.index("tolerance (g)")
    table = {}
    for row in rows[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if len(cells) != len(header) or not cells[name_col].startswith("`"):
            break  # the end of the first table
        table[cells[name_col].strip("`")] = (float(cells[mass_col]), float(cells[tol_col].lstrip("±")))
    return table


def test_page_lists_every_piece_with_the_judges_mass_and_spread():
    expected = {name: (c.mass_g, c.spread_g) for name, c in pieces.default_table().items()}
    assert page_table() == expected


def test_counterweight_balances_a_submarine_against_a_carrier():
    table = page_table()
    assert table["counterweight"][0] == table["carrier"][0] - table["submarine"][0]


def test_ranks_are_heavier_the_stronger_they_are():
    table = page_table()
    masses = [table[name][0] for name in pieces.SHIPS]  # strongest first
    assert masses == sorted(masses, reverse=True)
    assert min(table["mine"][0], table["port"][0]) > table["carrier"][0] + 2 * table["carrier"][1]


def test_neighbouring_classes_separate_at_the_documented_noise():
    """The page's rule, computed for every neighbouring pair the judge can meet: the free
    gap, less the scale error 2·e·m, stays above 6σ at the σ and e the page documents."""
    text = PAGE.read_text(encoding="utf-8")
    sigma = float(re.search(r"σ ≈ ([\d.]+) g per reading", text).group(1))
    error = float(re.search(r"keeps \*e\* under ([\d.]+) %", text).group(1)) / 100
    left, right = pieces.pan_classes(pieces.default_table())
    for classes in (left, right):
        ordered = sorted(classes, key=lambda c: c.mass_g)
        for lighter, heavier in zip(ordered, ordered[1:]):
            if heavier.mass_g == lighter.mass_g:  # by design: a submarine carrying the counterweight = a carrier
                assert {lighter.name, heavier.name} == {"carrier", "submarine+counterweight"}
                continue
            gap = heavier.low - lighter.high - 2 * error * heavier.mass_g
            assert gap > 6 * sigma, (lighter.name, heavier.name, gap)


def test_mines_and_the_port_are_said_to_be_weighed_in_identify_judging():
    """rules.md: identify judging weighs each pan and recognises the pieces, mines and the port too."""
    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "In identify mode it weighs each pan on its own, recognises the\npieces" in rules
    text = PAGE.read_text(encoding="utf-8")
    assert "never weighed" not in text
    mines = next(p for p in text.split("\n- ") if p.startswith("**Mines"))
    assert "weighed in *identify* judging" in mines and "declares them" in mines


def test_the_pause_is_said_as_the_model_echoes_it_for_every_slicer(tmp_path):
    """The roof's first layer starts at z = thickness - floor_roof: the pause comes before it."""
    import shutil
    import subprocess
    if shutil.which("openscad") is None:
        import pytest
        pytest.skip("openscad is not installed")
    model = PAGE.parent / "piece.scad"
    err = subprocess.run(["openscad", "-o", str(tmp_path / "p.csg"), str(model)], capture_output=True, text=True).stderr
    z, top, n, layer = re.search(r"starts at z = ([\d.]+) mm \(the roof's first, [\d.]+-([\d.]+) mm\): "
                                 r"after layer (\d+) of ([\d.]+) mm", err).groups()
    text = PAGE.read_text(encoding="utf-8")
    assert f"Slice with {float(layer):g} mm layers, **the first layer {float(layer):g} mm too**" in text
    assert f"**before the layer that starts at z = {float(z):g} mm**" in text
    assert f"the pause comes after layer {n}, the last that ends at {float(z):g} mm" in text
    assert f"the layer marked\n     **{float(top):.2f}**" in text  # PrusaSlicer and OrcaSlicer mark a layer by its top
    assert f"the preview's numbers, **{n}**" in text and f"first layer as 0, **{int(n) - 1}**" in text

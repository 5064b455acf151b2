"""What to put in each Gunkan Shogi piece, from the rendered model: writes the fill table in
pieces.md and the ballast quantities in bom.csv, for each set of masses (piecesets.py), with
each set's judge margins, whole bill and tungsten share.

    .venv/bin/python hardware/masses.py           # render piece.scad, write pieces.md and bom.csv
    .venv/bin/python hardware/masses.py --check   # the same, but only say where the files disagree

It renders hardware/piece.scad with OpenSCAD (the shell, the cavity and the counterweight's
cap), measures their volumes on the STL and the cavity's floor on its bottom faces, and then,
for every rank of every set, takes the first fill of FILLS that reaches the rank's mass
(piecesets.SETS; the standard set is companion/games/gunkan/pieces.py's) with the fill's
real bulk density in that cavity:

- shot packs by ball size: a 9.6 mm cavity takes two layers of 4.4 mm BBs, no more, so its
  bulk density is far below a big container's.  The script stacks the balls as densely as
  they go (close-packed layers, each ball inside the cavity's floor and below the fill line,
  the lattice shifted and turned for the most), then keeps RANDOM_SHARE of them: poured and
  settled balls reach random close packing, 0.64 of the space against 0.74 for the densest.
- tungsten putty is pressed in: its density as sold, no voids.

Every fill stays ROOF_CLEARANCE below the roof (piece.scad: so no fill props the roof up and
every rank's roof prints alike).  A rank no fill can reach, or a set whose ranks the judge
could not tell apart, is an error (exit status 1).

Measure, then fill (pieces.md says how): the numbers marked "measure" below are your own
materials': PLA (an empty shell's grams over its volume), each fill's density (and a shot's
diameter_mm) in FILLS, FELT_G and WASHER_G.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from companion.games.gunkan.pieces import COUNTERWEIGHT, COUNTERWEIGHT_SPREAD_G, DEFAULT_MASSES_G  # noqa: E402
from companion.games.gunkan.table import FLEET, PIECES  # noqa: E402
import piecesets  # noqa: E402  (hardware/piecesets.py)
import stlio  # noqa: E402  (hardware/stlio.py)

MODEL = HERE / "piece.scad"
PAGE = HERE / "pieces.md"
BOM = HERE / "bom.csv"

PLA = 1.24  # g/cm³, NatureWorks Ingeo 4043D data sheet (walls, floor and roof print solid); measure
STEEL = 7.85  # g/cm³, carbon steel
RANDOM_SHARE = 0.64 / 0.7405  # random close packing against the densest packing of spheres
ROOF_CLEARANCE = 1.0  # mm between the fill's top and the roof (piece.scad's roof_clearance)
MARGIN = 0.95  # a rank may use this share of a fill's capacity: room for a loose pour
FELT_G = 0.1  # a 20 mm self-adhesive felt pad under every piece; measure
TRIM_G = 0.3  # left for the tape in the back's recess: the builder fills 0.2-0.5 g short
WASHER_G = 1.83  # DIN 125-A M8, 8.4 x 16 x 1.6 mm, steel; measure
WASTE = 0.10  # bought on top of what a set needs: spills, a piece redone
COUNTS = {name: 2 * FLEET[name] for name in PIECES}  # in a set: both fleets


@dataclass(frozen=True)
class Fill:
    name: str  # as pieces.md and bom.csv name it
    bom_part: str  # the bill of materials' row
    unit: str  # "balls" or "g": what bom.csv counts
    diameter_mm: float = 0.0  # shot; 0 for a putty
    density: float = 0.0  # solid for shot, as pressed for putty; measure
    price_per_unit: float = 0.0  # rough USD
    look_for: str = ""

    @property
    def ball_g(self) -> float:
        return math.pi / 6 * self.diameter_mm ** 3 / 1000 * self.density


FILLS = (
    Fill("steel BBs 4.4 mm", "Steel BBs 4.5 mm (.177 cal), count", "balls", 4.4, STEEL, 0.004,
         "plain steel airgun BBs (copper or zinc plated), sold as 4.5 mm / .177, really 4.3-4.4 mm "
         "and 0.33-0.35 g each; packs of 1500 or more"),
    Fill("steel shot 1 mm", "Steel shot S-390 (1.0 mm), grams", "g", 1.0, STEEL, 0.01,
         "cast steel blasting shot S-390 (nominal 1.0 mm; S-330 at 0.85 mm also works), "
         "or 1 mm steel bearing balls; bags of 1 kg"),
    Fill("tungsten putty", "Tungsten putty, grams", "g", 0.0, 9.5, 0.35,
         "fishing tungsten putty (sinker putty) in 10-30 g tins, about 10 g/cm3; 9.5 assumed "
         "(a less dense brand still fits: measure one tin in a shell)"),
)


# ---- the model, rendered ----------------------------------------------------------------

def render(part: str, out_dir: Path) -> list[tuple]:
    """piece.scad's `part` as triangles ((x, y, z) * 3), rendered by OpenSCAD."""
    return stlio.triangles(stlio.export(MODEL, part, out_dir).read_text())


def volume_cm3(triangles) -> float:
    """The enclosed volume (signed tetrahedra from the origin)."""
    total = 0.0
    for (ax, ay, az), (bx, by, bz), (cx, cy, cz) in triangles:
        total += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6
    return total / 1000


@dataclass
class Floor:
    """The cavity's floor: its bottom faces, their outer edges, and the cavity's height."""

    triangles: list  # 2-D
    edges: list  # 2-D segments on the boundary
    height: float
    area_mm2: float

    @classmethod
    def of(cls, triangles) -> "Floor":
        zs = [p[2] for t in triangles for p in t]
        bottom = min(zs)
        flat = [tuple(p[:2] for p in t) for t in triangles if all(abs(p[2] - bottom) < 1e-6 for p in t)]
        count: dict = {}
        for t in flat:
            for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
                key = tuple(sorted((tuple(round(v, 5) for v in a), tuple(round(v, 5) for v in b))))
                count[key] = count.get(key, 0) + 1
        edges = [key for key, n in count.items() if n == 1]
        area = sum(abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2 for a, b, c in flat)
        return cls(flat, edges, max(zs) - bottom, area)

    def inside(self, x: float, y: float) -> bool:
        for a, b, c in self.triangles:
            d1 = (x - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (y - b[1])
            d2 = (x - c[0]) * (b[1] - c[1]) - (b[0] - c[0]) * (y - c[1])
            d3 = (x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y - a[1])
            if not ((d1 < 0 or d2 < 0 or d3 < 0) and (d1 > 0 or d2 > 0 or d3 > 0)):
                return True
        return False

    def clear(self, x: float, y: float, r: float) -> bool:
        """A ball of radius r centred over (x, y) lies on the floor without touching a wall."""
        if not self.inside(x, y):
            return False
        for (ax, ay), (bx, by) in self.edges:
            dx, dy = bx - ax, by - ay
            t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
            if math.hypot(x - ax - t * dx, y - ay - t * dy) < r:
                return False
        return True


def most_balls(floor: Floor, diameter: float, top: float) -> tuple[int, int]:
    """(balls, layers): close-packed layers of balls that lie wholly below `top`, the lattice
    shifted and turned for the most balls."""
    r = diameter / 2
    rise = diameter * math.sqrt(2 / 3)
    layers = int((top - diameter) // rise) + 1 if top >= diameter else 0
    xs = [x for t in floor.triangles for x, _ in t]
    ys = [y for t in floor.triangles for _, y in t]
    row = diameter * math.sqrt(3) / 2
    best = 0
    steps = 6 if diameter > 2 else 2  # small shot: the lattice's shift hardly matters
    for turned in (False, True):
        for i in range(steps):
            for j in range(steps):
                total = 0
                for layer in range(layers):
                    ox = i * diameter / steps + (layer % 2) * diameter / 2
                    oy = j * row / steps + (layer % 2) * row / 3
                    total += _layer(floor, diameter, row, ox, oy, turned, min(xs), max(xs), min(ys), max(ys), r)
                best = max(best, total)
    return best, layers


def _layer(floor, pitch, row, ox, oy, turned, x0, x1, y0, y1, r) -> int:
    count = 0
    if turned:  # rows along y instead of x
        x0, x1, y0, y1 = y0, y1, x0, x1
    n = int((y1 - y0) / row) + 2
    for k in range(-1, n):
        y = y0 + oy + k * row
        shift = (k % 2) * pitch / 2
        m = int((x1 - x0) / pitch) + 2
        for q in range(-1, m):
            x = x0 + ox + shift + q * pitch
            px, py = (y, x) if turned else (x, y)
            if floor.clear(px, py, r):
                count += 1
    return count


# ---- the fills -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Capacity:
    fill: Fill
    grams: float  # what the cavity holds of it, up to the fill line
    bulk: float  # g/cm³ in this cavity, up to the fill line
    balls: int = 0  # shot: how many, poured
    layers: int = 0


def capacity(fill: Fill, floor: Floor) -> Capacity:
    top = floor.height - ROOF_CLEARANCE
    if fill.diameter_mm == 0:
        grams = floor.area_mm2 * top / 1000 * fill.density
        return Capacity(fill, grams, fill.density)
    packed, layers = most_balls(floor, fill.diameter_mm, top)
    balls = int(packed * RANDOM_SHARE)
    grams = balls * fill.ball_g
    return Capacity(fill, grams, grams / (floor.area_mm2 * top / 1000), balls, layers)


@dataclass(frozen=True)
class Rank:
    name: str
    mass_g: float
    per_set: int
    fill: Fill | None
    fill_g: float
    share: float  # of the fill's capacity
    level_mm: float  # the fill's top above the cavity's floor


@dataclass(frozen=True)
class Plan:
    shell_g: float
    cavity_cm3: float
    floor_mm2: float
    cavity_mm: float
    capacities: list[Capacity]
    sets: dict[str, list[Rank]]  # piecesets.SETS' name: its ranks, filled
    cap_g: float
    washers: int
    washers_fitted: int  # what piece.scad's `washers` says
    counterweight_trim_g: float
    floor: Floor

    @property
    def ranks(self) -> list[Rank]:
        """The default set's (the masses the app expects)."""
        return self.sets[piecesets.DEFAULT_SET]

    def unreachable(self) -> list[str]:
        problems = [f"set {name}: {r.name}: {r.mass_g:g} g is out of reach: no fill in FILLS holds {r.fill_g:.2f} g "
                    f"below the fill line" for name, ranks in self.sets.items() for r in ranks if r.fill is None]
        problems += [p for name in self.sets for p in piecesets.problems(name, piecesets.SETS[name])]
        if self.washers != self.washers_fitted:
            problems.append(f"counterweight: the cap ({self.cap_g:.2f} g) needs {self.washers} washers; "
                            f"piece.scad has washers = {self.washers_fitted}")
        return problems

    def needs(self, name: str = piecesets.DEFAULT_SET) -> dict[str, float]:
        """Per fill, what set `name` takes (balls or grams), before waste."""
        total = {fill.name: 0.0 for fill in FILLS}
        for rank in self.sets[name]:
            if rank.fill is not None:
                amount = rank.fill_g / rank.fill.ball_g if rank.fill.unit == "balls" else rank.fill_g
                total[rank.fill.name] += amount * rank.per_set
        return total


def fill_line(held: Capacity, grams: float, share: float, cavity_mm: float) -> float:
    """How high `grams` of the fill stand on the cavity's floor: shot, the top of the last
    layer it needs (its poured layers hold alike); putty, pressed level."""
    d = held.fill.diameter_mm
    if not d:
        return share * (cavity_mm - ROOF_CLEARANCE)
    layers = math.ceil(grams / held.fill.ball_g / (held.balls / held.layers) - 1e-9)
    return d + (layers - 1) * d * math.sqrt(2 / 3)


def choose(capacities: list[Capacity], shell_g: float, cavity_mm: float,
           masses: dict[str, float] = DEFAULT_MASSES_G) -> list[Rank]:
    """Every rank, lightest first, with the first fill that reaches its mass (None: none does)."""
    ranks = []
    for name in sorted(COUNTS, key=lambda n: masses[n]):
        mass = masses[name]
        need = mass - shell_g - FELT_G - TRIM_G
        chosen = next((c for c in capacities if need <= MARGIN * c.grams), None)
        if chosen is None:
            ranks.append(Rank(name, mass, COUNTS[name], None, need, math.inf, math.inf))
            continue
        share = need / chosen.grams
        ranks.append(Rank(name, mass, COUNTS[name], chosen.fill, need, share, fill_line(chosen, need, share, cavity_mm)))
    return ranks


def plan(out_dir: Path) -> Plan:
    shell = volume_cm3(render("piece", out_dir))
    cavity_triangles = render("cavity", out_dir)
    cavity = volume_cm3(cavity_triangles)
    floor = Floor.of(cavity_triangles)
    cap = volume_cm3(render("cap", out_dir)) * PLA
    shell_g = shell * PLA
    capacities = [capacity(fill, floor) for fill in FILLS]
    sets = {name: choose(capacities, shell_g, floor.height, masses) for name, masses in piecesets.SETS.items()}
    washers = int((DEFAULT_MASSES_G[COUNTERWEIGHT] - cap - FELT_G - 0.2) // WASHER_G)
    fitted = int(re.search(r"^washers = (\d+);", MODEL.read_text(), re.M).group(1))
    trim = DEFAULT_MASSES_G[COUNTERWEIGHT] - cap - FELT_G - fitted * WASHER_G
    return Plan(shell_g, cavity, floor.area_mm2, floor.height, capacities, sets, cap, washers, fitted, trim, floor)


# ---- what the files say ---------------------------------------------------------------------

BEGIN, END = "<!-- masses.py: begin -->", "<!-- masses.py: end -->"


def page_section(p: Plan, bom: list[dict]) -> str:
    lines = [
        BEGIN,
        f"Rendered by `hardware/masses.py` from [piece.scad](piece.scad) (do not edit by hand: run "
        f"`.venv/bin/python hardware/masses.py`). One shell for every rank: the printed shell "
        f"weighs {p.shell_g:.2f} g in PLA; its cavity holds {p.cavity_cm3:.2f} cm³ "
        f"({p.floor_mm2:.0f} mm² of floor, {p.cavity_mm:.1f} mm high in two halves beside the rib "
        f"that carries the roof). Every fill stays {ROOF_CLEARANCE:g} mm below the roof.",
        "",
        "What the cavity holds of each fill, up to that line:",
        "",
        "| fill | holds (g) | bulk density here (g/cm³) | how |",
        "|---|---|---|---|",
    ]
    for c in p.capacities:
        how = (f"{c.balls} balls of {c.fill.ball_g:.3f} g in {c.layers} layers, poured"
               if c.fill.diameter_mm else f"pressed flat, {c.fill.density:g} g/cm³ as sold")
        lines.append(f"| {c.fill.name} | {c.grams:.1f} | {c.bulk:.2f} | {how} |")
    lines += [
        "",
        f"Each rank takes the first of these that reaches its mass using at most "
        f"{MARGIN:.0%} of what the cavity holds. Fill = mass − shell − felt pad ({FELT_G:g} g) − "
        f"{TRIM_G:g} g left for the trim tape. The two sets of masses (next table) share every "
        f"ship; only the mines and the port differ.",
        "",
        "| piece | set | per set | mass (g) | fill | fill (g) | about | share of what it holds | fill line (mm) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r, sets in rows_by_mass(p):
        where = "both" if len(sets) == len(p.sets) else ", ".join(sets)
        if r.fill is None:
            lines.append(f"| `{r.name}` | {where} | {r.per_set} | {r.mass_g:g} | none reaches it | {r.fill_g:.2f} | | | |")
            continue
        about = f"{round(r.fill_g / r.fill.ball_g)} balls" if r.fill.unit == "balls" else ""
        lines.append(f"| `{r.name}` | {where} | {r.per_set} | {r.mass_g:g} | {r.fill.name} | {r.fill_g:.2f} | {about} "
                     f"| {r.share:.0%} | {r.level_mm:.1f} |")
    lines.append("")
    for name in p.sets:
        needs = p.needs(name)
        lines.append(f"A whole {name} set (both fleets) takes " + ", ".join(
            f"{needs[f.name]:.0f} {f.unit} of {f.name}" if f.unit == "g" else f"{needs[f.name]:.0f} {f.name}"
            for f in FILLS if needs[f.name]) + ".")
    lines += [
        f"The bill of materials adds {WASTE:.0%} for waste.",
        f"The counterweight: the cap weighs {p.cap_g:.2f} g; {p.washers_fitted} washers DIN 125-A M8 "
        f"({WASHER_G:g} g each) glued into the ring under its plate, its felt pad, and {p.counterweight_trim_g:.2f} g of "
        f"tape make {DEFAULT_MASSES_G[COUNTERWEIGHT]:g} g (±{COUNTERWEIGHT_SPREAD_G:g}).",
        "",
        f"What each set costs ([bom.csv](bom.csv)'s rough prices, its `pieces` column naming each set's ballast) "
        f"and how far apart the judge finds its ranks: the tightest pair on either pan, its free gap "
        f"less the scale's error (the rule of *How far apart the ranks must be* above: σ = {piecesets.SIGMA_G:g} g, "
        f"*e* = {piecesets.SCALE_ERROR:.1%}, at least {piecesets.MIN_SIGMAS:g}σ):",
        "",
        "| set | mine, port (g) | tungsten putty | whole bill, path A / path B (USD) | tungsten's share of path B "
        "| tightest pair | free gap |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, cost in costs(bom).items():
        masses = piecesets.SETS[name]
        tight = piecesets.tightest(masses)
        lines.append(f"| {name} | {masses['mine']:g}, {masses['port']:g} | {cost['tungsten_g']} g, "
                     f"{cost['tungsten']} USD | {cost['gpio']} / {cost['pico']} | {cost['tungsten'] / cost['pico']:.0%} "
                     f"| {tight.lighter} – {tight.heavier} ({tight.pan} pan) | {tight.gap_g:.2f} g = "
                     f"{tight.sigmas:.0f}σ |")
    lines.append(END)
    return "\n".join(lines)


def rows_by_mass(p: Plan) -> list[tuple[Rank, list[str]]]:
    """Each (rank, mass) any set fills, lightest first, with the sets that fill it so."""
    found: dict[tuple[str, float], tuple[Rank, list[str]]] = {}
    for name, ranks in p.sets.items():
        for r in ranks:
            found.setdefault((r.name, r.mass_g), (r, []))[1].append(name)
    return sorted(found.values(), key=lambda item: item[0].mass_g)


ANY = "any"  # bom.csv's `pieces` for a row every set needs


def bom_rows(p: Plan) -> dict[tuple[str, str], dict]:
    """The rows of bom.csv this script owns, by (part, pieces)."""
    rows = {}
    for name in p.sets:
        needs = p.needs(name)
        for fill in FILLS:
            if not needs[fill.name]:
                continue
            step = 50 if fill.unit == "balls" else 10
            quantity = int(math.ceil(needs[fill.name] * (1 + WASTE) / step) * step)
            ranks = ", ".join(r.name for r in p.sets[name] if r.fill == fill)
            rows[fill.bom_part, name] = {
                "path": "both", "pieces": name, "part": fill.bom_part, "quantity": str(quantity),
                "what_to_look_for": f"{fill.look_for}; fills {ranks} of the {name} set (pieces.md); "
                                    f"{needs[fill.name]:.0f} for a set + {WASTE:.0%}",
                "rough_price_usd": f"{max(1, round(quantity * fill.price_per_unit))}"}
    shells = sum(COUNTS.values())
    grams = math.ceil((shells * p.shell_g + p.cap_g) * 1.15 / 10) * 10
    rows["3D-printed pieces (piece.scad)", ANY] = {
        "path": "both", "pieces": ANY, "part": "3D-printed pieces (piece.scad)", "quantity": str(shells),
        "what_to_look_for": f"one shell for every rank, 26 x 30 x 12 mm, {p.shell_g:.2f} g of PLA each, "
                            f"printed with a pause to fill the cavity; plus 1 counterweight cap "
                            f"(part=\"cap\", {p.cap_g:.2f} g): about {grams} g of filament with waste",
        "rough_price_usd": "4"}
    rows["Steel washers DIN 125-A M8", ANY] = {
        "path": "both", "pieces": ANY, "part": "Steel washers DIN 125-A M8", "quantity": str(p.washers_fitted),
        "what_to_look_for": f"8.4 x 16 x 1.6 mm, {WASHER_G:g} g each (weigh them): glued into the "
                            f"counterweight's cap", "rough_price_usd": "1"}
    return rows


TUNGSTEN = next(fill for fill in FILLS if fill.name == "tungsten putty")


def costs(rows: list[dict]) -> dict[str, dict]:
    """Per set of pieces: the whole bill for path A (gpio) and path B (pico), and its tungsten (USD, g)."""
    found = {}
    for name in piecesets.SETS:
        mine = [r for r in rows if r["pieces"] in (ANY, name)]
        tungsten = [r for r in mine if r["part"] == TUNGSTEN.bom_part]
        found[name] = {path: sum(float(r["rough_price_usd"]) for r in mine if r["path"] in ("both", path))
                       for path in ("gpio", "pico")}
        found[name] = {k: round(v) for k, v in found[name].items()}
        found[name]["tungsten"] = round(sum(float(r["rough_price_usd"]) for r in tungsten))
        found[name]["tungsten_g"] = sum(int(r["quantity"]) for r in tungsten)
    return found


def written_page(p: Plan, bom: list[dict]) -> str:
    text = PAGE.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"masses.py: {PAGE} has lost its markers {BEGIN} ... {END}")
    head, rest = text.split(BEGIN, 1)
    return head + page_section(p, bom) + rest.split(END, 1)[1]


def written_bom(p: Plan) -> tuple[str, list[dict]]:
    """bom.csv with this script's rows (a set's row missing goes after the part's other rows), and its rows."""
    with BOM.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        fields, rows = reader.fieldnames, list(reader)
    owned = bom_rows(p)
    parts = {r["part"] for r in rows}
    missing = sorted({part for part, _ in owned} - parts)
    if missing:
        raise SystemExit(f"masses.py: {BOM} has no row for {missing} (add one; this script fills it)")
    out = []
    for row in rows:
        key = (row["part"], row["pieces"])
        if key in owned or row["pieces"] == ANY or not any(part == row["part"] for part, _ in owned):
            out.append(owned.get(key, row))
    for key, row in owned.items():  # a set's ballast the file lacks: after the part's last row
        if key not in {(r["part"], r["pieces"]) for r in out}:
            last = max(i for i, r in enumerate(out) if r["part"] == key[0])
            out.insert(last + 1, row)
    total = costs(out)
    for row in out:  # each set's tungsten row says what the set costs in all, and its share
        if row["part"] == TUNGSTEN.bom_part and row["pieces"] in total:
            cost = total[row["pieces"]]
            row["what_to_look_for"] += (f"; the whole bill with the {row['pieces']} set: {cost['gpio']} USD on path A, "
                                        f"{cost['pico']} on path B, tungsten {cost['tungsten'] / cost['pico']:.0%} of it")
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(out)
    return text.getvalue(), out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail where the files disagree")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        p = plan(Path(tmp))
    problems = p.unreachable()
    bom, rows = written_bom(p)
    page = written_page(p, rows)
    if args.check:
        for path, text in ((PAGE, page), (BOM, bom)):
            if path.read_text(encoding="utf-8") != text:
                problems.append(f"{path.name} disagrees with the model: run .venv/bin/python hardware/masses.py")
    else:
        PAGE.write_text(page, encoding="utf-8")
        BOM.write_text(bom, encoding="utf-8")
    print(page_section(p, rows).replace(BEGIN, "").replace(END, "").strip())
    for problem in problems:
        print("masses.py:", problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

// A Gunkan Shogi piece: one printed shell for every rank, its weight hidden inside.
//
// The outline is a shogi piece's pentagon; the body is a flat prism printed on its
// back.  A closed cavity fills the middle: print up to the cavity's roof, pause,
// fill it with the rank's ballast (hardware/pieces.md says which and how much),
// resume, and the roof seals it.  A shallow recess in the back (the face the piece
// lies on) takes the last fraction of a gram (lead or tungsten tape), hidden under
// a felt pad.
//
//   openscad -o piece.stl hardware/piece.scad                # print 43 of these
//   openscad -D 'part="cavity"' -o cavity.stl hardware/piece.scad   # the void, to measure
// The echo gives the pause height and what the cavity can hold of each ballast.
// All sizes are millimetres, masses grams, densities g/cm³.

/* [What to show] */
part = "piece"; // [piece, cavity, section]

/* [Outline: a shogi piece, base at y = 0] */
width = 26;            // across the base
height = 30;           // base to tip
shoulder = 0.7;        // where the sides turn towards the tip, as a fraction of height
shoulder_width = 22;   // across the shoulders (the sides lean in like a shogi piece's)
thickness = 12;        // the printed height (the piece lies on its back)

/* [Shell] */
wall = 1.2;            // side walls: three 0.4 mm perimeters
floor_roof = 1.2;      // under and over the cavity: six 0.2 mm layers
trim_diameter = 10;    // the recess in the back for trim tape
trim_depth = 0.6;

/* [Densities, g/cm³ (sources: hardware/pieces.md)] */
pla = 1.24;            // printed solid (walls, floor and roof are solid)
steel_shot = 4.4;      // steel shot poured and settled: 7.85 x 0.56 packing
tungsten_putty = 9.5;  // tungsten putty pressed in (about 10; kept low to be safe)

$fn = 48;

// ---- the outline and the cavity's, as polygons --------------------------------

outline = [[-width / 2, 0], [width / 2, 0], [shoulder_width / 2, shoulder * height],
           [0, height], [-shoulder_width / 2, shoulder * height]];

// The convex polygon `p` (counter-clockwise) with every edge moved `d` inwards.
function inward(p, i, j) = let (e = p[j] - p[i], l = norm(e)) [-e[1] / l, e[0] / l];
function inset(p, d) = [for (i = [0:len(p) - 1])
    let (n1 = inward(p, (i + len(p) - 1) % len(p), i), n2 = inward(p, i, (i + 1) % len(p)))
        p[i] + d * (n1 + n2) / (1 + n1 * n2)];
function area(p) = abs(0.5 * sum([for (i = [0:len(p) - 1]) cross2(p[i], p[(i + 1) % len(p)])]));
function cross2(a, b) = a[0] * b[1] - a[1] * b[0];
function sum(v, i = 0) = i >= len(v) ? 0 : v[i] + sum(v, i + 1);

cavity_outline = inset(outline, wall);
cavity_height = thickness - 2 * floor_roof;
trim_volume = PI * pow(trim_diameter / 2, 2) * trim_depth;
volume = area(outline) * thickness - trim_volume;              // mm³, the shell's outside
cavity = area(cavity_outline) * cavity_height;                 // mm³
shell_g = (volume - cavity) / 1000 * pla;

assert(cavity_height > 2, "the piece is too thin for a cavity");
assert(trim_depth < floor_roof, "the trim recess would open the cavity");
assert(width > shoulder_width && shoulder_width > 2 * wall + 4, "the outline is not a shogi piece's");

echo(str("piece ", width, " x ", height, " x ", thickness, " mm: volume ", round(volume / 10) / 100,
         " cm3, cavity ", round(cavity / 10) / 100, " cm3, printed shell ", round(shell_g * 100) / 100, " g (PLA)"));
echo(str("pause at z = ", thickness - floor_roof, " mm (the roof's first layer) and fill the cavity"));
echo(str("heaviest piece: steel shot ", round((shell_g + cavity / 1000 * steel_shot) * 10) / 10,
         " g, tungsten putty ", round((shell_g + cavity / 1000 * tungsten_putty) * 10) / 10, " g"));

// ---- the parts -------------------------------------------------------------------

module body() { linear_extrude(thickness) polygon(outline); }

module void() { translate([0, 0, floor_roof]) linear_extrude(cavity_height) polygon(cavity_outline); }

// Printed on its back, the face it lies on, which carries the trim recess.
module piece() {
    difference() {
        body();
        void();
        translate([0, 0.4 * height, -0.01]) cylinder(d = trim_diameter, h = trim_depth + 0.01);
    }
}

if (part == "piece") piece();
else if (part == "cavity") void();
else if (part == "section") difference() { piece(); translate([0, -1, -1]) cube([width, height + 2, thickness + 2]); }
else assert(false, str("unknown part \"", part, "\"; choose piece, cavity or section"));

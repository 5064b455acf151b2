// A Gunkan Shogi piece: one printed shell for every rank, its weight hidden inside.
//
// The outline is a shogi piece's pentagon; the body is a flat prism printed on its
// back.  A closed cavity fills the middle: print up to the cavity's roof, pause,
// fill it with the rank's ballast (hardware/pieces.md says which and how much; the
// numbers come from hardware/masses.py, which renders this model), resume, and the
// roof seals it.  A rib down the middle carries the roof, so the roof's first layer
// bridges at most `bridge_span` mm and prints flat; every fill stays at least
// `roof_clearance` below the roof, so no fill props it up (the same roof on every rank).
// A shallow recess in the back (the face the piece lies on) takes the last fraction
// of a gram (lead or tungsten tape), hidden under a felt pad.
//
//   openscad -o piece.stl hardware/piece.scad                        # print 42 of these
//   openscad -D 'part="cap"' -o cap.stl hardware/piece.scad          # print 1: the counterweight
//   openscad -D 'part="cavity"' -o cavity.stl hardware/piece.scad    # the void, to measure
// All sizes are millimetres.

/* [What to show] */
part = "piece"; // [piece, cavity, section, cap, cap_on_piece]

/* [Outline: a shogi piece, base at y = 0] */
width = 26;            // across the base
height = 30;           // base to tip
shoulder = 0.7;        // where the sides turn towards the tip, as a fraction of height
shoulder_width = 22;   // across the shoulders (the sides lean in like a shogi piece's)
thickness = 12;        // the printed height (the piece lies on its back)

/* [Shell] */
wall = 1.2;            // side walls: three 0.4 mm perimeters
floor_roof = 1.2;      // under and over the cavity: six 0.2 mm layers
rib = 1.2;             // the rib down the middle that carries the roof
trim_diameter = 10;    // the recess in the back for trim tape
trim_depth = 0.6;
roof_clearance = 1.0;  // every fill stays this far below the roof (hardware/masses.py checks it)
layer = 0.2;           // the layer height you slice with, the first layer's too: the roof starts on a layer's boundary

/* [Counterweight cap: sits on a piece, holds stacked M8 washers] */
washers = 3;           // DIN 125-A M8: 16 mm across, 1.6 mm thick (hardware/masses.py picks the count)
washer_d = 16;
washer_t = 1.6;
cap_fit = 0.4;         // between the piece's outline and the cap's skirt
cap_plate = 2.4;       // thick enough that the washers and 0.2-0.5 g of tape make the mass
cap_skirt = 3;         // how far the skirt reaches down the piece's sides
cap_wall = 1.2;

$fn = 48;

// ---- the outline and the cavity's, as polygons --------------------------------

outline = [[-width / 2, 0], [width / 2, 0], [shoulder_width / 2, shoulder * height],
           [0, height], [-shoulder_width / 2, shoulder * height]];

// The convex polygon `p` (counter-clockwise) with every edge moved `d` inwards.
function inward(p, i, j) = let (e = p[j] - p[i], l = norm(e)) [-e[1] / l, e[0] / l];
function inset(p, d) = [for (i = [0:len(p) - 1])
    let (n1 = inward(p, (i + len(p) - 1) % len(p), i), n2 = inward(p, i, (i + 1) % len(p)))
        p[i] + d * (n1 + n2) / (1 + n1 * n2)];

cavity_outline = inset(outline, wall);
cavity_height = thickness - 2 * floor_roof;
cavity_width = 2 * max([for (p = cavity_outline) p[0]]);
bridge_span = (cavity_width - rib) / 2;   // the widest bridge under the roof

assert(cavity_height > 2, "the piece is too thin for a cavity");
assert(trim_depth < floor_roof, "the trim recess would open the cavity");
assert(width > shoulder_width && shoulder_width > 2 * wall + 4, "the outline is not a shogi piece's");
assert(bridge_span <= 12, str("the roof would bridge ", bridge_span, " mm; keep it to 12 mm or less"));
assert(washers >= 1 && washers * washer_t < 12, "washers: 1 to 7 M8 washers fit the cap");

echo(str("piece ", width, " x ", height, " x ", thickness, " mm; cavity ", cavity_height,
         " mm high in two halves, roof bridges ", round(bridge_span * 10) / 10, " mm"));
roof_z = thickness - floor_roof;   // where the roof's first layer starts
function whole(x) = abs(x - round(x)) < 1e-6;
assert(whole(roof_z / layer) && whole(floor_roof / layer),
       str("the roof would start inside a ", layer, " mm layer; make floor_roof and thickness multiples of layer"));
echo(str("pause before the layer that starts at z = ", roof_z, " mm (the roof's first, ", roof_z, "-", roof_z + layer,
         " mm): after layer ", round(roof_z / layer), " of ", layer, " mm, the last that ends at ", roof_z, " mm"));

// ---- the piece -------------------------------------------------------------------

module body() { linear_extrude(thickness) polygon(outline); }

module void() {
    translate([0, 0, floor_roof]) difference() {
        linear_extrude(cavity_height) polygon(cavity_outline);
        translate([-rib / 2, -1, -1]) cube([rib, height + 2, cavity_height + 2]);
    }
}

// Printed on its back, the face it lies on, which carries the trim recess.
module piece() {
    difference() {
        body();
        void();
        translate([0, 0.4 * height, -0.01]) cylinder(d = trim_diameter, h = trim_depth + 0.01);
    }
}

// ---- the counterweight's cap -----------------------------------------------------
// A plate over the piece's face with a skirt round its edge; under the plate, inside
// the skirt, a ring holds the stacked washers (glued to the plate) and rests on the
// piece's face.  Printed plate down: every wall rises straight from the plate, so
// nothing overhangs and no supports are needed (hardware/overhangs.py checks it).

pocket_d = washer_d + 0.4;
pocket_depth = washers * washer_t + 0.2;
cap_centre = [0, 0.45 * height];
cap_height = cap_skirt + pocket_depth + cap_plate;  // the skirt reaches cap_skirt down the piece's sides

module cap() {
    grown = inset(outline, -(cap_fit + cap_wall));
    fitted = inset(outline, -cap_fit);
    translate([0, 0, cap_skirt + pocket_depth]) linear_extrude(cap_plate) polygon(grown);
    difference() {  // the skirt
        linear_extrude(cap_height) polygon(grown);
        translate([0, 0, -0.01]) linear_extrude(cap_height - cap_plate + 0.01) polygon(fitted);
    }
    translate([cap_centre[0], cap_centre[1], cap_skirt]) difference() {  // the washers' ring
        cylinder(d = pocket_d + 2 * cap_wall, h = pocket_depth + 0.01);
        translate([0, 0, -0.01]) cylinder(d = pocket_d, h = pocket_depth + 0.01);
    }
}

if (part == "piece") piece();
else if (part == "cavity") void();
else if (part == "section")  // cut through one half of the cavity, beside the rib
    difference() { piece(); translate([width / 6, -1, -1]) cube([width, height + 2, thickness + 2]); }
else if (part == "cap") translate([0, 0, cap_height]) mirror([0, 0, 1]) cap();  // plate down
else if (part == "cap_on_piece") {  // for the pictures: the counterweight on a piece, cut open to show its washers
    color("Ivory") piece();
    translate([0, 0, thickness - cap_skirt + 0.02]) difference() {
        union() {
            color("SteelBlue") cap();
            color("DimGray") for (i = [0:washers - 1])
                translate([cap_centre[0], cap_centre[1], cap_skirt + pocket_depth - (i + 1) * washer_t])
                    difference() { cylinder(d = washer_d, h = washer_t - 0.02); translate([0, 0, -1]) cylinder(d = 8.4, h = 4); }
        }
        translate([-width, -height, -1]) cube([2 * width, height + cap_centre[1], cap_height + 2]);  // the front half
    }
}
else assert(false, str("unknown part \"", part, "\"; choose piece, cavity, section, cap or cap_on_piece"));

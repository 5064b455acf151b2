// The weighing seesaw: two pans, each on its own straight-bar load cell, on one base.
//
// Each cell is a cantilever: its fixed end is screwed onto a pedestal of the base,
// its free end carries a "carrier" that reaches back over the cell and holds the
// pan right above the cell's middle (where a single-point bar cell is least
// sensitive to where on the pan a piece stands).  The fixed ends face each other
// so both cables end in the middle, near the electronics bay at the back.
// An adjustable stop (an M3 screw under each carrier's lip) keeps a hand pressing
// a pan from overloading its cell.  Assembly notes: hardware/assembly.md.
//
// Export the printed parts one by one (print two carriers and two pans):
//   openscad -D 'part="base"'    -o base.stl    hardware/seesaw.scad
//   openscad -D 'part="carrier"' -o carrier.stl hardware/seesaw.scad
//   openscad -D 'part="pan"'     -o pan.stl     hardware/seesaw.scad
// `part="assembly"` (the default) shows everything in place, load cells included.
// Every part is exported in its printing orientation, flat face down, no supports.
// All sizes are millimetres.

/* [What to show] */
part = "assembly"; // [assembly, base, carrier, pan, cell]

/* [Load cell: a straight bar; measure yours] */
cell_length = 80;      // common 1 kg / 500 g bars: 80 x 12.7 x 12.7
cell_width = 12.7;
cell_height = 12.7;
cell_thread = 4;       // the cell's tapped holes: 4 for M4, 5 for M5
cell_hole_inset = 5;   // from the bar's end to the centre of the outer hole
cell_hole_pitch = 15;  // between the two holes at one end
cell_clamp = 25;       // the end block that may touch a mount (never the middle)

/* [Pans] */
pan_diameter = 70;
pan_spacing = 100;     // between the two pans' centres
pan_floor = 3;
pan_rim_height = 3;
pan_rim_width = 2;

/* [Base] */
base_length = 0;       // 0: just long enough for the cells and stops
base_width = 120;      // front to back; the back strip is the electronics bay
base_thickness = 4;
pedestal_height = 6;   // room under the cell's middle to bend
cell_y = -20;          // cells (and pans) sit this far in front of the base's centre line

/* [Carrier and stop] */
carrier_gap = 3;       // between the cell's top and the carrier arm
carrier_thickness = 6; // of the arm
stop_lip = 14;         // how far the carrier reaches past the free end, over the stop
stop_boss_diameter = 10;
stop_pilot = 2.8;      // hole for an M3 screw cut into plastic (4.0 for a heat-set insert)
pan_screw_pilot = 2.8; // the M3 screw that holds the pan on its carrier
pan_screw_head = 6.72; // its countersunk head: ISO 10642 M3, largest head diameter (90°)

/* [Print] */
clearance = 0.4;       // added to screw holes
$fn = 48;

// ---- derived sizes -----------------------------------------------------------

screw_hole = cell_thread + clearance;
head_hole = cell_thread * 1.8 + 2 * clearance;    // socket-head counterbore
wall = 4;
carrier_height = carrier_gap + carrier_thickness;  // clamp block height above the cell
cell_z = base_thickness + pedestal_height;          // underside of the cells
cell_top = cell_z + cell_height;
carrier_top = cell_top + carrier_height;
outer_end = pan_spacing / 2 + cell_length / 2;      // x of each free end
auto_length = 2 * (outer_end + stop_lip + 3);
length = base_length > 0 ? base_length : auto_length;
fixed_holes = [cell_hole_inset, cell_hole_inset + cell_hole_pitch];  // from the fixed end
free_holes = [cell_length - cell_hole_inset, cell_length - cell_hole_inset - cell_hole_pitch];
stop_x = cell_length + 2 + stop_boss_diameter / 2;  // the stop boss stays 2 mm clear of the cell
stop_boss_top = cell_top - 5;  // leaves room for the stop screw's head and its travel
bay_clear = 3;                                       // between the pans' edge and the electronics bay
bay_y = cell_y + pan_diameter / 2 + bay_clear;          // the bay starts behind the pans: nothing stands under them
bay_depth = base_width / 2 - bay_y;
bay_min_depth = 38;                                  // the cable-tie slots, and room for the boards

assert(pan_spacing >= cell_length + 6,
       str("pan_spacing ", pan_spacing, " mm: the two cells would touch; use at least ", cell_length + 6));
assert(pan_spacing >= pan_diameter + 6,
       str("pan_spacing ", pan_spacing, " mm: the pans would touch; use at least ", pan_diameter + 6));
assert(length >= auto_length, str("base_length ", length, " mm is too short; use at least ", auto_length));
assert(cell_y - pan_diameter / 2 >= -base_width / 2,
       str("the pans overhang the base's front edge; move them back (cell_y) or make base_width at least ",
           2 * (pan_diameter / 2 - cell_y)));
assert(bay_depth >= bay_min_depth,
       str("the electronics bay behind the pans is only ", bay_depth, " mm deep; make base_width at least ",
           2 * (bay_y + bay_min_depth), " or move the pans forward (cell_y)"));
assert(pan_floor >= (pan_screw_head - 3.4) / 2 + 1, "pan_floor is too thin for the M3 countersink");
assert(stop_lip >= stop_boss_diameter + 3, "stop_lip must reach over the whole stop boss");
assert(cell_clamp >= cell_hole_inset + cell_hole_pitch + cell_thread,
       "cell_clamp must cover both holes at one end of the cell");

echo(str("base ", length, " x ", base_width, " mm; pan surface ", carrier_top + pan_floor, " mm above the table"));
echo(str("electronics bay ", length, " x ", bay_depth, " mm behind the pans, ", bay_y - (cell_y + pan_diameter / 2),
         " mm clear of their edge"));
// Screw lengths: the plastic under the head (grip) plus 6-10 mm into the cell's thread.
fixed_grip = cell_z - cell_thread;   // the base's counterbore ends cell_thread above the table
carrier_grip = cell_thread;          // the carrier's counterbore starts cell_thread above the cell
echo(str("screws M", cell_thread, ": 4 from below into the fixed ends, ", fixed_grip + 6, "-", fixed_grip + 10,
         " mm long; 4 from above into the free ends, ", carrier_grip + 6, "-", carrier_grip + 10, " mm long"));

// ---- one cell and its parts, in the cell's own frame ----------------------------
// Cell frame: the bar runs along x from 0 (fixed end, towards the middle) to
// cell_length (free end, outwards); y is centred; z = 0 is the bar's underside.

module load_cell() {
    difference() {
        cube([cell_length, cell_width, cell_height]);
        for (x = concat(fixed_holes, free_holes))
            translate([x, cell_width / 2, -1]) cylinder(d = cell_thread, h = cell_height + 2);
        // the bending hole in the middle
        translate([cell_length / 2, -1, cell_height / 2]) rotate([-90, 0, 0])
            hull() for (dx = [-6, 6]) translate([dx, 0, 0]) cylinder(d = 8, h = cell_width + 2);
    }
}

// Bolted on the free end's top; its arm reaches back over the cell to the pan's centre.
module carrier() {
    lip_end = cell_length + stop_lip;
    difference() {
        union() {
            // clamp block: sits on the cell's top over the free-end holes, and on over the lip
            translate([cell_length - cell_clamp, 0, 0]) cube([cell_clamp + stop_lip, cell_width, carrier_height]);
            // arm: clear of the cell by carrier_gap
            translate([cell_length / 2 - 8, 0, carrier_gap]) cube([lip_end - cell_length / 2 + 8, cell_width, carrier_thickness]);
            translate([cell_length / 2, cell_width / 2, carrier_gap]) cylinder(d = 16, h = carrier_thickness);
        }
        for (x = free_holes) {
            translate([x, cell_width / 2, -1]) cylinder(d = screw_hole, h = carrier_height + 2);
            translate([x, cell_width / 2, cell_thread]) cylinder(d = head_hole, h = carrier_height);
        }
        translate([cell_length / 2, cell_width / 2, carrier_gap + 1])
            cylinder(d = pan_screw_pilot, h = carrier_thickness);
    }
}

module pan() {
    difference() {
        union() {
            cylinder(d = pan_diameter, h = pan_floor);
            difference() {
                cylinder(d = pan_diameter, h = pan_floor + pan_rim_height);
                translate([0, 0, -1]) cylinder(d = pan_diameter - 2 * pan_rim_width, h = pan_floor + pan_rim_height + 2);
            }
        }
        // countersunk M3 screw into the carrier, flush with the pan's floor: a 90° cone
        // that is pan_screw_head wide at the floor's top
        sink = (pan_screw_head - 3.4) / 2;
        translate([0, 0, -1]) cylinder(d = 3.4, h = pan_floor + 2);
        translate([0, 0, pan_floor - sink]) cylinder(d1 = 3.4, d2 = pan_screw_head + 0.2, h = sink + 0.1);
    }
}

// ---- the base ----------------------------------------------------------------

// Place children in each cell's frame: s = -1 left pan, +1 right pan.
module at_cell(s) {
    translate([s * pan_spacing / 2, cell_y, 0])
        mirror([s < 0 ? 1 : 0, 0, 0])
            translate([-cell_length / 2, -cell_width / 2, 0]) children();
}

module base() {
    difference() {
        union() {
            translate([-length / 2, -base_width / 2, 0]) cube([length, base_width, base_thickness]);
            for (s = [-1, 1]) at_cell(s) {
                // pedestal under the fixed end only
                translate([0, -wall, 0]) cube([cell_clamp, cell_width + 2 * wall, cell_z]);
                // boss under the carrier's lip for the overload stop screw
                translate([stop_x, cell_width / 2, 0])
                    cylinder(d = stop_boss_diameter, h = stop_boss_top);
            }
        }
        for (s = [-1, 1]) at_cell(s) {
            for (x = fixed_holes) {
                translate([x, cell_width / 2, -1]) cylinder(d = screw_hole, h = cell_z + 2);
                translate([x, cell_width / 2, -1]) cylinder(d = head_hole, h = cell_thread + 1);
            }
            translate([stop_x, cell_width / 2, base_thickness])
                cylinder(d = stop_pilot, h = cell_top);
        }
        // cable-tie slots in the electronics bay, and one for each cell's cable
        for (x = [-length / 4, 0, length / 4]) for (dy = [8, 28])
            translate([x - 1.5, bay_y + dy, -1]) cube([3, 8, base_thickness + 2]);
        for (s = [-1, 1])
            translate([s * (pan_spacing / 2 - cell_length / 2 + cell_clamp + 4) - 1.5, cell_y + cell_width / 2 + 2, -1])
                cube([3, 8, base_thickness + 2]);
    }
}

// ---- what to show --------------------------------------------------------------

module assembly() {
    touch = 0.01;  // a hair between parts that touch, so the whole stays a valid solid
    color("BurlyWood") base();
    for (s = [-1, 1]) {
        at_cell(s) {
            color("Silver") translate([0, 0, cell_z + touch]) load_cell();
            color("SteelBlue") translate([0, 0, cell_top + 2 * touch]) carrier();
        }
        color("Ivory") translate([s * pan_spacing / 2, cell_y, carrier_top + 3 * touch]) pan();
    }
}

if (part == "assembly") assembly();
else if (part == "base") base();
else if (part == "carrier") translate([0, 0, carrier_height]) mirror([0, 0, 1]) carrier();  // top face down
else if (part == "pan") pan();
else if (part == "cell") load_cell();
else assert(false, str("unknown part \"", part, "\"; choose assembly, base, carrier, pan or cell"));

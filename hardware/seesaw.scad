// The weighing seesaw: two pans, each on its own straight-bar load cell, on one base.
//
// Each cell is a cantilever: its fixed end is screwed onto a pedestal of the base,
// its free end carries a "carrier" that reaches back over the cell and holds the
// pan right above the cell's middle (where a single-point bar cell is least
// sensitive to where on the pan a piece stands).  The fixed ends face each other
// so both cables end in the middle, near the electronics bay at the back.
// An adjustable stop (an M3 screw under each carrier's lip, turned with a 2.5 mm hex
// key through the hole in the lip) keeps a hand pressing a pan from overloading its
// cell.  The electronics bay behind the pans has slide-in rails for the two HX711
// boards and the Pico's perfboard, and a cover.  Assembly notes: hardware/assembly.md.
// Renders for the guide: hardware/render.sh writes hardware/images/.
//
// Export the printed parts one by one (print two carriers and two pans):
//   openscad -D 'part="base"'    -o base.stl    hardware/seesaw.scad
//   openscad -D 'part="carrier"' -o carrier.stl hardware/seesaw.scad
//   openscad -D 'part="pan"'     -o pan.stl     hardware/seesaw.scad
//   openscad -D 'part="cover"'   -o cover.stl   hardware/seesaw.scad
// `part="assembly"` (the default) shows everything in place, load cells included;
// `part="exploded"` the same, pulled apart along the order of assembly.
// Every part is exported in its printing orientation, flat face down, no supports.
// All sizes are millimetres.
//
// Measure, then print (hardware/assembly.md#measure-then-print): the numbers of your own
//   cell (callipers, a screw in each end): cell_length, cell_width, cell_height,
//     fixed_thread, free_thread, cell_hole_inset, cell_hole_pitch, cell_clamp;
//   boards: hx711_board, pico_board, plug_height;
//   printer: bed, brim, clearance.
// OpenSCAD refuses sizes that collide (screw heads, clamps, boards, bed) and says which.

/* [What to show] */
part = "assembly"; // [assembly, exploded, base, carrier, pan, cover, cell, cell_mount]

/* [Load cell: a straight bar; measure yours] */
cell_length = 80;      // common 1 kg / 500 g bars: 80 x 12.7 x 12.7
cell_width = 12.7;
cell_height = 12.7;
fixed_thread = 5;      // the tapped holes at the cell's cable end (the fixed end): 5 for M5, 4 for M4
free_thread = 4;       // at its other end, under the carrier (common 1 kg bars: M5 at one end, M4 at the other)
cell_hole_inset = 5;   // from the bar's end to the centre of the outer hole
cell_hole_pitch = 15;  // between the two holes at one end
cell_clamp = 25;       // the end block that may touch a mount (never the middle)

/* [Pans] */
pan_diameter = 70;
pan_spacing = 94;      // between the two pans' centres
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
stop_lip = 11;         // how far the carrier reaches past the free end, over the stop
stop_boss_diameter = 8;
stop_key_hole = 3.2;   // in the lip over the stop: a 2.5 mm hex key reaches the M3 head through it
stop_pilot = 2.8;      // hole for an M3 screw cut into plastic (4.0 for a heat-set insert)
pan_screw_pilot = 2.8; // the M3 screw that holds the pan on its carrier
pan_screw_head = 6.72; // its countersunk head: ISO 10642 M3, largest head diameter (90°)

/* [Electronics bay: boards slide into rails; measure yours] */
hx711_board = [34, 21];   // length x width of one HX711 board (the common green module; the grooves leave 0.2 mm a side)
pico_board = [70, 30];    // the Pico's perfboard (3 x 7 cm); path A leaves this slot empty
pcb_thickness = 1.6;
board_lift = 2;           // the boards' underside above the base: pins and leads under them cut flush
rail_width = 3;
rail_height = 5;
plug_height = 16.5;       // an upright Dupont plug over its board: 2.5 mm header plastic + 14 mm housing
lead_bend = 5;            // room over a plug for its lead to bend
cover_height = 28;        // inside, from the base: the boards, their upright plugs and the leads' bend
cover_wall = 1.6;

/* [Print] */
bed = 220;             // the printer's bed, square (0: do not check)
brim = 8;              // room left on each side of the base for a brim
clearance = 0.4;       // added to screw holes
$fn = 48;

// ---- derived sizes -----------------------------------------------------------

function screw_hole(thread) = thread + clearance;
function head_hole(thread) = thread * 1.8 + 2 * clearance;   // socket-head counterbore
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
bay_min_depth = 38;                                  // room for the boards in their rails, and the cover
slot_depth = max(hx711_board[1], pico_board[1]) - 2 + 2 * rail_width;   // across the bay
slots_length = 2 * hx711_board[0] + pico_board[0] + 4 * 6;          // along it, 6 mm between and at the ends
bay_centre = bay_y + bay_depth / 2;
slot_x = [-(pico_board[0] / 2 + 6 + hx711_board[0] / 2), 0, pico_board[0] / 2 + 6 + hx711_board[0] / 2];
cover_posts = [-(length / 2 - 8), length / 2 - 8];

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
assert(cell_clamp >= cell_hole_inset + cell_hole_pitch + max(fixed_thread, free_thread),
       str("cell_clamp ", cell_clamp, " mm must cover both holes at one end of the cell (they reach ",
           cell_hole_inset + cell_hole_pitch + max(fixed_thread, free_thread), " mm from the end)"));
assert(cell_length - 2 * cell_clamp >= 20,
       str("cell_clamp ", cell_clamp, " mm at each end leaves only ", cell_length - 2 * cell_clamp,
           " mm of the cell's middle free to bend; measure where its bending hole starts (at most ",
           (cell_length - 20) / 2, ")"));
assert(cell_hole_pitch >= head_hole(max(fixed_thread, free_thread)) + 1,
       str("cell_hole_pitch ", cell_hole_pitch, " mm: the two screw heads at one end would collide (their counterbores are ",
           head_hole(max(fixed_thread, free_thread)), " mm across); measure the holes centre to centre"));
assert(cell_hole_inset >= head_hole(fixed_thread) / 2,
       str("cell_hole_inset ", cell_hole_inset, " mm: the outer screw head's counterbore would break out of the pedestal's end; ",
           "measure from the bar's end to the outer hole's centre"));
assert(max(fixed_thread, free_thread) + 2 <= cell_width,
       str("an M", max(fixed_thread, free_thread), " thread does not fit a ", cell_width, " mm bar; check fixed_thread and free_thread"));
assert(bed == 0 || length + 2 * brim <= bed,
       str("the base (", length, " mm) and its brim do not fit a ", bed, " mm bed; use at most ", bed - 2 * brim,
           " (pan_spacing, stop_lip) or set brim"));
assert(slot_depth + 2 * cover_wall + 2 <= bay_depth,
       str("the boards (", slot_depth, " mm with their rails) do not fit the ", bay_depth, " mm bay under its cover"));
assert(slots_length <= length - 2 * 16, str("the boards need ", slots_length, " mm of the bay's length; the base gives ",
                                           length - 32, " between the cover's posts"));
assert(stop_key_hole < 5.5, "stop_key_hole must stay narrower than the M3 stop screw's head (5.5 mm)");
bay_needs = board_lift + pcb_thickness + plug_height + lead_bend;  // inside the cover, from the base
assert(cover_height >= bay_needs, str("cover_height ", cover_height, " mm: the boards' upright Dupont plugs and their leads need ",
                                      bay_needs, " mm under the cover"));
assert(board_lift + pcb_thickness + 0.3 <= rail_height - 0.8, "the rails' grooves need rail_height above board_lift");

echo(str("base ", length, " x ", base_width, " mm; pan surface ", carrier_top + pan_floor, " mm above the table"));
echo(str("electronics bay ", length, " x ", bay_depth, " mm behind the pans, ", bay_y - (cell_y + pan_diameter / 2),
         " mm clear of their edge"));
// Screw lengths: the plastic under the head (grip) plus 6-10 mm into the cell's thread.
fixed_grip = cell_z - fixed_thread;  // the base's counterbore ends fixed_thread above the table
carrier_grip = free_thread;          // the carrier's counterbore starts free_thread above the cell
echo(str("screws: 4 x M", fixed_thread, " from below into the fixed ends, ", fixed_grip + 6, "-", fixed_grip + 10,
         " mm long; 4 x M", free_thread, " from above into the free ends, ", carrier_grip + 6, "-", carrier_grip + 10,
         " mm long"));
echo(str("bay rails: 2 HX711 boards ", hx711_board[0], " x ", hx711_board[1], " mm, perfboard ", pico_board[0], " x ",
         pico_board[1], " mm; cover ", length - 2, " x ", bay_depth - 1, " x ", cover_height + cover_wall,
         " mm on 2 x M3 x 8"));
echo(str("bay clearances: boards ", board_lift, " mm above the base; cover ", cover_height, " mm high inside, upright plugs need ",
         bay_needs));

// ---- one cell and its parts, in the cell's own frame ----------------------------
// Cell frame: the bar runs along x from 0 (fixed end, towards the middle) to
// cell_length (free end, outwards); y is centred; z = 0 is the bar's underside.

module load_cell() {
    difference() {
        cube([cell_length, cell_width, cell_height]);
        for (x = fixed_holes) translate([x, cell_width / 2, -1]) cylinder(d = fixed_thread, h = cell_height + 2);
        for (x = free_holes) translate([x, cell_width / 2, -1]) cylinder(d = free_thread, h = cell_height + 2);
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
            translate([x, cell_width / 2, -1]) cylinder(d = screw_hole(free_thread), h = carrier_height + 2);
            translate([x, cell_width / 2, free_thread]) cylinder(d = head_hole(free_thread), h = carrier_height);
        }
        translate([cell_length / 2, cell_width / 2, carrier_gap + 1])
            cylinder(d = pan_screw_pilot, h = carrier_thickness);
        // the hex key's way to the stop screw's head
        translate([stop_x, cell_width / 2, -1]) cylinder(d = stop_key_hole, h = carrier_height + 2);
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
                translate([x, cell_width / 2, -1]) cylinder(d = screw_hole(fixed_thread), h = cell_z + 2);
                translate([x, cell_width / 2, -1]) cylinder(d = head_hole(fixed_thread), h = fixed_thread + 1);
            }
            translate([stop_x, cell_width / 2, base_thickness])
                cylinder(d = stop_pilot, h = cell_top);
        }
        // a cable-tie slot behind each cell's fixed end for its cable
        for (s = [-1, 1])
            translate([s * (pan_spacing / 2 - cell_length / 2 + cell_clamp + 4) - 1.5, cell_y + cell_width / 2 + 2, -1])
                cube([3, 8, base_thickness + 2]);
        for (x = cover_posts) translate([x, bay_centre, base_thickness]) cylinder(d = 2.8, h = cover_height);
    }
    // the bay: rails the boards slide into, and the cover's posts
    for (i = [0:2]) translate([slot_x[i], bay_centre, base_thickness])
        rails(i == 1 ? pico_board : hx711_board);
    for (x = cover_posts) translate([x, bay_centre, base_thickness]) difference() {
        cylinder(d = 7, h = cover_height - 0.01);
        translate([0, 0, -1]) cylinder(d = 2.8, h = cover_height + 2);
    }
}

// Two rails along x with a groove each that takes 1 mm of a board's long edges; it slides in from an end.
module rails(board) {
    for (s = [-1, 1]) translate([-board[0] / 2, s * (board[1] / 2 - 1 + rail_width / 2) - rail_width / 2, 0])
        difference() {
            cube([board[0], rail_width, rail_height]);
            translate([-1, s < 0 ? rail_width - 1.2 : -0.01, board_lift]) cube([board[0] + 2, 1.21, pcb_thickness + 0.3]);
        }
}

// Over the whole bay, open below; notches let the cells' cables in at the front and the
// Pico's USB cable (or the Dupont leads) out at the back.  Printed top face down.
module cover() {
    outer = [length - 2, bay_depth - 1, cover_height + cover_wall];
    difference() {
        translate([-outer[0] / 2, -outer[1] / 2, 0]) cube(outer);
        translate([-outer[0] / 2 + cover_wall, -outer[1] / 2 + cover_wall, -0.01])
            cube([outer[0] - 2 * cover_wall, outer[1] - 2 * cover_wall, cover_height + 0.01]);
        for (x = [-12, 12]) translate([x - 5, -outer[1] / 2 - 1, -0.01]) cube([10, cover_wall + 2, 8]);  // the cells' cables
        translate([-8, outer[1] / 2 - cover_wall - 1, -0.01]) cube([16, cover_wall + 2, 10]);  // USB or the Dupont leads
        for (x = cover_posts) translate([x, 0, -1]) cylinder(d = 3.4, h = outer[2] + 2);
    }
}

// ---- what to show --------------------------------------------------------------

module assembly(apart = 0) {
    touch = 0.01;  // a hair between parts that touch, so the whole stays a valid solid
    color("BurlyWood") base();
    for (s = [-1, 1]) {
        at_cell(s) {
            color("Silver") translate([0, 0, cell_z + touch + apart]) load_cell();
            color("SteelBlue") translate([0, 0, cell_top + 2 * touch + 2 * apart]) carrier();
            color("DimGray") translate([stop_x, cell_width / 2, stop_boss_top + 0.5 + 0.5 * apart]) stop_screw();
        }
        color("Ivory") translate([s * pan_spacing / 2, cell_y, carrier_top + 3 * touch + 3 * apart]) pan();
    }
    color("DarkGreen") for (i = [0:2]) translate([slot_x[i], bay_centre, base_thickness + board_lift + 0.15 + apart / 3])
        board(i == 1 ? pico_board : hx711_board);
    color([0.4, 0.4, 0.45, 0.5]) translate([0, bay_centre, base_thickness + touch + 2 * apart]) cover();
}

module stop_screw() {  // M3 x 12 socket head, head up (for the pictures)
    translate([0, 0, -12]) cylinder(d = 3, h = 12);
    difference() { cylinder(d = 5.5, h = 3); translate([0, 0, 1]) cylinder(d = 2.9, h = 3, $fn = 6); }
}

module board(size) { translate([-size[0] / 2, -size[1] / 2, 0]) cube([size[0], size[1], pcb_thickness]); }

// One cell on its pedestal with its carrier and stop, the pan lifted off: how the cell is held.
module cell_mount() {
    color("BurlyWood") base();
    at_cell(1) {
        color("Silver") translate([0, 0, cell_z + 0.01]) load_cell();
        color("SteelBlue") translate([0, 0, cell_top + 0.02]) carrier();
        color("DimGray") translate([stop_x, cell_width / 2, stop_boss_top + 0.5]) stop_screw();
    }
}

if (part == "assembly") assembly();
else if (part == "exploded") assembly(25);
else if (part == "base") base();
else if (part == "carrier") translate([0, 0, carrier_height]) mirror([0, 0, 1]) carrier();  // top face down
else if (part == "pan") pan();
else if (part == "cover") translate([0, 0, cover_height + cover_wall]) mirror([0, 0, 1]) cover();  // top face down
else if (part == "cell") load_cell();
else if (part == "cell_mount") cell_mount();
else assert(false, str("unknown part \"", part, "\"; choose assembly, exploded, base, carrier, pan, cover, cell or cell_mount"));

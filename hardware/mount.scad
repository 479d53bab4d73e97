// Keshi Tower Companion - printable mount, parametric source (OpenSCAD 2021+).
//
// Two parts:
//   "cradle"    sits under the tower base: a clear acrylic tray floor on top, a white LED ring just
//               below the floor's rim (outside the camera's view, so its reflection in the acrylic
//               stays out of the picture), and the camera at the bottom looking up through the floor.
//               Its height follows from the camera's field of view and the tray area to see.
//   "beam_clip" clamps around the tower's exit chute and holds the IR emitter and receiver facing
//               each other across it, the receiver behind a narrow slit so every piece breaks the beam.
// Render one part at a time, e.g.:
//   openscad -D 'part="cradle"'    -o cradle.stl    hardware/mount.scad
//   openscad -D 'part="beam_clip"' -o beam_clip.stl hardware/mount.scad
// Print in matte black PETG or PLA (black walls: no stray light), 0.2 mm layers, no supports.

part = "all"; // "cradle" | "beam_clip" | "all"

/* [Tray] */
view_d   = 80;    // diameter of the tray area the camera must see (mm)
floor_d  = 110;   // clear acrylic floor disc (laser cut or bought round)
floor_t  = 3;     // its thickness
fit      = 0.4;   // printing clearance for press fits

/* [Camera] */
// Vertical field of view (deg): Camera Module 3 = 41, Camera Module 3 Wide = 67, Camera Module v2 = 48.8.
cam_vfov   = 41;
view_slack = 1.10;                                   // see 10 % more than view_d
cam_board  = [25, 24];                               // Camera Module 3 / v2 board (mm)
cam_holes  = [[2, 2], [23, 2], [2, 14.5], [23, 14.5]]; // M2 holes, from the board's top-left corner
lens_at    = [12.5, 9.5];                            // lens centre, same frame
lens_hole_d = 11;
standoff_h  = 2.5;                                   // room for parts on the board's back
csi_slot    = [18, 3];                               // ribbon cable slot (width, height)

/* [Light] */
ring_od   = 100;  // LED ring outer diameter
ring_id   = 88;   // LED ring inner diameter: must be >= view_d * view_slack
ring_t    = 3.5;  // LED ring thickness
ring_drop = 8;    // ring surface this far below the floor's underside

/* [Box] */
wall   = 2.4;
base_t = 3;
ear_r  = 7;       // three screw ears (M3) to fix the cradle under the tower base
m3_d   = 3.4;

/* [Beam clip] */
exit_w     = 40;   // inner width of the tower's exit chute (the beam crosses this)
exit_d     = 30;   // how deep the clip reaches along the chute
clip_h     = 14;
clip_wall  = 7;    // the LED bodies sit in these walls
beam_led_d = 3.1;  // 3.1 for the 3 mm break-beam pair, 5.1 for the 5 mm pair
beam_z     = 7;    // beam height above the clip's bottom
slit_w     = 1.5;  // receiver aperture: narrower than a keshi, wider than the beam's wobble

$fn = 96;

// Lens to the floor's underside: the cone of the camera's vertical view just covers the tray area.
cam_dist = view_slack * (view_d / 2) / tan(cam_vfov / 2);
box_h    = base_t + standoff_h + cam_dist + floor_t;
outer_d  = floor_d + 2 * wall;

assert(ring_id >= view_d * view_slack, "ring_id must clear the camera's view, or the ring shows in the frame");
assert(ring_od + 1 < floor_d, "the floor must rest on a ledge outside the LED ring");

module cradle() {
    difference() {
        union() {
            cylinder(d = outer_d, h = box_h);
            for (a = [90, 210, 330]) rotate(a) translate([outer_d / 2, 0, box_h - base_t])
                cylinder(r = ear_r, h = base_t);
        }
        // floor rebate, ring bay, then the view bore down to the camera
        translate([0, 0, box_h - floor_t]) cylinder(d = floor_d + fit, h = floor_t + 1);
        translate([0, 0, box_h - floor_t - ring_drop - ring_t]) cylinder(d = ring_od + 1, h = ring_drop + ring_t + 0.01);
        translate([0, 0, base_t]) cylinder(d = ring_id, h = box_h);
        // lens hole and camera screw holes in the base
        translate([0, 0, -1]) cylinder(d = lens_hole_d, h = base_t + 2);
        for (h = cam_holes) translate([h[0] - lens_at[0], -(h[1] - lens_at[1]), -1]) cylinder(d = 2.2, h = base_t + 2);
        // ribbon slot at the base, ring wires at the ring bay
        translate([0, -outer_d / 2 - 1, base_t]) translate([-csi_slot[0] / 2, 0, 0]) cube([csi_slot[0], wall + 2 + 5, csi_slot[1]]);
        translate([outer_d / 2 - wall - 1, -2, box_h - floor_t - ring_drop - ring_t]) cube([wall + 2, 4, ring_t + 2]);
        // M3 holes in the ears
        for (a = [90, 210, 330]) rotate(a) translate([outer_d / 2, 0, box_h - base_t - 1]) cylinder(d = m3_d, h = base_t + 2);
    }
    // camera standoffs, on the base inside the box; the camera faces up through the lens hole
    for (h = cam_holes) translate([h[0] - lens_at[0], -(h[1] - lens_at[1]), base_t])
        difference() { cylinder(d = 5, h = standoff_h); cylinder(d = 1.8, h = standoff_h + 1); }
}

module beam_clip() {
    outer = [exit_w + 2 * clip_wall, exit_d + clip_wall, clip_h];
    difference() {
        translate([-outer[0] / 2, 0, 0]) cube(outer);
        // the chute the clip slides over
        translate([-(exit_w + fit) / 2, -1, -1]) cube([exit_w + fit, exit_d + 1, clip_h + 2]);
        // emitter bore (left wall) and receiver bore (right wall), coaxial across the chute
        translate([-outer[0] / 2 - 1, exit_d / 2, beam_z]) rotate([0, 90, 0]) cylinder(d = beam_led_d, h = clip_wall - 1 + 1);
        translate([(exit_w + fit) / 2 + 1, exit_d / 2, beam_z]) rotate([0, 90, 0]) cylinder(d = beam_led_d, h = clip_wall);
        // the 1 mm walls left in front of each LED: a slit for the receiver, a round window for the emitter
        translate([(exit_w + fit) / 2 - 0.5, exit_d / 2 - slit_w / 2, beam_z - beam_led_d / 2]) cube([2, slit_w, beam_led_d]);
        translate([-(exit_w + fit) / 2 - 1.5, exit_d / 2, beam_z]) rotate([0, 90, 0]) cylinder(d = 2, h = 2);
        // wire grooves along the outside back
        for (s = [-1, 1]) translate([s * (outer[0] / 2) - 1.5, exit_d / 2, beam_z]) cube([3, exit_d / 2 + clip_wall + 1, 2.5], center = false);
    }
}

if (part == "cradle" || part == "all") cradle();
if (part == "beam_clip") beam_clip();
if (part == "all") translate([outer_d / 2 + exit_w, 0, 0]) beam_clip();

echo(str("camera lens to floor: ", cam_dist, " mm; cradle height: ", box_h, " mm"));

// The pod's enclosure (OpenSCAD), every position from the board file:
// board_dims.scad is generated from hardware/pcb/pod.kicad_pcb by board_dims.py.
//
//   openscad -D 'part="top"' -D ring_px=12 -D has_oled=false -o top.stl pod.scad
//       parts: bottom, top, hood, caps, diffuser, board, screen (the OLED's active area), leds (the ring's LEDs)
//   python hardware/enclosure/build.py                   every variant, their checks and the renders
//
// Two shells clamp the carrier board between them: four M3 x 10 screws go up
// through the bottom shell's bosses and the board's holes into heat-set
// inserts in the top shell's posts. The ring lies in a pocket in the top
// face, under a printed diffuser, in a hood (back wall, side walls, a roof over
// its back half) that the opponent cannot see into; the player looks in
// from the front. The top shell's outside is flat but for its recesses, so it
// prints face down with no support; the hood is a part of its own (printed on
// its back wall), pegged and glued into the top face. Printed caps sit on the switches and stand 1.5 mm proud of
// the top; a window shows the OLED; the USB plug goes in through the back
// wall and the cable is tied to the bottom shell's tongue behind it.
//
// Variants come from the pin map (build.py reads it): ring_px picks the rim
// and diffuser of the 12- or the 16-pixel ring; has_oled cuts the OLED's
// window, a slot through the top face that leans towards the player: its
// front face is no steeper than the lowest seated player's line of sight to
// the screen (player_lo), its back face no shallower than the highest one's
// (player_hi), so both see the whole screen and anyone behind the pod, at any
// height, looks at the slot's back face instead (build.py casts the rays).
include <board_dims.scad>

part = "assembly";
ring_px = 16;     // the pin map's ring.pixels: 12 or 16 (board_dims.scad: rings)
has_oled = true;  // the pin map lists an OLED
player_lo = 31;   // degrees: the line from the screen to a player's eye 40 cm in front, 25 cm over the table
player_hi = 42;   // ... and 35 cm over the table (build.py's named eyes)
$fn = 64;

floor_t = 2;      // bottom shell's floor
standoff = 5;     // floor to the board's underside (room for the through-hole leads)
board_t = 1.6;
gap = 0.8;        // board edge to the inner wall
wall = 2.2;
top_t = 2;        // the top face
headroom = 19;    // board top to the outside of the top face (the Pico's USB plug is the tallest)
boss_d = 7;
screw_d = 3.4;    // M3 clearance
head_d = 6.4;     // counterbore for an ISO 7380 / DIN 912 M3 head
head_h = 3;
insert_d = 4.0;   // M3 heat-set insert, 5.7 mm long
insert_h = 6.2;
cap_play = 0.3;   // radial play of a cap in its hole
ringspec = [for (r = rings) if (r[0] == ring_px) r][0];
ring_od = ringspec[1];
ring_id = ringspec[2];
ring_t = ringspec[4];
ring_play = 0.25; // radial play of the ring in its pocket (build.py: < 0.5 mm)
ring_pocket = ring_t + 0.8;  // the pocket's depth: the LEDs 0.8 mm under the top face
seat = 0.6;       // the diffuser lies in a recess this deep round the pocket: 0.2 mm over the LEDs
diff_t = 1.2;     // the diffuser's thickness (white PETG)
rim_w = 1.6;      // the diffuser's overlap on the top face round the pocket
opponent_steep = 55;  // degrees: the steepest line from the ring to an opponent's eye (build.py: leaning in)
hood_wall = 3;
roof_t = 2;

BW = board_size[0];
BH = board_size[1];
BR = board_size[2];
z_bb = floor_t + standoff;     // the board's underside
z_bt = z_bb + board_t;         // the board's top
z_top = z_bt + headroom;       // the top face, outside
z_ceil = z_top - top_t;        // the top face, inside
rx = ring[0];
ry = ring[1];
rr = ring_od / 2;   // the fitted ring's outer radius
rim_in = rr + ring_play;       // the pocket's radius
seat_r = rim_in + rim_w;       // the diffuser's recess
ring_boss = rim_in + 1.2;      // the top face, thickened under the pocket
// The hood over the ring: its roof's front edge is as far forward as lets no line from the diffuser over the
// LEDs reach an eye behind the pod at opponent_steep or flatter; the players, in front and lower, look in
// under it. A larger ring needs a taller hood for the player to still see most of it (build.py checks both).
hood_h = ring_px > 12 ? 26 : 24;  // over the top face
diffuser_top = diff_t - seat;     // over the top face
led_out = ringspec[3] + 1.5;      // the LEDs' light reaches this far from the centre

function cap_d(name) = name == "READY" ? 13 : 11;

module outline(grow) {
    // the board's rounded rectangle, grown by grow
    translate([BR, BR]) offset(r = grow) square([BW - 2 * BR, BH - 2 * BR]);
    if (grow < 0) square(0);
}
module rounded(grow, z0, z1) {
    translate([0, 0, z0]) linear_extrude(z1 - z0) offset(r = BR + grow) translate([BR, BR]) square([BW - 2 * BR, BH - 2 * BR]);
}

module bottom() {
    difference() {
        union() {
            difference() {
                rounded(gap + wall, 0, z_bt);
                rounded(gap, floor_t, z_bt + 1);
            }
            for (h = holes) translate([h[0], h[1], 0]) cylinder(d = boss_d, h = z_bb);
            tongue();
        }
        for (h = holes) translate([h[0], h[1], -1]) {
            cylinder(d = screw_d, h = z_bb + 2);
            cylinder(d = head_d, h = head_h + 1);
        }
        tie_slots();
    }
}

// strain relief: a tongue behind the USB plug, a cable tie through its two slots holds the cable
tongue_l = 18;
tongue_w = 16;
tongue_t = 3;
module tongue() {
    translate([usb[0] - tongue_w / 2, BH + gap + wall - 0.01, 0]) cube([tongue_w, tongue_l, tongue_t]);
}
module tie_slots() {
    for (dx = [-5.5, 5.5]) translate([usb[0] + dx - 1, BH + gap + wall + tongue_l - 8, -1]) cube([2, 4, tongue_t + 2]);
}

module top() {
    difference() {
        union() {
            difference() {
                rounded(gap + wall, z_bt, z_top);
                rounded(gap, z_bt - 1, z_ceil);
            }
            for (h = holes) translate([h[0], h[1], z_bt]) cylinder(d = boss_d, h = z_ceil - z_bt + 0.01);
            // the top face, thickened under the ring's pocket (J1 and C2 below stay clear: build.py's fit check),
            // cut back where the OLED module comes close under its front
            intersection() {
                translate([rx, ry, z_top - ring_pocket - 1.6]) cylinder(r = ring_boss, h = ring_pocket + 1.6 - top_t + 0.01);
                translate([0, has_oled ? oled[1] + 6.6 : 0, 0]) cube([BW, BH, z_top]);
            }
        }
        // the ring's pocket and the diffuser's recess round it
        translate([rx, ry, z_top - ring_pocket]) cylinder(r = rim_in, h = ring_pocket + 1);
        translate([rx, ry, z_top - seat]) cylinder(r = seat_r, h = seat + 1);
        // the hood's pegs
        for (p = hood_pegs) translate([p[0], p[1], z_ceil - 1]) cylinder(d = peg_d + 0.3, h = top_t + 2);
        for (h = holes) translate([h[0], h[1], z_bt - 0.01]) cylinder(d = insert_d, h = insert_h);
        for (s = switches) translate([s[0], s[1], z_ceil - 1]) cylinder(d = cap_d(s[2]) + 2 * cap_play, h = top_t + 2);
        if (has_oled) oled_window();
        // the ring's wires, down through its middle to J1
        translate([rx, ry, z_top - ring_pocket - 3]) cylinder(d = 8, h = ring_pocket + 4);
        // the USB plug, through the back wall
        translate([usb[0] - usb[3] / 2 - 0.5, BH + gap - 1, z_bt + usb[2] - usb[4] / 2 - 0.5])
            cube([usb[3] + 1, wall + 2, usb[4] + 1]);
    }
}

// The OLED's window: a slot through the top face. Its front face passes
// 0.3 mm in front of the active area's front edge at the glass's height
// and rises towards the player at player_lo; its back face passes over the
// active area's back edge and rises at player_hi, overhanging the glass:
// from behind the pod a line to any point of the screen meets the back face
// (or the top face's underside) before it gets out.
module oled_window() {
    g0 = oled[1] - oled[3] / 2;
    g1 = oled[1] + oled[3] / 2;
    zg = z_bt + oled[4];
    x0 = oled[0] - oled[2] / 2 - 1.2;
    x1 = oled[0] + oled[2] / 2 + 1.2;
    function front(z) = g0 - 0.3 - (z - zg) / tan(player_lo);
    function back(z) = g1 - (z - zg) / tan(player_hi);
    hull() for (z = [z_ceil - 1, z_top + 1])
        translate([x0, front(z), z]) cube([x1 - x0, back(z) - front(z), 0.01]);
}

// the hood: a back wall and two side walls round the ring, and a roof over the
// back of it, open to the player's side
hx0 = rx - rr - 3 - hood_wall;
hx1 = rx + rr + 3 + hood_wall;
hy0 = ry - rr - 2;
hy1 = ry + rr + 3 + hood_wall;
roof_front = ry - led_out + (hood_h - roof_t - diffuser_top) / tan(opponent_steep) - 0.5;
peg_d = 2.2;
peg_h = 1.8;
hood_pegs = [[hx0 + hood_wall / 2, hy0 + 3], [hx1 - hood_wall / 2, hy0 + 3],
             [hx0 + hood_wall / 2, hy1 - hood_wall - 3], [hx1 - hood_wall / 2, hy1 - hood_wall - 3]];
module hood() {
    for (p = hood_pegs) translate([p[0], p[1], z_top - peg_h]) cylinder(d = peg_d, h = peg_h + 0.01);
    difference() {
        translate([hx0, hy0, z_top]) cube([hx1 - hx0, hy1 - hy0, hood_h]);
        translate([hx0 + hood_wall, hy0 - 1, z_top - 1]) cube([hx1 - hx0 - 2 * hood_wall, hy1 - hy0 - hood_wall + 1, hood_h - roof_t + 1]);
        translate([hx0 + hood_wall, hy0 - 1, z_top + hood_h - roof_t - 1]) cube([hx1 - hx0 - 2 * hood_wall, roof_front - hy0 + 1, roof_t + 2]);
    }
}

// a cap per switch: stands on the actuator, out through the top face, a flange keeps it in
z_act = z_bt + 7.3;  // Omron B3F-4055 actuator top
flange = 1.5;
module cap(s) {
    d = cap_d(s[2]);
    translate([s[0], s[1], z_act]) difference() {
        union() {
            cylinder(d = d + 3, h = 1.2);
            cylinder(d = d, h = z_top + 1.5 - z_act);
        }
        translate([0, 0, -1]) cylinder(d = 4.2, h = 2.5);  // centres it on the actuator
    }
}
module caps() { for (s = switches) cap(s); }

module diffuser() {
    // white PETG: a flat ring in the recess round the pocket, 0.2 mm over the LEDs, holding the ring in;
    // its hole is inside the ring's, so every LED is under it (build.py checks both rings)
    translate([rx, ry, z_top - seat]) difference() {
        cylinder(r = seat_r - 0.15, h = diff_t);
        translate([0, 0, -1]) cylinder(r = ring_id / 2 - 1, h = diff_t + 2);
    }
}

// the OLED's active area at its glass's top (the renders' screen, the sight checks' target)
module screen() {
    translate([oled[0] - oled[2] / 2, oled[1] - oled[3] / 2, z_bt + oled[4] - 0.2]) cube([oled[2], oled[3], 0.2]);
}

// the ring's LEDs as fitted: 5050 packages on the ring, pixel 0 at 12 o'clock (towards the back wall),
// clockwise seen from above
module leds() {
    led_r = ringspec[3];
    s = ringspec[5];
    for (i = [0 : ring_px - 1]) translate([rx, ry, z_top - ring_pocket + ring_t - 1.6])
        rotate([0, 0, -360 * i / ring_px]) translate([-s / 2, led_r - s / 2, 0]) cube([s, s, 1.6]);
}

// the carrier with its tall parts, as boxes (for the pictures and the fit check)
module board() {
    translate([0, 0, z_bb]) linear_extrude(board_t) offset(r = BR) translate([BR, BR]) square([BW - 2 * BR, BH - 2 * BR]);
    for (p = parts) translate([p[1], p[2], z_bt]) cube([p[3] - p[1], p[4] - p[2], p[5]]);
}

if (part == "bottom") bottom();
else if (part == "top") top();
else if (part == "hood") hood();
else if (part == "caps") caps();
else if (part == "diffuser") diffuser();
else if (part == "board") board();
else if (part == "screen") screen();
else if (part == "leds") leds();
else { bottom(); top(); hood(); caps(); diffuser(); color("green") board(); }

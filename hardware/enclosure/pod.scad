// The pod's enclosure (OpenSCAD), every position from the board file:
// board_dims.scad is generated from hardware/pcb/pod.kicad_pcb by board_dims.py.
//
//   openscad -D 'part="top"' -o top.stl pod.scad        parts: bottom, top, caps, diffuser, board
//   python hardware/enclosure/build.py                   all parts, their checks and the renders
//
// Two shells clamp the carrier board between them: four M3 x 10 screws go up
// through the bottom shell's bosses and the board's holes into heat-set
// inserts in the top shell's posts. The ring lies on the top face inside a
// rim, under a printed diffuser, in a hood (back wall, side walls, a roof over
// its back half) that the opponent cannot see into; the player looks in
// from the front. Printed caps sit on the switches and stand 1.5 mm proud of
// the top; a window shows the OLED; the USB plug goes in through the back
// wall and the cable is tied to the bottom shell's tongue behind it.
include <board_dims.scad>

part = "assembly";
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
ring_rim_h = 4;   // the ring (3.2 mm) sits inside this rim; the diffuser rests on it
rim_w = 1.6;
hood_h = 24;      // hood height over the top face
hood_wall = 2;
roof_t = 2;
roof_cover = 20;  // the roof starts this far behind the ring's front edge (mm): build.py checks the sight lines
ring_in_r = 15.9; // the 16-pixel ring's inner radius (Adafruit 1463: 31.75 mm inside)

BW = board_size[0];
BH = board_size[1];
BR = board_size[2];
z_bb = floor_t + standoff;     // the board's underside
z_bt = z_bb + board_t;         // the board's top
z_top = z_bt + headroom;       // the top face, outside
z_ceil = z_top - top_t;        // the top face, inside
rx = ring[0];
ry = ring[1];
rr = ring[2];

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
            // the ring's rim on the top face
            translate([rx, ry, z_top - 0.01]) difference() {
                cylinder(r = rr + 0.5 + rim_w, h = ring_rim_h);
                translate([0, 0, -1]) cylinder(r = rr + 0.5, h = ring_rim_h + 2);
            }
            hood();
        }
        for (h = holes) translate([h[0], h[1], z_bt - 0.01]) cylinder(d = insert_d, h = insert_h);
        for (s = switches) translate([s[0], s[1], z_ceil - 1]) cylinder(d = cap_d(s[2]) + 2 * cap_play, h = top_t + 2);
        // the OLED's window, 1 mm round its active area, chamfered outwards
        translate([oled[0], oled[1], z_ceil - 0.01])
            linear_extrude(top_t + 0.02, scale = [(oled[2] + 4) / (oled[2] + 2), (oled[3] + 4) / (oled[3] + 2)])
                square([oled[2] + 2, oled[3] + 2], center = true);
        // the ring's wires, down through its middle to J1
        translate([rx, ry, z_ceil - 1]) cylinder(d = 8, h = top_t + 2);
        // the USB plug, through the back wall
        translate([usb[0] - usb[3] / 2 - 0.5, BH + gap - 1, z_bt + usb[2] - usb[4] / 2 - 0.5])
            cube([usb[3] + 1, wall + 2, usb[4] + 1]);
    }
}

// the hood: a back wall and two side walls round the ring, and a roof over the
// back of it, open to the player's side
hx0 = rx - rr - 3 - hood_wall;
hx1 = rx + rr + 3 + hood_wall;
hy0 = ry - rr - 2;
hy1 = ry + rr + 3 + hood_wall;
roof_front = ry - rr + roof_cover;
module hood() {
    difference() {
        translate([hx0, hy0, z_top - 0.01]) cube([hx1 - hx0, hy1 - hy0, hood_h]);
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
    // white PETG, 1 mm: lies on the rim, a lip inside the rim keeps it centred
    translate([rx, ry, z_top + ring_rim_h]) difference() {
        union() {
            cylinder(r = rr + 0.5 + rim_w, h = 1);
            translate([0, 0, -1.5]) cylinder(r = rr + 0.3, h = 1.6);
        }
        translate([0, 0, -2]) cylinder(r = ring_in_r - 1, h = 4);
        translate([0, 0, -2]) difference() {
            cylinder(r = rr - 0.5, h = 2);
            cylinder(r = ring_in_r - 0.5, h = 2);
        }
    }
}

// the carrier with its tall parts, as boxes (for the pictures and the fit check)
module board() {
    translate([0, 0, z_bb]) linear_extrude(board_t) offset(r = BR) translate([BR, BR]) square([BW - 2 * BR, BH - 2 * BR]);
    for (p = parts) translate([p[1], p[2], z_bt]) cube([p[3] - p[1], p[4] - p[2], p[5]]);
}

if (part == "bottom") bottom();
else if (part == "top") top();
else if (part == "caps") caps();
else if (part == "diffuser") diffuser();
else if (part == "board") board();
else { bottom(); top(); caps(); diffuser(); color("green") board(); }

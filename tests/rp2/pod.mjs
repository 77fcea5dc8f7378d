// One emulated Raspberry Pi Pico (rp2040js, 125 MHz, cycle-counted) running
// MicroPython's rp2 image with the pod firmware in its littlefs, driven over
// stdin/stdout by tests/rp2/emu.py (one command a line, replies end in "ok").
//
//   node pod.mjs BOOTROM FIRMWARE FSIMAGE [FS_OFFSET]
//   node pod.mjs BOOTROM POD.UF2            (a whole image: lumen pod image)
//
// commands                      replies (times are emulated microseconds)
//   run MS                      rx T HEX (USB CDC bytes from the pod), tx T N
//                               (N bytes handed to the pod), px T (a WS2812
//                               frame began on the ring pin), then ok T
//   write HEX                   queued for the pod's USB bulk-OUT endpoint -> ok T
//   pin GPIO 0|1                drive an input pin (buttons: 0 = pressed) -> ok T
//   stats                       busy=NS idle=NS (CPU executing vs asleep in WFE
//                               since the last stats) connected=0|1 -> ok T
//   quit
//
// The host answers a bulk-OUT read only when it has bytes: rp2040js's stock
// USBCDC completes every armed read at once with 0 bytes, an interrupt storm
// (~39 kHz) that a real host never causes.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';

const [bootromPath, firmwarePath, fsPath, fsOffsetArg] = process.argv.slice(2);
const FS_OFFSET = fsOffsetArg ? Number(fsOffsetArg) : 0xa0000;
const RING_PIN = Number(process.env.LUMEN_RING_PIN || 16);
const BUTTON_PINS = (process.env.LUMEN_BUTTON_PINS || '10,11,12,13').split(',').map(Number);
const WS2812_RESET_NS = 50_000; // a low gap this long ends a frame

const sim = new Simulator();
const mcu = sim.rp2040;
const clock = sim.clock;
mcu.logger = new ConsoleLogger(LogLevel.Error);
const rom = readFileSync(bootromPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
if (firmwarePath.endsWith('.uf2')) loadUf2(readFileSync(firmwarePath));
else {
  mcu.flash.set(readFileSync(firmwarePath), 0);
  mcu.flash.set(readFileSync(fsPath), FS_OFFSET);
}

// as the RP2040 boot ROM takes a dragged file: each RP2040-family block's
// payload to flash at its address (UF2 spec: 512-byte blocks, 32-byte header)
function loadUf2(buf) {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.length);
  let n = 0;
  for (let off = 0; off + 512 <= buf.length; off += 512) {
    const magic = [v.getUint32(off, true), v.getUint32(off + 4, true), v.getUint32(off + 508, true)];
    if (magic[0] !== 0x0a324655 || magic[1] !== 0x9e5d5157 || magic[2] !== 0x0ab16f30) throw new Error(`bad UF2 block at ${off}`);
    const flags = v.getUint32(off + 8, true);
    const addr = v.getUint32(off + 12, true);
    const size = v.getUint32(off + 16, true);
    if (flags & 1 || (flags & 0x2000 && v.getUint32(off + 28, true) !== 0xe48bff56)) continue;
    mcu.flash.set(buf.subarray(off + 32, off + 32 + size), addr - 0x10000000);
    n += 1;
  }
  if (n === 0) throw new Error('no RP2040 blocks in the UF2 file');
}
for (const p of BUTTON_PINS) mcu.gpio[p].setInputValue(true); // released (pull-ups)

const cdc = new USBCDC(mcu.usbCtrl);
let connected = false;
cdc.onDeviceConnected = () => { connected = true; };
const events = [];
const us = () => Math.floor(clock.nanos / 1000);
cdc.onSerialData = (buf) => { events.push(`rx ${us()} ${Buffer.from(buf).toString('hex')}`); };

// host side of bulk-OUT: hold the pod's read until there is something to send
const txq = [];
let armed = -1;
mcu.usbCtrl.onEndpointRead = (ep, size) => {
  if (ep === cdc.outEndpoint) {
    armed = size;
    serve();
  }
};
function serve() {
  if (armed < 0 || txq.length === 0) return;
  const n = Math.min(armed, txq.length);
  armed = -1;
  events.push(`tx ${us()} ${n}`);
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, Uint8Array.from(txq.splice(0, n)));
}

// WS2812 frames on the ring pin: a burst of pulses after a reset gap
let lastEdge = 0;
mcu.gpio[RING_PIN].addListener((state) => {
  const t = clock.nanos;
  if (state === 1 && t - lastEdge > WS2812_RESET_NS) events.push(`px ${us()}`);
  lastEdge = t;
});

let busy = 0;
let idle = 0;
const core = mcu.core;
core.PC = 0x10000000;

function runFor(ms) {
  const end = clock.nanos + ms * 1e6;
  const cycleNanos = 1e9 / 125e6;
  while (clock.nanos < end) {
    if (core.waiting) {
      const dt = Math.max(1, Math.min(clock.nanosToNextAlarm, end - clock.nanos));
      clock.tick(dt);
      idle += dt;
    } else {
      const c = core.executeInstruction() * cycleNanos;
      clock.tick(c);
      busy += c;
    }
  }
}

function flush(lines) {
  process.stdout.write(lines.join('\n') + '\n');
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const [cmd, a, b] = line.trim().split(/\s+/);
  const out = [];
  if (cmd === 'run') {
    runFor(Number(a));
  } else if (cmd === 'write') {
    for (let i = 0; i < a.length; i += 2) txq.push(parseInt(a.slice(i, i + 2), 16));
    serve();
  } else if (cmd === 'pin') {
    mcu.gpio[Number(a)].setInputValue(b === '1');
  } else if (cmd === 'stats') {
    out.push(`stats busy=${Math.round(busy)} idle=${Math.round(idle)} connected=${connected ? 1 : 0}`);
    busy = 0;
    idle = 0;
  } else if (cmd === 'quit') {
    process.exit(0);
  } else {
    out.push(`err unknown command ${cmd}`);
  }
  out.push(...events.splice(0));
  out.push(`ok ${us()}`);
  flush(out);
});

// One emulated Raspberry Pi Pico (rp2040js, 125 MHz, cycle-counted) running
// MicroPython's rp2 image with the pod firmware in its littlefs, driven over
// stdin/stdout by tests/rp2/emu.py (one command a line, replies end in "ok").
//
//   node pod.mjs BOOTROM FIRMWARE FSIMAGE [FS_OFFSET]
//   node pod.mjs BOOTROM POD.UF2            (a whole image: lumen pod image)
//
// commands                      replies (times are emulated microseconds)
//   run MS                      rx T HEX (USB CDC bytes from the pod), tx T N
//                               (N bytes handed to the pod), px T GRBHEX (a
//                               WS2812 frame on the ring pin, decoded), tone T
//                               HZ MS (the piezo), vibe T 0|1 (the motor's
//                               switch), i2c T N and oled H HEX (the SSD1306
//                               on I2C0), then ok T
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
const WS2812_ONE_NS = 600; // a high pulse longer than this is a 1 bit (0: ~400 ns, 1: ~800 ns)
const PIEZO_PIN = Number(process.env.LUMEN_PIEZO_PIN || 15);
const VIBE_PIN = Number(process.env.LUMEN_VIBE_PIN || 14);
const TONE_GAP_NS = 5_000_000;
const OLED_ADDR = Number(process.env.LUMEN_OLED_ADDR || 0x3c); // 0: nothing on the bus

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

// WS2812 frames on the ring pin, decoded from the bitstream as the LEDs read
// it: a high pulse longer than WS2812_ONE_NS is a 1, shorter a 0; 24 bits a
// pixel (G R B, most significant bit first); a low gap past the reset time
// ends the frame. Reported as px T GRBHEX (T: when the frame began).
let lastEdge = 0;
let riseAt = 0;
let frameAt = -1;
let bits = [];
function endFrame() {
  if (frameAt < 0) return;
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) {
    let b = 0;
    for (let k = 0; k < 8; k++) b = (b << 1) | bits[i + k];
    bytes.push(b);
  }
  events.push(`px ${Math.floor(frameAt / 1000)} ${Buffer.from(bytes).toString('hex') || '-'}`);
  frameAt = -1;
  bits = [];
}
mcu.gpio[RING_PIN].addListener((state) => {
  const t = clock.nanos;
  if (state === 1) {
    if (t - lastEdge > WS2812_RESET_NS) {
      endFrame();
      frameAt = t;
    }
    riseAt = t;
  } else if (frameAt >= 0) {
    bits.push(t - riseAt > WS2812_ONE_NS ? 1 : 0);
  }
  lastEdge = t;
});

// The piezo: rising edges of its PWM on PIEZO_PIN, grouped into tones (a gap
// of TONE_GAP_NS ends one): tone T HZ MS, the frequency measured from the edges
let toneFirst = -1;
let toneLast = 0;
let toneEdges = 0;
function endTone() {
  if (toneFirst < 0) return;
  const span = toneLast - toneFirst;
  const hz = toneEdges > 1 ? ((toneEdges - 1) * 1e9) / span : 0;
  events.push(`tone ${Math.floor(toneFirst / 1000)} ${Math.round(hz)} ${Math.round(span / 1e6)}`);
  toneFirst = -1;
  toneEdges = 0;
}
mcu.gpio[PIEZO_PIN].addListener((state) => {
  if (state !== 1) return;
  const t = clock.nanos;
  if (toneFirst >= 0 && t - toneLast > TONE_GAP_NS) endTone();
  if (toneFirst < 0) toneFirst = t;
  toneLast = t;
  toneEdges++;
});

// The vibration motor's switch (its transistor's gate) on VIBE_PIN: vibe T 1|0 at each
// change of the pin as an output
let vibeLevel = -1;
mcu.gpio[VIBE_PIN].addListener((state) => {
  const level = state === 1 ? 1 : state === 0 ? 0 : -1;
  if (level < 0 || level === vibeLevel) return;
  vibeLevel = level;
  events.push(`vibe ${Math.floor(clock.nanos / 1000)} ${level}`);
});

// An SSD1306 at OLED_ADDR on I2C0 (the pin map's bus), as tests/firmware's
// model (firmware/sim/ssd1306.py): control byte, commands with arguments,
// horizontal and page addressing, 128 x 64 display RAM. The bus runs at
// 400 kHz: each byte completes 9 clocks (22.5 us) after it was sent.
// Reported: i2c T N (a write of N bytes ended at T), and oled H HEX at the
// end of a run when the RAM changed.
const OLED_ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 };
const oled = { ram: new Uint8Array(1024), h: 64, mode: 2, c0: 0, c1: 127, p0: 0, p1: 7, col: 0, page: 0, on: false,
  cmd: [], changed: false, present: OLED_ADDR > 0 };
function oledCommand(b) {
  const c = oled.cmd;
  c.push(b);
  if (c.length - 1 < (OLED_ARGS[c[0]] || 0)) return;
  const op = c[0];
  if (op === 0x20) oled.mode = c[1] & 3;
  else if (op === 0x21) { oled.c0 = c[1] & 127; oled.c1 = c[2] & 127; oled.col = oled.c0; }
  else if (op === 0x22) { oled.p0 = c[1] & 7; oled.p1 = c[2] & 7; oled.page = oled.p0; }
  else if (op === 0xa8) oled.h = c[1] + 1;
  else if (op === 0xae) oled.on = false;
  else if (op === 0xaf) { oled.on = true; oled.changed = true; }
  else if (op >= 0xb0 && op <= 0xb7) oled.page = op & 7;
  else if (op <= 0x0f) oled.col = (oled.col & 0xf0) | op;
  else if (op <= 0x1f) oled.col = (oled.col & 0x0f) | ((op & 0x0f) << 4);
  oled.cmd = [];
}
function oledData(b) {
  oled.ram[oled.page * 128 + oled.col] = b;
  oled.changed = true;
  if (oled.mode === 0) {
    if (oled.col >= oled.c1) {
      oled.col = oled.c0;
      oled.page = oled.page >= oled.p1 ? oled.p0 : oled.page + 1;
    } else oled.col++;
  } else oled.col = (oled.col + 1) & 127;
}
function oledWrite(buf) {
  let i = 0;
  while (i < buf.length) {
    const ctrl = buf[i++];
    const end = ctrl & 0x80 ? i + 1 : buf.length;
    while (i < end && i < buf.length) {
      if (ctrl & 0x40) oledData(buf[i]);
      else oledCommand(buf[i]);
      i++;
    }
  }
}
const i2c = mcu.i2c[0];
let i2cBuf = null;
const later = (ns, fn) => clock.createAlarm(fn).schedule(ns);
i2c.onStart = () => later(2500, () => i2c.completeStart());
i2c.onConnect = (address, mode) => {
  const ack = oled.present && address === OLED_ADDR && mode === 0;
  i2cBuf = ack ? [] : null;
  later(22500, () => i2c.completeConnect(ack));
};
i2c.onWriteByte = (value) => {
  if (i2cBuf) i2cBuf.push(value);
  later(22500, () => i2c.completeWrite(i2cBuf !== null));
};
i2c.onReadByte = () => later(22500, () => i2c.completeRead(0xff));
i2c.onStop = () => {
  if (i2cBuf && i2cBuf.length) {
    oledWrite(i2cBuf);
    events.push(`i2c ${us()} ${i2cBuf.length}`);
  }
  i2cBuf = null;
  later(2500, () => i2c.completeStop());
};
function oledReport() {
  if (!oled.changed) return;
  oled.changed = false;
  events.push(`oled ${oled.h} ${Buffer.from(oled.ram.subarray(0, oled.h * 16)).toString('hex')}`);
}

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
    if (frameAt >= 0 && clock.nanos - lastEdge > WS2812_RESET_NS) endFrame();
    if (toneFirst >= 0 && clock.nanos - toneLast > TONE_GAP_NS) endTone();
    oledReport();
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

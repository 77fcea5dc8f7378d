// What makes the display better than the phone calculator (issue 12, points 9, 11, 12;
// issue 22, points 4, 7, 13): the TV/kiosk view (/?tv), the spectators' QR code on it (only
// when phones can open it), sounds with a mute switch, the screen kept on (Wake Lock),
// fullscreen, and the judges' phone layout: a sticky mini scoreboard with the calculator's
// one-tap actions (undo, the round clock, both hit, next turn) over both seats' buttons side
// by side. Hooks into app.js through lumenDisplay.
"use strict";
(function () {
  const D = window.lumenDisplay;
  const $ = (sel, root) => (root || document).querySelector(sel);
  const root = document.documentElement;
  const MUTE_KEY = "lumen.mute";
  const tv = new URLSearchParams(location.search).has("tv");
  root.classList.toggle("tv", tv);
  $("#tv-qr").hidden = true;
  if (tv) {
    // the spectators' code, in the log panel (never over it), only when a phone can open it: a hub
    // listening on this machine only says how to let phones in on the admin screen, not on the TV
    fetch("/api/reach", { cache: "no-store" }).then((r) => r.json()).then((u) => {
      $("#tv-qr").hidden = !u.phones;
    }).catch(() => { /* offline: the banner says so */ });
  }

  // ------------------------------------------------------------ sounds: 1:00, 0:10, the last 3 s of the 10-s countdown
  let muted = localStorage.getItem(MUTE_KEY) === "1";
  let audio = null;
  const played = [];          // what was sounded (kept for the tests and for a judge's curiosity)
  function beep(what, freq, ms, times) {
    played.push({ what: what, at: Date.now(), muted: muted });
    if (muted) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      for (let i = 0; i < (times || 1); i++) {
        const o = audio.createOscillator(), g = audio.createGain();
        const t0 = audio.currentTime + i * (ms / 1000 + 0.08);
        o.frequency.value = freq;
        g.gain.setValueAtTime(0.25, t0);
        g.gain.exponentialRampToValueAtTime(0.001, t0 + ms / 1000);
        o.connect(g).connect(audio.destination);
        o.start(t0);
        o.stop(t0 + ms / 1000);
      }
    } catch (e) { /* no audio device: the display still shows everything */ }
  }
  // browsers start audio suspended until the page is touched: the first touch unlocks it
  document.addEventListener("pointerdown", () => {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { /* no audio device */ }
  }, { once: true });
  function renderMute() {
    const b = $("#mute-btn");
    b.textContent = muted ? D.t("sound_off") : D.t("sound_on");
    b.setAttribute("aria-pressed", muted ? "true" : "false");
  }
  $("#mute-btn").addEventListener("click", () => {
    muted = !muted;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    if (!muted && audio && audio.state === "suspended") audio.resume();
    renderMute();
  });
  // each sound once per crossing: a message correcting the interpolated time by a few ms
  // must not sound it again (a new round or a new countdown clears what was sounded)
  let lastClock = null;
  const lastReady = { a: null, b: null };
  const sounded = new Set();
  function once(key, fn) { if (!sounded.has(key)) { sounded.add(key); fn(); } }
  function listen() {
    const S = D.state();
    if (!S || !S.timer) return;
    const left = D.clockLeft();
    const key = S.game_id + "/" + S.timer.state;
    if (lastClock && left > lastClock.left + 2000) { sounded.delete("one_minute"); sounded.delete("ten_seconds"); }
    if (lastClock && lastClock.key === key && S.timer.state === "running") {
      if (lastClock.left > 60000 && left <= 60000) once("one_minute", () => beep("one_minute", 660, 350, 2));
      if (lastClock.left > 10000 && left <= 10000) once("ten_seconds", () => beep("ten_seconds", 880, 300, 3));
    }
    lastClock = { key: key, left: left };
    ["a", "b"].forEach((s) => {
      const ms = D.readyLeft(s);
      const prev = lastReady[s];
      if (ms === null || ms > 9000) [3, 2, 1].forEach((n) => sounded.delete(s + n));
      if (ms !== null && prev !== null) {
        [3000, 2000, 1000].forEach((edge) => {
          if (prev > edge && ms <= edge) once(s + edge / 1000, () => beep("countdown_" + edge / 1000, 990, 120));
        });
      }
      lastReady[s] = ms;
    });
  }
  setInterval(listen, 50);

  // ------------------------------------------------------------ the screen stays on; fullscreen
  let wake = null, wakeState = "off";
  async function keepAwake() {
    if (!("wakeLock" in navigator)) { wakeState = "unsupported"; return; }
    if (document.visibilityState !== "visible" || wake) return;
    try {
      wake = await navigator.wakeLock.request("screen");
      wakeState = "on";
      wake.addEventListener("release", () => { wake = null; wakeState = "released"; });
    } catch (e) { wakeState = "denied"; }
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", keepAwake, { once: true });
  if (tv) keepAwake();
  $("#fs-btn").addEventListener("click", async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await root.requestFullscreen({ navigationUI: "hide" });
    } catch (e) { D.toast(D.t("fullscreen") + " ✕", true); }
    keepAwake();
  });

  // ------------------------------------------------------------ the judges' phone layout
  // Taps from the first screen (docs/display.md, "Tap counts"): health on either seat (the two
  // seats' buttons side by side), undo, the round clock (start, pause, resume), both hit and
  // next turn are one tap each; call time is in the clock panel and asks first.
  function renderMini(S) {
    const el = $("#mini");
    const show = D.admin() && !tv && S && S.seats && S.mode === "tracker";
    el.hidden = !show;
    if (!show) return;
    const esc = D.esc, t = D.t;
    const side = (s) => {
      const p = S.seats[s];
      return '<span class="mini-seat s-' + s + '"><b>' + p.label + "</b> " +
        '<span class="mini-hp" id="mini-hp-' + s + '">' + Math.max(0, p.health) + (p.health <= 0 ? ' <i class="mini-ko">KO</i>' : "") +
        '</span> <span class="mini-fp">FP ' + (p.fp > 0 ? "+" : "") + p.fp + "</span>" +
        (S.priority === s ? ' <i class="mini-prio" title="' + esc(t("priority")) + '">★</i>' : "") + "</span>";
    };
    const tm = S.timer || {};
    const clockBtn = tm.state === "running" ? "pause" : tm.state === "paused" ? "resume" : tm.state === "idle" ? "round_start" : null;
    const undo = S.can_undo && S.undo_text ? D.tx(S.undo_text) : "";
    el.innerHTML = side("a") +
      '<span class="mini-clock" id="mini-clock"></span>' +
      side("b") +
      '<div class="mini-tools">' +
      '<button class="word mini-undo" id="mini-undo" data-cmd=\'{"action":"undo"}\'' + (S.can_undo ? "" : " disabled") +
      ' title="' + esc(undo ? t("undo_what", { what: undo }) : t("undo")) + '">' + esc(t("undo")) +
      (undo ? "<small>" + esc(undo) + "</small>" : "") + "</button>" +
      (clockBtn ? '<button class="word" id="mini-clock-btn" data-timer="' + clockBtn + '">' + esc(t(clockBtn === "round_start" ? "round_start_short" : clockBtn)) + "</button>" : "") +
      '<button class="word" data-both="1">' + esc(t("both_hit")) + "</button>" +
      '<button class="word" data-cmd=\'{"action":"next_turn"}\'>' + esc(t("next_turn")) + "</button></div>";
    miniClock();
  }
  function miniClock() {
    // the same figure as the big clock, ticking between messages
    const el = $("#mini-clock"), S = D.state();
    if (!el || !S || !S.timer) return;
    const left = D.clockLeft(), secs = Math.ceil(left / 1000);
    el.textContent = S.timer.state === "time" ? "TIME" : Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0");
    el.dataset.colour = S.timer.state === "time" || left <= 10000 ? "red" : left <= 60000 ? "yellow" : "normal";
    el.dataset.state = S.timer.state;
  }
  setInterval(miniClock, 200);
  // the TV never clips: a seat (or the last battle) whose zones outgrow its panel in a long
  // game (a full list, a crowded break zone, long English names) has them drawn smaller, a
  // step at a time, until it fits (at most to 55%)
  function fitTv() {
    if (!tv) return;
    for (const box of document.querySelectorAll("#board > .seat, #battle")) {
      const parts = box.querySelectorAll(".extra, .details, .battle-row");
      parts.forEach((p) => { p.style.zoom = ""; });
      let z = 1;
      while ((box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1) && z > 0.55) {
        z -= 0.05;
        parts.forEach((p) => { p.style.zoom = String(z); });
      }
    }
  }
  window.addEventListener("resize", fitTv);
  // a layout that changes with no new state (fonts arriving, the countdown's width): fit again
  // when a panel overflows; a render fits it anyway
  if (tv) {
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitTv);
    setInterval(() => {
      const over = [...document.querySelectorAll("#board > .seat, #battle")].some((b) =>
        b.scrollHeight > b.clientHeight + 1 || b.scrollWidth > b.clientWidth + 1);
      if (over) fitTv();
    }, 1000);
  }
  D.onRender((S) => { renderMute(); renderMini(S); fitTv(); });
  renderMute();
  window.lumenExtras = { tv: tv, sounds: () => played.slice(), muted: () => muted, wakeLock: () => wakeState };
})();

// What makes the display better than the phone calculator (issue 12, points 9, 11, 12; issue 22,
// points 4, 7, 13; issue 37 point 1): the TV/kiosk view (/?tv) read from 3 m with nothing cut
// (what does not fit is paged: the zones, the battle's details and the coach turn pages every
// few seconds, the log shows its newest lines that fit whole), the spectators' QR code on it
// (only when phones can open it), sounds with a mute switch, the screen kept on (Wake Lock)
// and fullscreen.
"use strict";
(function () {
  const L = window.Lumen;
  const $ = L.$;
  const root = document.documentElement;
  const MUTE_KEY = "lumen.mute";
  const tv = L.tv;
  root.classList.toggle("tv", tv);
  $("#tv-qr").hidden = true;
  if (tv) {
    // the spectators' code, in the log panel (never over it), only when a phone can open it: a hub
    // listening on this machine only says how to let phones in on the admin screen, not on the TV
    fetch("/api/reach", { cache: "no-store" }).then((r) => r.json()).then((u) => {
      $("#tv-qr").hidden = !u.phones;
      pageAll();
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
  function drawMute() {
    const b = $("#mute-btn");
    L.text(b, muted ? L.t("sound_off") : L.t("sound_on"));
    if (b.getAttribute("aria-pressed") !== String(muted)) b.setAttribute("aria-pressed", String(muted));
  }
  $("#mute-btn").addEventListener("click", () => {
    muted = !muted;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    if (!muted && audio && audio.state === "suspended") audio.resume();
    drawMute();
  });
  // each sound once per crossing: a message correcting the interpolated time by a few ms
  // must not sound it again (a new round or a new countdown clears what was sounded)
  let lastClock = null;
  const lastReady = { a: null, b: null };
  const sounded = new Set();
  function once(key, fn) { if (!sounded.has(key)) { sounded.add(key); fn(); } }
  function listen() {
    const S = L.S;
    if (!S || !S.timer) return;
    const left = L.clockLeft();
    const key = S.game_id + "/" + S.timer.state;
    if (lastClock && left > lastClock.left + 2000) { sounded.delete("one_minute"); sounded.delete("ten_seconds"); }
    if (lastClock && lastClock.key === key && S.timer.state === "running") {
      if (lastClock.left > 60000 && left <= 60000) once("one_minute", () => beep("one_minute", 660, 350, 2));
      if (lastClock.left > 10000 && left <= 10000) once("ten_seconds", () => beep("ten_seconds", 880, 300, 3));
    }
    lastClock = { key: key, left: left };
    ["a", "b"].forEach((s) => {
      const ms = L.readyLeft(s);
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
    } catch (e) { L.toast(L.t("fullscreen") + " ✕", true); }
    keepAwake();
  });

  // ------------------------------------------------------------ the TV's pages: nothing is ever cut
  // A box that hides what overflows (a seat, the battle panel, a profile seat) shows its pageable
  // parts a page at a time: each page as many whole parts as fit, the pages turning every
  // PAGE_MS (the box says "1/2"). The log shows the newest lines that fit whole. Text keeps its
  // size: nothing is shrunk to fit.
  const PAGE_MS = 7000;
  const BOXES = [
    { box: "#board > .seat", items: ".extra > *" },
    { box: "#battle", items: "#battle-body .details > li, #battle-body > .pending, #coach > *" },
    { box: ".pseat", items: ".phand > .prow, .ppile, .palt" },
    { box: "#log", items: ":scope > li", first: true },
  ];
  let turn = 0;
  const overflows = (b) => b.scrollHeight > b.clientHeight + 1 || b.scrollWidth > b.clientWidth + 1;
  // A part too tall for the box by itself is paged by its own parts (a coach entry: its sentence,
  // then its table); a part marked data-pin (the entry's head) shows on each of those pages.
  function units(box, items) {
    const out = [];
    for (const x of items) {
      items.forEach((y) => y.classList.add("off-page"));
      x.classList.remove("off-page");
      const kids = [...x.children].filter((c) => !c.hasAttribute("data-pin"));
      if (overflows(box) && kids.length > 1) kids.forEach((c) => out.push({ el: c, parent: x }));
      else out.push({ el: x, parent: null });
    }
    return out;
  }
  function paginate(box, items) {
    const list = units(box, items);
    const reset = () => { items.forEach((x) => x.classList.add("off-page")); list.forEach((u) => u.el.classList.add("off-page")); };
    const show = (u) => { u.el.classList.remove("off-page"); if (u.parent) u.parent.classList.remove("off-page"); };
    // greedy: add parts to the page while the box holds them; the next part starts the next page
    const pages = [];
    let page = [];
    reset();
    for (const u of list) {
      show(u);
      if (overflows(box) && page.length) {
        pages.push(page);
        reset();
        page = [];
        show(u);
      }
      page.push(u);
    }
    if (page.length) pages.push(page);
    return { pages: pages, reset: reset, show: show };
  }
  function pageAll() {
    if (!tv) return;
    for (const spec of BOXES) {
      for (const box of document.querySelectorAll(spec.box)) {
        if (box.offsetParent === null) continue;
        const items = [...box.querySelectorAll(spec.items)];
        items.forEach((x) => x.classList.remove("off-page"));
        delete box.dataset.page;
        if (!items.length || !overflows(box)) continue;
        if (spec.first) {
          // the newest lines that fit whole, read off one layout (a long game's log has hundreds)
          const limit = box.getBoundingClientRect().top + box.clientTop + box.clientHeight + 1;
          const cut = items.findIndex((x) => x.getBoundingClientRect().bottom > limit);
          if (cut >= 0) items.slice(Math.max(cut, 1)).forEach((x) => x.classList.add("off-page"));
          continue;
        }
        const p = paginate(box, items);
        const k = spec.first ? 0 : turn % p.pages.length;
        p.reset();
        p.pages[k].forEach(p.show);
        if (!spec.first && p.pages.length > 1) box.dataset.page = (k + 1) + "/" + p.pages.length;
      }
    }
  }
  if (tv) {
    window.addEventListener("resize", pageAll);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(pageAll);
    setInterval(() => { turn++; pageAll(); }, PAGE_MS);
  }
  L.afterDraw(() => { drawMute(); pageAll(); });
  drawMute();
  window.lumenExtras = { tv: tv, sounds: () => played.slice(), muted: () => muted, wakeLock: () => wakeState,
    nextPage: () => { turn++; pageAll(); } };          // the next page of every paged box, now (tests)
})();

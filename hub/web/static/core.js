// The table display's core: the state the hub sent, the page's language and admin mode, words,
// control requests, and the regions the parts of the page register (seats.js, battle.js,
// admin.js, profile.js, bar.js, ...). A change redraws only the regions whose parts of the state
// it touched (draw.js); app.js wires the events and starts it all. Vanilla JS, no build step.
"use strict";
window.Lumen = (function () {
  const D = window.LumenDraw;
  const $ = (sel, root) => (root || document).querySelector(sel);
  const LANG_KEY = "lumen.lang", TOKEN_KEY = "lumen.token";
  const L = {
    S: null,                 // the last display state from the hub
    stamp: 0,                // performance.now() when S.timer / S.ready were current
    lang: localStorage.getItem(LANG_KEY) === "en" ? "en" : "ko",
    token: localStorage.getItem(TOKEN_KEY) || "",
    admin: false,
    roster: [], decks: [],
    loginProblem: "",
    tv: new URLSearchParams(location.search).has("tv"),
    h: D.h, patch: D.patch, $: $,
    LANG_KEY: LANG_KEY, TOKEN_KEY: TOKEN_KEY,
  };

  // ------------------------------------------------------------ words
  L.t = function (key, vars) {
    let s = I18N[L.lang][key];
    if (s === undefined) s = I18N.ko[key];
    if (s === undefined) s = key;
    if (vars) for (const k in vars) s = s.split("{" + k + "}").join(vars[k]);
    return s;
  };
  L.nm = (o) => (L.lang === "en" ? (o.name_en || o.name) : o.name);
  L.tx = (text) => (text ? (text[L.lang] || text.ko || "") : "");
  L.seatLabel = (s) => (s === "a" ? "1P" : s === "b" ? "2P" : s === "c" ? "3P" : s === "d" ? "4P" : String(s));
  L.signed = (n) => (n > 0 ? "+" + n : String(n));
  // a rule badge: a tap (or Enter) shows what the rule says (the rules index, /api/rules)
  L.ruleBadge = function (ref) {
    const label = L.lang === "en" ? ref.replace(/^가이드/, "guide") : ref.replace(/^guide/, "가이드");
    return L.h("span", { class: "rule sec", role: "button", tabindex: "0", "data-rule": ref, title: L.t("rule_tap"), text: label });
  };
  // "…. [가이드 3.6.2.2]" -> the reason and its badge; a line without one gets ``rule`` (the tracker's)
  L.withRule = function (text, rule) {
    const m = /^(.*?)\s*\[([^\]]+)\]\s*$/.exec(text || "");
    if (!m) return [text || "", rule ? " " : null, rule ? L.ruleBadge(rule) : null];
    return [m[1], " ", L.ruleBadge(m[2])];
  };
  L.newId = function () {
    const b = new Uint8Array(12);
    crypto.getRandomValues(b);
    return "w" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  };
  let toastTimer = null;
  L.toast = function (msg, err) {
    const el = $("#toast");
    el.textContent = msg;
    el.className = "toast" + (err ? " err" : "");
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, err ? 8000 : 1800);
  };

  // ------------------------------------------------------------ regions and drawing
  const regions = D.regions();
  const hooks = [];              // after every draw (tv.js: the TV's pages and fit, sounds)
  let drawnS = null;
  L.region = (name, deps, fn, when) => regions.add(name, deps, fn, when);
  L.isProfile = (S) => !!S && S.view === "profile";
  L.isLumen = (S) => !!S && S.view !== "profile";
  L.afterDraw = (fn) => hooks.push(fn);
  L.lastDrawn = [];             // the regions the last change redrew (tests read it)
  // draw(touched): the regions whose parts of the state changed since the last draw (null: all)
  L.draw = function (touched) {
    if (touched === undefined) touched = D.touchedBetween(drawnS, L.S);
    if (!L.S) touched = new Set(["static"]);        // no state yet: the page's own words only
    else if (touched) touched.add("any");
    drawnS = L.S;
    L.lastTouched = touched ? Array.from(touched) : null;
    L.lastDrawn = regions.draw(L.S, touched);
    hooks.forEach((fn) => { try { fn(L.S); } catch (e) { console.error(e); } });
  };
  L.redrawAll = () => L.draw(null);
  // what the 100-ms tick changes, written only when it differs (a write of the same value is still
  // a change to the page: a mutation, a repaint)
  L.text = (el, v) => { if (el && el.textContent !== v) el.textContent = v; };
  L.data = (el, k, v) => { if (el && el.dataset[k] !== v) el.dataset[k] = v; };
  // a region whose own data came (not the hub's state): drawn, then what follows every draw
  L.redraw = function (name) {
    if (!L.S) return;
    regions.drawOne(name, L.S);
    hooks.forEach((fn) => { try { fn(L.S); } catch (e) { console.error(e); } });
  };

  // ------------------------------------------------------------ live connection (live.js)
  L.setConn = function () {
    const c = $("#conn"), ok = LumenLive.ok();
    c.dataset.ok = ok ? "1" : "0";
    c.title = ok ? L.t("connected") : L.t("disconnected");
    c.setAttribute("aria-label", c.title);
    const off = LumenLive.offline();
    document.documentElement.classList.toggle("offline", off);
    const b = $("#offline");
    b.hidden = !off;
    b.textContent = L.t("offline");
  };
  L.applyState = function (m) {
    const newGame = !L.S || L.S.game_id !== m.game_id;
    L.S = m;
    L.stamp = performance.now();
    if (newGame) L.selected.clear();
    L.draw(newGame ? null : undefined);
  };
  L.selected = new Set();       // cards picked for a discard (admin, referee)
  const ticks = [];             // run every 100 ms: the clock and countdowns between messages
  L.tick = (fn) => ticks.push(fn);
  L.applyClock = function (m) {
    if (!L.S) return;
    L.S.timer = m.timer;
    L.S.ready = m.ready;
    L.S.v = m.v;                        // the state the page holds is at the clock message's version
    L.stamp = performance.now();
    ticks.forEach((fn) => fn());
  };
  setInterval(() => ticks.forEach((fn) => fn()), 100);
  // the clock and a seat's 10-s countdown as shown now (interpolated since the last message)
  L.clockLeft = () => {
    const S = L.S;
    return !S || !S.timer ? null : S.timer.state === "running" ? Math.max(0, S.timer.ms_left - (performance.now() - L.stamp)) : S.timer.ms_left;
  };
  L.readyLeft = (s) => {
    const r = L.S && L.S.ready && L.S.ready[s];
    return r && typeof r.ms_left === "number" && !r.locked ? Math.max(0, r.ms_left - (performance.now() - L.stamp)) : null;
  };
  L.clockText = () => {
    const tm = L.S.timer, secs = Math.ceil(L.clockLeft() / 1000);
    return tm.state === "time" ? "TIME" : Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0");
  };
  L.clockColour = () => {
    const left = L.clockLeft();
    return L.S.timer.state === "time" || left <= 10000 ? "red" : left <= 60000 ? "yellow" : "normal";
  };

  // ------------------------------------------------------------ control requests (admin)
  L.control = async function (path, body) {
    const payload = JSON.stringify(Object.assign({ action_id: L.newId() }, body || {}));
    const opts = { method: "POST", headers: { "Content-Type": "application/json", "Authorization": "Bearer " + L.token }, body: payload };
    let res = null;
    for (let attempt = 0; attempt < 2 && !res; attempt++) {
      try { res = await fetch(path, opts); } catch (e) { res = null; }
    }
    if (!res) { LumenLive.unreachable(); L.toast(L.t("err_network"), true); return null; }
    let j = {};
    try { j = await res.json(); } catch (e) { /* empty */ }
    if (res.status === 409 && j.error === "replayed") return { ok: true };   // our own retry got through before
    if (!res.ok) {
      // the hub says why and what to do, in both languages (hub/web/human.py); never a bare "refused"
      const msg = j.message ? (j.message[L.lang] || j.message.ko) : L.t(res.status >= 500 ? "err_internal" : "err_refused");
      if (res.status === 401 || res.status === 403 && j.error === "forbidden" && /token/.test(j.detail || "")) {
        L.setAdmin(false);
        L.loginProblem = msg;
      }
      L.toast(msg, true);
      return null;
    }
    if (j.change && !LumenLive.ok()) LumenLive.reply(j.change);   // the change it made, while the WebSocket is down
    return j;
  };
  L.tracker = (command) => L.control("/api/control/tracker", { command: command });
  L.timerAct = (action, extra) => L.control("/api/control/timer", Object.assign({ action: action }, extra || {}));
  L.checkToken = async function (tok) {
    try {
      const r = await fetch("/api/admin/check", { headers: { "Authorization": "Bearer " + tok } });
      return r.ok;
    } catch (e) { return false; }
  };
  L.setAdmin = function (on) {
    L.admin = on;
    if (!on) { L.token = ""; localStorage.removeItem(TOKEN_KEY); }
    L.redrawAll();
  };
  L.setLang = function (lang) {
    L.lang = lang;
    localStorage.setItem(LANG_KEY, lang);
    L.redrawAll();
  };
  return L;
})();

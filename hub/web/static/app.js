// The table display: the top bar, the banner and the clock, the events of every control, and
// the start (the live connection, the admin token). The parts of the page are regions drawn by
// their own files (seats.js, battle.js, admin.js, profile.js, bar.js, coach.js); core.js
// redraws only those a change touched. Loaded last.
"use strict";
(function () {
  const L = window.Lumen, h = L.h, t = L.t;
  const $ = L.$, $$ = (sel) => Array.from(document.querySelectorAll(sel));
  const profile = (S) => S && S.view === "profile";

  // ------------------------------------------------------------ the page's own words, the top bar
  L.region("chrome", ["static"], () => {
    document.documentElement.lang = L.lang;
    document.title = t("brand");
    $$("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    $("#lang-btn").textContent = L.lang === "ko" ? "EN" : "한국어";
    $("#lang-btn").setAttribute("lang", L.lang === "ko" ? "en" : "ko");
    $("#admin-btn").textContent = L.admin ? t("admin_on") : t("admin");
    $("#admin-btn").classList.toggle("on", L.admin);
    $("#log").setAttribute("aria-label", t("log"));
    L.setConn();
  });
  L.region("top", ["table", "turn", "phase", "mode", "game_id", "view", "profile", "turn_limit"], (S) => {
    $("#table-name").textContent = S.table || "";
    document.documentElement.dataset.view = profile(S) ? "profile" : "";
    document.documentElement.dataset.mode = S.mode || "";
    document.documentElement.dataset.game = profile(S) ? S.profile.id : S.mode || "";
    document.documentElement.dataset.seats = S.seats ? Object.keys(S.seats).length : 0;
    if (profile(S)) {
      $("#turn").textContent = L.turnText(S);
      $("#phase").textContent = S.phase ? t("phase_" + S.phase) : "";
      $("#mode").textContent = L.tx(S.profile.name) + (S.game_id ? " · #" + S.game_id : "");
      return;
    }
    $("#turn").textContent = S.seats ? t("turn", { n: S.turn }) : "";
    $("#phase").textContent = S.phase ? (S.mode === "tracker" ? t("tphase_" + S.phase) : t("phase_" + S.phase)) : "";
    $("#mode").textContent = S.mode ? t("mode_" + S.mode) + (S.game_id ? " · #" + S.game_id : "") : "";
  });

  // ------------------------------------------------------------ the banner: winner, sudden death, time, a refused write
  function bannerText(S) {
    if (!S.seats) return [t("no_game") + (L.admin ? " · " + t("no_game_admin") : ""), "none"];
    if (S.winner && profile(S)) {
      let text = S.winner === "draw" ? t("draw") : t("pf_wins", { seat: LumenProfile.sideLabel(S, S.winner) });
      if (S.end_reason) text += " (" + t("end_" + S.end_reason) + ")";
      if (S.match_winner) text += " · " + t("pf_match_win", { seat: LumenProfile.sideLabel(S, S.match_winner), score: Object.values(S.wins).join("–") });
      return [text, S.winner === "draw" ? "draw" : "winner-" + S.winner];
    }
    if (S.winner) {
      let text = S.winner === "draw" ? t("draw") : t("winner", { seat: L.seatLabel(S.winner) });
      if (S.end_reason) text += " (" + t("end_" + S.end_reason) + ")";
      else {
        const w = (S.log || []).slice().reverse().find((l) => l.e === "win" || l.e === "draw");
        if (w) text += " — " + L.tx(w.text).replace(/\s*\[[^\]]+\]\s*$/, "");
      }
      return [text, S.winner === "draw" ? "draw" : "winner-" + S.winner];
    }
    // decided at time by the game's procedure (its profile's; Lumen: ruling R-time)
    if (S.decided) return [L.tx(S.decided.text), S.decided.winner === "draw" ? "draw" : "winner-" + S.decided.winner];
    if (S.sudden_death) return [t("sudden_death", { n: S.sd_turn || 1 }), "sudden"];
    if (S.ahead && S.ahead.how) {
      // who the game's procedure would decide for, were it to end now, and by what
      return ["TIME · " + (S.ahead.seat === "even" ? t("ahead_even_how", { how: L.tx(S.ahead.how) })
        : t("ahead_how", { seat: L.seatLabel(S.ahead.seat), name: (S.seats[S.ahead.seat] || {}).player || "", how: L.tx(S.ahead.how) })
          .replace(/\s+/g, " ")), "time"];
    }
    if (S.ahead) {
      const a = S.ahead.health;
      return ["TIME · " + (S.ahead.seat === "even" ? t("ahead_even", { a: a.a, b: a.b })
        : t("ahead", { seat: L.seatLabel(S.ahead.seat), name: (S.seats[S.ahead.seat] || {}).player || "", a: a.a, b: a.b }).replace(/\s+/g, " ")), "time"];
    }
    return ["", ""];
  }
  L.region("banner", ["seats", "winner", "end_reason", "log", "sudden_death", "sd_turn", "ahead", "decided", "pod_conflicts", "record_error",
    "match_winner", "wins", "view"], (S) => {
    let [text, kind] = bannerText(S);
    // the record refused a write: nothing of that change was kept or applied; say so first
    if (S.pod_conflicts && S.pod_conflicts.length) {
      text = S.pod_conflicts.map((c) => L.tx(c.text)).join(" · ") + (text ? " · " + text : ""); kind = "record-error";
    }
    if (S.record_error) { text = L.tx(S.record_error) + (text ? " · " + text : ""); kind = "record-error"; }
    const b = $("#banner");
    if (b.hidden !== !text) b.hidden = !text;
    L.text(b, text);
    L.data(b, "kind", kind);
  });

  // ------------------------------------------------------------ the match clock, between messages
  function drawClock() {
    const S = L.S;
    if (!S || !S.timer) return;
    const tm = S.timer, clock = $("#clock");
    L.data(clock, "colour", L.clockColour());
    L.data(clock, "state", tm.state);
    L.text($("#clock-text"), L.clockText());
    let note = "";
    if (tm.state === "paused") note = t("paused");
    else if (tm.state === "idle") note = t("clock_idle");
    else if (tm.state === "time") {
      // the procedure: the turn in progress to its end, then the extra turns or the extra time
      const xt = tm.extra_ms_left == null ? "" : " · " + t("extra_time", { t: Math.floor(tm.extra_ms_left / 60000) + ":" +
        String(Math.floor(tm.extra_ms_left / 1000) % 60).padStart(2, "0") });
      note = tm.finished ? t("time_over") : tm.finishing ? t("time_finish_turn", { n: tm.extra_turns }) :
        t("time_called", { n: tm.turns_left === null ? tm.extra_turns : tm.turns_left }) + xt;
    }
    if (tm.extended_ms) note += (note ? " · " : "") + "+" + Math.round(tm.extended_ms / 60000) + t("minutes");
    L.text($("#clock-note"), note);
  }
  L.tick(drawClock);
  L.region("clock", ["timer"], drawClock);

  // ------------------------------------------------------------ rules: a tap on a badge says what the rule says
  function ruleKey(ref, sections) {
    // "가이드 4.4 step 7" -> 4.4.7 (the battle order's steps); another section's step is the section;
    // a section the index lacks -> its nearest parent
    const m = /(\d+(?:\.\d+)*)(?:\s*(?:step|단계)\s*(\d+))?/i.exec(ref || "");
    if (!m) return null;
    let key = m[2] && m[1] === "4.4" ? m[1] + "." + m[2] : m[1];
    while (key && !sections[key]) key = key.includes(".") ? key.slice(0, key.lastIndexOf(".")) : "";
    return key || null;
  }
  let RULES = null;
  async function showRule(ref) {
    if (!RULES) {
      try { RULES = (await (await fetch("/api/rules")).json()).sections; } catch (e) { L.toast(t("err_network"), true); return; }
    }
    const key = ruleKey(ref, RULES);
    const e = key && RULES[key];
    const other = L.lang === "ko" ? "en" : "ko";
    $("#rule-title").textContent = (L.lang === "ko" ? "가이드 " : "guide ") + (key || ref) + (e ? " · " + e.title[L.lang] : "");
    $("#rule-text").textContent = e ? e[L.lang] : t("rule_missing");
    $("#rule-other").textContent = e ? e.title[other] + ": " + e[other] : "";
    $("#rule-dialog").hidden = false;
    $("#rule-close").focus();
  }

  // ------------------------------------------------------------ events
  // an action that rests a moment after a tap, whichever button (or Ctrl+Z) gave it: a double
  // tap is one tap (the hub guards next turn and the clock too; undo only here)
  const restUntil = {};
  function rest(key, ms) {
    const now = performance.now();
    if (now < (restUntil[key] || 0)) return false;
    restUntil[key] = now + ms;
    return true;
  }
  const CLOCK_REST_MS = 1000, CLOCK_TWINS = { pause: "resume", resume: "pause" };
  let lastClock = { action: null, at: -1e9 };
  function closeDialogs() {
    let closed = false;
    for (const id of ["both-dialog", "rule-dialog", "token-dialog"]) {
      const d = document.getElementById(id);
      if (!d.hidden) { d.hidden = true; closed = true; }
    }
    return closed;
  }
  document.addEventListener("keydown", async (ev) => {
    if (ev.key === "Escape") { if (closeDialogs()) ev.preventDefault(); return; }
    const typing = ev.target.closest && ev.target.closest("input, textarea, select, [contenteditable]");
    // a badge, a chip or a number that acts as a button answers Enter and Space as a button does
    if (ev.target.getAttribute && ev.target.getAttribute("role") === "button" && ev.target.tagName !== "BUTTON" && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault(); ev.target.click(); return;
    }
    // Ctrl+Z / ⌘Z: undo, as the button does (not while typing, not with a dialog open)
    const S = L.S;
    if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && ev.key.toLowerCase() === "z" && !typing && L.admin && S && S.can_undo
        && document.querySelectorAll(".modal:not([hidden])").length === 0) {
      ev.preventDefault();
      if (!rest("undo", 600)) return;
      if (profile(S)) await L.control("/api/control/profile", { command: { action: "undo" } });
      else if (S.mode === "tracker") await L.tracker({ action: "undo" });
    }
  });
  document.addEventListener("click", async (ev) => {
    const r = ev.target.closest("[data-rule]");
    if (r) { showRule(r.dataset.rule); return; }
    if (ev.target.classList && ev.target.classList.contains("modal")) { closeDialogs(); return; }   // a tap beside the box
    const b = ev.target.closest("button, [data-cmd], .card[data-discard]");
    if (!b) return;
    if (b.id === "rule-close") { $("#rule-dialog").hidden = true; return; }
    if (b.id === "lang-btn") { L.setLang(L.lang === "ko" ? "en" : "ko"); return; }
    if (b.id === "admin-btn") {
      if (L.admin) { $("#admin").scrollIntoView({ behavior: "smooth" }); return; }
      openLogin();
      return;
    }
    if (b.id === "token-cancel") { $("#token-dialog").hidden = true; return; }
    if (b.id === "both-cancel") { $("#both-dialog").hidden = true; return; }
    if (!L.admin || document.documentElement.classList.contains("offline") || b.disabled) return;
    const S = L.S;
    if (b.dataset.cmd) {
      const c = JSON.parse(b.dataset.cmd);
      // one click, one turn: next turn rests a second (the hub also ignores a second one within
      // 1 s); undo rests 0.6 s, so a double tap never takes back two steps
      if (c.action === "next_turn" && !rest("next_turn", 1000)) return;
      if (c.action === "undo" && !rest("undo", 600)) return;
      await L.tracker(c);
      return;
    }
    if (b.dataset.both) { LumenAdmin.openBoth(); return; }
    if (b.dataset.release) { await L.control("/api/control/seats/release", { seat: b.dataset.release }); LumenAdmin.reloadSeats(); return; }
    if (b.dataset.timerUndo) { if (rest("clock_undo", 600)) await L.timerAct("undo"); return; }
    if (b.dataset.hand) {
      const s = b.dataset.seat, p = S.seats[s];
      const cur = typeof p.hand_count === "number" ? p.hand_count : p.hand_limit;
      await L.tracker({ action: "set_hand_count", seat: s, count: Math.max(0, cur + Number(b.dataset.hand)) });
      return;
    }
    if (b.dataset.trait) { const s = b.dataset.trait; await L.tracker({ action: "set_trait", seat: s, on: !S.seats[s].trait_on }); return; }
    if (b.dataset.ready) { await L.control("/api/control/decision", { seat: b.dataset.ready, kind: "ready", value: true }); return; }
    if (b.dataset.sd) {
      if (!confirm(t("confirm_sd"))) return;
      await L.tracker({ action: "apply_battle", health: { a: -S.seats.a.health, b: -S.seats.b.health } });
      return;
    }
    if (b.dataset.reset) { if (confirm(t("confirm_reset"))) await L.tracker({ action: "reset" }); return; }
    if (b.dataset.timer) {
      const a = b.dataset.timer, extra = {};
      // a clock button tapped twice (pause turns into resume under the finger) is one tap: the
      // same action or its twin within a second is dropped here (and ignored by the hub too)
      const now = performance.now();
      if (now - lastClock.at < CLOCK_REST_MS && (a === lastClock.action || CLOCK_TWINS[a] === lastClock.action)) return;
      const running = S && S.timer && (S.timer.state === "running" || S.timer.state === "paused");
      if (a === "round_start" && running && !confirm(t("confirm_round_start"))) return;
      if (a === "call_time" && !confirm(t("confirm_call_time"))) return;
      lastClock = { action: a, at: now };
      const num = (id, dflt) => { const i = $("#" + id); return i ? Number(i.value || dflt) : dflt; };
      if (a === "round_start") { extra.duration_ms = Math.round(num("tm-min", 30) * 60000); extra.extra_turns = num("tm-xt", 0); }
      if (a === "call_time") extra.extra_turns = num("tm-xt", 0);
      if (a === "extend") extra.ms = Math.round(num("tm-ext", 1) * 60000);
      await L.timerAct(a, extra);
      return;
    }
    if (b.dataset.decision) { await L.control("/api/control/decision", JSON.parse(b.dataset.decision)); return; }
    if (b.dataset.discard) {
      const id = b.dataset.card;
      if (L.selected.has(id)) L.selected.delete(id); else L.selected.add(id);
      L.redrawAll();
      return;
    }
    if (b.dataset.discardGo) {
      const res = await L.control("/api/control/decision", { seat: b.dataset.discardGo, kind: "discard", value: Array.from(L.selected) });
      if (res) L.selected.clear();
      return;
    }
    if (b.dataset.resume) { await L.control("/api/control/games/" + b.dataset.resume + "/resume", {}); return; }
    if (b.dataset.close) {
      if (!confirm(t("confirm_close", { n: b.dataset.close }))) return;
      if (await L.control("/api/control/games/" + b.dataset.close + "/close", {})) LumenAdmin.reloadGames();
      return;
    }
    if (b.id === "ng-go") {
      const mode = $('input[name="ng-mode"]:checked').value;
      const body = { mode: mode, a: $("#ng-a").value, b: $("#ng-b").value };
      const pr = $("#ng-prio").value;
      if (pr) body.priority = pr;
      const names = { a: $("#ng-name-a").value.trim(), b: $("#ng-name-b").value.trim() };
      if (names.a || names.b) body.names = names;
      // a new game never replaces a game being played by accident
      if (S && S.seats && !S.winner && !confirm(t("confirm_new_game", { n: S.game_id }))) return;
      await L.control("/api/control/games", body);
      return;
    }
    if (b.id === "token-go") {
      const nt = $("#new-token").value.trim();
      const res = await L.control("/api/control/token", { new_token: nt });
      if (res) { L.token = nt; localStorage.setItem(L.TOKEN_KEY, nt); $("#new-token").value = ""; L.toast(t("token_changed")); }
      return;
    }
    if (b.id === "logout") { L.setAdmin(false); return; }
  });
  document.addEventListener("change", async (ev) => {
    const el = ev.target;
    if (el.dataset && el.dataset.char && L.admin) await L.tracker({ action: "set_character", seat: el.dataset.char, character: el.value });
  });
  function openLogin() {
    $("#token-dialog").hidden = false;
    const p = $("#token-problem");
    p.textContent = L.loginProblem;
    p.hidden = !L.loginProblem;
    $("#token-input").value = "";
    $("#token-input").focus();
  }
  $("#token-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const tok = $("#token-input").value.trim();
    if (await L.checkToken(tok)) {
      L.token = tok;
      localStorage.setItem(L.TOKEN_KEY, tok);
      L.loginProblem = "";
      $("#token-dialog").hidden = true;
      L.setAdmin(true);
    } else {
      L.toast(t("wrong_token"), true);
    }
  });

  // ------------------------------------------------------------ start
  function tokenFromHash() {
    // "#admin=TOKEN" (the URL the hub prints, the judge's QR code) logs in: kept in this browser,
    // then taken out of the address bar at once (the fragment never reaches the server)
    const m = /(?:^#|&)admin=([^&]+)/.exec(location.hash);
    if (!m) return false;
    L.token = decodeURIComponent(m[1]);
    localStorage.setItem(L.TOKEN_KEY, L.token);
    history.replaceState(null, "", location.pathname + location.search);
    return true;
  }
  window.addEventListener("hashchange", async () => {
    // the admin link pasted into a tab that is already open
    if (!tokenFromHash() || L.tv) return;
    if (await L.checkToken(L.token)) { L.loginProblem = ""; L.setAdmin(true); }
    else { L.setAdmin(false); L.loginProblem = t("stale_link"); L.toast(L.loginProblem, true); }
  });
  let started = false;      // start() has run to its end (the token checked): for tests and extras
  async function start() {
    const fromLink = tokenFromHash();
    L.redrawAll();
    LumenLive.start({ state: (m) => L.applyState(m), clock: (m) => L.applyClock(m), changed: L.setConn });
    try { L.roster = (await (await fetch("/api/roster")).json()).characters || []; } catch (e) { L.roster = []; }
    try { L.decks = (await (await fetch("/api/decks")).json()).decks || []; } catch (e) { L.decks = []; }
    // the TV (/?tv) never enters admin mode, even with a token in its browser: nothing of it reaches the screen
    if (L.token && !L.tv) {
      if (await L.checkToken(L.token)) L.setAdmin(true);
      else {
        L.setAdmin(false);
        L.loginProblem = t(fromLink ? "stale_link" : "stale_token");
        L.toast(L.loginProblem, true);
      }
    } else L.redrawAll();
    started = true;
  }
  window.lumenDisplay = { state: () => L.S, lang: () => L.lang, admin: () => L.admin, started: () => started, t: t, tx: L.tx,
    token: () => L.token, showRule: showRule, ruleKey: ruleKey, control: L.control, tracker: L.tracker, toast: L.toast,
    onRender: L.afterDraw, clockLeft: L.clockLeft, readyLeft: L.readyLeft,
    // nothing on its way (the whole log) and the last change drawn: what a test compares
    settled: () => started && !L.fetching(), drawn: () => L.lastDrawn.slice(), touched: () => L.lastTouched };
  start();
})();

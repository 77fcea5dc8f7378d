// The table display: live over a WebSocket (polling /api/state while it is down),
// Korean by default with an English switch, tracker and tournament controls for the admin.
// Vanilla JS, no build step, no downloads.
"use strict";
(function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const LANG_KEY = "lumen.lang", TOKEN_KEY = "lumen.token";

  let lang = localStorage.getItem(LANG_KEY) === "en" ? "en" : "ko";
  let token = localStorage.getItem(TOKEN_KEY) || "";
  let admin = false;
  let S = null;            // the last display state from the hub
  let stamp = 0;           // performance.now() when S.timer / S.ready were current
  let roster = [], decks = [];
  const seatKey = { a: null, b: null };
  let ctlKey = null;
  const discardSel = new Set();

  // ------------------------------------------------------------ helpers
  function t(key, vars) {
    let s = I18N[lang][key];
    if (s === undefined) s = I18N.ko[key];
    if (s === undefined) s = key;
    if (vars) for (const k in vars) s = s.split("{" + k + "}").join(vars[k]);
    return s;
  }
  function esc(s) {
    return String(s === undefined || s === null ? "" : s).replace(/[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }
  const nm = (o) => (lang === "en" ? (o.name_en || o.name) : o.name);
  const seatLabel = (s) => (s === "a" ? "1P" : s === "b" ? "2P" : String(s));
  const signed = (n) => (n > 0 ? "+" + n : String(n));
  const tx = (text) => (text ? (text[lang] || text.ko || "") : "");
  function ruleBadge(ref) {
    // a tap shows what the rule says (the rules index, /api/rules): a learner reads it at the table
    const label = lang === "en" ? ref.replace(/^가이드/, "guide") : ref.replace(/^guide/, "가이드");
    return ' <span class="rule" role="button" tabindex="0" data-rule="' + esc(ref) + '" title="' + esc(t("rule_tap")) + '">' +
      esc(label) + "</span>";
  }
  function withRule(text, rule) {
    // "…. [가이드 3.6.2.2]" -> the reason and a rule badge; a line without one shows ``rule`` (the tracker's)
    const m = /^(.*?)\s*\[([^\]]+)\]\s*$/.exec(text || "");
    if (!m) return esc(text) + (rule ? ruleBadge(rule) : "");
    return esc(m[1]) + ruleBadge(m[2]);
  }
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
      try { RULES = (await (await fetch("/api/rules")).json()).sections; } catch (e) { toast(t("err_network"), true); return; }
    }
    const key = ruleKey(ref, RULES);
    const e = key && RULES[key];
    const other = lang === "ko" ? "en" : "ko";
    $("#rule-title").textContent = (lang === "ko" ? "가이드 " : "guide ") + (key || ref) + (e ? " · " + e.title[lang] : "");
    $("#rule-text").textContent = e ? e[lang] : t("rule_missing");
    $("#rule-other").textContent = e ? e.title[other] + ": " + e[other] : "";
    $("#rule-dialog").hidden = false;
    $("#rule-close").focus();
  }
  function newId() {
    const b = new Uint8Array(12);
    crypto.getRandomValues(b);
    return "w" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }
  let toastTimer = null, loginProblem = "";
  function toast(msg, err) {
    const el = $("#toast");
    el.textContent = msg;
    el.className = "toast" + (err ? " err" : "");
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, err ? 8000 : 1800);
  }

  // ------------------------------------------------------------ live connection
  // the live connection (live.js): WebSocket, polling /api/state while it is down, the offline banner
  function setConn() {
    const c = $("#conn"), ok = LumenLive.ok();
    c.dataset.ok = ok ? "1" : "0";
    c.title = ok ? t("connected") : t("disconnected");
    const off = LumenLive.offline();
    document.documentElement.classList.toggle("offline", off);
    const b = $("#offline");
    b.hidden = !off;
    b.textContent = t("offline");
  }
  const connect = () => LumenLive.start({ state: (m) => applyState(m), clock: (m) => applyClock(m), changed: setConn });

  function applyState(m) {
    const newGame = !S || S.game_id !== m.game_id;
    S = m;
    stamp = performance.now();
    if (newGame) discardSel.clear();
    render();
  }
  function applyClock(m) {
    if (!S) return;
    S.timer = m.timer;
    S.ready = m.ready;
    stamp = performance.now();
    renderClock();
    renderReady();
  }

  // ------------------------------------------------------------ control requests (admin)
  async function control(path, body) {
    const payload = JSON.stringify(Object.assign({ action_id: newId() }, body || {}));
    const opts = { method: "POST", headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token }, body: payload };
    let res = null;
    for (let attempt = 0; attempt < 2 && !res; attempt++) {
      try { res = await fetch(path, opts); } catch (e) { res = null; }
    }
    if (!res) { LumenLive.unreachable(); toast(t("err_network"), true); return null; }
    let j = {};
    try { j = await res.json(); } catch (e) { /* empty */ }
    if (res.status === 409 && j.error === "replayed") return { ok: true };   // our own retry got through before
    if (!res.ok) {
      const msg = j.message ? (j.message[lang] || j.message.ko) : t(res.status >= 500 ? "err_internal" : "err_refused");
      if (res.status === 401 || res.status === 403 && j.error === "forbidden" && /token/.test(j.detail || "")) {
        setAdmin(false);
        loginProblem = msg;
        render();
      }
      toast(msg, true);
      return null;
    }
    if (j.state && !LumenLive.ok()) applyState(Object.assign({ t: "state" }, j.state));
    return j;
  }
  const tracker = (command) => control("/api/control/tracker", { command: command });
  const timerAct = (action, extra) => control("/api/control/timer", Object.assign({ action: action }, extra || {}));

  async function checkToken(tok) {
    try {
      const r = await fetch("/api/admin/check", { headers: { "Authorization": "Bearer " + tok } });
      return r.ok;
    } catch (e) { return false; }
  }
  function setAdmin(on) {
    admin = on;
    if (!on) { token = ""; localStorage.removeItem(TOKEN_KEY); }
    LumenAdmin.reset(); seatKey.a = seatKey.b = null; ctlKey = null;
    render();
  }

  // ------------------------------------------------------------ rendering
  const renderHooks = [];     // the extras (tv.js): TV layout, QR codes, sounds, the phone scoreboard
  function render() {
    document.documentElement.lang = lang;
    document.title = t("brand");
    $$("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    $("#lang-btn").textContent = lang === "ko" ? "EN" : "한국어";
    $("#admin-btn").textContent = admin ? t("admin_on") : t("admin");
    $("#admin-btn").classList.toggle("on", admin);
    setConn();
    if (!S) return;
    $("#table-name").textContent = S.table || "";
    // another game's profile (profile.js draws its board; the clock, banner, log and admin stay)
    const other = S.view === "profile" && window.LumenProfile;
    document.documentElement.dataset.view = other ? "profile" : "";
    if (window.LumenProfile) { LumenProfile.renderStart(); if (!other) LumenProfile.hide(); }
    if (other) {
      renderTop(); renderBanner(); LumenProfile.render(); renderLog(); renderAdmin(); renderClock();
      renderHooks.forEach((fn) => { try { fn(S); } catch (e) { /* an extra never breaks the display */ } });
      return;
    }
    renderTop();
    renderBanner();
    renderSeat("a");
    renderSeat("b");
    renderTableControls();
    renderBattle();
    renderLog();
    renderAdmin();
    renderClock();
    renderReady();
    renderHooks.forEach((fn) => { try { fn(S); } catch (e) { /* an extra never breaks the display */ } });
  }

  function renderTop() {
    $("#turn").textContent = S.seats ? t("turn", { n: S.turn }) : "";
    const ph = S.phase ? (S.mode === "tracker" ? t("tphase_" + S.phase) : t("phase_" + S.phase)) : "";
    $("#phase").textContent = ph;
    $("#mode").textContent = S.mode ? t("mode_" + S.mode) + (S.game_id ? " · #" + S.game_id : "") : "";
    document.documentElement.dataset.mode = S.mode || "";
  }

  function winnerText() {
    if (S.winner === "draw") return t("draw");
    return t("winner", { seat: seatLabel(S.winner) });
  }
  function renderBanner() {
    const b = $("#banner");
    let text = "", kind = "";
    if (!S.seats) { text = t("no_game") + (admin ? " · " + t("no_game_admin") : ""); kind = "none"; }
    else if (S.winner) {
      text = winnerText();
      if (S.end_reason) text += " (" + t("end_" + S.end_reason) + ")";
      else {
        const w = (S.log || []).slice().reverse().find((l) => l.e === "win" || l.e === "draw");
        if (w) text += " — " + tx(w.text).replace(/\s*\[[^\]]+\]\s*$/, "");
      }
      kind = S.winner === "draw" ? "draw" : "winner-" + S.winner;
    } else if (S.decided) {
      // decided at time by the game's procedure (its profile's; Lumen: ruling R-time)
      text = tx(S.decided.text);
      kind = S.decided.winner === "draw" ? "draw" : "winner-" + S.decided.winner;
    } else if (S.sudden_death) { text = t("sudden_death", { n: S.sd_turn || 1 }); kind = "sudden"; }
    else if (S.ahead && S.ahead.how) {
      // who the game's procedure would decide for, were it to end now, and by what
      text = "TIME · " + (S.ahead.seat === "even" ? t("ahead_even_how", { how: tx(S.ahead.how) })
        : t("ahead_how", { seat: seatLabel(S.ahead.seat), name: (S.seats[S.ahead.seat] || {}).player || "", how: tx(S.ahead.how) })
          .replace(/\s+/g, " "));
      kind = "time";
    }
    else if (S.ahead) {
      const h = S.ahead.health;
      text = "TIME · " + (S.ahead.seat === "even" ? t("ahead_even", { a: h.a, b: h.b })
        : t("ahead", { seat: seatLabel(S.ahead.seat), name: (S.seats[S.ahead.seat] || {}).player || "", a: h.a, b: h.b })
          .replace(/\s+/g, " "));
      kind = "time";
    }
    // the record refused a write: nothing of that change was kept or applied; say so first
    if (S.pod_conflicts && S.pod_conflicts.length) {
      text = S.pod_conflicts.map((c) => tx(c.text)).join(" · ") + (text ? " · " + text : ""); kind = "record-error";
    }
    if (S.record_error) { text = tx(S.record_error) + (text ? " · " + text : ""); kind = "record-error"; }
    b.hidden = !text;
    b.textContent = text;
    b.dataset.kind = kind;
  }

  function cardChip(id) {
    if (id === "?") return '<span class="card hidden-card" title="' + esc(t("hidden_card")) + '">?</span>';
    const c = (S.cards || {})[id];
    if (!c) return '<span class="card">' + esc(id) + "</span>";
    let sub = t("kind_" + c.kind);
    if (c.kind === "attack") sub = t("pos_" + c.position) + " · " + t("speed") + " " + c.speed + " · " + c.damage;
    return '<span class="card k-' + esc(c.kind) + '" data-card="' + esc(id) + '"><b>' + esc(nm(c)) + "</b><small>" + esc(sub) + "</small></span>";
  }
  function zone(title, ids, countOverride) {
    const n = countOverride !== undefined ? countOverride : ids.length;
    return '<div class="zone"><h3>' + esc(title) + " <small>" + esc(t("cards_n", { n: n })) + '</small></h3><div class="chips">' +
      (ids.length ? ids.map(cardChip).join("") : '<span class="muted">—</span>') + "</div></div>";
  }

  function structureKey(s, p) {
    return [S.mode, S.game_id, p.character, admin, lang,
      (p.tokens || []).map ? (p.tokens || []).map((x) => x.name).join("|") : "",
      (p.stances || []).map((x) => x.name).join("|"), p.trait ? p.trait.kind : "", roster.length].join("/");
  }

  function buildSeat(s, p) {
    const el = $("#seat-" + s);
    let h = '<div class="seat-head"><span class="badge">' + seatLabel(s) + '</span><span class="player" data-f="player" hidden></span>' +
      '<span class="char" data-f="name"></span>' +
      '<span class="prio" data-f="prio" hidden>' + esc(t("priority")) + "</span></div>" +
      '<div class="big-row"><div class="hp-box"><div class="cap">' + esc(t("health")) + '</div><div class="hp">' +
      '<span class="hp-value" id="hp-' + s + '"></span><span class="ko" data-f="ko" hidden>KO</span><span class="hp-max" data-f="hpmax"></span></div></div>' +
      '<div class="fp-box"><div class="cap">FP</div><div class="fp-value" id="fp-' + s + '"' +
      (admin && S.mode === "tracker" ? ' data-cmd=\'{"action":"reset_fp","seat":"' + s + '"}\'' : "") + "></div></div></div>" +
      '<div class="hpbar" data-f="bar"><div class="fill"></div></div>' +
      '<div class="meta" data-f="meta"></div>' +
      '<div class="ready-box" id="ready-' + s + '" data-state="off"><span class="ready-state"></span>' +
      '<span class="countdown" id="countdown-' + s + '"></span><span class="cdbar" hidden><i></i></span></div>';
    if (S.mode === "tracker") {
      h += '<div class="tokens" data-f="tokens">';
      (p.tokens || []).forEach((tk) => {
        h += '<span class="token">' + (admin ? '<button class="minus" data-cmd=\'' + esc(JSON.stringify({ action: "token", seat: s, name: tk.name, delta: -1 })) + "'>−</button>" : "") +
          "<span>" + esc(lang === "en" ? tk.name_en : tk.name) + '</span> <b data-token="' + esc(tk.name) + '"></b>' +
          (admin ? '<button class="plus" data-cmd=\'' + esc(JSON.stringify({ action: "token", seat: s, name: tk.name, delta: 1 })) + "'>+</button>" : "") + "</span>";
      });
      h += '</div><div class="extra" data-f="extra"></div>';
      if (admin) h += LumenAdmin.seatControls(adminCtx, s, p);
    } else {
      h += '<div class="extra zones" data-f="extra"></div>';
    }
    el.innerHTML = h;
  }

  function renderSeat(s) {
    const el = $("#seat-" + s);
    if (!S.seats) { el.innerHTML = '<div class="seat-head"><span class="badge">' + seatLabel(s) + "</span></div>"; seatKey[s] = null; return; }
    const p = S.seats[s];
    const key = structureKey(s, p);
    if (seatKey[s] !== key) { buildSeat(s, p); seatKey[s] = key; }
    el.classList.toggle("has-priority", S.priority === s);
    $('[data-f="name"]', el).textContent = nm(p);
    const who = $('[data-f="player"]', el);
    who.textContent = p.player || "";
    who.hidden = !p.player;
    $('[data-f="prio"]', el).hidden = S.priority !== s;
    const hp = $("#hp-" + s);
    hp.textContent = Math.max(0, p.health);          // a KO shows 0 (and KO); the log keeps "-200"
    hp.title = String(p.health);
    hp.classList.toggle("out", p.health <= 0);
    $('[data-f="ko"]', el).hidden = p.health > 0;
    hp.classList.toggle("low", p.health > 0 && p.health <= 1000);
    $('[data-f="hpmax"]', el).textContent = "/" + p.start_health;
    const fp = $("#fp-" + s);
    fp.textContent = signed(p.fp);
    fp.classList.toggle("pos", p.fp > 0);
    fp.classList.toggle("neg", p.fp < 0);
    fp.classList.toggle("tap", admin && S.mode === "tracker");
    // the health bar with the hand-limit band edges
    const bar = $('[data-f="bar"]', el);
    const max = Math.max(p.start_health, p.health, 1);
    $(".fill", bar).style.width = Math.max(0, Math.min(100, (100 * p.health) / max)) + "%";
    $$(".tick", bar).forEach((x) => x.remove());
    (p.bands || []).slice(1).forEach((edge) => {
      const i = document.createElement("i");
      i.className = "tick";
      i.style.left = (100 * edge) / max + "%";
      bar.appendChild(i);
    });
    // hand limit of the current band, hand size, non-responses
    const handN = S.mode === "tracker" ? p.hand_count : p.hand_count;
    let meta = "<span>" + esc(t("hand_limit", { n: "" })) + "<b>" + p.hand_limit + "</b></span>";
    meta += "<span>" + (handN === null || handN === undefined ? esc(t("hand_unknown")) : esc(t("hand_count", { n: handN }))) + "</span>";
    if (p.over_limit || (typeof handN === "number" && S.mode === "referee" && handN > p.hand_limit)) meta += '<span class="warn">' + esc(t("over_limit")) + "</span>";
    if (p.non_responses) meta += '<span class="warn">' + esc(t("non_resp", { n: p.non_responses })) + "</span>";
    if (S.mode === "tracker" && p.trait_on) meta += '<span class="flag">' + esc(t("trait_on")) + "</span>";
    $('[data-f="meta"]', el).innerHTML = meta;
    const extra = $('[data-f="extra"]', el);
    if (S.mode === "tracker") {
      (p.tokens || []).forEach((tk) => {
        const v = $('[data-token="' + CSS.escape(tk.name) + '"]', el);
        if (v) v.textContent = tk.value + "/" + (tk.max === null ? "∞" : tk.max);
      });
      let x = "";
      if (p.stance) x += "<div>" + esc(t("stance")) + ": <b>" + esc(p.stance) + "</b>" + ((p.active_stances || []).length > 1 ? " (" + esc(p.active_stances.join("·")) + ")" : "") + "</div>";
      if (p.trait) {
        const tn = lang === "en" ? p.trait.name_en : p.trait.name;
        const generic = tn === "특성" || tn === "trait";
        x += '<div class="trait-note">' + esc(t("trait")) + (generic ? "" : " " + esc(tn)) + ": " + esc(lang === "en" ? p.trait.note_en : p.trait.note_ko) + "</div>";
      }
      extra.innerHTML = x;
      const sel = $('select[data-char="' + s + '"]', el);
      if (sel) { sel.disabled = S.turn !== 1 || S.sudden_death; sel.title = t("character_hint"); if (document.activeElement !== sel) sel.value = p.character; }
    } else {
      const z = p;
      let x = zone(t("zone_hand"), z.hand, z.hand_count);
      x += zone(t("zone_battle"), z.battle_zone);
      x += zone(t("zone_list"), z.list, z.list_count);
      if (z.lumen_zone.length) x += zone(t("zone_lumen"), z.lumen_zone);
      if (z.break_zone.length) x += zone(t("zone_break"), z.break_zone);
      const toks = (z.tokens || []).map((tk) => esc(lang === "en" ? tk.name_en : tk.name) + " <b>" + tk.value +
        (tk.max === null || tk.max === undefined ? "" : "/" + tk.max) + "</b>").join(" · ");
      x += '<div class="zone-inline">' + (toks ? "<span>" + esc(t("tokens")) + ": " + toks + "</span>" : "") +
        "<span>" + esc(t("zone_ultimate")) + ": " + (z.ultimate ? cardChip(z.ultimate) : "—") + "</span><span>" +
        esc(t("zone_side")) + ": <b>" + esc(t("cards_n", { n: z.side_deck })) + "</b></span>" +
        (z.lumen_zone.length ? "" : "<span>" + esc(t("zone_lumen")) + ": —</span>") +
        (z.break_zone.length ? "" : "<span>" + esc(t("zone_break")) + ": —</span>") + "</div>";
      if (z.trait) x += '<div class="trait-note">' + esc(t("trait")) + " " + esc(nm(z.trait)) + ": " + esc(tx(z.trait.text)) + "</div>";
      extra.innerHTML = x;
      if (S.pending && S.pending.some((r) => r.kind === "discard" && r.player === s) && admin) {
        $$(".card[data-card]", extra.querySelector(".zone")).forEach((c) => {
          c.dataset.discard = s;
          c.classList.toggle("selected", discardSel.has(c.dataset.card));
        });
      }
    }
  }

  // who is ready (never what) and the 10-second countdown, interpolated between messages
  function renderReady() {
    if (!S || !S.seats) return;
    const elapsed = performance.now() - stamp;
    ["a", "b"].forEach((s) => {
      const box = $("#ready-" + s);
      if (!box) return;
      const r = (S.ready || {})[s] || {};
      const inReady = S.phase === "ready" && !S.winner;
      const asked = S.mode === "tracker" ? inReady : (S.pending || []).some((q) => q.player === s && q.kind === "ready");
      let state = "off";
      if (r.locked && inReady) state = "locked";
      else if (asked) state = "waiting";
      box.dataset.state = state;
      $(".ready-state", box).textContent = state === "locked" ? t("ready_locked") : state === "waiting" ? (S.mode === "tracker" ? t("ready_waiting") : t("ready_choosing")) : "";
      const cd = $("#countdown-" + s);
      const bar = $(".cdbar", box);
      if (state === "waiting" && typeof r.ms_left === "number") {
        const left = Math.max(0, r.ms_left - elapsed);
        cd.textContent = (left / 1000).toFixed(1);
        cd.classList.toggle("urgent", left <= 3000);
        bar.hidden = false;
        $("i", bar).style.width = Math.min(100, left / 100) + "%";
      } else {
        cd.textContent = "";
        bar.hidden = true;
      }
    });
  }

  function renderClock() {
    if (!S || !S.timer) return;
    const tm = S.timer;
    const left = tm.state === "running" ? Math.max(0, tm.ms_left - (performance.now() - stamp)) : tm.ms_left;
    const secs = Math.ceil(left / 1000);
    const text = Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0");
    const clock = $("#clock");
    let colour = "normal";
    if (tm.state === "time" || left <= 10000) colour = "red";
    else if (left <= 60000) colour = "yellow";
    clock.dataset.colour = colour;
    clock.dataset.state = tm.state;
    $("#clock-text").textContent = tm.state === "time" ? "TIME" : text;
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
    $("#clock-note").textContent = note;
  }

  function renderTableControls() {
    const el = $("#table-controls");
    const show = admin && S.mode === "tracker" && !!S.seats;
    el.hidden = !show;
    if (!show) { ctlKey = null; return; }
    const key = lang;
    if (ctlKey !== key) {
      el.innerHTML = '<button data-cmd=\'{"action":"next_turn"}\' id="next-turn-btn">' + esc(t("next_turn")) + "</button>" +
        '<button data-cmd=\'{"action":"undo"}\' id="undo-btn" class="undo">' + esc(t("undo")) + "</button>" +
        '<button data-both="1" id="both-btn">' + esc(t("both_hit")) + "</button>" +
        '<button data-sd="1">' + esc(t("sudden_death_btn")) + "</button>" +
        '<button data-reset="1">' + esc(t("reset")) + "</button>" +
        '<span class="info" data-f="np"></span>';
      ctlKey = key;
    }
    const ub = $("#undo-btn");
    ub.disabled = !S.can_undo;
    ub.textContent = S.can_undo && S.undo_text ? t("undo_what", { what: tx(S.undo_text) }) : t("undo");
    $('[data-f="np"]', el).textContent = S.next_priority ? t("next_priority", { seat: seatLabel(S.next_priority) }) : "";
  }

  function optionLabel(o) {
    if (o === "end" || o === "pass" || o === "skip" || o === "ultimate") return t("opt_" + o);
    if (Array.isArray(o)) return o.map(optionLabel).join(" + ");
    const c = (S.cards || {})[o];
    return c ? nm(c) : String(o);
  }

  function renderBattle() {
    const el = $("#battle");
    el.hidden = S.mode === "tracker";      // the players judge a tracker battle: nothing to show here
    if (!S.seats) { el.innerHTML = ""; return; }
    let h = "";
    if (S.mode === "tracker") {
      h = "<h2>" + esc(t("last_battle")) + '</h2><p class="muted">' + esc(t("tracker_battle")) + "</p>";
    } else {
      const lb = S.last_battle;
      h = "<h2>" + esc(lb && lb.turn ? t("last_battle_turn", { n: lb.turn }) : t("last_battle")) + "</h2>";
      if (!lb) h += '<p class="muted">' + esc(t("no_battle")) + "</p>";
      else {
        h += '<div class="battle-row">';
        ["a", "b"].forEach((s) => {
          const res = lb.outcome[s];
          const cls = ["hit", "counter", "guard", "evade"].includes(res) ? "win" : ["guarded", "evaded", "countered", "was_hit"].includes(res) ? "lose" : "";
          h += '<div class="bside ' + s + '"><div><b>' + seatLabel(s) + "</b> " + (lb.cards && lb.cards[s] ? cardChip(lb.cards[s]) : "") +
            '</div><div class="outcome ' + cls + '" id="outcome-' + s + '">' + esc(tx(lb.outcome_text[s])) + "</div></div>";
        });
        h += "</div>";
        h += '<div class="reason" id="battle-reason">' + withRule(tx(lb.text)) + "</div>";
        if (lb.details.length) h += '<ul class="details">' + lb.details.map((d) => "<li>" + withRule(tx(d.text)) + "</li>").join("") + "</ul>";
      }
      const pend = (S.pending || []).filter((r) => r.kind !== "ready" || true);
      if (pend.length && !S.winner) {
        h += '<div class="pending"><b>' + esc(t("pending")) + ":</b> " + pend.map((r) =>
          esc(t("pending_item", { seat: seatLabel(r.player), what: t("req_" + r.kind, { n: r.count || "" }) }))).join(", ");
        if (admin) {
          pend.filter((r) => !r.hidden && r.options).forEach((r) => {
            if (r.kind === "discard") {
              h += '<div><span class="muted">' + esc(t("answer", { seat: seatLabel(r.player) })) + ":</span> " +
                '<button class="opt" data-discard-go="' + r.player + '" data-count="' + r.count + '">' + esc(t("discard_confirm")) +
                " (" + discardSel.size + "/" + r.count + ")</button></div>";
            } else {
              h += '<div><span class="muted">' + esc(t("answer", { seat: seatLabel(r.player) })) + ":</span> " + r.options.map((o) =>
                '<button class="opt" data-decision=\'' + esc(JSON.stringify({ seat: r.player, kind: r.kind, value: o })) + "'>" + esc(optionLabel(o)) + "</button>").join("") + "</div>";
            }
          });
        }
        h += "</div>";
      }
    }
    el.innerHTML = h;
  }

  // the whole game's log (issue 22 point 10): /api/log once per game, then the state's window
  // (its last 40 lines) appended by count; a gap the window does not cover fetches it again
  let fullLog = { game: null, lines: [], asked: null };
  function logLines() {
    const win = S.log || [], total = typeof S.log_total === "number" ? S.log_total : win.length;
    if (fullLog.game !== S.game_id) {
      fullLog = { game: S.game_id, lines: [], asked: null };
    }
    const have = fullLog.lines.length, first = total - win.length;
    if (fullLog.asked === null && total > win.length) fetchLog(S.game_id);
    if (have === 0 || have < first) return win;               // not fetched (yet): the window alone
    if (total > have) fullLog.lines = fullLog.lines.concat(win.slice(have - first));
    else if (total < have) { fetchLog(S.game_id); return win; }
    return fullLog.lines;
  }
  async function fetchLog(gid) {
    fullLog.asked = gid;
    try {
      const j = await (await fetch("/api/log", { cache: "no-store" })).json();
      if (j.game_id === gid && fullLog.game === gid) { fullLog.lines = j.log || []; renderLog(); }
    } catch (e) { fullLog.asked = null; }
  }
  function renderLog() {
    if (!S) return;
    const lines = S.seats ? logLines() : [];
    const items = lines.slice().reverse();
    const major = new Set(["judgment", "win", "draw", "sudden_death", "result", "turn_start", "next_turn", "new_game", "non_response"]);
    const key = (S.game_id || "") + "/" + lang + "/" + lines.length + "/" + (lines.length ? tx(lines[lines.length - 1].text) : "");
    const ol = $("#log");
    if (ol.dataset.key === key) return;
    ol.dataset.key = key;
    ol.innerHTML = items.map((l) => '<li class="' + (l.seat ? "s-" + l.seat : "") + (major.has(l.e) ? " major" : "") + '">' +
      withRule(tx(l.text), l.rule) + "</li>").join("");
    $("#log-count").textContent = lines.length ? t("log_lines", { n: lines.length }) : "";
  }

  // ------------------------------------------------------------ the admin panel (admin.js)
  const adminCtx = { get S() { return S; }, get lang() { return lang; }, get admin() { return admin; },
    get token() { return token; }, get roster() { return roster; }, get decks() { return decks; },
    t: t, esc: esc, nm: nm, seatLabel: seatLabel, signed: signed, tracker: (c) => tracker(c), toast: toast };
  function renderAdmin() { LumenAdmin.render(adminCtx); }

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
    if (ev.target.dataset && ev.target.dataset.rule && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault(); showRule(ev.target.dataset.rule); return;
    }
    // Ctrl+Z / ⌘Z: undo, as the button does (not while typing, not with a dialog open)
    if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && ev.key.toLowerCase() === "z" && !typing && admin && S && S.can_undo
        && S.mode === "tracker" && document.querySelectorAll(".modal:not([hidden])").length === 0) {
      ev.preventDefault();
      if (rest("undo", 600)) await tracker({ action: "undo" });
    }
  });
  document.addEventListener("click", async (ev) => {
    const r = ev.target.closest("[data-rule]");
    if (r) { showRule(r.dataset.rule); return; }
    if (ev.target.classList && ev.target.classList.contains("modal")) { closeDialogs(); return; }   // a tap beside the box
    const b = ev.target.closest("button, [data-cmd], .card[data-discard]");
    if (!b) return;
    if (b.id === "rule-close") { $("#rule-dialog").hidden = true; return; }
    if (b.id === "lang-btn") {
      lang = lang === "ko" ? "en" : "ko";
      localStorage.setItem(LANG_KEY, lang);
      seatKey.a = seatKey.b = null; ctlKey = null; LumenAdmin.reset();
      render();
      return;
    }
    if (b.id === "admin-btn") {
      if (admin) { $("#admin").scrollIntoView({ behavior: "smooth" }); return; }
      openLogin();
      return;
    }
    if (b.id === "token-cancel") { $("#token-dialog").hidden = true; return; }
    if (b.id === "both-cancel") { $("#both-dialog").hidden = true; return; }
    if (b.dataset.tab) return;                  // the phone's seat switch (tv.js)
    if (!admin || document.documentElement.classList.contains("offline")) return;
    if (b.dataset.cmd) {
      const c = JSON.parse(b.dataset.cmd);
      // one click, one turn: next turn rests a second (the hub also ignores a second one within
      // 1 s); undo rests 0.6 s, so a double tap never takes back two steps
      if (c.action === "next_turn" && !rest("next_turn", 1000)) return;
      if (c.action === "undo" && !rest("undo", 600)) return;
      await tracker(c);
      return;
    }
    if (b.dataset.both) { LumenAdmin.openBoth(adminCtx); return; }
    if (b.dataset.timerUndo) { if (rest("clock_undo", 600)) await timerAct("undo"); return; }
    if (b.dataset.hand) {
      const s = b.dataset.seat, p = S.seats[s];
      const cur = typeof p.hand_count === "number" ? p.hand_count : p.hand_limit;
      await tracker({ action: "set_hand_count", seat: s, count: Math.max(0, cur + Number(b.dataset.hand)) });
      return;
    }
    if (b.dataset.trait) { const s = b.dataset.trait; await tracker({ action: "set_trait", seat: s, on: !S.seats[s].trait_on }); return; }
    if (b.dataset.ready) { await control("/api/control/decision", { seat: b.dataset.ready, kind: "ready", value: true }); return; }
    if (b.dataset.sd) {
      if (!confirm(t("confirm_sd"))) return;
      await tracker({ action: "apply_battle", health: { a: -S.seats.a.health, b: -S.seats.b.health } });
      return;
    }
    if (b.dataset.reset) { if (confirm(t("confirm_reset"))) await tracker({ action: "reset" }); return; }
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
      await timerAct(a, extra);
      return;
    }
    if (b.dataset.decision) { const d = JSON.parse(b.dataset.decision); await control("/api/control/decision", d); return; }
    if (b.dataset.discard) {
      const id = b.dataset.card;
      if (discardSel.has(id)) discardSel.delete(id); else discardSel.add(id);
      render();
      return;
    }
    if (b.dataset.discardGo) {
      const r = await control("/api/control/decision", { seat: b.dataset.discardGo, kind: "discard", value: Array.from(discardSel) });
      if (r) discardSel.clear();
      return;
    }
    if (b.dataset.resume) { await control("/api/control/games/" + b.dataset.resume + "/resume", {}); return; }
    if (b.dataset.close) {
      if (!confirm(t("confirm_close", { n: b.dataset.close }))) return;
      if (await control("/api/control/games/" + b.dataset.close + "/close", {})) LumenAdmin.reloadGames();
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
      await control("/api/control/games", body);
      return;
    }
    if (b.id === "token-go") {
      const nt = $("#new-token").value.trim();
      const r = await control("/api/control/token", { new_token: nt });
      if (r) { token = nt; localStorage.setItem(TOKEN_KEY, nt); $("#new-token").value = ""; toast(t("token_changed")); }
      return;
    }
    if (b.id === "logout") { setAdmin(false); return; }
  });
  document.addEventListener("change", async (ev) => {
    const el = ev.target;
    if (el.name === "ng-mode") { LumenAdmin.fillNewGame(); return; }
    if (el.dataset && el.dataset.char && admin) {
      await tracker({ action: "set_character", seat: el.dataset.char, character: el.value });
    }
  });
  function openLogin() {
    $("#token-dialog").hidden = false;
    const p = $("#token-problem");
    p.textContent = loginProblem;
    p.hidden = !loginProblem;
    $("#token-input").value = "";
    $("#token-input").focus();
  }
  $("#token-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const tok = $("#token-input").value.trim();
    if (await checkToken(tok)) {
      token = tok;
      localStorage.setItem(TOKEN_KEY, tok);
      loginProblem = "";
      $("#token-dialog").hidden = true;
      setAdmin(true);
    } else {
      toast(t("wrong_token"), true);
    }
  });

  // ------------------------------------------------------------ start
  function tokenFromHash() {
    // "#admin=TOKEN" (the URL the hub prints, the judge's QR code) logs in: kept in this browser,
    // then taken out of the address bar at once (the fragment never reaches the server)
    const m = /(?:^#|&)admin=([^&]+)/.exec(location.hash);
    if (!m) return false;
    token = decodeURIComponent(m[1]);
    localStorage.setItem(TOKEN_KEY, token);
    history.replaceState(null, "", location.pathname + location.search);
    return true;
  }
  const TV_VIEW = new URLSearchParams(location.search).has("tv");
  window.addEventListener("hashchange", async () => {
    // the admin link pasted into a tab that is already open
    if (!tokenFromHash() || TV_VIEW) return;
    if (await checkToken(token)) { loginProblem = ""; setAdmin(true); }
    else { setAdmin(false); loginProblem = t("stale_link"); toast(loginProblem, true); }
  });
  async function start() {
    const fromLink = tokenFromHash();
    render();
    connect();
    try { roster = (await (await fetch("/api/roster")).json()).characters || []; } catch (e) { roster = []; }
    try { decks = (await (await fetch("/api/decks")).json()).decks || []; } catch (e) { decks = []; }
    // the TV (/?tv) never enters admin mode, even with a token in its browser: nothing of it reaches the screen
    if (token && TV_VIEW) render();
    else if (token) {
      if (await checkToken(token)) setAdmin(true);
      else {
        setAdmin(false);
        loginProblem = t(fromLink ? "stale_link" : "stale_token");
        toast(loginProblem, true);
      }
    } else render();
    started = true;
  }
  let started = false;      // start() has run to its end (the token checked): for tests and extras
  setInterval(() => { renderClock(); renderReady(); }, 100);
  window.lumenDisplay = { state: () => S, lang: () => lang, admin: () => admin, started: () => started, t: t, esc: esc, tx: tx, token: () => token,
    showRule: showRule, ruleKey: ruleKey,
    control: control, tracker: tracker, toast: toast, onRender: (fn) => renderHooks.push(fn),
    // the clock and a seat's 10-s countdown as shown now (interpolated since the last message)
    clockLeft: () => (!S || !S.timer ? null : S.timer.state === "running" ? Math.max(0, S.timer.ms_left - (performance.now() - stamp)) : S.timer.ms_left),
    readyLeft: (s) => {
      const r = S && S.ready && S.ready[s];
      return r && typeof r.ms_left === "number" && !r.locked ? Math.max(0, r.ms_left - (performance.now() - stamp)) : null;
    } };
  start();
})();

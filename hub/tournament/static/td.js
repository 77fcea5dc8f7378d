// The TD page and the projector view: polls /api/state once a second (offline, no CDN).
(() => {
  "use strict";
  const I18N = {
    ko: { room: "방", pairings: "대진", byname: "이름으로", standings: "순위", control: "운영", projector: "프로젝터",
      print: "인쇄", csv: "CSV", json: "JSON", token: "관리자 토큰", pair: "다음 라운드 대진", repair: "다시 짜기",
      start: "라운드 시작", pause: "일시정지", resume: "재개", time: "타임", extend: "연장(분)",
      tableopt: "테이블(비우면 전체)", apply: "적용", result: "결과 입력 / 변경", table: "테이블", draws: "무",
      reason: "사유", enter: "입력", override: "변경(사유)", players: "선수", add: "늦은 참가", drop: "기권", fix: "테이블 고정 (비우면 해제)",
      round: "라운드", swiss: "스위스", cut: "토너먼트", online: "연결됨", offline: "연결 끊김", pending: "결과 확인 대기",
      unsent: "미전송 결과", bye: "부전승", rank: "순위", name: "이름", points: "승점", record: "전적",
      omw: "상대 승률", gw: "게임 승률", ogw: "상대 게임 승률", opponent: "상대", seat: "자리",
      turn: "턴", health: "체력", noround: "아직 대진이 없습니다", ok: "완료", dropped: "기권", judge_w: "심판",
      state_idle: "대기", state_running: "진행", state_paused: "일시정지", state_time: "타임",
      find: "내 테이블 찾기", conflict: "결과 충돌", refused: "거절된 결과", tokenok: "토큰 확인됨", tokenbad: "토큰이 틀립니다",
      reinstate: "기권 취소", confirm_drop: "{name}을(를) 기권 처리할까요? 다음 라운드부터 대진에서 빠집니다 (‘기권 취소’로 되돌릴 수 있습니다).",
      ok_pair: "라운드 {round} 대진을 짰습니다", ok_repair: "대진을 다시 짰습니다", ok_start: "라운드를 시작했습니다", ok_pause: "시계를 멈췄습니다",
      ok_resume: "시계를 다시 시작했습니다", ok_time: "타임을 선언했습니다", ok_extend: "시간을 연장했습니다", ok_result: "테이블 {table}의 결과를 입력했습니다",
      ok_override: "라운드 {round} 테이블 {table}의 결과를 바꿨습니다", ok_add: "{name}이(가) 늦게 참가했습니다 (다음 라운드부터)",
      ok_drop: "{name}이(가) 기권했습니다 (다음 라운드부터 빠집니다)", ok_reinstate: "{name}의 기권을 취소했습니다 (다음 라운드부터 다시 대진)",
      ok_fix: "{name}의 테이블을 정했습니다", printed: "인쇄", err_network: "운영 서버에 연결할 수 없습니다",
      auto_pair: "자동 진행: {s}초 뒤 다음 라운드 대진 — 라운드 {round}의 결과는 그 라운드가 시작하기 전까지 ‘변경’으로 고칠 수 있습니다",
      auto_start: "자동 진행: {s}초 뒤 라운드 {round} 시작 — 시작하면 라운드 {prev}의 결과는 더 고칠 수 없습니다",
      hold: "결과를 모두 받았습니다 — 라운드 {round}의 결과는 다음 라운드를 시작하기 전까지 ‘변경’으로 고칠 수 있습니다",
      by: "처리자", corrections: "정정 기록", undo: "되돌리기", undone: "되돌림", src_table: "테이블 보고", src_judge: "심판 입력",
      src_override: "정정", "src_": "", confirmed: "확인", now_result: "지금 결과", reported: "테이블 보고",
      keep_current: "지금 결과 유지", keep_reported: "테이블 보고로 바꾸기", conflict_head: "결과 충돌 — 어느 쪽을 남길지 고르세요",
      no_result: "결과 없음", corrected: "정정됨", when: "시각", change: "변경", status: "상태",
      live_warn: "⚠ 진행 중인 경기입니다 — 아직 결과가 없습니다. 이 경기를 고치려는 것이 맞는지 확인하세요.",
      later_warn: "라운드 {next}이(가) 이미 시작되었습니다: 이 결과를 고쳐도 그 라운드의 대진은 그대로입니다.",
      confirm_override: "라운드 {round} · 테이블 {table}\n{a} (A) 대 {b} (B)\n결과를 {before}에서 {after}(으)로 바꿀까요?\n사유: {reason}",
      confirm_live: "⚠ 다시 확인합니다: 라운드 {round} 테이블 {table}의 {a} 대 {b} 경기는 아직 진행 중입니다 (결과 없음).\n지금 정한 결과는 테이블이 보낼 결과와 충돌합니다. 정말 이 경기의 결과를 {after}(으)로 정할까요?",
      confirm_enter: "라운드 {round} · 테이블 {table}\n{a} (A) 대 {b} (B)\n결과 {after}을(를) 입력할까요?",
      warn_live: "라운드 {round} 테이블 {table}의 경기는 아직 진행 중입니다.", warn_later_round: "라운드 {round}의 다음 라운드가 이미 시작되었습니다 (대진은 그대로).",
      go_on: "계속할까요?", undo_reason: "정정 {id}을(를) 되돌리는 사유 (3자 이상):", need_token: "‘운영’ 탭에 관리자 토큰을 입력하세요",
      ok_undo_correction: "정정 {id}을(를) 되돌렸습니다", ok_resolve: "라운드 {round} 테이블 {table}의 충돌을 해결했습니다",
      pick_game: "테이블 번호를 넣으면 그 경기(선수와 지금 결과)가 여기 나옵니다",
      turn_end: "타임: 이 턴을 끝까지", extra_left: "추가 턴 {n}" },
    en: { room: "Room", pairings: "Pairings", byname: "By name", standings: "Standings", control: "Control",
      projector: "Projector", print: "Print", csv: "CSV", json: "JSON", token: "Admin token", pair: "Pair next round",
      repair: "Re-pair", start: "Start round", pause: "Pause", resume: "Resume", time: "Time",
      extend: "Extend (min)", tableopt: "Table (empty: all)", apply: "Apply", result: "Enter / change a result",
      table: "Table", draws: "Draws", reason: "Reason", enter: "Enter", override: "Override (reason)",
      players: "Players", add: "Late entry", drop: "Drop", fix: "Keep at table (empty: release)", round: "Round", swiss: "Swiss", cut: "Top cut",
      online: "online", offline: "offline", pending: "result awaiting confirmation", unsent: "unsent results",
      bye: "bye", rank: "#", name: "Name", points: "Points", record: "W-L-D", omw: "OMW%", gw: "GW%",
      ogw: "OGW%", opponent: "Opponent", seat: "Seat", turn: "turn", health: "health",
      noround: "No pairings yet", ok: "done", dropped: "dropped", judge_w: "judge", state_idle: "waiting", state_running: "running",
      state_paused: "paused", state_time: "TIME", find: "Find your table", conflict: "conflicting result", refused: "refused result", tokenok: "token accepted",
      tokenbad: "wrong token", reinstate: "Undo drop", confirm_drop: "Drop {name}? They leave the pairings from the next round (Undo drop brings them back).",
      ok_pair: "Round {round} paired", ok_repair: "Re-paired", ok_start: "Round started", ok_pause: "Clock paused", ok_resume: "Clock running again",
      ok_time: "Time called", ok_extend: "Time extended", ok_result: "Table {table}'s result entered", ok_override: "Round {round}, table {table}: result changed",
      ok_add: "{name} entered late (paired from the next round)", ok_drop: "{name} dropped (out from the next round)",
      ok_reinstate: "{name}'s drop undone (paired again from the next round)", ok_fix: "{name}'s table kept", printed: "Print",
      err_network: "Cannot reach the TD server",
      auto_pair: "Autopilot: the next round is paired in {s} s — round {round}'s results can be corrected (Override) until the next round starts",
      auto_start: "Autopilot: round {round} starts in {s} s — once it starts, round {prev}'s results can no longer change",
      hold: "Every result is in — round {round}'s results can be corrected (Override) until the next round starts",
      by: "By", corrections: "Corrections", undo: "Undo", undone: "undone", src_table: "table's report", src_judge: "judge's entry",
      src_override: "correction", "src_": "", confirmed: "confirmed", now_result: "Current result", reported: "Table's report",
      keep_current: "Keep the current result", keep_reported: "Take the table's report", conflict_head: "Conflicting results — choose the one to keep",
      no_result: "no result", corrected: "corrected", when: "When", change: "Change", status: "Status",
      live_warn: "⚠ This game is still being played — it has no result yet. Make sure this is the game you mean.",
      later_warn: "Round {next} has started: correcting this result leaves that round's pairings as they are.",
      confirm_override: "Round {round} · table {table}\n{a} (A) vs {b} (B)\nChange the result from {before} to {after}?\nReason: {reason}",
      confirm_live: "⚠ Once more: {a} vs {b} at table {table} of round {round} is still being played (no result).\nA result set now will conflict with the one the table sends. Set this game's result to {after}?",
      confirm_enter: "Round {round} · table {table}\n{a} (A) vs {b} (B)\nEnter the result {after}?",
      warn_live: "The game at table {table} of round {round} is still being played.", warn_later_round: "The round after round {round} has started (its pairings stay).",
      go_on: "Go on?", undo_reason: "Why undo correction {id}? (3 characters or more)", need_token: "Enter the admin token in the Control tab",
      ok_undo_correction: "Correction {id} undone", ok_resolve: "Table {table} of round {round}: conflict resolved",
      pick_game: "Enter a table number: its game (players and current result) shows here",
      turn_end: "time: this turn to its end", extra_left: "{n} extra turn(s) left" },
  };
  let lang = localStorage.getItem("lumen.lang") === "en" ? "en" : "ko";
  const t = (k, vars) => {
    let x = I18N[lang][k] || k;
    for (const v in vars || {}) x = x.split("{" + v + "}").join(vars[v]);
    return x;
  };
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  let state = null, offset = 0, game = null;
  const score = (r) => (r ? r.a_wins + "-" + r.b_wins + (r.draws ? "-" + r.draws : "") : t("no_result"));
  const hhmmss = (ms) => (ms ? new Date(ms).toLocaleTimeString("en-GB", { hour12: false }) : "");
  // where a result came from: the table's report (who confirmed it), the judge's entry or a correction (who, why)
  function source(r) {
    if (!r) return "";
    const who = (r.confirmed_by || []).map((w) => (w === "a" ? "1P" : w === "b" ? "2P" : t("judge_w"))).join("·");
    return t("src_" + (r.source || "")) + (r.source === "table" && who ? " (" + who + " " + t("confirmed") + ")" : "") +
      (r.by ? " · " + r.by : "") + (r.reason ? " · " + r.reason : "") + (r.at_ms ? " · " + hhmmss(r.at_ms) : "");
  }

  function mmss(ms) {
    if (ms == null) return "--:--";
    const s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function left(clock, table) {
    if (!clock) return null;
    const ext = table != null ? (clock.table_ext[String(table)] || 0) : 0;
    const now = Date.now() + offset;
    if (clock.state === "running" || (clock.state === "time" && clock.end_ms != null)) return Math.max(0, clock.end_ms + ext - now);
    return clock.remaining_ms + ext;
  }
  function drawClock() {
    if (!state) return;
    const c = state.clock, el = $("clock"), ms = left(c, null);
    el.textContent = (c.state === "time" ? t("state_time") + " " : "") + mmss(ms) + (c.state === "paused" ? " ⏸" : "");
    el.className = "clock" + (window.PROJECTOR ? " big" : "") + (c.state === "time" || ms <= 10000 ? " red" : ms <= 60000 ? " yellow" : "");
  }
  function applyLang() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    const b = $("lang"); if (b) b.textContent = lang === "ko" ? "EN" : "한국어";
    render();
  }
  function render() {
    if (!state) return;
    const r = state.round, room = state.room;
    const heading = room.event + (r ? " · " + t("round") + " " + r.round + " (" + t(r.stage) + ")" : "");
    $("title").textContent = heading;
    document.title = heading;
    drawClock();
    if (window.PROJECTOR) {
      $("find").textContent = t("find") + (r ? " · " + t("round") + " " + r.round : "");
      const names = state.by_name.map((p) => '<div><b class="tno">' + (p.table == null ? t("bye") : esc(p.table)) +
        '</b> <span class="pname">' + esc(p.name) + "</span>" + (p.opponent ? " <small>vs " + esc(p.opponent) + "</small>" : "") + "</div>").join("");
      if ($("names").dataset.html !== names) { $("names").dataset.html = names; $("names").innerHTML = names; fitNames(); }
      return;
    }
    // printed sheets name the event and the round (the browser prints this heading)
    document.querySelectorAll(".printhead").forEach((h) => { h.textContent = heading; });
    $("roundline").textContent = (r ? t("round") + " " + r.round + " · " + t("state_" + state.clock.state) +
      (r.bye_name ? " · " + t("bye") + ": " + r.bye_name : "") : t("noround")) + holdNote();
    $("problems").innerHTML = state.problems.map((p) => "<div>" + t("table") + " " + esc(p.table) + ": " +
      t(p.status) + " — " + esc((p.message && p.message[lang]) || p.error) + "</div>").join("");
    renderConflicts();
    renderCorrections();
    renderGame();
    $("tiles").innerHTML = state.tiles.map((x) => {
      const s = x.status || {}, h = s.health || {}, res = x.result;
      const cls = "tile " + (x.online === false ? "offline" : x.online ? "online" : "") + (res ? " done" : "");
      return '<div class="' + cls + '" data-table="' + x.table + '"><div class="n">' + esc(x.table) + " <small>" +
        t(x.online === false ? "offline" : x.online ? "online" : "") + "</small></div>" +
        '<div class="p"><span>' + esc(x.a_name) + "</span><span>" + esc(h.a == null ? "" : h.a) + "</span></div>" +
        '<div class="p"><span>' + esc(x.b_name) + "</span><span>" + esc(h.b == null ? "" : h.b) + "</span></div>" +
        '<div class="meta">' + (s.turn ? t("turn") + " " + esc(s.turn) + " · " : "") + mmss(left(state.clock, x.table)) +
        (res ? " · " + res.a_wins + "-" + res.b_wins + (res.draws ? "-" + res.draws : "") : "") +
        (s.timer && s.timer.state === "time" && !res ? " · " + (s.timer.finishing ? t("turn_end") : t("extra_left", { n: s.timer.turns_left })) : "") + "</div>" +
        (res && res.at_time && res.at_time.length ? '<div class="at-time">' + esc(res.at_time.map((x) => (x || {})[lang] || "").join(" / ")) + "</div>" : "") +
        (s.result_pending ? '<div class="pending">' + t("pending") + "</div>" : "") +
        ((state.conflicts || []).some((k) => k.table === x.table && k.round === r.round) ? '<div class="pending">⚠ ' + t("conflict") + "</div>" : "") +
        (s.unsent ? '<div class="pending">' + t("unsent") + ": " + esc(s.unsent) + "</div>" : "") + "</div>";
    }).join("");
    $("ptable").innerHTML = "<tr><th>" + t("table") + "</th><th>A</th><th>B</th><th>" + t("result") + "</th></tr>" +
      (r ? r.tables.map((x) => "<tr><td>" + x.table + "</td><td>" + esc(x.a_name) + "</td><td>" + esc(x.b_name) +
        "</td><td>" + (x.result ? score(x.result) + (x.result.corrected ? " (" + t("corrected") + ")" : "") : "") +
        "</td></tr>").join("") + (r.bye_name ? "<tr><td>-</td><td>" + esc(r.bye_name) + "</td><td>" + t("bye") + "</td><td></td></tr>" : "") : "");
    $("ntable").innerHTML = "<tr><th>" + t("name") + "</th><th>" + t("table") + "</th><th>" + t("seat") + "</th><th>" +
      t("opponent") + "</th></tr>" + state.by_name.map((p) => "<tr><td>" + esc(p.name) + "</td><td>" +
      (p.table == null ? t("bye") : p.table) + "</td><td>" + (p.seat ? p.seat.toUpperCase() : "") + "</td><td>" +
      esc(p.opponent || "") + "</td></tr>").join("");
    $("stable").innerHTML = "<tr><th>" + t("rank") + "</th><th>" + t("name") + "</th><th>" + t("points") + "</th><th>" +
      t("record") + "</th><th>" + t("omw") + "</th><th>" + t("gw") + "</th><th>" + t("ogw") + "</th></tr>" +
      state.standings.map((s) => "<tr><td>" + s.rank + "</td><td>" + esc(s.name) + (s.dropped ? " (" + t("dropped") + ")" : "") +
        "</td><td>" + s.points + "</td><td>" + s.wins + "-" + s.losses + "-" + s.draws + "</td><td>" + s.omw.toFixed(2) +
        "</td><td>" + s.gw.toFixed(2) + "</td><td>" + s.ogw.toFixed(2) + "</td></tr>").join("");
    const fill = (id, list) => {
      const sel = $(id);
      const key = list.map((p) => p.id).join(",");
      if (sel && sel.dataset.key !== key) {
        const keep = sel.value;
        sel.dataset.key = key;
        sel.innerHTML = list.map((p) => '<option value="' + esc(p.id) + '">' + esc(p.name) + "</option>").join("");
        if (list.some((p) => p.id === keep)) sel.value = keep;
      }
    };
    fill("pdrop", state.players.filter((p) => !p.dropped));
    fill("preinstate", state.players.filter((p) => p.dropped));
    $("reinstate-row").hidden = !state.players.some((p) => p.dropped);
  }
  // until when a result can still be corrected: the demo's autopilot says when it moves on,
  // a person's event holds the next round until the TD starts it
  function holdNote() {
    const r = state.round, a = state.autopilot;
    if (!r) return "";
    const now = Date.now() + offset;
    if (a && a.at_ms) {
      const s = Math.max(0, Math.ceil((a.at_ms - now) / 1000));
      return " · " + (a.next === "pair" ? t("auto_pair", { s: s, round: r.round }) : t("auto_start", { s: s, round: r.round, prev: r.round - 1 }));
    }
    return r.complete ? " · " + t("hold", { round: r.round }) : "";
  }
  // the projector: the names as large as the screen allows (a room reads it from the back)
  function fitNames() {
    // the list fills the rest of the screen (flex); names that do not fit make more columns
    // than it shows (scrollWidth) or run below it (scrollHeight)
    const box = $("names");
    let lo = 16, hi = 120;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      box.style.fontSize = mid + "px";
      if (box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1) lo = mid; else hi = mid;
    }
    box.style.fontSize = lo + "px";
  }
  window.addEventListener("resize", () => { if (window.PROJECTOR) fitNames(); });
  async function poll() {
    try {
      const before = Date.now();
      const res = await fetch("/api/state");
      const got = await res.json();
      offset = got.clock.td_ms - (before + Date.now()) / 2;
      state = got;
      render();
      if (game && $("control") && $("control").classList.contains("on")) loadGame(true);
    } catch (e) { /* the TD may be restarting: keep the last view */ }
  }
  const nameOf = (id) => ((state.players || []).find((p) => p.id === id) || {}).name || id;
  // the conflicts: both results side by side, their sources and times; one tap keeps one
  function renderConflicts() {
    const box = $("conflicts");
    if (!box) return;
    const html = (state.conflicts || []).map((k) => '<div class="conflict" data-id="' + esc(k.id) + '"><div class="head">⚠ ' +
      t("conflict_head") + " · " + t("round") + " " + k.round + " · " + t("table") + " " + k.table + " · " + esc(k.a_name) +
      " (A) vs " + esc(k.b_name) + ' (B)</div><div class="sides"><div class="side"><b>' + t("now_result") + ": " + score(k.now) +
      "</b><div>" + esc(source(k.now)) + '</div><button data-resolve="current">' + t("keep_current") + '</button></div><div class="side"><b>' +
      t("reported") + ": " + score(k.reported) + "</b><div>" + esc(source(k.reported)) + '</div><button data-resolve="reported">' +
      t("keep_reported") + "</button></div></div></div>").join("");
    if (box.dataset.html !== html) { box.dataset.html = html; box.innerHTML = html; }
  }
  function renderCorrections() {
    const tb = $("ctable");
    if (!tb) return;
    const html = "<tr><th>" + t("when") + "</th><th>" + t("round") + "</th><th>" + t("table") + "</th><th>" + t("change") + "</th><th>" +
      t("reason") + "</th><th>" + t("by") + "</th><th>" + t("status") + "</th></tr>" + (state.corrections || []).map((c) =>
      "<tr><td>" + hhmmss(c.at_ms) + "</td><td>" + c.round + "</td><td>" + c.table + "</td><td>" + score(c.before) + " → " + score(c.after) +
      "</td><td>" + esc(c.reason || "") + "</td><td>" + esc(c.by || "") + "</td><td>" + (c.undone ? t("undone") + " (" + esc(c.undone.by) +
      ", " + hhmmss(c.undone.at_ms) + ")" : '<button data-undo="' + esc(c.id) + '">' + t("undo") + "</button>") + "</td></tr>").join("");
    if (tb.dataset.html !== html) { tb.dataset.html = html; tb.innerHTML = html; }
  }
  // the game the form names: its players, its result and where it came from, loud when still in play
  function renderGame() {
    const el = $("game");
    if (!el) return;
    if (!game) { el.className = "game"; el.textContent = t("pick_game"); return; }
    const g = game;
    let html = "<b>" + t("round") + " " + g.round + " · " + t("table") + " " + g.table + "</b>: " + esc(g.a_name) + " (A) vs " +
      esc(g.b_name) + " (B) · " + t("now_result") + ": <b>" + score(g.result) + "</b>" + (g.result ? " — " + esc(source(g.result)) : "");
    if (g.live) html += '<div class="warn live">' + t("live_warn") + "</div>";
    if (g.warnings.indexOf("later_round") >= 0) html += '<div class="warn">' + t("later_warn", { next: g.round + 1 }) + "</div>";
    el.className = "game" + (g.live ? " live" : "");
    if (el.dataset.html !== html) { el.dataset.html = html; el.innerHTML = html; }
  }
  async function loadGame(keepRound) {
    const table = parseInt($("rtable").value, 10);
    if (!(table >= 1)) { game = null; renderGame(); return; }
    const sel = $("rround");
    const q = "/api/match?table=" + table + (keepRound && sel.value ? "&round=" + sel.value : "");
    try {
      const res = await fetch(q);
      game = res.ok ? await res.json() : null;
    } catch (e) { return; }
    if (game) {
      const opts = game.rounds.map((n) => '<option value="' + n + '">' + n + "</option>").join("");
      if (sel.dataset.opts !== opts) { sel.dataset.opts = opts; sel.innerHTML = opts; }
      sel.value = String(game.round);
    }
    renderGame();
  }
  async function post(name, body) {
    const tok = $("token").value.trim() || localStorage.getItem("lumen.td.token") || "";
    try {
      const res = await fetch("/api/control/" + name, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + tok }, body: JSON.stringify(body) });
      return { res: res, out: await res.json() };
    } catch (e) { return { res: null, out: {} }; }
  }
  // an action the TD must confirm (a game still in play, a later round started): asked, then sent again
  async function send(name, body) {
    let r = await post(name, body);
    if (r.res && r.res.status === 409 && r.out.error === "confirm_needed") {
      const what = r.out.warnings.map((w) => t("warn_" + w, { round: r.out.round, table: r.out.table })).join("\n");
      if (!confirm(what + "\n" + t("go_on"))) return null;
      r = await post(name, Object.assign({}, body, { confirm: r.out.warnings }));
    }
    return r;
  }
  function say(r, okText) {
    const m = $("msg");
    if (!r.res) { m.className = "msg err"; m.textContent = t("err_network"); return; }
    m.className = "msg" + (r.res.ok ? " ok" : " err");
    // a sentence, never "422 reason: String should have at least 3 characters" or "done: drop"
    m.textContent = r.res.ok ? okText : (r.out.message && r.out.message[lang]) || r.out.detail || r.out.error;
  }
  const by = () => { const v = $("rby").value.trim(); localStorage.setItem("lumen.td.by", v); return v || "TD"; };
  // a correction names its game: the players and the result it replaces go with it; asked once
  // naming them, and twice when the game is still being played
  async function correct() {
    await loadGame(true);
    if (!game) return;
    const num = (id) => parseInt($(id).value, 10);
    const g = game, after = { a_wins: num("ra"), b_wins: num("rb"), draws: num("rd") };
    const v = { round: g.round, table: g.table, a: g.a_name, b: g.b_name, before: score(g.result), after: score(after), reason: $("rreason").value };
    let text = t("confirm_override", v);
    if (g.warnings.indexOf("later_round") >= 0) text += "\n\n" + t("later_warn", { next: g.round + 1 });
    if (!confirm(text)) return;
    if (g.live && !confirm(t("confirm_live", v))) return;
    const body = Object.assign({ round: g.round, table: g.table, reason: $("rreason").value, by: by(), players: [g.a, g.b],
      before: g.result ? { a_wins: g.result.a_wins, b_wins: g.result.b_wins, draws: g.result.draws } : null, confirm: g.warnings }, after);
    const r = await send("override", body);
    if (r) say(r, t("ok_override", { table: g.table, round: g.round }));
    loadGame(true);
    poll();
  }
  async function enter() {
    await loadGame(true);
    if (!game) return;
    const num = (id) => parseInt($(id).value, 10);
    const g = game, after = { a_wins: num("ra"), b_wins: num("rb"), draws: num("rd") };
    if (!confirm(t("confirm_enter", { round: g.round, table: g.table, a: g.a_name, b: g.b_name, after: score(after) }))) return;
    say(await post("result", Object.assign({ round: g.round, table: g.table }, after)), t("ok_result", { table: g.table }));
    loadGame(true);
    poll();
  }
  async function act(name) {
    const tok = $("token").value.trim();
    localStorage.setItem("lumen.td.token", tok);
    if (name === "override") return correct();
    if (name === "result") return enter();
    const num = (id) => parseInt($(id).value, 10);
    if (name === "drop" && !confirm(t("confirm_drop", { name: nameOf($("pdrop").value) }))) return;
    const bodies = {
      extend: () => Object.assign({ minutes: num("extmin") }, $("exttable").value ? { table: num("exttable") } : {}),
      add: () => ({ name: $("pname").value }),
      drop: () => Object.assign({ player: $("pdrop").value }, $("rreason").value.trim() ? { reason: $("rreason").value.trim() } : {}),
      reinstate: () => ({ player: $("preinstate").value }),
      fix: () => ({ player: $("pdrop").value, table: $("fixtable").value ? num("fixtable") : null }),
      repair: () => ({ reason: $("rreason").value || "re-pair" }),
    };
    const body = bodies[name] ? bodies[name]() : {};
    const r = await post(name, body);
    say(r, r.res && r.res.ok ? t("ok_" + name, { round: r.out.round || "", table: body.table || "", name: body.name || nameOf(body.player) }) : "");
    poll();
  }
  async function undo(id) {
    const reason = prompt(t("undo_reason", { id: id }), "");
    if (reason == null) return;
    const r = await send("undo_correction", { id: id, reason: reason, by: by() });
    if (r) say(r, t("ok_undo_correction", { id: id }));
    loadGame(true);
    poll();
  }
  async function resolve(id, keep) {
    if (!($("token").value.trim() || localStorage.getItem("lumen.td.token"))) { alert(t("need_token")); return; }
    const k = (state.conflicts || []).find((x) => x.id === id) || {};
    const r = await send("resolve", { id: id, keep: keep, by: by() });
    if (r) say(r, t("ok_resolve", { round: k.round, table: k.table }));
    if (r && !r.res.ok) alert($("msg").textContent);
    poll();
  }
  document.addEventListener("click", (e) => {
    const b = e.target.closest ? e.target.closest("button") : null;
    if (!b) return;
    if (b.dataset.undo) undo(b.dataset.undo);
    if (b.dataset.resolve) resolve(b.closest(".conflict").dataset.id, b.dataset.resolve);
  });
  if ($("rtable")) {
    $("rtable").addEventListener("input", () => loadGame(false));
    $("rround").addEventListener("change", () => loadGame(true));
    $("rby").value = localStorage.getItem("lumen.td.by") || "";
  }
  function showTab(name) {
    // anything after # that is not a tab (an old bookmark, "#admin=...") shows the room, never a blank page
    const tab = document.querySelector(".tab#" + CSS.escape(name)) ? name : "room";
    document.querySelectorAll(".tab").forEach((s) => s.classList.toggle("on", s.id === tab));
    document.querySelectorAll("nav [data-tab]").forEach((b) => b.classList.toggle("on", b.dataset.tab === tab));
    return tab;
  }
  document.querySelectorAll("[data-tab]").forEach((b) => b.addEventListener("click", () => {
    history.replaceState(null, "", "#" + showTab(b.dataset.tab));
  }));
  document.querySelectorAll("[data-act]").forEach((b) => b.addEventListener("click", () => act(b.dataset.act)));
  if ($("lang")) $("lang").addEventListener("click", () => { lang = lang === "ko" ? "en" : "ko"; localStorage.setItem("lumen.lang", lang); applyLang(); });
  if (!window.PROJECTOR) {
    // "#admin=TOKEN" (a link the TD keeps) fills the token in, then leaves the address bar
    const m = /(?:^#|&)admin=([^&]+)/.exec(location.hash);
    if (m) { localStorage.setItem("lumen.td.token", decodeURIComponent(m[1])); history.replaceState(null, "", location.pathname + "#control"); }
    if ($("token")) $("token").value = localStorage.getItem("lumen.td.token") || "";
    showTab((location.hash || "#room").slice(1).split("&")[0]);
  }
  applyLang();
  poll();
  setInterval(poll, 1000);
  setInterval(drawClock, 200);
})();

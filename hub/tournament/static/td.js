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
      turn: "턴", health: "체력", noround: "아직 대진이 없습니다", ok: "완료", dropped: "기권",
      state_idle: "대기", state_running: "진행", state_paused: "일시정지", state_time: "타임",
      find: "내 테이블 찾기", conflict: "결과 충돌 (변경으로 해결)", refused: "거절된 결과", tokenok: "토큰 확인됨", tokenbad: "토큰이 틀립니다",
      reinstate: "기권 취소", confirm_drop: "{name}을(를) 기권 처리할까요? 다음 라운드부터 대진에서 빠집니다 (‘기권 취소’로 되돌릴 수 있습니다).",
      ok_pair: "라운드 {round} 대진을 짰습니다", ok_repair: "대진을 다시 짰습니다", ok_start: "라운드를 시작했습니다", ok_pause: "시계를 멈췄습니다",
      ok_resume: "시계를 다시 시작했습니다", ok_time: "타임을 선언했습니다", ok_extend: "시간을 연장했습니다", ok_result: "테이블 {table}의 결과를 입력했습니다",
      ok_override: "테이블 {table}의 결과를 바꿨습니다", ok_add: "{name}이(가) 늦게 참가했습니다 (다음 라운드부터)",
      ok_drop: "{name}이(가) 기권했습니다 (다음 라운드부터 빠집니다)", ok_reinstate: "{name}의 기권을 취소했습니다 (다음 라운드부터 다시 대진)",
      ok_fix: "{name}의 테이블을 정했습니다", printed: "인쇄", err_network: "운영 서버에 연결할 수 없습니다",
      auto_pair: "자동 진행: {s}초 뒤 다음 라운드 대진 — 라운드 {round}의 결과는 그 라운드가 시작하기 전까지 ‘변경’으로 고칠 수 있습니다",
      auto_start: "자동 진행: {s}초 뒤 라운드 {round} 시작 — 시작하면 라운드 {prev}의 결과는 더 고칠 수 없습니다",
      hold: "결과를 모두 받았습니다 — 라운드 {round}의 결과는 다음 라운드를 시작하기 전까지 ‘변경’으로 고칠 수 있습니다" },
    en: { room: "Room", pairings: "Pairings", byname: "By name", standings: "Standings", control: "Control",
      projector: "Projector", print: "Print", csv: "CSV", json: "JSON", token: "Admin token", pair: "Pair next round",
      repair: "Re-pair", start: "Start round", pause: "Pause", resume: "Resume", time: "Time",
      extend: "Extend (min)", tableopt: "Table (empty: all)", apply: "Apply", result: "Enter / change a result",
      table: "Table", draws: "Draws", reason: "Reason", enter: "Enter", override: "Override (reason)",
      players: "Players", add: "Late entry", drop: "Drop", fix: "Keep at table (empty: release)", round: "Round", swiss: "Swiss", cut: "Top cut",
      online: "online", offline: "offline", pending: "result awaiting confirmation", unsent: "unsent results",
      bye: "bye", rank: "#", name: "Name", points: "Points", record: "W-L-D", omw: "OMW%", gw: "GW%",
      ogw: "OGW%", opponent: "Opponent", seat: "Seat", turn: "turn", health: "health",
      noround: "No pairings yet", ok: "done", dropped: "dropped", state_idle: "waiting", state_running: "running",
      state_paused: "paused", state_time: "TIME", find: "Find your table", conflict: "conflicting result (resolve with an override)", refused: "refused result", tokenok: "token accepted",
      tokenbad: "wrong token", reinstate: "Undo drop", confirm_drop: "Drop {name}? They leave the pairings from the next round (Undo drop brings them back).",
      ok_pair: "Round {round} paired", ok_repair: "Re-paired", ok_start: "Round started", ok_pause: "Clock paused", ok_resume: "Clock running again",
      ok_time: "Time called", ok_extend: "Time extended", ok_result: "Table {table}'s result entered", ok_override: "Table {table}'s result changed",
      ok_add: "{name} entered late (paired from the next round)", ok_drop: "{name} dropped (out from the next round)",
      ok_reinstate: "{name}'s drop undone (paired again from the next round)", ok_fix: "{name}'s table kept", printed: "Print",
      err_network: "Cannot reach the TD server",
      auto_pair: "Autopilot: the next round is paired in {s} s — round {round}'s results can be corrected (Override) until the next round starts",
      auto_start: "Autopilot: round {round} starts in {s} s — once it starts, round {prev}'s results can no longer change",
      hold: "Every result is in — round {round}'s results can be corrected (Override) until the next round starts" },
  };
  let lang = localStorage.getItem("lumen.lang") === "en" ? "en" : "ko";
  const t = (k, vars) => {
    let x = I18N[lang][k] || k;
    for (const v in vars || {}) x = x.split("{" + v + "}").join(vars[v]);
    return x;
  };
  const $ = (id) => document.getElementById(id);
  let state = null, offset = 0;

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
  const h = window.LumenDraw.h, patch = window.LumenDraw.patch;     // the pages' one way to draw (hub/web/static/draw.js)
  const score = (res) => res.a_wins + "-" + res.b_wins + (res.draws ? "-" + res.draws : "");
  function tile(x) {
    const s = x.status || {}, hp = s.health || {}, res = x.result;
    return h("div", { class: ["tile", x.online === false ? "offline" : x.online ? "online" : "", res && "done"], "data-table": x.table, "data-key": "t" + x.table },
      h("div", { class: "n" }, String(x.table), " ", h("small", { text: t(x.online === false ? "offline" : x.online ? "online" : "") })),
      h("div", { class: "p" }, h("span", { text: x.a_name }), h("span", { text: hp.a == null ? "" : String(hp.a) })),
      h("div", { class: "p" }, h("span", { text: x.b_name }), h("span", { text: hp.b == null ? "" : String(hp.b) })),
      h("div", { class: "meta", text: (s.turn ? t("turn") + " " + s.turn + " · " : "") + mmss(left(state.clock, x.table)) + (res ? " · " + score(res) : "") }),
      s.result_pending ? h("div", { class: "pending", text: t("pending") }) : null,
      s.unsent ? h("div", { class: "pending", text: t("unsent") + ": " + s.unsent }) : null);
  }
  const row = (cells, th) => h("tr", null, cells.map((c) => h(th ? "th" : "td", { text: c === null || c === undefined ? "" : String(c) })));
  function render() {
    if (!state) return;
    const r = state.round, room = state.room;
    const heading = room.event + (r ? " · " + t("round") + " " + r.round + " (" + t(r.stage) + ")" : "");
    $("title").textContent = heading;
    document.title = heading;
    drawClock();
    if (window.PROJECTOR) {
      $("find").textContent = t("find") + (r ? " · " + t("round") + " " + r.round : "");
      names = state.by_name;
      fitNames();
      return;
    }
    // printed sheets name the event and the round (the browser prints this heading)
    document.querySelectorAll(".printhead").forEach((x) => { x.textContent = heading; });
    $("roundline").textContent = (r ? t("round") + " " + r.round + " · " + t("state_" + state.clock.state) +
      (r.bye_name ? " · " + t("bye") + ": " + r.bye_name : "") : t("noround")) + holdNote();
    patch($("problems"), state.problems.map((p) => h("div", { text: t("table") + " " + p.table + ": " + t(p.status) + " — " + p.error })));
    patch($("tiles"), state.tiles.map(tile));
    patch($("ptable"), row([t("table"), "A", "B", t("result")], true),
      r ? r.tables.map((x) => row([x.table, x.a_name, x.b_name, x.result ? score(x.result) : ""])) : null,
      r && r.bye_name ? row(["-", r.bye_name, t("bye"), ""]) : null);
    patch($("ntable"), row([t("name"), t("table"), t("seat"), t("opponent")], true),
      state.by_name.map((p) => row([p.name, p.table == null ? t("bye") : p.table, p.seat ? p.seat.toUpperCase() : "", p.opponent || ""])));
    patch($("stable"), row([t("rank"), t("name"), t("points"), t("record"), t("omw"), t("gw"), t("ogw")], true),
      state.standings.map((x) => row([x.rank, x.name + (x.dropped ? " (" + t("dropped") + ")" : ""), x.points, x.wins + "-" + x.losses + "-" + x.draws,
        x.omw.toFixed(2), x.gw.toFixed(2), x.ogw.toFixed(2)])));
    // a select keeps what the TD picked while the players it offers stay the same
    const fill = (id, list) => {
      const sel = $(id), keep = sel.value;
      patch(sel, list.map((p) => h("option", { value: p.id, text: p.name, selected: p.id === keep })));
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
  // the projector: the names as large as the screen allows (a room reads it from the back), never
  // under MIN_PX: a room too big for one screen at that size is shown a page at a time, the pages
  // turning every PAGE_MS (the heading says which)
  const MIN_PX = 28, PAGE_MS = 8000;
  let names = [], page = 0, pages = 1;
  const nameLine = (p) => h("div", { "data-key": "n" + p.name }, h("b", { class: "tno", text: p.table == null ? t("bye") : String(p.table) }), " ",
    h("span", { class: "pname", text: p.name }), p.opponent ? [" ", h("small", { class: "sec", text: "vs " + p.opponent })] : null);
  const fits = (box) => box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1;
  function fitNames() {
    // the list fills the rest of the screen (flex); names that do not fit make more columns
    // than it shows (scrollWidth) or run below it (scrollHeight)
    const box = $("names");
    patch(box, names.map(nameLine));
    let lo = MIN_PX, hi = 120;
    box.style.fontSize = lo + "px";
    if (fits(box)) {
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        box.style.fontSize = mid + "px";
        if (fits(box)) lo = mid; else hi = mid;
      }
      box.style.fontSize = lo + "px";
      pages = 1;
      box.removeAttribute("data-page");
      return;
    }
    // pages at MIN_PX: as many names as fit on one screen each
    let n = names.length;
    while (n > 1) { patch(box, names.slice(0, n).map(nameLine)); if (fits(box)) break; n = Math.max(1, Math.floor(n * 0.9)); }
    pages = Math.ceil(names.length / n);
    page = page % pages;
    patch(box, names.slice(page * n, (page + 1) * n).map(nameLine));
    box.dataset.page = (page + 1) + "/" + pages;
    $("find").textContent += " · " + (page + 1) + "/" + pages;
  }
  if (window.PROJECTOR) setInterval(() => { if (pages > 1) { page = (page + 1) % pages; render(); } }, PAGE_MS);
  window.addEventListener("resize", () => { if (window.PROJECTOR) fitNames(); });
  async function poll() {
    try {
      const before = Date.now();
      const res = await fetch("/api/state");
      const got = await res.json();
      offset = got.clock.td_ms - (before + Date.now()) / 2;
      state = got;
      render();
    } catch (e) { /* the TD may be restarting: keep the last view */ }
  }
  const nameOf = (id) => ((state.players || []).find((p) => p.id === id) || {}).name || id;
  async function act(name) {
    const tok = $("token").value.trim();
    localStorage.setItem("lumen.td.token", tok);
    const num = (id) => parseInt($(id).value, 10);
    if (name === "drop" && !confirm(t("confirm_drop", { name: nameOf($("pdrop").value) }))) return;
    const bodies = {
      extend: () => Object.assign({ minutes: num("extmin") }, $("exttable").value ? { table: num("exttable") } : {}),
      result: () => ({ round: state.round.round, table: num("rtable"), a_wins: num("ra"), b_wins: num("rb"), draws: num("rd") }),
      override: () => ({ round: state.round.round, table: num("rtable"), a_wins: num("ra"), b_wins: num("rb"), draws: num("rd"), reason: $("rreason").value }),
      add: () => ({ name: $("pname").value }),
      drop: () => Object.assign({ player: $("pdrop").value }, $("rreason").value.trim() ? { reason: $("rreason").value.trim() } : {}),
      reinstate: () => ({ player: $("preinstate").value }),
      fix: () => ({ player: $("pdrop").value, table: $("fixtable").value ? num("fixtable") : null }),
      repair: () => ({ reason: $("rreason").value || "re-pair" }),
    };
    const body = bodies[name] ? bodies[name]() : {};
    let res, out = {};
    try {
      res = await fetch("/api/control/" + name, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + tok }, body: JSON.stringify(body) });
      out = await res.json();
    } catch (e) { $("msg").className = "msg err"; $("msg").textContent = t("err_network"); return; }
    $("msg").className = "msg" + (res.ok ? " ok" : " err");
    // a sentence, never "422 reason: String should have at least 3 characters" or "done: drop"
    $("msg").textContent = res.ok
      ? t("ok_" + name, { round: out.round || "", table: body.table || "", name: body.name || nameOf(body.player) })
      : (out.message && out.message[lang]) || out.detail || out.error;
    poll();
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

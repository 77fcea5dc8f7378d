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
      find: "내 테이블 찾기", conflict: "결과 충돌 (변경으로 해결)", refused: "거절된 결과", tokenok: "토큰 확인됨", tokenbad: "토큰이 틀립니다" },
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
      tokenbad: "wrong token" },
  };
  let lang = localStorage.getItem("lumen.lang") === "en" ? "en" : "ko";
  const t = (k) => I18N[lang][k] || k;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
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
  function render() {
    if (!state) return;
    const r = state.round, room = state.room;
    $("title").textContent = room.event + (r ? " · " + t("round") + " " + r.round + " (" + t(r.stage) + ")" : "");
    drawClock();
    if (window.PROJECTOR) {
      $("find").textContent = t("find") + (r ? " · " + t("round") + " " + r.round : "");
      $("names").innerHTML = state.by_name.map((p) => "<div><b>" + (p.table == null ? t("bye") : esc(p.table)) +
        "</b> " + esc(p.name) + (p.opponent ? " <small>vs " + esc(p.opponent) + "</small>" : "") + "</div>").join("");
      return;
    }
    $("roundline").textContent = r ? t("round") + " " + r.round + " · " + t("state_" + state.clock.state) +
      (r.bye_name ? " · " + t("bye") + ": " + r.bye_name : "") : t("noround");
    $("problems").innerHTML = state.problems.map((p) => "<div>" + t("table") + " " + esc(p.table) + ": " +
      t(p.status) + " — " + esc(p.error) + "</div>").join("");
    $("tiles").innerHTML = state.tiles.map((x) => {
      const s = x.status || {}, h = s.health || {}, res = x.result;
      const cls = "tile " + (x.online === false ? "offline" : x.online ? "online" : "") + (res ? " done" : "");
      return '<div class="' + cls + '" data-table="' + x.table + '"><div class="n">' + esc(x.table) + " <small>" +
        t(x.online === false ? "offline" : x.online ? "online" : "") + "</small></div>" +
        '<div class="p"><span>' + esc(x.a_name) + "</span><span>" + esc(h.a == null ? "" : h.a) + "</span></div>" +
        '<div class="p"><span>' + esc(x.b_name) + "</span><span>" + esc(h.b == null ? "" : h.b) + "</span></div>" +
        '<div class="meta">' + (s.turn ? t("turn") + " " + esc(s.turn) + " · " : "") + mmss(left(state.clock, x.table)) +
        (res ? " · " + res.a_wins + "-" + res.b_wins + (res.draws ? "-" + res.draws : "") : "") + "</div>" +
        (s.result_pending ? '<div class="pending">' + t("pending") + "</div>" : "") +
        (s.unsent ? '<div class="pending">' + t("unsent") + ": " + esc(s.unsent) + "</div>" : "") + "</div>";
    }).join("");
    $("ptable").innerHTML = "<tr><th>" + t("table") + "</th><th>A</th><th>B</th><th>" + t("result") + "</th></tr>" +
      (r ? r.tables.map((x) => "<tr><td>" + x.table + "</td><td>" + esc(x.a_name) + "</td><td>" + esc(x.b_name) +
        "</td><td>" + (x.result ? x.result.a_wins + "-" + x.result.b_wins + (x.result.draws ? "-" + x.result.draws : "") : "") +
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
    const sel = $("pdrop");
    if (sel && sel.options.length !== state.players.filter((p) => !p.dropped).length) {
      sel.innerHTML = state.players.filter((p) => !p.dropped).map((p) => '<option value="' + esc(p.id) + '">' + esc(p.name) + "</option>").join("");
    }
  }
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
  async function act(name) {
    const tok = $("token").value.trim();
    localStorage.setItem("lumen.td.token", tok);
    const num = (id) => parseInt($(id).value, 10);
    const bodies = {
      extend: () => Object.assign({ minutes: num("extmin") }, $("exttable").value ? { table: num("exttable") } : {}),
      result: () => ({ round: state.round.round, table: num("rtable"), a_wins: num("ra"), b_wins: num("rb"), draws: num("rd") }),
      override: () => ({ round: state.round.round, table: num("rtable"), a_wins: num("ra"), b_wins: num("rb"), draws: num("rd"), reason: $("rreason").value }),
      add: () => ({ name: $("pname").value }),
      drop: () => ({ player: $("pdrop").value }),
      fix: () => ({ player: $("pdrop").value, table: $("fixtable").value ? num("fixtable") : null }),
      repair: () => ({ reason: $("rreason").value || "re-pair" }),
    };
    const body = bodies[name] ? bodies[name]() : {};
    const res = await fetch("/api/control/" + name, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + tok }, body: JSON.stringify(body) });
    const out = await res.json();
    $("msg").className = "msg" + (res.ok ? "" : " err");
    $("msg").textContent = res.ok ? t("ok") + ": " + name : res.status + " " + (out.detail || out.error);
    poll();
  }
  document.querySelectorAll("[data-tab]").forEach((b) => b.addEventListener("click", () => {
    document.querySelectorAll(".tab").forEach((s) => s.classList.toggle("on", s.id === b.dataset.tab));
    location.hash = b.dataset.tab;
  }));
  document.querySelectorAll("[data-act]").forEach((b) => b.addEventListener("click", () => act(b.dataset.act)));
  if ($("lang")) $("lang").addEventListener("click", () => { lang = lang === "ko" ? "en" : "ko"; localStorage.setItem("lumen.lang", lang); applyLang(); });
  if ($("token")) $("token").value = localStorage.getItem("lumen.td.token") || "";
  if (!window.PROJECTOR) {
    const tab = (location.hash || "#room").slice(1);
    document.querySelectorAll(".tab").forEach((s) => s.classList.toggle("on", s.id === tab));
  }
  applyLang();
  poll();
  setInterval(poll, 1000);
  setInterval(drawClock, 200);
})();

// The seat page (issue 40): one player's seat on their own phone. It reads its seat from the hub
// (POST /api/seat/{seat}/state with the seat link's token and this phone's own id), hears that
// something changed from the display's public WebSocket, and answers with POST .../decision:
// the hub locks, commits and reveals a phone's ready exactly as a pod's. Nothing here decides a
// time: the countdown shown is the hub's (ms_left as of the last read). Drawn with draw.js.
"use strict";
(function () {
  const { h, patch } = window.LumenDraw;
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = params.get("seat");
  const token = params.get("token");
  const T = {
    ko: { seat: "좌석", title: "{label} 내 좌석", ready: "레디 잠그기", confirm: "확인", locked: "레디 잠김: 공개를 기다립니다",
          lockedNote: "상대에게는 고른 카드가 보이지 않습니다", choose: "고르세요", nothing: "지금은 할 일이 없습니다",
          opponentLocked: "상대가 레디했습니다", left: "남은 시간", hand: "내 패", coach: "코치", log: "최근 진행",
          fp: "FP", hp: "체력", handN: "패 {n}장", priority: "우선권", you: "나", turn: "{n}턴", over: "게임 종료: {who}",
          draw: "무승부", win: "{who} 승리", noLink: "좌석 링크가 아닙니다: 심판 화면의 좌석 링크(또는 QR)로 여세요",
          offline: "허브와 연결이 끊겼습니다: 다시 연결하는 중", picks: "{n}장을 고르세요", bareReady: "레디" },
    en: { seat: "Seat", title: "{label} my seat", ready: "Lock READY", confirm: "Confirm", locked: "READY locked: waiting for the reveal",
          lockedNote: "your opponent cannot see which card you chose", choose: "Choose", nothing: "Nothing to do right now",
          opponentLocked: "your opponent has readied", left: "time left", hand: "My hand", coach: "Coach", log: "Latest",
          fp: "FP", hp: "Health", handN: "{n} in hand", priority: "priority", you: "you", turn: "turn {n}", over: "Game over: {who}",
          draw: "a draw", win: "{who} wins", noLink: "Not a seat link: open the seat link (or QR) from the judge's page",
          offline: "lost the hub: reconnecting", picks: "choose {n} cards", bareReady: "READY" },
  };
  let lang = localStorage.getItem("lumen.lang") || "ko";      // Korean first, as the table display
  const t = (k, vars) => (T[lang][k] || k).replace(/\{(\w+)\}/g, (_, v) => (vars && v in vars ? vars[v] : ""));
  const $ = (id) => document.getElementById(id);

  function clientId() {
    const key = "lumen-seat-client:" + seat + ":" + token;
    let id = localStorage.getItem(key);
    if (!id) {
      const b = new Uint8Array(12);
      crypto.getRandomValues(b);          // (crypto.randomUUID needs https: a hub on the LAN is http)
      id = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(key, id);
    }
    return id;
  }

  let S = null;               // the seat as last read
  let readAt = 0;             // performance.now() of that read (the countdown runs from it)
  let rtt = null;
  let picked = [];            // the options chosen on the page, not sent yet
  let pickedFor = null;       // the question they were chosen for
  let busy = false;

  async function call(path, extra) {
    const body = Object.assign({ token: token, client: clientId(), lang: lang, rtt_ms: rtt }, extra || {});
    const sent = performance.now();
    const r = await fetch("/api/seat/" + encodeURIComponent(seat) + path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    rtt = Math.round(performance.now() - sent);
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      const msg = (data.message && data.message[lang]) || data.detail || ("HTTP " + r.status);
      throw new Error(msg);
    }
    return data;
  }

  function showError(text) {
    const el = $("error");
    el.hidden = !text;
    patch(el, text || "");
  }

  async function read() {
    try {
      got(await call("/state"));
      showError(null);
    } catch (e) {
      showError(e.message);
    }
  }

  function got(state) {
    S = state;
    readAt = performance.now();
    const key = JSON.stringify([S.game_id, S.turn, S.prompt.kind, S.prompt.options.map((o) => o.value)]);
    if (key !== pickedFor) { picked = []; pickedFor = key; }
    draw();
  }

  async function answer(kind, value) {
    if (busy) return;
    busy = true;
    try {
      got(await call("/decision", { kind: kind, value: value }));
      showError(null);
    } catch (e) {
      showError(e.message);
      read();
    } finally {
      busy = false;
    }
  }

  // ---------------------------------------------------------------- drawing
  function draw() {
    document.documentElement.lang = lang;
    $("lang").textContent = lang === "ko" ? "EN" : "한국어";
    if (!S) return;
    patch($("who"), t("title", { label: S.label }), " ", h("span", { class: "pill", text: t("turn", { n: S.turn }) }));
    drawStatus();
    drawTimer();
    drawAsk();
    drawHand();
    patch($("coach"), S.coach.length ? [h("h2", { text: t("coach") }), S.coach.map((c) => h("p", { text: c.text }))] : []);
    patch($("log"), S.log.length ? [h("h2", { text: t("log") }), h("ol", null, S.log.slice().reverse().map((line) => h("li", { text: line })))] : []);
  }

  function drawStatus() {
    patch($("status"), S.seats.map((x) => {
      const st = S.status[x];
      return h("div", { class: ["side", x === "b" || x === "d" ? "b" : ""], "data-key": "side-" + x },
        h("div", null, h("b", { text: st.label + " " + (st.character || "") }), x === seat ? h("span", { class: "mine", text: " (" + t("you") + ")" }) : null),
        h("div", { class: "hp", text: String(st.health) }),
        h("div", { class: "fp", text: t("fp") + " " + (st.fp > 0 ? "+" : "") + st.fp + " · " + t("handN", { n: st.hand }) }),
        S.priority === x ? h("span", { class: "pill", text: t("priority") }) : null,
        S.ready[x] && S.ready[x].locked && x !== seat ? h("div", { class: "mine", text: t("opponentLocked") }) : null);
    }));
  }

  function msLeft() {
    const r = S && S.ready[seat];
    if (!r || r.ms_left === null || r.ms_left === undefined || S.prompt.locked) return null;
    return Math.max(0, r.ms_left - (performance.now() - readAt));
  }

  function drawTimer() {
    const left = msLeft();
    patch($("timer"), left === null ? [] : [(left / 1000).toFixed(1), h("small", { text: t("left") })]);
  }

  function drawAsk() {
    const p = S.prompt;
    const el = $("ask");
    if (S.winner || S.at_time) {
      const who = S.winner === "draw" ? t("draw") : S.winner ? t("win", { who: S.status[S.winner].label }) : S.at_time;
      patch(el, h("div", { class: "over", text: S.at_time || t("over", { who: who }) }));
      return;
    }
    if (p.locked) {
      patch(el, h("div", { class: "locked", text: t("locked") }), h("p", { class: "muted", text: t("lockedNote") }));
      return;
    }
    if (p.kind === "none") {
      patch(el, h("p", { text: t("nothing") }));
      return;
    }
    if (p.bare || !p.options.length) {
      patch(el, h("h2", { text: p.ask }), h("button", { class: "opt go", type: "button", "data-key": "go",
        "data-act": "bare", text: t("bareReady") }));
      return;
    }
    const many = p.kind === "discard" && p.picks > 1;
    const ready = many ? picked.length === p.picks : picked.length === 1;
    patch(el, h("h2", { text: p.ask }), many ? h("p", { text: t("picks", { n: p.picks }) }) : null,
      h("div", { class: "options" }, p.options.map((o, i) => h("button", {
        class: "opt", type: "button", "data-key": "opt-" + i, "data-opt": String(i),
        "aria-pressed": picked.includes(i) ? "true" : "false" }, splitLabel(o.label)))),
      p.pass ? h("button", { class: "opt pass", type: "button", "data-key": "pass", "data-act": "pass", text: p.pass.label }) : null,
      h("button", { class: "opt go", type: "button", "data-key": "go", "data-act": "go", disabled: !ready,
        text: p.kind === "ready" ? t("ready") : t("confirm") }));
  }

  function splitLabel(label) {       // "섬광 찌르기 (공격 · 상단 · 속도 4 · 피해 300)": the name big, what it is small
    const m = /^(.*?) \((.*)\)$/.exec(label);
    return m ? [m[1], h("small", { text: m[2] })] : [label];
  }

  function drawHand() {
    patch($("hand"), S.hand.length ? [h("h2", { text: t("hand") }), h("ul", null, S.hand.map((c, i) =>
      h("li", { "data-key": "card-" + i }, h("b", { text: c.name }), " ", h("small", { text: c.summary }),
        c.text ? h("div", null, h("small", { text: c.text })) : null)))] : []);
  }

  // ---------------------------------------------------------------- input
  $("ask").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b || !S || busy) return;
    const p = S.prompt;
    if (b.dataset.opt !== undefined) {
      const i = Number(b.dataset.opt);
      const many = p.kind === "discard" && p.picks > 1;
      if (many) picked = picked.includes(i) ? picked.filter((x) => x !== i) : picked.concat([i]).slice(-p.picks);
      else picked = [i];
      drawAsk();
    } else if (b.dataset.act === "bare") {
      answer(p.kind, true);
    } else if (b.dataset.act === "pass") {
      answer(p.kind, p.pass.value);
    } else if (b.dataset.act === "go") {
      const values = picked.map((i) => p.options[i].value);
      if (p.kind === "discard") answer(p.kind, values);
      else if (values.length === 1) answer(p.kind, values[0]);
    }
  });
  $("lang").addEventListener("click", () => {
    lang = lang === "ko" ? "en" : "ko";
    localStorage.setItem("lumen.lang", lang);
    read();
  });

  // ---------------------------------------------------------------- live
  let ws = null;
  let pending = null;
  function soon() {                 // many messages at once: one read
    if (pending === null) pending = setTimeout(() => { pending = null; read(); }, 40);
  }
  function connect() {
    ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    ws.onopen = () => { $("conn").dataset.ok = "1"; $("conn").title = ""; read(); };
    ws.onmessage = (ev) => { if (ev.data !== '{"t":"pong"}') soon(); };
    ws.onclose = () => {
      $("conn").dataset.ok = "0";
      $("conn").title = t("offline");
      setTimeout(connect, 1000);
    };
  }
  let zeroRead = null;
  setInterval(() => {
    if (!S) return;
    const left = msLeft();
    drawTimer();
    if (left === 0 && zeroRead !== readAt) { zeroRead = readAt; soon(); }   // the hub decides what a deadline did
  }, 200);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) read(); });   // a phone waking up

  if (!seat || !token) {
    showError(T[lang].noLink);
  } else {
    draw();
    connect();
  }
})();

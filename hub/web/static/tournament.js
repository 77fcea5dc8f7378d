// A hub in a tournament (lumen hub --broker ...): the pairing, the TD clock's quality and the
// result slip with its confirmations, under the table display. Hidden when the hub is not in
// an event (GET /api/tournament is 404 then). Confirming needs the display's admin token.
"use strict";
(function () {
  const L = window.Lumen, h = L.h;
  const T = {
    ko: { round: "라운드", table: "테이블", td: "TD 시계", unsent: "미전송 결과", slip: "결과", confirm: "확인",
      judge: "심판", offline: "브로커 연결 끊김 (혼자 진행, 돌아오면 전송)", confirmed: "확인함", token: "관리자 토큰이 필요합니다",
      draws: "무" },
    en: { round: "Round", table: "Table", td: "TD clock", unsent: "unsent results", slip: "Result", confirm: "Confirm",
      judge: "Judge", offline: "broker offline (playing alone, sends when back)", confirmed: "confirmed",
      token: "the admin token is needed", draws: "draws" },
  };
  const t = (k) => T[L.lang][k];
  const box = h("div", { id: "tournament", class: "tournament-bar", hidden: true, role: "region", "aria-label": "tournament" });
  document.body.appendChild(box);
  let gone = false;
  async function confirm(who) {
    if (!L.token) { L.toast(t("token"), true); return; }
    const r = await fetch("/api/control/tournament/confirm", { method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + L.token }, body: JSON.stringify({ who }) });
    if (!r.ok) {
      let j = {};
      try { j = await r.json(); } catch (e) { /* a text reply */ }
      L.toast(j.message ? (j.message[L.lang] || j.message.ko) : L.t("err_refused"), true);
    }
    poll();
  }
  box.addEventListener("click", (e) => { const w = e.target.dataset && e.target.dataset.who; if (w) confirm(w); });
  async function poll() {
    if (gone) return;
    let v;
    try {
      const r = await fetch("/api/tournament");
      if (r.status === 404) { gone = true; return; }
      v = await r.json();
    } catch (e) { return; }
    const m = v.match, s = v.slip;
    const done = new Set(s ? s.confirmed : []);
    const btn = (who, label) => done.has(who) ? " " + label + " ✓" : [" ", h("button", { type: "button", "data-who": who, text: label + " " + t("confirm") })];
    L.patch(box, h("b", { text: v.event }), " · " + t("table") + " " + v.table,
      m ? " · " + t("round") + " " + m.round + ": " + m.a_name + " vs " + m.b_name : null,
      v.connected ? " · " + t("td") + (v.td_error_ms != null ? " ±" + v.td_error_ms.toFixed(1) + " ms" : "") : " · " + t("offline"),
      v.unsent ? " · " + t("unsent") + ": " + v.unsent : null,
      s ? h("div", null, t("slip") + ": " + (m ? m.a_name : "A") + " " + s.a_wins + " - " + s.b_wins + " " + (m ? m.b_name : "B") +
        (s.draws ? " (" + t("draws") + " " + s.draws + ")" : "") + " · ", btn("a", "1P"), btn("b", "2P"), btn("judge", t("judge"))) : null,
      // a game decided at time: how, by the game's procedure (Lumen: ruling R-time)
      s ? ((s.detail || {}).at_time || []).map((g) => h("div", { class: "at-time", text: (g.text || {})[L.lang] || "" })) : null);
    box.hidden = false;
  }
  poll();
  setInterval(poll, 1000);
})();

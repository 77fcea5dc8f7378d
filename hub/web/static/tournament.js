// A hub in a tournament (lumen hub --broker ...): the pairing, the TD clock's quality and the
// result slip with its confirmations, under the table display. Hidden when the hub is not in
// an event (GET /api/tournament is 404 then). Confirming needs the display's admin token.
(() => {
  "use strict";
  const T = {
    ko: { round: "라운드", table: "테이블", td: "TD 시계", unsent: "미전송 결과", slip: "결과", confirm: "확인",
      judge: "심판", offline: "브로커 연결 끊김 (혼자 진행, 돌아오면 전송)", confirmed: "확인함", token: "관리자 토큰이 필요합니다",
      draws: "무" },
    en: { round: "Round", table: "Table", td: "TD clock", unsent: "unsent results", slip: "Result", confirm: "Confirm",
      judge: "Judge", offline: "broker offline (playing alone, sends when back)", confirmed: "confirmed",
      token: "the admin token is needed", draws: "draws" },
  };
  const lang = () => (localStorage.getItem("lumen.lang") === "en" ? "en" : "ko");
  const t = (k) => T[lang()][k];
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const box = document.createElement("div");
  box.id = "tournament";
  box.style.cssText = "position:fixed;left:0;right:0;bottom:0;padding:.4em 1em;background:#1d2433;color:#fff;" +
    "font-size:1.1em;display:none;z-index:50";
  document.body.appendChild(box);
  let gone = false;
  async function confirm(who) {
    const tok = localStorage.getItem("lumen.token") || "";
    if (!tok) { alert(t("token")); return; }
    await fetch("/api/control/tournament/confirm", { method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + tok }, body: JSON.stringify({ who }) });
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
    const m = v.match;
    let html = "<b>" + esc(v.event) + "</b> · " + t("table") + " " + esc(v.table);
    if (m) html += " · " + t("round") + " " + esc(m.round) + ": " + esc(m.a_name) + " vs " + esc(m.b_name);
    html += v.connected ? " · " + t("td") + (v.td_error_ms != null ? " ±" + v.td_error_ms.toFixed(1) + " ms" : "") : " · " + t("offline");
    if (v.unsent) html += " · " + t("unsent") + ": " + esc(v.unsent);
    const s = v.slip;
    if (s) {
      const done = new Set(s.confirmed);
      const btn = (who, label) => done.has(who) ? " " + esc(label) + " ✓" :
        ' <button data-who="' + who + '">' + esc(label) + " " + t("confirm") + "</button>";
      html += "<div>" + t("slip") + ": " + esc(m ? m.a_name : "A") + " " + s.a_wins + " - " + s.b_wins + " " +
        esc(m ? m.b_name : "B") + (s.draws ? " (" + t("draws") + " " + s.draws + ")" : "") + " · " +
        btn("a", "1P") + btn("b", "2P") + btn("judge", t("judge")) + "</div>";
      // a game decided at time: how, by the game's procedure (Lumen: ruling R-time)
      for (const g of ((s.detail || {}).at_time || [])) html += '<div class="at-time">' + esc((g.text || {})[lang()] || "") + "</div>";
    }
    box.innerHTML = html;
    box.style.display = "block";
  }
  poll();
  setInterval(poll, 1000);
})();

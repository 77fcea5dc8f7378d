// Seat claims the judge decides (issue 39, hub/pods/claims.py): a device asking for a seat
// another pod holds or held waits, unseated, until the judge confirms or refuses it here. The
// banner shows the claims to everyone (S.pod_conflicts); this panel, above the board, is the
// judge's: one row a claim with its two buttons. app.js renders it through
// LumenClaims.render(ctx) with the admin context (S, lang, admin, control).
"use strict";
window.LumenClaims = (function () {
  const WORDS = {
    title: { ko: "좌석 요청 — 심판 확인", en: "Seat claims — the judge decides" },
    confirm: { ko: "승인 (자리를 넘김)", en: "Confirm (hand the seat over)" },
    refuse: { ko: "거절", en: "Refuse" },
  };
  let shown = null;

  function render(ctx) {
    const el = document.getElementById("claims");
    if (!el) return;
    const claims = (ctx.admin && ctx.S && ctx.S.seat_claims) || [];
    el.hidden = !claims.length;
    const key = ctx.lang + JSON.stringify(claims.map((c) => [c.id, c.why, c.who]));
    if (key === shown) return;
    shown = key;
    const w = (k) => WORDS[k][ctx.lang] || WORDS[k].ko;
    const esc = ctx.esc;
    // one grid item across the panel's columns (the admin panels' grid), a row a claim
    el.innerHTML = '<div style="grid-column: 1 / -1"><h2>' + esc(w("title")) + "</h2>" + claims.map((c) =>
      '<div class="btnrow claim" data-claim="' + esc(c.id) + '"><span style="flex: 1 1 24em">' +
      esc((c.text || {})[ctx.lang] || (c.text || {}).ko || "") + "</span>" +
      '<button class="word" data-claim-do="confirm">' + esc(w("confirm")) + "</button>" +
      '<button class="word" data-claim-do="refuse">' + esc(w("refuse")) + "</button></div>").join("") + "</div>";
    el.querySelectorAll("button[data-claim-do]").forEach((b) => {
      b.onclick = async () => {
        const id = b.closest("[data-claim]").dataset.claim;
        b.disabled = true;
        await ctx.control("/api/control/claims/" + b.dataset.claimDo, { claim: id });
        b.disabled = false;
      };
    });
  }
  return { render: render };
})();

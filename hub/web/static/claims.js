// Seat claims the judge decides (issue 39, hub/pods/claims.py): a device asking for a seat
// another pod holds or held waits, unseated, until the judge confirms or refuses it here. The
// banner shows the claims to everyone (S.pod_conflicts); this panel, above the board, is the
// judge's: one row a claim with its two buttons. A region of the table display (core.js),
// drawn with draw.js like the rest of the page.
"use strict";
window.LumenClaims = (function () {
  const L = window.Lumen, h = L.h;
  const WORDS = {
    title: { ko: "좌석 요청 — 심판 확인", en: "Seat claims — the judge decides" },
    confirm: { ko: "승인 (자리를 넘김)", en: "Confirm (hand the seat over)" },
    refuse: { ko: "거절", en: "Refuse" },
  };
  const w = (k) => WORDS[k][L.lang] || WORDS[k].ko;

  function draw(S) {
    const el = document.getElementById("claims");
    if (!el) return;
    const claims = (L.admin && S && S.seat_claims) || [];
    el.hidden = !claims.length;
    L.patch(el, claims.length ? h("div", { style: { "grid-column": "1 / -1" } }, h("h2", { text: w("title") }),
      claims.map((c) => h("div", { class: "btnrow claim", "data-claim": c.id },
        h("span", { style: { flex: "1 1 24em" }, text: (c.text || {})[L.lang] || (c.text || {}).ko || "" }),
        h("button", { type: "button", class: "word", "data-claim-do": "confirm", text: w("confirm") }),
        h("button", { type: "button", class: "word", "data-claim-do": "refuse", text: w("refuse") })))) : null);
  }
  document.addEventListener("click", async (ev) => {
    const b = ev.target.closest && ev.target.closest("button[data-claim-do]");
    if (!b) return;
    b.disabled = true;
    await L.control("/api/control/claims/" + b.dataset.claimDo, { claim: b.closest("[data-claim]").dataset.claim });
    b.disabled = false;
  });
  L.region("claims", ["seat_claims", "static"], draw);
  return { draw: draw };
})();

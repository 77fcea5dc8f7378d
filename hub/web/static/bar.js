// The judge's sticky bar on a phone, in every mode and profile (issue 12 point 9, issue 22
// point 7, issue 37 point 2): each seat's main number (health or life, FP; the priority star),
// the clock, and the one-tap actions: undo (naming what it takes back, wrapped and never cut:
// shortened by design when it would take more than two lines), the round clock (start, pause,
// resume), both hit (Lumen's tracker) and next turn / beat. A region of the table display
// (core.js); the CSS shows it at 820 px and narrower only.
"use strict";
(function () {
  const L = window.Lumen, h = L.h, t = L.t;
  const $ = L.$;
  const profile = (S) => S.view === "profile";

  function seatChip(S, s) {
    const p = S.seats[s];
    let big, small = null;
    if (profile(S)) {
      const c = S.profile.counters.find((x) => x.primary) || S.profile.counters[0];
      big = c ? String(p.counters[c.id]) : "";
    } else {
      big = String(Math.max(0, p.health));
      small = "FP " + L.signed(p.fp);
    }
    const out = profile(S) ? p.out : p.health <= 0;
    // who holds priority (or whose turn it is): a yellow ring, said to a screen reader
    return h("span", { class: ["mini-seat", "s-" + s, S.priority === s && "lead"], "data-colour": p.colour || null,
      "aria-label": S.priority === s ? (p.label || L.seatLabel(s)) + " · " + t("priority") : null },
      h("b", { text: p.label || L.seatLabel(s) }), " ",
      h("span", { class: "mini-hp", id: "mini-hp-" + s, text: big }),
      out ? h("i", { class: "mini-ko", text: profile(S) ? t("pf_out") : "KO" }) : null,
      small ? [" ", h("span", { class: "mini-fp", text: small })] : null);
  }
  // "2P 타오 체력 -300 (3000 → -200) → 서든 데스" -> "2P 타오 체력 -300 → 서든 데스": the from → to in brackets goes first
  const shorter = (text) => text.replace(/\s*\([^()]*\)/g, "");

  function waiting(S) {
    const pend = S.winner ? [] : S.pending || [];
    if (!pend.length) return null;
    const answerable = pend.some((r) => !r.hidden && r.options);
    return [h("p", { class: "mini-wait", text: t("pending") + ": " + pend.map((r) =>
      t("pending_item", { seat: L.seatLabel(r.player), what: t("req_" + r.kind, { n: r.count || "" }) })).join(", ") }),
    answerable ? h("button", { type: "button", class: "word", id: "mini-answer", text: t("answer_go") }) : null];
  }
  document.addEventListener("click", (ev) => {
    if (ev.target.closest && ev.target.closest("#mini-answer")) $("#battle .pending").scrollIntoView({ block: "center" });
  });
  function draw(S) {
    const el = $("#mini");
    const show = L.admin && !L.tv && S && S.seats;
    el.hidden = !show;
    if (!show) return;
    el.setAttribute("aria-label", t("judge_bar"));
    const tm = S.timer || {};
    const clockBtn = tm.state === "running" ? "pause" : tm.state === "paused" ? "resume" : tm.state === "idle" ? "round_start" : null;
    const seats = Object.keys(S.seats);
    const mid = Math.ceil(seats.length / 2);
    const undoable = S.mode === "tracker" || profile(S);
    const undo = S.can_undo && S.undo_text ? L.tx(S.undo_text) : "";
    const undoCmd = profile(S) ? { "data-pcmd": '{"action":"undo"}' } : { "data-cmd": '{"action":"undo"}' };
    const nextCmd = profile(S) ? { "data-pcmd": '{"action":"next_turn"}' } : { "data-cmd": '{"action":"next_turn"}' };
    const nextText = profile(S) ? t("pf_next_turn", { turn: L.tx(S.profile.turn_name) }) : t("next_turn");
    L.patch(el,
      h("div", { class: "mini-scores", "data-n": seats.length },
        seats.slice(0, mid).map((s) => seatChip(S, s)),
        h("span", { class: "mini-clock", id: "mini-clock", role: "timer", "data-colour": L.clockColour(), "data-state": tm.state, text: L.clockText() }),
        seats.slice(mid).map((s) => seatChip(S, s))),
      h("div", { class: "mini-tools", "data-n": 1 + !!clockBtn + (S.mode === "tracker") + (undoable && !S.winner) },
        clockBtn ? h("button", { type: "button", class: "word", id: "mini-clock-btn", "data-timer": clockBtn,
          text: t(clockBtn === "round_start" ? "round_start_short" : clockBtn) }) : null,
        S.mode === "tracker" ? h("button", { type: "button", class: "word", "data-both": "1", text: t("both_hit") }) : null,
        undoable && !S.winner ? h("button", Object.assign({ type: "button", class: "word mini-next",
          disabled: profile(S) && !!L.nextBlocked(S), title: profile(S) ? L.nextBlocked(S) || null : null }, nextCmd), nextText) : null,
        undoable ? h("button", Object.assign({ type: "button", class: "word mini-undo", id: "mini-undo", disabled: !S.can_undo,
          title: undo ? t("undo_what", { what: undo }) : t("undo") }, undoCmd),
        h("b", { text: t("undo") }), undo ? h("small", { "data-full": undo, text: undo }) : null) : null,
        // a referee game: what the table waits for, and a tap to the answers the judge may give
        S.mode === "referee" ? waiting(S) : null));
    // the label wraps (never cut mid-word); past two lines it says the short form
    const small = $("#mini-undo small");
    if (small) {
      const line = parseFloat(getComputedStyle(small).lineHeight) || 16;
      if (small.getBoundingClientRect().height > 2.5 * line) small.textContent = shorter(undo);
    }
  }
  L.region("bar", ["seats", "priority", "can_undo", "undo_text", "timer", "mode", "view", "winner", "game_id", "profile"], draw);
  L.tick(() => {
    // the same figure as the big clock, ticking between messages
    const el = $("#mini-clock"), S = L.S;
    if (!el || !S || !S.timer) return;
    L.text(el, L.clockText());
    L.data(el, "colour", L.clockColour());
    L.data(el, "state", S.timer.state);
  });
})();

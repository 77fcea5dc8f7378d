// The last battle (both revealed cards, the outcomes, the engine's reason with its rule, what
// followed), the decisions the table waits for (the judge answers the public ones here), and
// the whole game's log. Regions of the table display (core.js).
"use strict";
(function () {
  const L = window.Lumen, h = L.h, t = L.t;
  const $ = L.$;
  const WIN = ["hit", "counter", "guard", "evade"], LOSE = ["guarded", "evaded", "countered", "was_hit"];

  function optionLabel(S, o) {
    if (o === "end" || o === "pass" || o === "skip" || o === "ultimate") return t("opt_" + o);
    if (Array.isArray(o)) return o.map((x) => optionLabel(S, x)).join(" + ");
    const c = (S.cards || {})[o];
    return c ? L.nm(c) : String(o);
  }
  function pending(S) {
    const pend = S.pending || [];
    if (!pend.length || S.winner) return null;
    const answers = L.admin ? pend.filter((r) => !r.hidden && r.options).map((r) => {
      const who = h("span", { class: "muted", text: t("answer", { seat: L.seatLabel(r.player) }) + ":" });
      if (r.kind === "discard") {
        return h("div", null, who, " ", h("button", { type: "button", class: "opt", "data-discard-go": r.player,
          text: t("discard_confirm") + " (" + L.selected.size + "/" + r.count + ")" }));
      }
      return h("div", null, who, " ", r.options.map((o) => h("button", { type: "button", class: "opt",
        "data-decision": JSON.stringify({ seat: r.player, kind: r.kind, value: o }), text: optionLabel(S, o) })));
    }) : [];
    return h("div", { class: "pending" }, h("b", { text: t("pending") + ":" }), " ",
      pend.map((r) => t("pending_item", { seat: L.seatLabel(r.player), what: t("req_" + r.kind, { n: r.count || "" }) })).join(", "),
      answers);
  }
  L.region("battle", ["mode", "last_battle", "pending", "cards", "winner", "game_id", "view"], (S) => {
    const el = $("#battle"), body = $("#battle-body");
    el.hidden = S.view === "profile" || S.mode === "tracker";      // the players judge a tracker battle
    if (el.hidden || !S.seats) { L.patch(body); return; }
    const lb = S.last_battle;
    L.patch(body,
      h("h2", { text: lb && lb.turn ? t("last_battle_turn", { n: lb.turn }) : t("last_battle") }),
      !lb ? h("p", { class: "muted", text: t("no_battle") }) : [
        h("div", { class: "battle-row" }, ["a", "b"].map((s) => {
          const res = lb.outcome[s];
          return h("div", { class: "bside " + s },
            h("div", null, h("b", { text: L.seatLabel(s) }), " ", lb.cards && lb.cards[s] ? L.cardChip(S, lb.cards[s]) : null),
            h("div", { class: ["outcome", WIN.includes(res) && "win", LOSE.includes(res) && "lose"], id: "outcome-" + s, text: L.tx(lb.outcome_text[s]) }));
        })),
        h("div", { class: "reason", id: "battle-reason" }, L.withRule(L.tx(lb.text))),
        lb.details.length ? h("ul", { class: "details" }, lb.details.map((d) => h("li", null, L.withRule(L.tx(d.text))))) : null,
      ],
      pending(S));
  });

  // ------------------------------------------------------------ the whole game's log
  // /api/log once per game, then the state's window (its last 40 lines) laid over its end: a line
  // the hub replaced (a winner a later tap turned into sudden death) is replaced here too; a gap
  // the window does not cover fetches it again
  let full = { game: null, lines: [], asked: null };
  function logLines(S) {
    const win = S.log || [], total = typeof S.log_total === "number" ? S.log_total : win.length;
    if (full.game !== S.game_id) full = { game: S.game_id, lines: [], asked: null };
    const have = full.lines.length, first = total - win.length;
    if (full.asked === null && total > win.length) fetchLog(S.game_id);
    if (have === 0 || have < first) return win;               // not fetched (yet): the window alone
    if (total < have) { fetchLog(S.game_id); return win; }
    full.lines = full.lines.slice(0, first).concat(win);
    return full.lines;
  }
  let fetching = 0;
  L.fetching = () => fetching > 0;        // a page is settled when nothing is on its way (tests)
  async function fetchLog(gid) {
    full.asked = gid;
    fetching++;
    try {
      const j = await (await fetch("/api/log", { cache: "no-store" })).json();
      if (j.game_id === gid && full.game === gid) { full.lines = j.log || []; L.redraw("log"); }
    } catch (e) { full.asked = null; } finally { fetching--; }
  }
  const MAJOR = new Set(["judgment", "win", "draw", "sudden_death", "result", "turn_start", "next_turn", "new_game", "non_response"]);
  function drawLog(S) {
    if (!S) return;
    const lines = S.seats ? logLines(S) : [];
    const n = lines.length;
    // a line a later entry replaced (a win turned into sudden death) or an undo took back is struck
    // through, never left standing; a replaced one says what replaced it
    LumenDraw.list($("#log"), lines.slice().reverse().map((l, i) => h("li", {
      "data-key": "l" + (n - 1 - i), class: [l.seat && "s-" + l.seat, MAJOR.has(l.e) && !l.replaced && !l.undone && "major",
        (l.replaced || l.undone) && "struck"] },
    l.replaced || l.undone ? h("s", { text: L.tx(l.text) }) : L.withRule(L.tx(l.text), l.rule),
    l.replaced ? [" → ", h("b", { class: "replaced-by", text: L.tx(l.replaced) })] : null,
    l.undone ? [" ", h("span", { class: "sec undone", text: t("undone") })] : null)));
    $("#log-count").textContent = n ? t("log_lines", { n: n }) : "";
  }
  L.region("log", ["log", "log_total", "game_id"], drawLog);
})();

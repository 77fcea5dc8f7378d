// The coach for learners (issue 24): after each reveal, under the last battle, what the search
// thought of each coached seat's ready: how often it would play each card (in a learner's
// words: it mixes its choices so the opponent cannot read them), each card's chance to win, the
// card chosen against the best one, and why in one sentence citing the rule. The hub publishes
// it (S.coach) only after the reveal; this shows what it is given and nothing before.
// Also, for the admin: a practice game against the hub's bot (GET /api/bot for its levels).
"use strict";
(function () {
  const L = window.Lumen, h = L.h;
  const $ = L.$;
  const T = {
    ko: { title: "코치", turn: "{n}턴", player: "{seat}의 선택", picked: "{seat}: 대응하지 않음 (상대가 고른 카드)", bot: "{seat} 봇의 생각", thinking: "{seat}의 레디를 분석하는 중…",
      card: "카드", mix: "고르는 비율", value: "이길 확률", chosen: "고른 카드", best: "가장 좋은 카드", loss: "이길 확률 {p} 낮음",
      mix_help: "고르는 비율: 같은 순간을 여러 번 맞는다면 봇이 각 카드를 내는 비율입니다. 한 장만 고집하면 상대가 읽기 때문에 섞어서 냅니다.",
      none: "분석할 수 없는 레디입니다",
      practice: "봇과 연습", bot_seat: "봇 자리", no_bot: "봇 없음", level: "수준", coach_on: "코치 켜기", start: "연습 시작",
      level_easy: "쉬움", level_normal: "보통", level_strong: "강함", started: "연습 게임을 시작했습니다" },
    en: { title: "Coach", turn: "turn {n}", player: "{seat}'s choice", picked: "{seat}: no response (the card the opponent picked)", bot: "what the {seat} bot thought", thinking: "analysing {seat}'s ready…",
      card: "card", mix: "how often", value: "chance to win", chosen: "chosen", best: "best", loss: "{p} less likely to win",
      mix_help: "How often: if the bot met this moment many times, how often it would play each card. It mixes them, because an opponent reads a player who always plays the same one.",
      none: "this ready could not be analysed",
      practice: "Practice against the bot", bot_seat: "bot's seat", no_bot: "no bot", level: "level", coach_on: "coach on", start: "start practice",
      level_easy: "easy", level_normal: "normal", level_strong: "strong", started: "practice game started" },
  };
  function t(key, vars) {
    let s = (T[L.lang] || T.ko)[key];
    if (s === undefined) s = T.ko[key] || key;
    if (vars) for (const k in vars) s = s.split("{" + k + "}").join(vars[k]);
    return s;
  }
  const seatLabel = (s) => (s === "a" ? "1P" : "2P");
  const pct = (v) => (v === null || v === undefined ? "–" : Math.round(100 * v) + "%");

  function cardName(S, id) {
    if (Array.isArray(id)) return id.map((x) => cardName(S, x)).join("+");
    const c = (S.cards || {})[id];
    return c ? L.nm(c) : String(id);
  }
  // every "[가이드 3.6.2.2]" in the text becomes a rule badge (the page's style)
  const sentence = (text) => String(text || "").split(/\[([^\]]+)\]/).map((part, i) => (i % 2 ? L.ruleBadge(part) : part));

  function entry(S, e) {
    // after a non-response (guide 3.10) the card was the opponent's pick: named so, never graded as a choice
    const who = t(e.who === "bot" ? "bot" : e.who === "picked" ? "picked" : "player", { seat: seatLabel(e.seat) });
    const rows = (e.options || []).filter((r) => r.mix >= 0.01 || r.option === e.chosen || r.option === e.best).slice(0, 6);
    return h("div", { class: "coach-entry", "data-seat": e.seat, "data-who": e.who, "data-kind": e.kind },
      h("div", { class: "coach-head", "data-pin": "" }, h("span", { class: "badge s-" + e.seat, text: seatLabel(e.seat) }), " ", h("b", { text: who }),
        e.loss && e.loss >= 0.01 ? [" ", h("span", { class: "coach-loss", text: t("loss", { p: pct(e.loss) }) })] : null),
      h("p", { class: "coach-text" }, sentence((e.text && (e.text[L.lang] || e.text.ko)) || "")),
      rows.length ? h("table", { class: "coach-mix" },
        h("thead", null, h("tr", null, h("th", { text: t("card") }), h("th", { text: t("mix") }), h("th", { text: t("value") }))),
        h("tbody", null, rows.map((r) => {
          const key = JSON.stringify(r.option), chosen = JSON.stringify(e.chosen) === key, best = JSON.stringify(e.best) === key;
          return h("tr", { class: [chosen && "chosen", best && "best"] },
            h("td", null, cardName(S, r.option), chosen ? [" ", h("span", { class: "tag sec", text: t("chosen") })] : null,
              best ? [" ", h("span", { class: "tag best sec", text: t("best") })] : null),
            h("td", null, h("span", { class: "bar", "aria-hidden": "true" }, h("span", { style: { width: Math.round(100 * (r.mix || 0)) + "%" } })), " " + pct(r.mix)),
            h("td", { text: pct(r.value) }));
        }))) : null,
      rows.length ? h("p", { class: "coach-help sec", text: t("mix_help") }) : null);
  }

  L.region("coach", ["coach", "cards", "view", "mode", "game_id"], (S) => {
    const el = $("#coach");
    const c = S && S.coach;
    const show = c && S.view !== "profile" && ((c.entries && c.entries.length) || (c.thinking && c.thinking.length));
    el.hidden = !show;
    if (!show) { L.patch(el); return; }
    L.patch(el, h("h3", null, t("title"), c.turn ? [" ", h("span", { class: "muted", text: t("turn", { n: c.turn }) })] : null),
      (c.entries || []).slice().sort((x, y) => (x.seat < y.seat ? -1 : x.seat > y.seat ? 1 : 0)).map((e) => entry(S, e)),
      (c.thinking || []).map((s) => h("p", { class: "muted coach-thinking", text: t("thinking", { seat: seatLabel(s) }) })));
  });

  // ------------------------------------------------------------ a practice game (admin)
  let botInfo = null;
  async function loadBot() {
    try { botInfo = await (await fetch("/api/bot", { cache: "no-store" })).json(); } catch (e) { botInfo = null; }
    LumenAdmin.redraw();
  }
  LumenAdmin.extra.push(() => {
    if (!botInfo || !botInfo.available) return null;
    const d = botInfo.defaults || {};
    return h("fieldset", { id: "practice" }, h("legend", { text: t("practice") }),
      h("div", { class: "btnrow" },
        h("label", null, t("bot_seat") + " ", h("select", { id: "pr-seat", "data-user": L.lang },
          h("option", { value: "b", selected: d.seat !== "a", text: "2P" }), h("option", { value: "a", selected: d.seat === "a", text: "1P" }))),
        h("label", null, t("level") + " ", h("select", { id: "pr-level", "data-user": L.lang },
          botInfo.levels.map((l) => h("option", { value: l, selected: l === d.level, text: t("level_" + l) }))))),
      h("div", { class: "btnrow" },
        h("label", null, h("input", { type: "checkbox", id: "pr-coach", checked: d.coach !== false, "data-user": "1" }), " " + t("coach_on")),
        h("button", { type: "button", class: "word", id: "pr-go", text: t("start") })));
  });
  document.addEventListener("click", async (ev) => {
    if (!ev.target.closest || !ev.target.closest("#pr-go") || !L.admin) return;
    const body = { mode: "referee", bot: $("#pr-seat").value, level: $("#pr-level").value, coach: $("#pr-coach").checked ? ["a", "b"] : null };
    // the decks chosen in the new-game form above when it is set to referee (else the sample pair)
    if ($('input[name="ng-mode"][value="referee"]:checked')) { body.a = $("#ng-a").value || undefined; body.b = $("#ng-b").value || undefined; }
    const r = await L.control("/api/control/games", body);
    if (r) L.toast(t("started"));
  });
  loadBot();
  window.LumenCoach = { t: t };
})();

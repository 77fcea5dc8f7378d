// The coach for learners (issue 24): after each reveal, under the last battle, what the search
// thought of each coached seat's ready: the mix it would have played, the value of the card
// chosen against the best one, and why in one sentence citing the rule. The hub publishes it
// (S.coach) only after the reveal; this shows what it is given and nothing before.
// Also, for the admin: a practice game against the hub's bot (GET /api/bot for its levels).
"use strict";
(function () {
  const D = window.lumenDisplay;
  const $ = (sel, root) => (root || document).querySelector(sel);
  const T = {
    ko: { title: "코치", turn: "{n}턴", player: "{seat}의 선택", picked: "{seat}: 대응하지 않음 (상대가 고른 카드)", bot: "{seat} 봇의 생각", thinking: "{seat}의 레디를 분석하는 중…",
      mix: "탐색의 혼합", value: "승률", chosen: "선택", best: "최선", loss: "{p} 손해", none: "분석할 수 없는 레디입니다",
      practice: "봇과 연습", bot_seat: "봇 자리", no_bot: "봇 없음", level: "수준", coach_on: "코치 켜기", start: "연습 시작",
      level_easy: "쉬움", level_normal: "보통", level_strong: "강함", started: "연습 게임을 시작했습니다" },
    en: { title: "Coach", turn: "turn {n}", player: "{seat}'s choice", picked: "{seat}: no response (the card the opponent picked)", bot: "what the {seat} bot thought", thinking: "analysing {seat}'s ready…",
      mix: "search's mix", value: "to win", chosen: "chosen", best: "best", loss: "{p} less", none: "this ready could not be analysed",
      practice: "Practice against the bot", bot_seat: "bot's seat", no_bot: "no bot", level: "level", coach_on: "coach on", start: "start practice",
      level_easy: "easy", level_normal: "normal", level_strong: "strong", started: "practice game started" },
  };
  function t(key, vars) {
    let s = (T[D.lang()] || T.ko)[key];
    if (s === undefined) s = T.ko[key] || key;
    if (vars) for (const k in vars) s = s.split("{" + k + "}").join(vars[k]);
    return s;
  }
  const esc = (s) => D.esc(s);
  const seatLabel = (s) => (s === "a" ? "1P" : "2P");
  const pct = (v) => (v === null || v === undefined ? "–" : Math.round(100 * v) + "%");

  function cardName(S, id) {
    if (Array.isArray(id)) return id.map((x) => cardName(S, x)).join("+");
    const c = (S.cards || {})[id];
    if (c) return D.lang() === "en" ? (c.name_en || c.name) : c.name;
    return String(id);
  }
  function sentence(text) {
    // every "[가이드 3.6.2.2]" in the text becomes a rule badge (the page's style)
    return String(text || "").split(/\[([^\]]+)\]/).map((part, i) =>
      (i % 2 ? '<span class="rule">' + esc(part) + "</span>" : esc(part))).join("");
  }

  function entryHtml(S, e) {
    // after a non-response (guide 3.10) the card was the opponent's pick: named so, never graded as a choice
    const who = t(e.who === "bot" ? "bot" : e.who === "picked" ? "picked" : "player", { seat: seatLabel(e.seat) });
    const text = (e.text && (e.text[D.lang()] || e.text.ko)) || "";
    let h = '<div class="coach-entry" data-seat="' + e.seat + '" data-who="' + esc(e.who) + '" data-kind="' + esc(e.kind) + '">';
    h += '<div class="coach-head"><span class="badge s-' + e.seat + '">' + seatLabel(e.seat) + "</span> <b>" + esc(who) + "</b>";
    if (e.loss && e.loss >= 0.01) h += ' <span class="coach-loss">' + esc(t("loss", { p: pct(e.loss) })) + "</span>";
    h += "</div>";
    h += '<p class="coach-text">' + sentence(text) + "</p>";
    const rows = (e.options || []).filter((r) => r.mix >= 0.01 || r.option === e.chosen || r.option === e.best).slice(0, 6);
    if (rows.length) {
      h += '<table class="coach-mix"><thead><tr><th></th><th>' + esc(t("mix")) + "</th><th>" + esc(t("value")) + "</th></tr></thead><tbody>";
      rows.forEach((r) => {
        const key = JSON.stringify(r.option), chosen = JSON.stringify(e.chosen) === key, best = JSON.stringify(e.best) === key;
        h += '<tr class="' + (chosen ? "chosen " : "") + (best ? "best" : "") + '"><td>' + esc(cardName(S, r.option)) +
          (chosen ? ' <span class="tag">' + esc(t("chosen")) + "</span>" : "") + (best ? ' <span class="tag best">' + esc(t("best")) + "</span>" : "") +
          '</td><td><span class="bar"><span style="width:' + Math.round(100 * (r.mix || 0)) + '%"></span></span> ' + pct(r.mix) +
          "</td><td>" + pct(r.value) + "</td></tr>";
      });
      h += "</tbody></table>";
    }
    return h + "</div>";
  }

  function render(S) {
    const battle = $("#battle");
    if (!battle) return;
    let el = $("#coach");
    const c = S && S.coach;
    const show = c && ((c.entries && c.entries.length) || (c.thinking && c.thinking.length));
    if (!show) { if (el) el.remove(); return; }
    if (!el || el.parentNode !== battle) {
      el = document.createElement("div");
      el.id = "coach";
      el.className = "coach";
    }
    // right under the last battle's reason and details (what happened, then what the search thought)
    const after = $(".details", battle) || $("#battle-reason", battle);
    if (after && after.nextSibling !== el) battle.insertBefore(el, after.nextSibling);
    else if (!after && el.parentNode !== battle) battle.appendChild(el);
    let h = "<h3>" + esc(t("title")) + (c.turn ? ' <span class="muted">' + esc(t("turn", { n: c.turn })) + "</span>" : "") + "</h3>";
    (c.entries || []).slice().sort((x, y) => (x.seat < y.seat ? -1 : x.seat > y.seat ? 1 : 0)).forEach((e) => { h += entryHtml(S, e); });
    (c.thinking || []).forEach((s) => { h += '<p class="muted coach-thinking">' + esc(t("thinking", { seat: seatLabel(s) })) + "</p>"; });
    el.innerHTML = h;
  }

  // ------------------------------------------------------------ a practice game (admin)
  let botInfo = null;
  async function loadBot() {
    try { botInfo = await (await fetch("/api/bot", { cache: "no-store" })).json(); } catch (e) { botInfo = null; }
  }
  function renderPractice(S) {
    const admin = $("#admin");
    if (!admin || admin.hidden || !D.admin() || !botInfo || !botInfo.available) return;
    if ($("#practice", admin)) return;
    const d = botInfo.defaults || {};
    const fs = document.createElement("fieldset");
    fs.id = "practice";
    const lv = botInfo.levels.map((l) => '<option value="' + esc(l) + '"' + (l === d.level ? " selected" : "") + ">" + esc(t("level_" + l)) + "</option>").join("");
    fs.innerHTML = "<legend>" + esc(t("practice")) + "</legend>" +
      '<div class="btnrow"><label>' + esc(t("bot_seat")) + ' <select id="pr-seat"><option value="b"' + (d.seat !== "a" ? " selected" : "") + ">2P</option>" +
      '<option value="a"' + (d.seat === "a" ? " selected" : "") + ">1P</option></select></label>" +
      "<label>" + esc(t("level")) + ' <select id="pr-level">' + lv + "</select></label></div>" +
      '<div class="btnrow"><label><input type="checkbox" id="pr-coach"' + (d.coach !== false ? " checked" : "") + "> " + esc(t("coach_on")) + "</label>" +
      '<button class="word" id="pr-go">' + esc(t("start")) + "</button></div>";
    admin.appendChild(fs);
    $("#pr-go", fs).addEventListener("click", async () => {
      const body = { mode: "referee", bot: $("#pr-seat").value, level: $("#pr-level").value, coach: $("#pr-coach").checked ? ["a", "b"] : null };
      // the decks chosen in the new-game form above when it is set to referee (else the sample pair)
      if ($('input[name="ng-mode"][value="referee"]:checked')) { body.a = $("#ng-a").value || undefined; body.b = $("#ng-b").value || undefined; }
      const r = await D.control("/api/control/games", body);
      if (r) D.toast(t("started"));
    });
  }

  D.onRender((S) => { render(S); renderPractice(S); });
  loadBot();
  window.LumenCoach = { render: render, t: t };
})();

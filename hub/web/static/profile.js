// Another game's profile on the table display (BattleCON, 요정전승, the Gundam card game):
// the seats' counters, the turn and its limit, who has locked (never what), the revealed
// picks, a clash, the discard piles and hand (what is in a pile is greyed: it cannot be
// picked), the match; for the judge, the counters' buttons, the turn, a loss, undo, and a
// form to start a profile game. Regions of the table display (core.js), drawn when the
// display state says view: "profile" (hub/sessions/display/profile.py, public views only).
"use strict";
window.LumenProfile = (function () {
  const L = window.Lumen, h = L.h, t = L.t;
  const $ = L.$;
  const WORDS = {
    ko: {
      mode_profile: "다른 게임", profile: "다른 게임", phase_select: "고르는 중", phase_ante: "앤티", phase_priority: "우선권 입력",
      phase_clash: "상쇄", phase_resolve: "진행", phase_play: "진행", end_out: "탈락", end_turn_limit: "제한 도달",
      pf_locked: "잠금 ✓", pf_choosing: "{part} 고르는 중", pf_picked: "{n}/{m} 잠금", pf_out: "탈락",
      pf_hand: "손패", pf_pile: "더미 {n}", pf_alt_ready: "{alt} 사용 가능", pf_alt_used: "{alt} 사용함",
      pf_alt_active: "{alt}!", pf_priority: "{name} {n}", pf_leader: "[{w}] {seat}", pf_turn_of: "{turn} {n}",
      pf_turn_of_limit: "{turn} {n}/{limit}", pf_turn_player: "차례: {seat}", pf_match: "{game}번째 게임 · {score}",
      pf_best_of: "{n}판 {w}선승", pf_clash: "{clash} ×{n}: 기본기를 다시 고르는 중", pf_ante_turn: "{ante}: {seat} 차례",
      pf_ask_priority: "공개된 카드로 누가 [{w}]인지 포드에서 입력하세요", pf_confirm: "{seat} 완료",
      pf_wins: "{seat} 승리!", pf_match_win: "{seat} 경기 승리 ({score})",
      pf_next_turn: "다음 {turn}", pf_undo: "되돌리기", pf_lose: "패배 입력", pf_new_game: "다음 게임",
      pf_confirm_lose: "{seat}의 패배를 입력할까요?", pf_start_title: "다른 게임 시작 (프로필)", pf_game: "게임",
      pf_seats: "인원", pf_no_cards: "카드 데이터 없음", pf_start: "시작", pf_names: "{seat} 이름",
      pf_first: "먼저", pf_coin: "동전 던지기", pf_team: "팀 {seat}", pf_counter_minus: "{seat} {counter} −1",
      pf_counter_plus: "{seat} {counter} +1", pf_next_wait: "고르기가 끝나고 공개된 뒤에 다음 {turn}(으)로 넘어갑니다",
      pf_q_ready: "고르기", pf_q_ante: "앤티", pf_q_priority: "누가 선인지", pf_q_end_turn: "이번 턴 끝", pf_on_pod: "포드에서 (숨김)",
    },
    en: {
      mode_profile: "another game", profile: "another game", phase_select: "picking", phase_ante: "ante", phase_priority: "priority entry",
      phase_clash: "clash", phase_resolve: "playing", phase_play: "playing", end_out: "out", end_turn_limit: "limit reached",
      pf_locked: "locked ✓", pf_choosing: "picking a {part}", pf_picked: "{n}/{m} locked", pf_out: "out",
      pf_hand: "hand", pf_pile: "pile {n}", pf_alt_ready: "{alt} ready", pf_alt_used: "{alt} used",
      pf_alt_active: "{alt}!", pf_priority: "{name} {n}", pf_leader: "[{w}] {seat}", pf_turn_of: "{turn} {n}",
      pf_turn_of_limit: "{turn} {n}/{limit}", pf_turn_player: "turn: {seat}", pf_match: "game {game} · {score}",
      pf_best_of: "best of {n}", pf_clash: "{clash} ×{n}: picking another base", pf_ante_turn: "{ante}: {seat}'s turn",
      pf_ask_priority: "say on a pod who is [{w}] from the revealed cards", pf_confirm: "{seat} done",
      pf_wins: "{seat} wins!", pf_match_win: "{seat} wins the match ({score})",
      pf_next_turn: "next {turn}", pf_undo: "undo", pf_lose: "enter a loss", pf_new_game: "next game",
      pf_confirm_lose: "Enter a loss for {seat}?", pf_start_title: "Start another game (profile)", pf_game: "game",
      pf_seats: "seats", pf_no_cards: "no card data", pf_start: "start", pf_names: "{seat}'s name",
      pf_first: "first", pf_coin: "coin toss", pf_team: "team {seat}", pf_counter_minus: "{seat} {counter} −1",
      pf_counter_plus: "{seat} {counter} +1", pf_next_wait: "the next {turn} comes once the picks are made and revealed",
      pf_q_ready: "pick", pf_q_ante: "ante", pf_q_priority: "who leads", pf_q_end_turn: "end of the turn", pf_on_pod: "on the pod (hidden)",
    },
  };
  for (const lang of ["ko", "en"]) Object.assign(window.I18N[lang], WORDS[lang]);
  let profiles = null;

  const on = (S) => S && S.view === "profile";
  const cardName = (S, id) => { const c = (S.cards || {})[id]; return c ? L.nm(c) : String(id); };
  const label = (S, s) => (S.seats[s] ? S.seats[s].label : s);
  const sideLabel = (S, lead) => ((S.profile.teams || []).find((tm) => tm[0] === lead) || [lead]).map((s) => label(S, s)).join("·");
  const known = (v) => v !== null && v !== undefined;

  // a card: its name, and its numbers where the card data gives them (a profile's own options
  // have none: nothing is shown rather than "null")
  function chip(S, id, cls) {
    const c = (S.cards || {})[id] || {};
    let sub = "";
    if (S.profile.stats && c.part && [c.range, c.power, c.priority].some(known)) {
      const st = S.profile.stats[L.lang] || S.profile.stats.ko;
      const r = c.range ? c.range[0] + (c.range[1] !== c.range[0] ? "~" + c.range[1] : "") : "–";
      sub = st.range + " " + r + " · " + st.power + " " + (known(c.power) ? c.power : "–") +
        " · " + st.priority + " " + (known(c.priority) ? c.priority : "–") + (c.stun_guard ? " · " + st.stun_guard + " " + c.stun_guard : "");
    }
    return h("span", { class: ["pcard", cls], "data-card": id }, h("b", { text: cardName(S, id) }),
      sub ? h("small", { class: "sec", text: sub }) : null);
  }

  function counter(S, s, p, c) {
    const v = p.counters[c.id];
    const low = known(c.low_at) && v <= c.low_at;
    const name = L.tx(c.name);
    // a tap that would change nothing (at the lowest or the highest) is not offered
    const pbtn = (d, sign) => L.admin ? h("button", { type: "button", class: "pbtn", "data-pcmd": JSON.stringify({ action: "adjust", seat: s, counter: c.id, delta: d }),
      disabled: d < 0 ? known(c.min) && v <= c.min : known(c.max) && v >= c.max,
      "aria-label": t(d < 0 ? "pf_counter_minus" : "pf_counter_plus", { seat: p.label, counter: name }) }, sign) : null;
    return h("div", { class: ["pcounter", c.primary && "primary", low && "low"], "data-counter": c.id },
      h("div", { class: "cap", text: name }),
      h("div", { class: "val" }, pbtn(-1, "−"), h("b", { id: "pc-" + s + "-" + c.id, text: String(v) }),
        known(c.max) ? h("small", { class: "sec", text: "/" + c.max }) : null, pbtn(1, "+")));
  }

  function pickState(S, s, p) {
    const prof = S.profile;
    let st = "";
    if (p.asked && p.asked.kind === "ready") {
      const part = prof.parts.find((x) => x.id === p.asked.part);
      st = p.asked.locked ? t("pf_locked") : t("pf_choosing", { part: part ? L.tx(part.name) : "" });
      if (S.phase === "select" && p.picked && !p.asked.locked) st += " · " + t("pf_picked", { n: p.picked, m: prof.parts.length });
    } else if (p.locked) st = t("pf_locked");
    return h("div", { class: "pstate", id: "pstate-" + s, "data-locked": p.locked ? 1 : 0, text: st });
  }
  function revealed(S, s, p) {
    const prof = S.profile;
    if (!(p.revealed || (p.alt && p.alt.active))) return null;
    const chips = [];
    if (p.alt && p.alt.active) chips.push(chip(S, p.alt.id, "alt"));
    else {
      prof.parts.forEach((part) => {
        const id = p.revealed && p.revealed[part.id];
        if (id) chips.push(chip(S, id, (p.clash || []).length && part.id === prof.clash_part ? "buried" : ""));
      });
      (p.clash || []).forEach((id, i) => chips.push(chip(S, id, i < p.clash.length - 1 ? "buried clash" : "clash")));
    }
    return h("div", { class: "prevealed", id: "prevealed-" + s }, chips,
      known(p.priority_value) && prof.priority ? h("span", { class: "pprio", text: t("pf_priority", { name: L.tx(prof.priority), n: p.priority_value }) }) : null);
  }
  function seatBox(S, s) {
    const p = S.seats[s], prof = S.profile;
    const a = prof.alt ? L.tx(prof.alt) : "";
    return h("article", { class: ["pseat", "s-" + s, p.out && "out", S.priority === s && "lead"], "data-seat": s, "data-colour": p.colour,
      "aria-label": p.label + (p.player ? " " + p.player : "") },
    h("header", null, h("span", { class: "badge", text: p.label }), p.player ? h("span", { class: "player", text: p.player }) : null,
      h("span", { class: "char", text: p.name || "" }),
      prof.teams.some((tm) => tm.length > 1) ? h("span", { class: "pteam", text: t("pf_team", { seat: sideLabel(S, p.team) }) }) : null,
      S.priority === s && !S.winner ? h("span", { class: "prio", text: S.turn_player ? t("pf_turn_player", { seat: p.label }) : "[" + L.tx(prof.words.leader) + "]" }) : null,
      p.out ? h("span", { class: "warn", text: t("pf_out") }) : null),
    h("div", { class: "pcounters" }, prof.counters.map((c) => counter(S, s, p, c))),
    prof.parts.length ? [
      pickState(S, s, p),
      revealed(S, s, p),
      p.alt && prof.alt ? h("div", { class: "palt", text: p.alt.used ? t("pf_alt_used", { alt: a }) : p.alt.ready ? t("pf_alt_ready", { alt: a })
        : a + ": " + (p.alt.id ? cardName(S, p.alt.id) : "—") }) : null,
      // the hand: what may be picked; greyed: in a discard pile or used
      h("div", { class: "phand" }, h("span", { class: "cap", text: t("pf_hand") }), prof.parts.map((part) => {
        const hand = (p.hand && p.hand[part.id]) || [], grey = (p.unavailable && p.unavailable[part.id]) || [];
        return h("div", { class: "prow", "data-part": part.id }, hand.map((id) => chip(S, id)), grey.map((id) => chip(S, id, "grey")));
      })),
      (p.piles || []).map((pile, i) => h("div", { class: "ppile", "data-pile": i + 1 }, h("span", { class: "cap", text: t("pf_pile", { n: i + 1 }) }),
        pile.length ? pile.map((id) => chip(S, id, "grey")) : h("span", { class: "muted", text: "—" }))),
    ] : null,
    L.admin && !p.out && !S.winner ? h("div", { class: "btnrow" },
      h("button", { type: "button", class: "word", "data-plose": s, text: t("pf_lose") })) : null);
  }

  function note(S) {
    const prof = S.profile;
    if (S.phase === "clash") return t("pf_clash", { clash: L.tx(prof.clash), n: S.clashes });
    if (S.phase === "ante" && S.ante) return t("pf_ante_turn", { ante: L.tx(prof.ante), seat: label(S, S.ante.turn) });
    if (S.phase === "priority") return t("pf_ask_priority", { w: L.tx(prof.words.leader) });
    if ((S.confirmed || []).length && !S.winner) return S.confirmed.map((s) => t("pf_confirm", { seat: label(S, s) })).join(" · ");
    return "";
  }
  L.turnText = (S) => {
    const turn = L.tx(S.profile.turn_name);
    return S.turn_limit ? t("pf_turn_of_limit", { turn: turn, n: S.turn, limit: S.turn_limit }) : t("pf_turn_of", { turn: turn, n: S.turn });
  };
  function matchLine(S) {
    const prof = S.profile;
    if (prof.best_of <= 1) return null;
    const score = Object.keys(S.seats).filter((s) => prof.teams.find((tm) => tm[0] === s)).map((lead) => sideLabel(S, lead) + " " + (S.wins[lead] || 0)).join(" : ");
    return h("span", { class: "pill", id: "pmatch", text: t("pf_match", { game: S.game_number, score: score }) + " · " +
      t("pf_best_of", { n: prof.best_of, w: Math.floor(prof.best_of / 2) + 1 }) });
  }
  // what the table waits for, and the judge's answers to the public questions (the antes, who
  // leads when no card data says it, a turn's end): a table without pods answers them here
  function optionText(S, r, o) {
    const prof = S.profile;
    if (r.kind === "ante") return o === "pass" ? L.tx(prof.words.pass) : o === "ante" ? L.tx(prof.ante) : cardName(S, o);
    if (r.kind === "priority") return o === "clash" ? L.tx(prof.clash) : "[" + L.tx(prof.words.leader) + "] " + label(S, o);
    if (r.kind === "end_turn") return L.tx(prof.words.done);
    return cardName(S, o);
  }
  function waiting(S) {
    const pend = S.winner ? [] : S.pending || [];
    if (!pend.length) return null;
    return h("div", { class: "pwait", id: "pwait" }, h("b", { text: t("pending") + ": " }),
      pend.map((r) => h("div", { class: "pask", "data-seat": r.player, "data-kind": r.kind },
        h("span", { text: label(S, r.player) + " · " + t("pf_q_" + r.kind) }), " ",
        r.hidden ? h("span", { class: "muted", text: t("pf_on_pod") })
          : r.options.concat(r.pass ? [r.pass] : []).map((o) => h("button", { type: "button", class: "word opt", "data-decision": JSON.stringify({ seat: r.player, kind: r.kind, value: o }),
            text: optionText(S, r, o) })))));
  }
  // the judge's buttons for the game (the phone's sticky bar has them too: bar.js);
  // the turn cannot end while its picks are open (the reveal comes first): the button says so
  const PICKING = ["select", "ante", "priority", "clash"];
  L.nextBlocked = (S) => (PICKING.includes(S.phase) ? t("pf_next_wait", { turn: L.tx(S.profile.turn_name) }) : "");
  function controls(S) {
    const why = L.nextBlocked(S);
    return h("div", { class: "btnrow pcontrols" },
      S.winner ? null : h("button", { type: "button", class: "word", "data-pcmd": '{"action":"next_turn"}', id: "p-next", disabled: !!why,
        title: why || null, "aria-describedby": why ? "p-next-why" : null, text: t("pf_next_turn", { turn: L.tx(S.profile.turn_name) }) }),
      h("button", { type: "button", class: "word", "data-pcmd": '{"action":"undo"}', id: "p-undo", disabled: !S.can_undo,
        text: S.can_undo && S.undo_text ? t("undo_what", { what: L.tx(S.undo_text) }) : t("pf_undo") }),
      S.winner ? h("button", { type: "button", class: "word", "data-pcmd": '{"action":"new_game"}', id: "p-new", text: t("pf_new_game") }) : null,
      why && !S.winner ? h("p", { class: "muted pwhy", id: "p-next-why", text: why }) : null);
  }
  const PROFILE_DEPS = ["seats", "phase", "profile", "turn", "turn_limit", "priority", "turn_player", "winner", "wins", "game_number",
    "clashes", "ante", "confirmed", "cards", "can_undo", "undo_text", "view", "game_id", "end_reason", "match_winner"];
  L.region("profile", PROFILE_DEPS, (S) => {
    const el = $("#profile");
    el.hidden = !on(S);
    if (!on(S)) { L.patch(el); return; }
    const order = (S.profile.teams && S.profile.teams.length === 2 && S.profile.teams[0].length === 2)
      ? [S.profile.teams[0][0], S.profile.teams[1][0], S.profile.teams[0][1], S.profile.teams[1][1]] : Object.keys(S.seats);
    const n = note(S);
    L.patch(el,
      h("div", { class: "pbar" }, h("b", { text: L.tx(S.profile.name) }), matchLine(S)),
      h("div", { class: "pnote", id: "pnote", "data-phase": S.phase, hidden: !n, text: n }),
      // seats side by side; at a 2-on-2 table the teams face each other (1P 3P | 2P 4P)
      h("div", { class: "pseats", "data-n": Object.keys(S.seats).length }, order.map((s) => seatBox(S, s))),
      L.admin ? [waiting(S), controls(S)] : null);
  }, L.isProfile);

  // the judge's form to start a profile game (beside the admin panel; hidden to spectators)
  async function loadProfiles() {
    profiles = {};
    try { profiles = await (await fetch("/api/profiles")).json(); } catch (e) { profiles = null; return; }
    drawStart();
  }
  function drawStart() {
    const el = $("#profile-admin");
    el.hidden = !L.admin;
    if (!L.admin) return;
    if (!profiles) { loadProfiles(); return; }
    const games = (profiles.profiles || []).filter((p) => p.rules === "profile");
    const chars = [];
    (profiles.card_sets || []).forEach((cs) => cs.characters.forEach((c) => chars.push({ set: cs.id, kind: cs.kind, c: c })));
    const key = L.lang + "/" + games.length + "/" + chars.length;
    const charSel = (s) => h("label", null, L.seatLabel(s) + " ", h("select", { id: "pf-char-" + s, "data-user": key, "aria-label": L.seatLabel(s) },
      h("option", { value: "", text: t("pf_no_cards") }), chars.map((x) => h("option", { value: x.set + "/" + x.c.id, text: x.c.name }))));
    L.patch(el, h("fieldset", null, h("legend", { text: t("pf_start_title") }),
      h("div", { class: "btnrow" },
        h("label", null, t("pf_game") + " ", h("select", { id: "pf-profile", "data-user": key },
          games.map((p) => h("option", { value: p.id, "data-players": p.players.join(","), text: L.tx(p.name) })))),
        h("label", null, t("pf_seats") + " ", h("select", { id: "pf-players", "data-user": key },
          h("option", { text: "2" }), h("option", { text: "4" })))),
      h("div", { class: "btnrow" }, charSel("a"), charSel("b")),
      h("div", { class: "btnrow" }, ["a", "b", "c", "d"].map((s) => h("label", null, t("pf_names", { seat: L.seatLabel(s) }) + " ",
        h("input", { id: "pf-name-" + s, type: "text", maxlength: 40, autocomplete: "off", "data-user": "1" })))),
      h("div", { class: "btnrow" }, h("button", { type: "button", class: "word", id: "pf-go", text: t("pf_start") }))));
  }
  L.region("profile-start", ["static"], drawStart);

  document.addEventListener("click", async (ev) => {
    const b = ev.target.closest("[data-pcmd], [data-plose], #pf-go");
    if (!b || !L.admin || b.disabled) return;
    if (b.dataset.pcmd) { await L.control("/api/control/profile", { command: JSON.parse(b.dataset.pcmd) }); return; }
    const S = L.S;
    if (b.dataset.plose) {
      if (!confirm(t("pf_confirm_lose", { seat: label(S, b.dataset.plose) }))) return;
      await L.control("/api/control/profile", { command: { action: "lose", seat: b.dataset.plose } });
      return;
    }
    if (b.id === "pf-go") {
      const body = { mode: "profile", profile: $("#pf-profile").value, players: Number($("#pf-players").value) };
      const sides = {};
      let set = null;
      ["a", "b"].forEach((s) => {
        const v = $("#pf-char-" + s).value;
        if (v) { const [cs, c] = v.split("/"); sides[s] = c; set = cs; }
      });
      if (set) { body.sides = sides; body.card_set = set; }
      const names = {};
      ["a", "b", "c", "d"].slice(0, body.players).forEach((s) => { const n = $("#pf-name-" + s).value.trim(); if (n) names[s] = n; });
      if (Object.keys(names).length) body.names = names;
      if (S && S.seats && !S.winner && !confirm(t("confirm_new_game", { n: S.game_id }))) return;
      await L.control("/api/control/games", body);
    }
  });
  return { on: on, label: label, sideLabel: sideLabel };
})();

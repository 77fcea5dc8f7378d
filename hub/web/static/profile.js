// Another game's profile on the table display (BattleCON, 요정전승, the Gundam card game):
// the seats' counters, the turn and its limit, who has locked (never what), the revealed
// picks, a clash, the discard piles and hand (what is in a pile is greyed: it cannot be
// picked), the match; for the judge, the counters' buttons, the turn, a loss, undo, and a
// form to start a profile game. app.js hands the board over when the display state says
// view: "profile" (hub/sessions/display/profile.py builds it from public views only).
"use strict";
window.LumenProfile = (function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
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
      pf_first: "먼저", pf_coin: "동전 던지기", pf_team: "팀 {seat}",
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
      pf_first: "first", pf_coin: "coin toss", pf_team: "team {seat}",
    },
  };
  for (const lang of ["ko", "en"]) Object.assign(window.I18N[lang], WORDS[lang]);
  let profiles = null, boardKey = null;

  const D = () => window.lumenDisplay;
  const t = (k, v) => D().t(k, v);
  const esc = (s) => D().esc(s);
  const tx = (o) => (o ? (D().lang() === "en" ? o.en : o.ko) : "");
  const cardName = (S, id) => {
    const c = (S.cards || {})[id];
    return c ? (D().lang() === "en" ? (c.name_en || c.name) : c.name) : String(id);
  };
  const label = (S, s) => (S.seats[s] ? S.seats[s].label : s);
  const sideLabel = (S, lead) => {
    const team = (S.profile.teams || []).find((tm) => tm[0] === lead) || [lead];
    return team.map((s) => label(S, s)).join("·");
  };

  function chip(S, id, cls) {
    const c = (S.cards || {})[id] || {};
    let sub = "";
    if (S.profile.stats && c.part) {
      const st = S.profile.stats[D().lang()] || S.profile.stats.ko;
      const r = c.range ? c.range[0] + (c.range[1] !== c.range[0] ? "~" + c.range[1] : "") : "–";
      sub = st.range + " " + r + " · " + st.power + " " + (c.power === null || c.power === undefined ? "–" : c.power) +
        " · " + st.priority + " " + c.priority + (c.stun_guard ? " · " + st.stun_guard + " " + c.stun_guard : "");
    }
    return '<span class="pcard ' + (cls || "") + '" data-card="' + esc(id) + '"><b>' + esc(cardName(S, id)) + "</b>" +
      (sub ? "<small>" + esc(sub) + "</small>" : "") + "</span>";
  }

  function seatBox(S, s, admin) {
    const p = S.seats[s], prof = S.profile;
    let h = '<article class="pseat s-' + s + (p.out ? " out" : "") + (S.priority === s ? " lead" : "") + '" data-seat="' + s +
      '" data-colour="' + esc(p.colour) + '"><header><span class="badge">' + esc(p.label) + "</span>" +
      (p.player ? '<span class="player">' + esc(p.player) + "</span>" : "") + '<span class="char">' + esc(p.name || "") + "</span>" +
      (prof.teams.some((tm) => tm.length > 1) ? '<span class="pteam">' + esc(t("pf_team", { seat: sideLabel(S, p.team) })) + "</span>" : "") +
      (S.priority === s && !S.winner ? '<span class="prio">' + esc(S.turn_player ? t("pf_turn_player", { seat: p.label }) :
        "[" + tx(prof.words.leader) + "]") + "</span>" : "") + (p.out ? '<span class="warn">' + esc(t("pf_out")) + "</span>" : "") +
      "</header><div class=\"pcounters\">";
    prof.counters.forEach((c) => {
      const v = p.counters[c.id];
      const low = c.low_at !== null && c.low_at !== undefined && v <= c.low_at;
      h += '<div class="pcounter' + (c.primary ? " primary" : "") + (low ? " low" : "") + '" data-counter="' + esc(c.id) + '">' +
        '<div class="cap">' + esc(tx(c.name)) + "</div><div class=\"val\">" +
        (admin ? '<button class="pbtn" data-pcmd=\'' + esc(JSON.stringify({ action: "adjust", seat: s, counter: c.id, delta: -1 })) + "'>−</button>" : "") +
        '<b id="pc-' + s + "-" + esc(c.id) + '">' + v + "</b>" + (c.max !== null && c.max !== undefined ? '<small>/' + c.max + "</small>" : "") +
        (admin ? '<button class="pbtn" data-pcmd=\'' + esc(JSON.stringify({ action: "adjust", seat: s, counter: c.id, delta: 1 })) + "'>+</button>" : "") +
        "</div></div>";
    });
    h += "</div>";
    if (prof.parts.length) {
      // what the seat is doing with its pick: never which card until the reveal
      let st = "";
      if (p.asked && p.asked.kind === "ready") {
        const part = prof.parts.find((x) => x.id === p.asked.part);
        st = p.asked.locked ? t("pf_locked") : t("pf_choosing", { part: part ? tx(part.name) : "" });
        if (S.phase === "select" && p.picked && !p.asked.locked)
          st += " · " + t("pf_picked", { n: p.picked, m: prof.parts.length });
      } else if (p.locked) st = t("pf_locked");
      h += '<div class="pstate" id="pstate-' + s + '" data-locked="' + (p.locked ? 1 : 0) + '">' + esc(st) + "</div>";
      if (p.revealed || (p.alt && p.alt.active)) {
        h += '<div class="prevealed" id="prevealed-' + s + '">';
        if (p.alt && p.alt.active) h += chip(S, p.alt.id, "alt");
        else {
          prof.parts.forEach((part) => {
            const id = p.revealed && p.revealed[part.id];
            if (!id) return;
            const buried = (p.clash || []).length && part.id === prof.clash_part;
            h += chip(S, id, buried ? "buried" : "");
          });
          (p.clash || []).forEach((id, i) => { h += chip(S, id, i < p.clash.length - 1 ? "buried clash" : "clash"); });
        }
        if (p.priority_value !== null && p.priority_value !== undefined && prof.priority)
          h += '<span class="pprio">' + esc(t("pf_priority", { name: tx(prof.priority), n: p.priority_value })) + "</span>";
        h += "</div>";
      }
      if (p.alt && prof.alt) {
        const a = tx(prof.alt);
        h += '<div class="palt">' + esc(p.alt.used ? t("pf_alt_used", { alt: a }) : p.alt.ready ? t("pf_alt_ready", { alt: a }) : a + ": " +
          (p.alt.id ? cardName(S, p.alt.id) : "—")) + "</div>";
      }
      // the hand: what may be picked; greyed: in a discard pile or used
      h += '<div class="phand"><span class="cap">' + esc(t("pf_hand")) + "</span>";
      prof.parts.forEach((part) => {
        const hand = (p.hand && p.hand[part.id]) || [], grey = (p.unavailable && p.unavailable[part.id]) || [];
        h += '<div class="prow" data-part="' + esc(part.id) + '">' + hand.map((id) => chip(S, id)).join("") +
          grey.map((id) => chip(S, id, "grey")).join("") + "</div>";
      });
      h += "</div>";
      (p.piles || []).forEach((pile, i) => {
        h += '<div class="ppile" data-pile="' + (i + 1) + '"><span class="cap">' + esc(t("pf_pile", { n: i + 1 })) + "</span>" +
          (pile.length ? pile.map((id) => chip(S, id, "grey")).join("") : '<span class="muted">—</span>') + "</div>";
      });
    }
    if (admin && !p.out && !S.winner)
      h += '<div class="btnrow"><button class="word" data-plose="' + s + '">' + esc(t("pf_lose")) + "</button></div>";
    return h + "</article>";
  }

  function header(S) {
    const prof = S.profile;
    const turn = tx(prof.turn_name);
    let h = '<div class="pbar"><b>' + esc(tx(prof.name)) + "</b>";
    h += '<span class="pill" id="pturn" hidden>' + esc(S.turn_limit ? t("pf_turn_of_limit", { turn: turn, n: S.turn, limit: S.turn_limit }) :
      t("pf_turn_of", { turn: turn, n: S.turn })) + "</span>";
    if (prof.best_of > 1) {
      const score = Object.keys(S.seats).filter((s) => (prof.teams.find((tm) => tm[0] === s))).map((lead) =>
        sideLabel(S, lead) + " " + (S.wins[lead] || 0)).join(" : ");
      h += '<span class="pill" id="pmatch">' + esc(t("pf_match", { game: S.game_number, score: score }) + " · " +
        t("pf_best_of", { n: prof.best_of, w: Math.floor(prof.best_of / 2) + 1 })) + "</span>";
    }
    h += "</div>";
    let note = "";
    if (S.phase === "clash") note = t("pf_clash", { clash: tx(prof.clash), n: S.clashes });
    else if (S.phase === "ante" && S.ante) note = t("pf_ante_turn", { ante: tx(prof.ante), seat: label(S, S.ante.turn) });
    else if (S.phase === "priority") note = t("pf_ask_priority", { w: tx(prof.words.leader) });
    else if ((S.confirmed || []).length && !S.winner) note = S.confirmed.map((s) => t("pf_confirm", { seat: label(S, s) })).join(" · ");
    h += '<div class="pnote" id="pnote" data-phase="' + esc(S.phase) + '"' + (note ? "" : " hidden") + ">" + esc(note) + "</div>";
    return h;
  }

  function controls(S) {
    const prof = S.profile;
    let h = '<div class="btnrow pcontrols">';
    if (!S.winner) h += '<button class="word" data-pcmd=\'{"action":"next_turn"}\' id="p-next">' + esc(t("pf_next_turn", { turn: tx(prof.turn_name) })) + "</button>";
    h += '<button class="word" data-pcmd=\'{"action":"undo"}\' id="p-undo"' + (S.can_undo ? "" : " disabled") + ">" +
      esc(S.can_undo && S.undo_text ? t("undo_what", { what: tx(S.undo_text) }) : t("pf_undo")) + "</button>";
    if (S.winner) h += '<button class="word" data-pcmd=\'{"action":"new_game"}\' id="p-new">' + esc(t("pf_new_game")) + "</button>";
    return h + "</div>";
  }

  function render() {
    const S = D().state(), admin = D().admin();
    const el = $("#profile");
    el.hidden = false;
    let h = header(S) + '<div class="pseats" data-n="' + Object.keys(S.seats).length + '">';
    // seats side by side; at a 2-on-2 table the teams face each other (1P 3P | 2P 4P)
    const order = (S.profile.teams && S.profile.teams.length === 2 && S.profile.teams[0].length === 2)
      ? [S.profile.teams[0][0], S.profile.teams[1][0], S.profile.teams[0][1], S.profile.teams[1][1]] : Object.keys(S.seats);
    order.forEach((s) => { h += seatBox(S, s, admin); });
    h += "</div>";
    if (admin) h += controls(S);
    el.innerHTML = h;
    // the top bar and the banner in this game's words
    $("#turn").textContent = $("#pturn") ? $("#pturn").textContent : "";
    $("#mode").textContent = tx(S.profile.name);
    if (S.winner) {
      const b = $("#banner");
      let text = S.winner === "draw" ? t("draw") : t("pf_wins", { seat: sideLabel(S, S.winner) });
      if (S.end_reason) text += " (" + t("end_" + S.end_reason) + ")";
      if (S.match_winner) text += " · " + t("pf_match_win", { seat: sideLabel(S, S.match_winner),
        score: Object.values(S.wins).join("–") });
      b.hidden = false;
      b.textContent = text;
      b.dataset.kind = S.winner === "draw" ? "draw" : "winner-" + S.winner;
    }
  }

  function hide() {
    const el = $("#profile");
    if (el && !el.hidden) { el.hidden = true; el.innerHTML = ""; }
  }

  // the judge's form to start a profile game (beside the admin panel; hidden to spectators)
  async function renderStart() {
    const el = $("#profile-admin");
    if (!el) return;
    const admin = D().admin();
    el.hidden = !admin;
    if (!admin) { boardKey = null; return; }
    if (!profiles) {
      profiles = [];
      try { profiles = await (await fetch("/api/profiles")).json(); } catch (e) { profiles = null; return; }
    }
    const key = D().lang() + "/" + (profiles.profiles || []).length;
    if (boardKey === key) return;
    boardKey = key;
    const games = (profiles.profiles || []).filter((p) => p.rules === "profile");
    const chars = [];
    (profiles.card_sets || []).forEach((cs) => cs.characters.forEach((c) => chars.push({ set: cs.id, kind: cs.kind, c: c })));
    const charSel = (s) => '<label>' + esc(s.toUpperCase() === "A" ? "1P" : "2P") + ' <select id="pf-char-' + s + '"><option value="">' +
      esc(t("pf_no_cards")) + "</option>" + chars.map((x) => '<option value="' + esc(x.set + "/" + x.c.id) + '">' +
      esc(x.c.name) + "</option>").join("") + "</select></label>";
    el.innerHTML = "<fieldset><legend>" + esc(t("pf_start_title")) + "</legend>" +
      '<div class="btnrow"><label>' + esc(t("pf_game")) + ' <select id="pf-profile">' + games.map((p) =>
        '<option value="' + esc(p.id) + '" data-players="' + p.players.join(",") + '">' + esc(tx(p.name)) + "</option>").join("") +
      '</select></label><label>' + esc(t("pf_seats")) + ' <select id="pf-players"><option>2</option><option>4</option></select></label></div>' +
      '<div class="btnrow">' + charSel("a") + charSel("b") + "</div>" +
      '<div class="btnrow">' + ["a", "b", "c", "d"].map((s, i) => '<label>' + esc(t("pf_names", { seat: (i + 1) + "P" })) +
        ' <input id="pf-name-' + s + '" type="text" maxlength="40" autocomplete="off"></label>').join("") + "</div>" +
      '<div class="btnrow"><button class="word" id="pf-go">' + esc(t("pf_start")) + "</button></div></fieldset>";
  }

  document.addEventListener("click", async (ev) => {
    const b = ev.target.closest("[data-pcmd], [data-plose], #pf-go");
    if (!b || !D().admin()) return;
    if (b.dataset.pcmd) { await D().control("/api/control/profile", { command: JSON.parse(b.dataset.pcmd) }); return; }
    const S = D().state();
    if (b.dataset.plose) {
      if (!confirm(t("pf_confirm_lose", { seat: label(S, b.dataset.plose) }))) return;
      await D().control("/api/control/profile", { command: { action: "lose", seat: b.dataset.plose } });
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
      await D().control("/api/control/games", body);
    }
  });

  return { render: render, hide: hide, renderStart: renderStart };
})();

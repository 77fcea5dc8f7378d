// The admin panel (issue 6, 12): the match clock, a new game (with player names), the recent
// games, the phones' QR codes (the judge's carries the token) and the token. app.js renders it
// through LumenAdmin.render(ctx); ctx reads app.js's state (S, lang, admin, token, roster, decks).
"use strict";
window.LumenAdmin = (function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
  let ctx = null;               // the context of the last render
  let adminKey = null, gamesFor = null;
  const t = (k, v) => ctx.t(k, v), esc = (x) => ctx.esc(x), nm = (o) => ctx.nm(o), seatLabel = (s) => ctx.seatLabel(s);

  function render(context) {
    ctx = context;
    const el = $("#admin");
    el.hidden = !ctx.admin;
    if (!ctx.admin) { adminKey = null; return; }
    const key = ctx.lang + "/" + ctx.roster.length + "/" + ctx.decks.length;
    if (adminKey !== key) {
      const prio = '<select id="ng-prio"><option value="">' + esc(t("coin_toss")) + '</option><option value="a">1P</option><option value="b">2P</option></select>';
      el.innerHTML = "<h2>" + esc(t("admin_title")) + "</h2>" +
        "<fieldset><legend>" + esc(t("clock_title")) + "</legend>" +
        '<div class="btnrow"><label><input type="number" id="tm-min" min="1" max="360" value="30"> ' + esc(t("minutes")) + "</label>" +
        '<label><input type="number" id="tm-xt" min="0" max="10" value="0"> ' + esc(t("extra_turns")) + "</label></div>" +
        '<div class="btnrow"><button class="word" data-timer="round_start">' + esc(t("round_start")) + "</button>" +
        '<button class="word" data-timer="pause">' + esc(t("pause")) + '</button><button class="word" data-timer="resume">' + esc(t("resume")) + "</button></div>" +
        '<div class="btnrow"><label><input type="number" id="tm-ext" min="1" max="30" value="1"> ' + esc(t("minutes")) + "</label>" +
        '<button class="word" data-timer="extend">' + esc(t("extend")) + '</button><button class="word" data-timer="call_time">' + esc(t("call_time")) + "</button></div>" +
        '<div class="btnrow"><button class="word" data-timer="turn_ended">' + esc(t("turn_ended")) + "</button>" +
        '<button class="word" data-timer-undo="1" id="clock-undo">' + esc(t("undo")) + "</button></div></fieldset>" +
        "<fieldset><legend>" + esc(t("recent")) + '</legend><ul class="games" id="games"></ul></fieldset>' +
        "<fieldset><legend>" + esc(t("new_game")) + "</legend>" +
        '<div class="btnrow"><label><input type="radio" name="ng-mode" value="tracker" checked> ' + esc(t("tracker")) + "</label>" +
        '<label><input type="radio" name="ng-mode" value="referee"> ' + esc(t("referee")) + "</label></div>" +
        '<div class="btnrow"><label>1P <select id="ng-a"></select></label><label>2P <select id="ng-b"></select></label></div>' +
        '<div class="btnrow"><label>' + esc(t("player_name", { seat: "1P" })) + ' <input id="ng-name-a" type="text" maxlength="40" autocomplete="off"></label>' +
        '<label>' + esc(t("player_name", { seat: "2P" })) + ' <input id="ng-name-b" type="text" maxlength="40" autocomplete="off"></label></div>' +
        '<div class="btnrow"><label>' + esc(t("first_priority")) + " " + prio + '</label><button class="word" id="ng-go">' + esc(t("start")) + "</button></div>" +
        '<p><a id="cards-link" href="/cards#table">' + esc(t("own_decks")) + "</a></p></fieldset>" +
        "<fieldset><legend>" + esc(t("phones_title")) + '</legend><div class="qrs">' +
        '<figure><img id="qr-judge" alt="" width="180" height="180"><figcaption>' + esc(t("qr_judge")) + "</figcaption></figure>" +
        '<figure><img id="qr-spectator" src="/api/reach/qr.svg" alt="" width="180" height="180"><figcaption>' + esc(t("qr_spectator")) + "</figcaption></figure>" +
        '</div><p class="muted" id="reach-urls"></p></fieldset>' +
        "<fieldset><legend>" + esc(t("token_title")) + "</legend>" +
        '<input id="new-token" type="text" autocomplete="off" spellcheck="false" placeholder="' + esc(t("new_token")) + '">' +
        '<div class="btnrow"><button class="word" id="token-go">' + esc(t("change")) + '</button><button class="word" id="logout">' + esc(t("logout")) + "</button></div>" +
        '<a href="/docs" target="_blank">' + esc(t("api_docs")) + "</a></fieldset>";
      adminKey = key;
      gamesFor = null;
      fillNewGame();
      loadJudgeQr();
    }
    const cu = $("#clock-undo");
    if (cu) {
      const u = ctx.S.timer && ctx.S.timer.undo;
      cu.disabled = !u;
      cu.textContent = u ? t("undo_what", { what: t(u) }) : t("undo");
    }
    const gkey = ctx.S.game_id + "/" + ctx.S.winner + "/" + ctx.lang + "/" + ctx.S.turn;
    if (gamesFor !== gkey) { gamesFor = gkey; loadGames(); }
  }

  async function loadJudgeQr() {
    // the judge's code carries the token: fetched with it, shown only here
    try {
      const r = await fetch("/api/admin/qr.svg", { headers: { "Authorization": "Bearer " + ctx.token }, cache: "no-store" });
      if (!r.ok) return;
      const img = $("#qr-judge");
      if (img) { if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src); img.src = URL.createObjectURL(await r.blob()); }
      const u = await (await fetch("/api/reach", { cache: "no-store" })).json();
      const el = $("#reach-urls");
      if (el) el.textContent = u.phones ? [].concat(u.lan || [], u.mdns ? [u.mdns] : []).join(" · ") : t("qr_local_only");
    } catch (e) { /* offline: the banner says so */ }
  }

  function fillNewGame() {
    const mode = ($('input[name="ng-mode"]:checked') || {}).value || "tracker";
    const opts = mode === "tracker"
      ? ctx.roster.map((c) => '<option value="' + esc(c.id) + '">' + esc(nm(c)) + " (" + c.start_health + ")</option>").join("")
      : ctx.decks.map((d) => '<option value="' + esc(d.id) + '">' + esc(ctx.lang === "en" ? d.character_en || d.character : d.character) + " — " + esc(d.name) + "</option>").join("");
    $("#ng-a").innerHTML = opts;
    $("#ng-b").innerHTML = opts;
    if (mode === "referee" && ctx.decks.length > 1) $("#ng-b").selectedIndex = 1;
    if (mode === "tracker") { $("#ng-a").value = "generic"; $("#ng-b").value = "generic"; }
  }

  async function loadGames() {
    let games = [];
    try { const r = await fetch("/api/games?limit=10", { cache: "no-store" }); games = (await r.json()).games || []; } catch (e) { return; }
    const ul = $("#games");
    if (!ul) return;
    ul.innerHTML = games.map((g) => {
      const st = g.start || {};
      const charName = (id) => { const ch = ctx.roster.find((x) => x.id === id || x.name === id); return ch ? nm(ch) : id; };
      // what was played (the summary: characters as played, names, health), else what the start said
      const sm = g.summary;
      const side = (s) => {
        const x = sm.seats[s];
        const name = ctx.lang === "en" ? x.name_en || x.name : x.name;
        return (x.player ? "<b>" + esc(x.player) + "</b> " : "") + esc(name || "?") +
          (typeof x.health === "number" ? ' <span class="ghp">' + Math.max(0, x.health) + "</span>" : "");
      };
      const who = sm ? side("a") + " : " + side("b") + (sm.turn ? ' <span class="muted">' + esc(t("turn", { n: sm.turn })) + "</span>" : "")
        : esc(st.tracker ? [charName(st.tracker.a), charName(st.tracker.b)].join(" vs ") : st.characters ? [st.characters.a, st.characters.b].join(" vs ") : "");
      const when = new Date(g.created_ms).toLocaleString(ctx.lang === "ko" ? "ko-KR" : "en-GB", { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit" });
      const here = g.id === ctx.S.game_id;
      return '<li' + (here ? ' class="here"' : "") + '><span class="gid">#' + g.id + "</span> <span>" + esc(t(g.mode)) + "</span> <span>" + who + "</span> " +
        '<span class="muted">' + esc(when) + " · " + esc(here ? t("on_table") : t("status_" + g.status)) + (g.winner ? " · " + esc(g.winner === "draw" ? t("draw") : t("winner", { seat: seatLabel(g.winner) })) : "") + "</span> " +
        (!here ? '<button data-resume="' + g.id + '">' + esc(t("resume_game")) + "</button> " : "") +
        (!here && g.status !== "finished" ? '<button data-close="' + g.id + '" class="quiet">' + esc(t("close_game")) + "</button> " : "") +
        '<a href="/api/games/' + g.id + '/export?download=true" download>' + esc(t("export")) + "</a></li>";
    }).join("");
  }


  // ------------------------------------------------------------ a seat's tracker buttons
  const HP_BUTTONS = [[-300, -400, -500, -600], [100, 200, -100, -200]];   // the phone calculator's rows
  function seatControls(context, s, p) {
    ctx = context;
    const cmd = (o) => esc(JSON.stringify(o));
    let h = '<div class="ctl">';
    HP_BUTTONS.forEach((row) => {
      h += '<div class="btnrow hp-row">' + row.map((d) => '<button class="' + (d < 0 ? "minus" : "plus") + '" data-cmd=\'' +
        cmd({ action: "adjust_health", seat: s, delta: d }) + "'>" + ctx.signed(d) + "</button>").join("") + "</div>";
    });
    h += '<div class="btnrow fp-row"><button class="minus" data-cmd=\'' + cmd({ action: "adjust_fp", seat: s, delta: -1 }) + "'>FP −1</button>" +
      '<button class="word" data-cmd=\'' + cmd({ action: "reset_fp", seat: s }) + "'>" + esc(t("fp_zero")) + "</button>" +
      '<button class="plus" data-cmd=\'' + cmd({ action: "adjust_fp", seat: s, delta: 1 }) + "'>FP +1</button></div>";
    h += '<div class="btnrow hand-row"><button class="word" data-hand="-1" data-seat="' + s + '">' + esc(t("hand_minus")) + "</button>" +
      '<button class="word" data-hand="1" data-seat="' + s + '">' + esc(t("hand_plus")) + "</button>" +
      '<button class="word" data-cmd=\'' + cmd({ action: "set_hand_count", seat: s, count: null }) + "'>" + esc(t("hand_clear")) + "</button></div>";
    if ((p.stances || []).length) {
      h += '<div class="btnrow">' + p.stances.map((st) => '<button class="word" data-cmd=\'' +
        cmd({ action: "set_stance", seat: s, stance: st.name }) + "'>" + esc(ctx.lang === "en" ? st.name_en : st.name) + "</button>").join("") +
        '<button class="word" data-cmd=\'' + cmd({ action: "set_stance", seat: s, stance: null }) + "'>" + esc(t("stance_clear")) + "</button></div>";
    }
    if (p.trait && p.trait.kind === "toggle") {
      h += '<div class="btnrow"><button class="word" data-trait="' + s + '">' + esc(t("trait_toggle")) + "</button></div>";
    }
    h += '<div class="btnrow"><button class="word" data-ready="' + s + '" title="' + esc(t("ready_hint", { seat: seatLabel(s), other: seatLabel(s === "a" ? "b" : "a") })) + '">' +
      esc(t("ready_btn", { other: seatLabel(s === "a" ? "b" : "a") })) + "</button>" +
      '<button class="word" data-cmd=\'' + cmd({ action: "record_non_response", seat: s }) + "'>" + esc(t("non_response_btn")) + "</button></div>";
    h += '<label class="btnrow">' + esc(t("character")) + ' <select data-char="' + s + '">' + ctx.roster.map((c) => {
      const tokens = (c.tokens || []).map((x) => (ctx.lang === "en" ? x.name_en : x.name) + " " + x.start + "/" + (x.max === null ? "∞" : x.max)).join(", ");
      return '<option value="' + esc(c.id) + '"' + (c.id === p.character ? " selected" : "") + ">" + esc(nm(c)) + " · " + c.start_health +
        " · " + c.hand_limits.join("/") + (tokens ? " · " + esc(tokens) : "") + "</option>";
    }).join("") + "</select></label>";
    h += "</div>";
    return h;
  }

  // ------------------------------------------------------------ both hit: one entry for a trade
  function openBoth(context) {
    ctx = context;
    $("#both-a").value = "";
    $("#both-b").value = "";
    $("#both-dialog").hidden = false;
    $("#both-a").focus();
  }
  document.getElementById("both-form").addEventListener("submit", async (ev) => {
    // a trade (동시히트): both seats' damage as one entry, so a double KO is one unit (apply_battle)
    ev.preventDefault();
    const da = Math.abs(Math.round(Number($("#both-a").value || 0))), db = Math.abs(Math.round(Number($("#both-b").value || 0)));
    if (!da && !db) { ctx.toast(t("both_none"), true); return; }
    const r = await ctx.tracker({ action: "apply_battle", health: { a: -da, b: -db } });
    if (r) $("#both-dialog").hidden = true;
  });
  function reset() { adminKey = null; gamesFor = null; }
  return { render: render, reset: reset, fillNewGame: fillNewGame, seatControls: seatControls, openBoth: openBoth,
           reloadGames: () => { gamesFor = null; loadGames(); } };
})();

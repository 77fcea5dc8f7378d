// The admin panel (issue 6, 12): the match clock, a new game (with player names), the recent
// games, the phones' QR codes (the judge's carries the token) and the token; and a tracker
// seat's calculator buttons. A region of the table display (core.js).
"use strict";
window.LumenAdmin = (function () {
  const L = window.Lumen, h = L.h, t = L.t;
  const $ = L.$;
  let games = [], gamesFor = null, judgeQr = null, reach = "";
  let seatLinks = [], seatQr = {};      // the phones' seat links (issue 40): secret, shown here only

  const num = (id, label, min, max, value) => h("label", null,
    h("input", { type: "number", id: id, min: min, max: max, value: value, "data-user": "1", "aria-label": label }), " ", label);
  const btn = (attrs, text) => h("button", Object.assign({ type: "button", class: "word" }, attrs), text);

  function clockSet(S) {
    const u = S.timer && S.timer.undo;
    return h("fieldset", null, h("legend", { text: t("clock_title") }),
      h("div", { class: "btnrow" }, num("tm-min", t("minutes"), 1, 360, 30), num("tm-xt", t("extra_turns"), 0, 10, 0)),
      h("div", { class: "btnrow" }, btn({ "data-timer": "round_start" }, t("round_start")), btn({ "data-timer": "pause" }, t("pause")),
        btn({ "data-timer": "resume" }, t("resume"))),
      h("div", { class: "btnrow" }, num("tm-ext", t("minutes"), 1, 30, 1), btn({ "data-timer": "extend" }, t("extend")),
        btn({ "data-timer": "call_time" }, t("call_time"))),
      h("div", { class: "btnrow" }, btn({ "data-timer": "turn_ended" }, t("turn_ended")),
        btn({ "data-timer-undo": "1", id: "clock-undo", disabled: !u }, u ? t("undo_what", { what: t(u) }) : t("undo"))));
  }

  function gameItem(S, g) {
    const sm = g.summary, st = g.start || {};
    const charName = (id) => { const ch = L.roster.find((x) => x.id === id || x.name === id); return ch ? L.nm(ch) : id; };
    const side = (s) => {
      const x = sm.seats[s];
      return [x.player ? h("b", { text: x.player }) : null, x.player ? " " : null, (L.lang === "en" ? x.name_en || x.name : x.name) || "?",
        typeof x.health === "number" ? [" ", h("span", { class: "ghp", text: String(Math.max(0, x.health)) })] : null];
    };
    const who = sm ? [side("a"), " : ", side("b"), sm.turn ? [" ", h("span", { class: "muted", text: t("turn", { n: sm.turn }) })] : null]
      : st.tracker ? [charName(st.tracker.a), charName(st.tracker.b)].join(" vs ") : st.characters ? [st.characters.a, st.characters.b].join(" vs ") : "";
    const when = new Date(g.created_ms).toLocaleString(L.lang === "ko" ? "ko-KR" : "en-GB", { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit" });
    const here = g.id === S.game_id;
    return h("li", { class: here ? "here" : null, "data-key": "g" + g.id },
      h("span", { class: "gid", text: "#" + g.id }), " ", h("span", { text: t(g.mode) }), " ", h("span", null, who), " ",
      h("span", { class: "muted", text: when + " · " + (here ? t("on_table") : t("status_" + g.status)) +
        (g.winner ? " · " + (g.winner === "draw" ? t("draw") : t("winner", { seat: L.seatLabel(g.winner) })) : "") }), " ",
      here ? null : h("button", { type: "button", "data-resume": g.id, text: t("resume_game") }),
      !here && g.status !== "finished" ? h("button", { type: "button", class: "quiet", "data-close": g.id, text: t("close_game") }) : null,
      h("a", { href: "/api/games/" + g.id + "/export?download=true", download: true, text: t("export") }));
  }

  function newGameSet() {
    // the options change with the mode chosen and the roster/decks loaded: data-user carries that,
    // so a redraw keeps what the judge picked and refills only when the options change
    const mode = ($('input[name="ng-mode"]:checked') || {}).value || "tracker";
    const opts = mode === "tracker"
      ? L.roster.map((c) => h("option", { value: c.id, selected: c.id === "generic", text: L.nm(c) + " (" + c.start_health + ")" }))
      : L.decks.map((d, i) => h("option", { value: d.id, text: (L.lang === "en" ? d.character_en || d.character : d.character) + " — " + d.name,
        "data-i": i }));
    const key = mode + "/" + L.lang + "/" + L.roster.length + "/" + L.decks.length;
    const sel = (id, seat, second) => h("label", null, seat + " ", h("select", { id: id, "data-user": key, "aria-label": seat },
      opts.map((o, i) => { const c = o.cloneNode(true); if (second && mode === "referee" && i === 1) c.selected = true; return c; })));
    return h("fieldset", null, h("legend", { text: t("new_game") }),
      h("div", { class: "btnrow" },
        h("label", null, h("input", { type: "radio", name: "ng-mode", value: "tracker", checked: true, "data-user": "1" }), " ", t("tracker")),
        h("label", null, h("input", { type: "radio", name: "ng-mode", value: "referee", "data-user": "1" }), " ", t("referee"))),
      h("div", { class: "btnrow" }, sel("ng-a", "1P"), sel("ng-b", "2P", true)),
      h("div", { class: "btnrow" }, ["a", "b"].map((s) => h("label", null, t("player_name", { seat: L.seatLabel(s) }), " ",
        h("input", { id: "ng-name-" + s, type: "text", maxlength: 40, autocomplete: "off", "data-user": "1" })))),
      h("div", { class: "btnrow" }, h("label", null, t("first_priority"), " ", h("select", { id: "ng-prio", "data-user": L.lang },
        h("option", { value: "", text: t("coin_toss") }), h("option", { value: "a", text: "1P" }), h("option", { value: "b", text: "2P" }))),
      btn({ id: "ng-go" }, t("start"))),
      h("p", null, h("a", { id: "cards-link", href: "/cards#table", text: t("own_decks") })));
  }

  function draw(S) {
    const el = $("#admin");
    el.hidden = !L.admin;
    if (!L.admin) { gamesFor = null; judgeQr = null; return; }
    L.patch(el, h("h2", { text: t("admin_title") }),
      clockSet(S),
      h("fieldset", null, h("legend", { text: t("recent") }), h("ul", { class: "games", id: "games" }, games.map((g) => gameItem(S, g)))),
      newGameSet(),
      h("fieldset", null, h("legend", { text: t("phones_title") }),
        h("div", { class: "qrs" },
          h("figure", null, h("img", { id: "qr-judge", alt: t("qr_judge"), width: 180, height: 180, src: judgeQr, "data-user": judgeQr || "" }),
            h("figcaption", { text: t("qr_judge") })),
          h("figure", null, h("img", { id: "qr-spectator", src: "/api/reach/qr.svg", alt: t("qr_spectator"), width: 180, height: 180 }),
            h("figcaption", { text: t("qr_spectator") }))),
        h("p", { class: "muted", id: "reach-urls", text: reach })),
      seatLinks.length ? h("fieldset", { id: "seat-links" }, h("legend", { text: t("seat_links") }),
        h("div", { class: "qrs" }, seatLinks.map((s) => h("figure", { "data-key": "seat-qr-" + s.seat },
          h("img", { alt: t("seat_open", { seat: s.label }), width: 160, height: 160, src: seatQr[s.seat] || null,
            "data-user": seatQr[s.seat] || "" }),
          h("figcaption", null, h("a", { href: s.link, target: "_blank", rel: "noopener", id: "seat-link-" + s.seat,
            text: t("seat_open", { seat: s.label }) }), h("br"),
            h("small", { text: s.phone ? t("seat_held", { seat: s.label, ms: s.rtt_ms === null ? "?" : s.rtt_ms })
              : t("seat_free", { seat: s.label }) }),
            s.phone ? btn({ "data-release": s.seat },
              t("seat_release", { seat: s.label })) : null))))) : null,
      h("fieldset", null, h("legend", { text: t("token_title") }),
        h("input", { id: "new-token", type: "text", autocomplete: "off", spellcheck: "false", placeholder: t("new_token"),
          "aria-label": t("new_token"), "data-user": "1" }),
        h("div", { class: "btnrow" }, btn({ id: "token-go" }, t("change")), btn({ id: "logout" }, t("logout"))),
        h("a", { href: "/docs", target: "_blank", text: t("api_docs") })),
      LumenAdmin.extra.map((fn) => fn(S)));
    if (!judgeQr) loadJudgeQr();
    const gkey = S.game_id + "/" + S.winner + "/" + S.turn;
    if (gamesFor !== gkey) { gamesFor = gkey; loadGames(); loadSeatLinks(); }
  }

  async function loadJudgeQr() {
    // the judge's code carries the token: fetched with it, shown only here
    judgeQr = "";
    try {
      const r = await fetch("/api/admin/qr.svg", { headers: { "Authorization": "Bearer " + L.token }, cache: "no-store" });
      if (!r.ok) { judgeQr = null; return; }
      judgeQr = URL.createObjectURL(await r.blob());
      const u = await (await fetch("/api/reach", { cache: "no-store" })).json();
      reach = u.phones ? [].concat(u.lan || [], u.mdns ? [u.mdns] : []).join(" · ") : t("qr_local_only");
      L.redraw("admin");
    } catch (e) { judgeQr = null; /* offline: the banner says so */ }
  }
  async function loadSeatLinks() {
    // each seat's link and QR code carry its secret: fetched with the admin token, shown only here
    try {
      const auth = { "Authorization": "Bearer " + L.token };
      const r = await fetch("/api/admin/seats", { headers: auth, cache: "no-store" });
      if (!r.ok) return;
      seatLinks = (await r.json()).seats || [];
      for (const s of seatLinks) {
        const q = await fetch("/api/admin/seats/" + s.seat + "/qr.svg", { headers: auth, cache: "no-store" });
        if (q.ok) { if (seatQr[s.seat]) URL.revokeObjectURL(seatQr[s.seat]); seatQr[s.seat] = URL.createObjectURL(await q.blob()); }
      }
      L.redraw("admin");
    } catch (e) { /* offline: the banner says so */ }
  }
  async function loadGames() {
    try { const r = await fetch("/api/games?limit=10", { cache: "no-store" }); games = (await r.json()).games || []; } catch (e) { return; }
    L.redraw("admin");
  }

  // ------------------------------------------------------------ a seat's tracker buttons
  const HP_BUTTONS = [[-300, -400, -500, -600], [100, 200, -100, -200]];   // the phone calculator's rows
  function seatControls(s, p) {
    const S = L.S, other = L.seatLabel(s === "a" ? "b" : "a");
    const cmd = (o) => JSON.stringify(o);
    const b = (cls, c, text, extra) => h("button", Object.assign({ type: "button", class: cls, "data-cmd": cmd(c), text: text }, extra || {}));
    return h("div", { class: "ctl" },
      HP_BUTTONS.map((row) => h("div", { class: "btnrow hp-row" }, row.map((d) =>
        b(d < 0 ? "minus" : "plus", { action: "adjust_health", seat: s, delta: d }, L.signed(d),
          { "aria-label": L.seatLabel(s) + " " + t("health") + " " + L.signed(d) })))),
      h("div", { class: "btnrow fp-row" },
        b("minus", { action: "adjust_fp", seat: s, delta: -1 }, "FP −1", { "aria-label": L.seatLabel(s) + " FP −1" }),
        b("word", { action: "reset_fp", seat: s }, t("fp_zero"), { "aria-label": L.seatLabel(s) + " " + t("fp_zero") }),
        b("plus", { action: "adjust_fp", seat: s, delta: 1 }, "FP +1", { "aria-label": L.seatLabel(s) + " FP +1" })),
      h("div", { class: "btnrow hand-row" },
        h("button", { type: "button", class: "word", "data-hand": "-1", "data-seat": s, text: t("hand_minus") }),
        h("button", { type: "button", class: "word", "data-hand": "1", "data-seat": s, text: t("hand_plus") }),
        b("word", { action: "set_hand_count", seat: s, count: null }, t("hand_clear"))),
      (p.stances || []).length ? h("div", { class: "btnrow" }, p.stances.map((st) =>
        b("word", { action: "set_stance", seat: s, stance: st.name }, L.lang === "en" ? st.name_en : st.name)),
      b("word", { action: "set_stance", seat: s, stance: null }, t("stance_clear"))) : null,
      p.trait && p.trait.kind === "toggle" ? h("div", { class: "btnrow" },
        h("button", { type: "button", class: "word", "data-trait": s, text: t("trait_toggle") })) : null,
      h("div", { class: "btnrow" },
        h("button", { type: "button", class: "word", "data-ready": s, title: t("ready_hint", { seat: L.seatLabel(s), other: other }),
          text: t("ready_btn", { other: other }) }),
        b("word", { action: "record_non_response", seat: s }, t("non_response_btn"))),
      h("label", { class: "btnrow" }, t("character") + " ",
        h("select", { "data-char": s, disabled: S.turn !== 1 || S.sudden_death, title: t("character_hint") },
          // short enough for a phone's closed select (the seat shows the rest once chosen)
          L.roster.map((c) => h("option", { value: c.id, selected: c.id === p.character, text: L.nm(c) + " (" + c.start_health + ")" })))));
  }

  // ------------------------------------------------------------ both hit: one entry for a trade
  function openBoth() {
    $("#both-a").value = "";
    $("#both-b").value = "";
    $("#both-dialog").hidden = false;
    $("#both-a").focus();
  }
  document.getElementById("both-form").addEventListener("submit", async (ev) => {
    // a trade (동시히트): both seats' damage as one entry, so a double KO is one unit (apply_battle)
    ev.preventDefault();
    const da = Math.abs(Math.round(Number($("#both-a").value || 0))), db = Math.abs(Math.round(Number($("#both-b").value || 0)));
    if (!da && !db) { L.toast(t("both_none"), true); return; }
    const r = await L.tracker({ action: "apply_battle", health: { a: -da, b: -db } });
    if (r) $("#both-dialog").hidden = true;
  });
  document.addEventListener("change", (ev) => {
    if (ev.target.name === "ng-mode") L.redraw("admin");       // the seats' options follow the mode
  });
  L.region("admin", ["game_id", "winner", "turn"], draw);
  // the clock's undo names the judge's last clock action: the only part of the panel the timer moves
  L.region("clock-undo", ["timer"], (S) => {
    const b = $("#clock-undo"), u = S.timer && S.timer.undo;
    if (!b) return;
    b.disabled = !u;
    b.textContent = u ? t("undo_what", { what: t(u) }) : t("undo");
  }, () => L.admin);
  return { seatControls: seatControls, openBoth: openBoth, extra: [], redraw: () => L.redraw("admin"),
           reloadGames: () => { gamesFor = null; L.redraw("admin"); }, reloadSeats: () => loadSeatLinks() };
})();

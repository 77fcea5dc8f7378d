// The deck builder (character, 20 skill cards + 0-1 ultimate, guide 4.5's checks live, deck
// codes with a QR code) and the table's deck registration (each seat picks a registered deck
// and orders its opening, 5 hand + 9 list, guide 3.4.1, then the referee game starts).
"use strict";
(function () {
  const C = window.Cards;
  const { t, el, api, control, toast, msgOf } = C;
  const D = { set: null, raw: null, deckId: "", name: "", name_en: "", character: null, cards: [], ultimate: null, q: "" };
  const T = { decks: [], seat: { a: null, b: null }, pick: { a: { hand: [], list: [] }, b: { hand: [], list: [] } }, info: {}, registered: {} };
  const $ = (q) => document.querySelector(q);
  const DECK_SIZE = 20;         // guide 4.5: a deck is 20 skill cards (and 0-1 ultimate)

  // ------------------------------------------------------------ the deck builder
  function deckTab() {
    const root = $("#tab-deck");
    root.textContent = "";
    const sets = C.S.sets;
    const setSel = el("select", { id: "dk-set" }, sets.map((s) => el("option", { value: s.id, text: s.name + " (" + s.id + ")" })));
    if (D.set) setSel.value = D.set;
    setSel.addEventListener("change", async () => { D.set = setSel.value; D.cards = []; D.ultimate = null; D.character = null; await loadSet(); deckTab(); });
    const info = sets.find((s) => s.id === D.set) || {};
    const deckSel = el("select", { id: "dk-deck" }, el("option", { value: "", text: t("new_deck") }), (info.decks || []).map((d) => el("option", { value: d, text: d })));
    deckSel.value = D.deckId && (info.decks || []).includes(D.deckId) ? D.deckId : "";
    deckSel.addEventListener("change", () => openDeck(deckSel.value));
    const chars = (D.raw && D.raw.characters) || [];
    const charSel = el("select", { id: "dk-character" }, el("option", { value: "", text: "—" }), chars.map((c) => el("option", { value: c.id, text: c.name + (c.name_en ? " (" + c.name_en + ")" : "") })));
    charSel.value = D.character || "";
    charSel.addEventListener("change", () => { D.character = charSel.value || null; deckTab(); });
    const input = (id, key, ph) => { const i = el("input", { id: id, value: D[key] || "", placeholder: ph }); i.addEventListener("input", () => { D[key] = i.value; }); return i; };
    const cards = (D.raw && D.raw.cards) || [];
    const byId = Object.fromEntries(cards.map((c) => [c.id, c]));
    const ch = chars.find((c) => c.id === D.character);
    const mark = ch ? (ch.mark || ch.id) : null;
    const ultSel = el("select", { id: "dk-ultimate" }, el("option", { value: "", text: t("none") }),
      cards.filter((c) => c.ultimate && (c.mark === "neutral" || !c.mark || c.mark === mark)).map((c) => el("option", { value: c.id, text: c.name })));
    ultSel.value = D.ultimate || "";
    ultSel.addEventListener("change", () => { D.ultimate = ultSel.value || null; status(); });
    const head = el("div", { class: "toolbar" },
      el("label", {}, t("set") + " ", setSel), el("label", {}, t("deck") + " ", deckSel),
      el("label", {}, t("deck_id") + " ", input("dk-id", "deckId", "my-deck")), el("label", {}, t("deck_name") + " ", input("dk-name", "name", "")),
      el("label", {}, t("deck_name_en") + " ", input("dk-name-en", "name_en", "")), el("label", {}, t("character") + " ", charSel),
      el("label", {}, t("ultimate_slot") + " ", ultSel));
    const q = el("input", { type: "search", id: "dk-q", placeholder: t("q"), value: D.q, "aria-label": t("search") });
    const pool = el("ul", { class: "pool", id: "dk-pool" });
    // a card is added only where the deck can be saved: a read-only set (the sample) takes no deck,
    // and a deck holds DECK_SIZE skill cards; the builder says so at once, not at save (issue 37 point 6)
    const why = el("p", { class: "warn", id: "dk-why", role: "status" });
    const blocked = () => (info.writable === false ? t("deck_read_only") : D.cards.length >= DECK_SIZE ? t("deck_full", { n: DECK_SIZE }) : "");
    const fillPool = () => {
      pool.textContent = "";
      const needle = q.value.trim().toLowerCase();
      D.q = q.value;
      const no = blocked();
      why.textContent = no;
      why.hidden = !no;
      for (const c of cards) {
        if (c.ultimate) continue;
        if (mark && c.mark && c.mark !== "neutral" && c.mark !== mark) continue;
        if (needle && !((c.name || "") + " " + (c.name_en || "") + " " + c.id).toLowerCase().includes(needle)) continue;
        // the whole row adds the card (its + button too): a tap anywhere on it, at any width
        const b = el("button", { type: "button", class: "mini add-card", "data-card": c.id, title: no || t("add_card_row"),
          disabled: !!no, "aria-label": t("add") + " " + (c.name || c.id) });
        b.textContent = "+";
        const li = el("li", { class: "k-" + c.kind + (D.cards.includes(c.id) ? " in-deck" : "") + (no ? " blocked" : ""), "data-card": c.id,
          title: no || t("add_card_row") }, b, " ", cardLabel(c));
        li.addEventListener("click", () => {
          if (blocked()) { toast(blocked(), true); return; }
          D.cards.push(c.id); renderList(); status(); fillPool();
        });
        pool.append(li);
      }
    };
    q.addEventListener("input", fillPool);
    const list = el("ol", { class: "decklist", id: "dk-list" });
    const renderList = () => {
      list.textContent = "";
      D.cards.forEach((cid, i) => {
        const b = el("button", { type: "button", class: "mini remove-card", title: t("remove") }, "−");
        b.setAttribute("aria-label", t("remove") + " " + ((byId[cid] || {}).name || cid));
        b.addEventListener("click", () => { D.cards.splice(i, 1); renderList(); status(); fillPool(); });
        list.append(el("li", { class: "k-" + ((byId[cid] || {}).kind || "") }, b, " ", byId[cid] ? cardLabel(byId[cid]) : cid + " ?"));
      });
      $("#dk-count").textContent = t("deck_cards", { n: D.cards.length });
    };
    const save = el("button", { type: "button", id: "dk-save", class: "admin-only" }, t("save_deck"));
    save.addEventListener("click", saveDeck);
    const codeBtn = el("button", { type: "button", id: "dk-code-btn", class: "admin-only" }, t("show_code"));
    codeBtn.addEventListener("click", showCode);
    const codeIn = el("input", { id: "dk-code-in", class: "wide", placeholder: "LC1.", "aria-label": t("code_import") });
    const codeGo = el("button", { type: "button", id: "dk-code-go" }, t("import_code"));
    codeGo.addEventListener("click", async () => {
      const r = await control("/api/control/cards/deck-code", { code: codeIn.value.trim(), deck_id: (D.deckId || "imported").trim() });
      if (r && r.ok) { toast(t(r.saved ? "saved" : "already_here")); await C.loadSets(); D.set = r.set; await loadSet(); await openDeck(r.deck_id); }
    });
    root.append(el("p", { class: "muted", id: "dk-needs", text: t("deck_needs") }), head,
      el("div", { class: "deckgrid" },
        el("div", { class: "panel" }, el("h2", { text: t("search") }), q, why, pool),
        el("div", { class: "panel" }, el("h2", { id: "dk-count" }), list, el("div", { class: "row" }, save, codeBtn), el("div", { id: "dk-code" })),
        el("div", { class: "panel" }, el("h2", { text: t("checks") }), el("ul", { class: "checks-list", id: "dk-status" }))),
      el("div", { class: "panel admin-only" }, el("h2", { text: t("code_import") }), el("div", { class: "inline-form" }, codeIn, codeGo)));
    fillPool();
    renderList();
    status();
  }
  function cardLabel(c) {
    const stats = c.kind === "attack" ? " " + c.speed + " " + t("pos_" + c.position) + " " + (c.damage || 0) : "";
    return el("span", {}, el("b", { text: c.name || c.id }), el("small", { class: "muted", text: " " + t("kind_" + c.kind) + stats + (c.mark && c.mark !== "neutral" ? " · " + c.mark : "") }));
  }
  async function loadSet() {
    if (!D.set) D.set = (C.S.sets.find((s) => s.writable) || C.S.sets[0] || {}).id;
    const r = await api("/api/cards/sets/" + encodeURIComponent(D.set));
    D.raw = r.ok ? r.json : null;
  }
  async function openDeck(deckId) {
    D.deckId = deckId;
    if (!deckId) { D.cards = []; D.ultimate = null; D.name = D.name_en = ""; deckTab(); return; }
    const r = await api("/api/admin/cards/sets/" + encodeURIComponent(D.set) + "/decks/" + encodeURIComponent(deckId), undefined, true);
    if (!r.ok) { toast(msgOf(r.json), true); return; }
    const d = r.json.deck;
    Object.assign(D, { name: d.name || "", name_en: d.name_en || "", character: d.character, cards: (d.cards || []).slice(), ultimate: d.ultimate || null });
    deckTab();
  }
  let statusSeq = 0;
  async function status() {
    const seq = ++statusSeq;
    const r = await api("/api/cards/deck-status", { set: D.set, character: D.character, cards: D.cards, ultimate: D.ultimate });
    if (seq !== statusSeq) return;
    const ul = $("#dk-status");
    if (!ul) return;
    ul.textContent = "";
    for (const i of (r.json.items || [])) ul.append(el("li", { class: i.ok ? "ok" : "bad", "data-key": i.key }, (i.ok ? "✓ " : "✗ ") + i.text[C.S.lang], el("span", { class: "rule", text: C.S.lang === "ko" ? String(i.rule || "").replace(/^guide/, "가이드") : i.rule })));
    if (!r.ok) ul.append(el("li", { class: "bad", text: msgOf(r.json) }));
  }
  async function saveDeck() {
    const id = (D.deckId || "").trim();
    const r = await control("/api/control/cards/sets/" + encodeURIComponent(D.set) + "/decks/" + encodeURIComponent(id),
                            { deck: { name: D.name || id, name_en: D.name_en || null, character: D.character || "", cards: D.cards, ultimate: D.ultimate } });
    if (r && r.ok) { toast(t("saved")); await C.loadSets(); deckTab(); }
    else if (r && r.problems) { const ul = $("#dk-status"); for (const p of r.problems) ul.append(el("li", { class: "bad", text: (C.S.lang === "ko" && p.message_ko) || p.message })); }
  }
  async function showCode() {
    const r = await api("/api/admin/cards/sets/" + encodeURIComponent(D.set) + "/decks/" + encodeURIComponent(D.deckId) + "/code", undefined, true);
    const box = $("#dk-code");
    box.textContent = "";
    if (!r.ok) { box.append(el("p", { class: "warn", text: msgOf(r.json) })); return; }
    const code = el("textarea", { id: "dk-code-text", rows: "3", class: "wide mono", readonly: true });
    code.value = r.json.code;
    const qr = el("div", { class: "qr" });
    // the hub's SVG (segno, from the code alone), parsed as an image document: no markup of ours
    qr.append(document.importNode(new DOMParser().parseFromString(r.json.svg, "image/svg+xml").documentElement, true));
    box.append(el("h3", { text: t("deck_code") }), code, qr);
  }

  // ------------------------------------------------------------ the table's seats
  async function tableTab() {
    const root = $("#tab-table");
    root.textContent = "";
    if (!C.S.admin) { root.append(el("p", { class: "warn", text: t("need_admin") })); return; }
    const [dr, tr] = await Promise.all([api("/api/admin/cards/decks", undefined, true), api("/api/admin/cards/table", undefined, true)]);
    T.decks = (dr.json.decks || []).filter((d) => d.ok);
    T.registered = tr.json.seats || {};
    root.append(el("p", { class: "muted", text: t("hidden_note") }));
    const grid = el("div", { class: "seatgrid" });
    for (const s of ["a", "b"]) grid.append(seatPanel(s));
    root.append(grid);
    const seed = el("input", { id: "tb-seed", class: "num", placeholder: t("seed"), "aria-label": t("seed") });
    const go = el("button", { type: "button", id: "tb-start" }, t("start_game"));
    go.addEventListener("click", async () => {
      const body = {};
      if (seed.value.trim()) body.seed = parseInt(seed.value, 10);
      const r = await control("/api/control/cards/table/start", body);
      if (r && r.ok) { toast(t("game_started", { n: r.game_id })); document.body.dataset.game = r.game_id; }
    });
    root.append(el("div", { class: "toolbar" }, seed, go));
  }
  function seatPanel(s) {
    const box = el("div", { class: "panel seat-pick", "data-seat": s });
    const reg = T.registered[s];
    box.append(el("h2", { text: t("seat_" + s) }), el("p", { class: "muted", id: "tb-reg-" + s, text: reg ? t("registered", { d: reg.name + " (" + reg.set + "/" + reg.deck + ")" + (reg.hand ? " · " + t("opening") : "") }) : t("not_registered") }));
    const sel = el("select", { id: "tb-deck-" + s, "aria-label": t("seat_" + s) }, el("option", { value: "", text: "—" }), T.decks.map((d) => el("option", { value: d.key, text: d.name + " · " + d.character + " (" + d.key + ")" })));
    sel.value = T.seat[s] || "";
    const pickBox = el("div", { class: "opening", id: "tb-open-" + s });
    sel.addEventListener("change", async () => { T.seat[s] = sel.value || null; T.pick[s] = { hand: [], list: [] }; await loadSeatDeck(s); drawOpening(s, pickBox); });
    const reg2 = el("button", { type: "button", id: "tb-register-" + s }, t("register"));
    reg2.addEventListener("click", async () => {
      if (!T.seat[s]) return;
      const [set, deck] = T.seat[s].split("/");
      const p = T.pick[s];
      const body = { seat: s, set: set, deck: deck };
      if (p.hand.length || p.list.length) { body.hand = p.hand; body.list = p.list; }
      const r = await control("/api/control/cards/table/seat", body);
      if (r && r.ok) { T.registered = r.seats; toast(t("saved")); $("#tb-reg-" + s).textContent = t("registered", { d: r.seats[s].name + " (" + T.seat[s] + ")" + (r.seats[s].hand ? " · " + t("opening") : "") }); }
    });
    box.append(sel, el("h3", { text: t("opening") }), el("p", { class: "muted", text: t("opening_help") }), pickBox, reg2);
    if (T.seat[s]) loadSeatDeck(s).then(() => drawOpening(s, pickBox));
    return box;
  }
  async function loadSeatDeck(s) {
    if (!T.seat[s]) return;
    const [set, deck] = T.seat[s].split("/");
    const [dr, sr] = await Promise.all([api("/api/admin/cards/sets/" + set + "/decks/" + deck, undefined, true), api("/api/cards/sets/" + set)]);
    const byId = Object.fromEntries(((sr.json && sr.json.cards) || []).map((c) => [c.id, c]));
    T.info[s] = { deck: dr.json.deck, byId: byId };
  }
  function drawOpening(s, box) {
    box.textContent = "";
    const info = T.info[s];
    if (!info) return;
    const p = T.pick[s];
    const used = {};
    for (const c of p.hand.concat(p.list)) used[c] = (used[c] || 0) + 1;
    const left = {};
    const pool = el("div", { class: "chips" });
    for (const cid of info.deck.cards) {
      const c = info.byId[cid] || { id: cid, kind: "?" };
      if (c.kind === "special") continue;
      left[cid] = (left[cid] || 0) + 1;
      if (left[cid] <= (used[cid] || 0)) continue;
      const b = el("button", { type: "button", class: "card k-" + c.kind, "data-card": cid }, c.name || cid);
      b.addEventListener("click", () => {
        if (p.hand.length < 5) p.hand.push(cid); else if (p.list.length < 9) p.list.push(cid); else return;
        drawOpening(s, box);
      });
      pool.append(b);
    }
    const zone = (key, n) => el("div", { class: "zone" }, el("h3", {}, t(key) + " " + p[key].length + "/" + n),
      el("div", { class: "chips" }, p[key].map((cid) => el("span", { class: "card k-" + ((info.byId[cid] || {}).kind || "") }, (info.byId[cid] || {}).name || cid))));
    const clear = el("button", { type: "button", class: "mini" }, t("clear"));
    clear.addEventListener("click", () => { T.pick[s] = { hand: [], list: [] }; drawOpening(s, box); });
    box.append(zone("hand", 5), zone("list", 9), clear, pool);
  }

  window.addEventListener("cards:tab", async (e) => {
    if (e.detail === "deck") { await loadSet(); deckTab(); }
    if (e.detail === "table") tableTab();
  });
  window.addEventListener("cards:admin", () => { if (!$("#tab-table").hidden) tableTab(); });
  window.addEventListener("cards:lang", () => { if (!$("#tab-deck").hidden) deckTab(); if (!$("#tab-table").hidden) tableTab(); });
})();

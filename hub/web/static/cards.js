// The card library and editor page (/cards): search the library, edit one card with the
// registry-driven form (cards-form.js), lint as you type at each field, the card face and the
// text generated from the data beside the printed text, try it against another card, save,
// import and export. The deck builder and the table's deck registration are in decks.js.
"use strict";
(function () {
  const LANG_KEY = "lumen.lang", TOKEN_KEY = "lumen.token";     // shared with the table display
  const S = { lang: localStorage.getItem(LANG_KEY) === "en" ? "en" : "ko", token: localStorage.getItem(TOKEN_KEY) || "",
              admin: false, vocab: null, sets: [], setId: null, card: null, replaces: null, form: null, lintSeq: 0, lintTimer: null,
              what: "card" };
  const $ = (q) => document.querySelector(q);
  const t = (k, vars) => {
    let s = (window.CARDS_I18N[S.lang] || {})[k];
    if (s == null) s = window.CARDS_I18N.ko[k] != null ? window.CARDS_I18N.ko[k] : k;
    for (const [a, b] of Object.entries(vars || {})) s = s.replace("{" + a + "}", b);
    return s;
  };
  const el = window.LumenDraw.h;          // the pages' one way to draw (draw.js)
  let toastTimer = null;
  function toast(msg, bad) {
    const b = $("#toast");
    b.textContent = msg;
    b.dataset.bad = bad ? "1" : "0";
    b.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { b.hidden = true; }, bad ? 6000 : 2500);
  }
  const newId = () => "c-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  const msgOf = (j) => (j && j.message && j.message[S.lang]) || (j && (j.detail || j.error)) || "?";

  // ------------------------------------------------------------ requests
  async function api(path, body, admin) {
    const opts = { cache: "no-store", headers: {} };
    if (body !== undefined) { opts.method = "POST"; opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    if (admin) opts.headers.Authorization = "Bearer " + S.token;
    let res;
    try { res = await fetch(path, opts); } catch (e) { toast(t("err_network"), true); return { ok: false, json: {} }; }
    let j = {};
    try { j = await res.json(); } catch (e) { /* a text reply */ }
    return { ok: res.ok, status: res.status, json: j };
  }
  async function control(path, body) {
    if (!S.admin) { toast(t("need_admin"), true); askToken(); return null; }
    const r = await api(path, Object.assign({ action_id: newId() }, body || {}), true);
    if (!r.ok) {
      if (r.status === 401 || (r.status === 403 && r.json.error === "forbidden")) setAdmin(false);
      toast(msgOf(r.json), true);
      return r.json.problems ? r.json : null;
    }
    return r.json;
  }

  // ------------------------------------------------------------ admin token, language
  async function checkToken(tok) {
    try { return (await fetch("/api/admin/check", { headers: { Authorization: "Bearer " + tok } })).ok; } catch (e) { return false; }
  }
  function setAdmin(on) {
    S.admin = on;
    if (!on) { S.token = ""; localStorage.removeItem(TOKEN_KEY); }
    document.body.classList.toggle("is-admin", on);
    $("#admin-btn").textContent = t(on ? "admin_on" : "admin");
    window.dispatchEvent(new Event("cards:admin"));
  }
  function askToken() { $("#token-dialog").hidden = false; $("#token-input").focus(); }
  $("#admin-btn").addEventListener("click", () => { if (S.admin) setAdmin(false); else askToken(); });
  $("#token-cancel").addEventListener("click", () => { $("#token-dialog").hidden = true; });
  $("#token-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const tok = $("#token-input").value.trim();
    if (await checkToken(tok)) {
      S.token = tok; localStorage.setItem(TOKEN_KEY, tok); $("#token-dialog").hidden = true; $("#token-input").value = ""; setAdmin(true);
    } else toast(t("wrong_token"), true);
  });
  function applyLang() {
    document.documentElement.lang = S.lang;
    $("#lang-btn").textContent = S.lang === "ko" ? "EN" : "한국어";
    for (const n of document.querySelectorAll("[data-i18n]")) n.textContent = t(n.dataset.i18n);
    for (const n of document.querySelectorAll("[data-i18n-ph]")) n.placeholder = t(n.dataset.i18nPh);
    for (const n of document.querySelectorAll("[data-i18n-label]")) n.setAttribute("aria-label", t(n.dataset.i18nLabel));
    $("#admin-btn").textContent = t(S.admin ? "admin_on" : "admin");
    fillFilters();
    if (S.form) { S.form.render(); lintSoon(0); }
    window.dispatchEvent(new Event("cards:lang"));
  }
  $("#lang-btn").addEventListener("click", () => { S.lang = S.lang === "ko" ? "en" : "ko"; localStorage.setItem(LANG_KEY, S.lang); applyLang(); });

  // ------------------------------------------------------------ tabs
  function showTab(name) {
    for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("on", b.dataset.tab === name);
    for (const s of document.querySelectorAll(".tab")) s.hidden = s.id !== "tab-" + name;
    if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
    window.dispatchEvent(new CustomEvent("cards:tab", { detail: name }));
  }
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));

  // ------------------------------------------------------------ sets and the library
  async function loadSets() {
    const r = await api("/api/cards/sets");
    S.sets = r.json.sets || [];
    for (const [sel, all] of [["#lib-set", true], ["#try-set", false], ["#io-export-set", false], ["#io-csv-set", false]]) {
      const s = $(sel), keep = s.value;
      s.textContent = "";
      if (all) s.append(el("option", { value: "", text: t("all_sets") }));
      for (const x of S.sets) {
        if (sel === "#io-csv-set" && !x.writable) continue;
        s.append(el("option", { value: x.id, text: (S.lang === "en" && x.name_en ? x.name_en : x.name) + " (" + x.id + ")" + (x.sample ? " · " + t("sample") : "") }));
      }
      if ([...s.options].some((o) => o.value === keep)) s.value = keep;
    }
    $("#io-export").href = "/api/cards/sets/" + $("#io-export-set").value + "/export?download=true";
    window.dispatchEvent(new Event("cards:sets"));
  }
  function fillFilters() {
    const fill = (sel, vals, label) => {
      const s = $(sel), keep = s.value;
      s.textContent = "";
      s.append(el("option", { value: "", text: t(label) + ": " + t("any") }));
      for (const v of vals) s.append(el("option", { value: v, text: t((label === "kind" ? "kind_" : "pos_") + v) }));
      s.value = keep;
    };
    fill("#lib-kind", ["attack", "defense", "special"], "kind");
    fill("#lib-position", ["high", "mid", "low"], "position");
  }
  let searchTimer = null;
  async function search() {
    const p = new URLSearchParams();
    for (const [k, sel] of [["set", "#lib-set"], ["q", "#lib-q"], ["kind", "#lib-kind"], ["position", "#lib-position"], ["speed", "#lib-speed"], ["mark", "#lib-mark"]]) {
      const v = $(sel).value.trim();
      if (v) p.set(k, v);
    }
    drawCharacters();
    const r = await api("/api/cards/search?" + p.toString());
    const rows = $("#lib-rows");
    rows.textContent = "";
    const list = r.json.cards || [];
    $("#lib-count").textContent = r.ok ? t("results_n", { n: list.length }) : msgOf(r.json);
    for (const c of list) {
      const tr = el("tr", { class: "k-" + c.kind, "data-card": c.id, "data-set": c.set },
        el("td", { text: c.id }), el("td", {}, el("b", { text: c.name || "" }), " ", el("small", { class: "muted", text: c.name_en || "" })),
        el("td", { text: t("kind_" + c.kind) + (c.ultimate ? " · " + t("ultimate") : "") }), el("td", { text: c.mark === "neutral" ? t("neutral") : c.mark }),
        el("td", { text: c.speed != null ? c.speed : "" }), el("td", { text: c.position ? t("pos_" + c.position) : "" }),
        el("td", { text: c.damage != null ? c.damage : "" }), el("td", { class: "muted", text: c.set }));
      tr.addEventListener("click", () => openCard(c.set, c.id));
      rows.append(tr);
    }
  }
  for (const sel of ["#lib-set", "#lib-q", "#lib-kind", "#lib-position", "#lib-speed", "#lib-mark"]) {
    $(sel).addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(search, 150); });
  }
  $("#new-set").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await control("/api/control/cards/sets", { id: $("#ns-id").value.trim(), name: $("#ns-name").value.trim(), name_en: $("#ns-name-en").value.trim() || null });
    if (r && r.ok) { toast(t("saved")); await loadSets(); $("#lib-set").value = r.set; search(); }
  });

  // the selected set's characters: click to edit, or add one (a deck needs a character)
  async function drawCharacters() {
    const box = $("#lib-chars");
    box.textContent = "";
    const sid = $("#lib-set").value;
    if (!sid) return;
    const r = await api("/api/cards/sets/" + encodeURIComponent(sid));
    if (!r.ok) return;
    box.append(el("b", { text: t("characters") + ":" }));
    for (const c of r.json.characters || []) {
      const b = el("button", { type: "button", class: "mini", "data-character": c.id }, (c.name || c.id) + (c.name_en ? " · " + c.name_en : ""));
      b.addEventListener("click", () => edit(sid, JSON.parse(JSON.stringify(c)), c.id, "character"));
      box.append(b);
    }
    if (r.json.writable) {
      const add = el("button", { type: "button", class: "mini admin-only", id: "lib-new-character" }, "+ " + t("new_character"));
      add.addEventListener("click", () => edit(sid, { id: "", name: "", health: [5000, 4000, 3000, 2000, 1000], hand_limit: [6, 7, 8, 9, 9] }, null, "character"));
      box.append(add);
    }
  }

  // ------------------------------------------------------------ the editor
  const setInfo = (id) => S.sets.find((x) => x.id === id);
  async function openCard(setId, cardId) {
    const r = await api("/api/cards/sets/" + encodeURIComponent(setId) + "/cards/" + encodeURIComponent(cardId));
    if (!r.ok) { toast(msgOf(r.json), true); return; }
    edit(setId, r.json.card, cardId);
  }
  function edit(setId, card, replaces, what) {
    S.setId = setId; S.card = card; S.replaces = replaces || null; S.what = what || "card";
    $("#try-panel").hidden = S.what !== "card";
    fillTryCharacters();
    const info = setInfo(setId) || {};
    $("#ed-where").textContent = (info.name || setId) + (info.writable === false ? " · " + t("read_only") : "") + (replaces ? " · " + replaces : " · " + t(S.what === "character" ? "new_character" : "new_card"));
    S.form = window.CardForm.build($("#ed-form"), card, S.vocab, {
      t: t, lang: () => S.lang, marks: () => (setInfo(S.setId) || { characters: [] }).characters.map((c) => c.mark),
      onChange: () => { lintSoon(250); }, mode: S.what,
    });
    editorButtons();
    showTab("editor");
    lintSoon(0);
  }
  // the editor with no card: say how to get one, and no Save or Delete to press
  function editorButtons() {
    const none = !S.card;
    $("#ed-empty").hidden = !none;
    $("#ed-save").hidden = none;
    $("#ed-delete").hidden = none || !S.replaces || S.what !== "card";
    $("#try-panel").hidden = none || S.what !== "card";
  }
  $("#lib-new").addEventListener("click", () => {
    const sid = $("#lib-set").value || (S.sets.find((x) => x.writable) || {}).id;
    if (!sid) { toast(t("need_admin"), true); return; }
    // a new card starts blank: a value nobody typed is never saved (the checker asks for each one)
    edit(sid, { id: "", name: "", kind: "attack", mark: "neutral" }, null);
  });
  function lintSoon(ms) { clearTimeout(S.lintTimer); S.lintTimer = setTimeout(lint, ms); }
  async function lint() {
    if (!S.card) return;
    const seq = ++S.lintSeq;
    $("#ed-raw").value = JSON.stringify(S.card, null, 1);
    const r = S.what === "character"
      ? await api("/api/cards/lint-character", { set: S.setId, character: S.card, replaces: S.replaces })
      : await api("/api/cards/lint", { set: S.setId, card: S.card, replaces: S.replaces });
    if (seq !== S.lintSeq || !r.ok) return;             // a newer edit is on its way
    const problems = r.json.problems || [];
    const loose = S.form.showProblems(problems);
    const box = $("#ed-lint");
    box.textContent = problems.length ? t("lint_n", { n: problems.length }) : t("lint_ok");
    box.dataset.ok = problems.length ? "0" : "1";
    $("#ed-loose").textContent = "";
    const said = (p) => (S.lang === "ko" && p.message_ko) || p.message;
    if (loose.length) $("#ed-loose").append(el("b", { text: t("problems_here") }), el("ul", {}, loose.map((p) => el("li", { text: (p.field ? p.field + ": " : "") + said(p) }))));
    if (S.what === "character") renderCharacterFace(S.card, r.json.text || { ko: [], en: [] });
    else renderFace(S.card, r.json.text || { ko: [], en: [] });
  }
  function renderCharacterFace(c, text) {
    const face = $("#ed-face");
    face.textContent = "";
    const tr = c.trait || {};
    const printed = typeof tr.text === "string" ? tr.text : (tr.text && (tr.text[S.lang] || tr.text.ko)) || "";
    const bands = Array.isArray(c.health) ? c.health : [];
    const limits = Array.isArray(c.hand_limit) ? c.hand_limit : [];
    face.append(el("div", { class: "face k-character" },
      el("div", { class: "fhead" }, el("b", { class: "fname", text: c.name || c.id || "?" }), el("small", { text: c.name_en || "" })),
      el("div", { class: "fkind", text: t("character") + " · " + (c.mark || c.id || "") }),
      el("table", { class: "fres" }, bands.map((h, i) => el("tr", {}, el("td", { text: t("health") + " " + h }), el("td", { text: t("hand_limits").split(" (")[0] + " " + (limits[i] != null ? limits[i] : "?") })))),
      el("div", { class: "ftexts" },
        el("div", { class: "ftext gen" }, el("h3", { text: t("generated") + " · " + t("trait") + " " + (tr.name || "") }), el("ul", {}, (text[S.lang] || []).map((l) => el("li", { text: l })))),
        el("div", { class: "ftext printed" }, el("h3", { text: t("printed") }), el("p", { text: printed })))));
  }
  function renderFace(c, text) {
    const face = $("#ed-face");
    face.textContent = "";
    const kind = c.kind || "?";
    const printed = typeof c.text === "string" ? c.text : (c.text && (c.text[S.lang] || c.text.ko)) || "";
    const stats = [];
    if (kind === "attack") {
      stats.push(el("div", { class: "stat" }, el("small", { text: t("speed") }), el("b", { text: c.speed != null ? String(c.speed) : "?" })),
                 el("div", { class: "stat" }, el("small", { text: t("position") }), el("b", { text: c.position ? t("pos_" + c.position) : "?" })),
                 el("div", { class: "stat" }, el("small", { text: t("damage") }), el("b", { text: c.damage != null ? String(c.damage) : "0" })));
    }
    const res = c.results && typeof c.results === "object" ? Object.entries(c.results) : [];
    face.append(el("div", { class: "face k-" + kind },
      el("div", { class: "fhead" }, el("span", { class: "fnum", text: c.number || "" }), el("b", { class: "fname", text: c.name || c.id || "?" }),
         el("small", { text: c.name_en || "" })),
      el("div", { class: "fkind", text: t("kind_" + kind) + " · " + (c.mark && c.mark !== "neutral" ? c.mark : t("neutral")) + (c.ultimate ? " · " + t("ultimate") : "") }),
      stats.length ? el("div", { class: "fstats" }, stats) : null,
      res.length ? el("table", { class: "fres" }, res.map(([k, v]) => el("tr", {}, el("td", { text: t("res_" + k) }),
        el("td", { text: "FP " + ((v && v.fp) > 0 ? "+" : "") + ((v && v.fp) || 0) + (v && v.combo ? " · " + t("combo") : "") })))) : null,
      el("div", { class: "ftexts" },
        el("div", { class: "ftext gen" }, el("h3", { text: t("generated") }), el("ul", {}, (text[S.lang] || []).map((l) => el("li", { text: l })))),
        el("div", { class: "ftext printed" }, el("h3", { text: t("printed") }), el("p", { text: printed }))),
      el("small", { class: "muted", text: t("mismatch_hint") })));
  }
  $("#ed-raw-apply").addEventListener("click", () => {
    let c;
    try { c = JSON.parse($("#ed-raw").value); } catch (e) { toast(t("bad_json"), true); return; }
    edit(S.setId, c, S.replaces, S.what);
  });
  $("#ed-save").addEventListener("click", async () => {
    const r = S.what === "character"
      ? await control("/api/control/cards/sets/" + encodeURIComponent(S.setId) + "/characters", { character: S.card, replaces: S.replaces })
      : await control("/api/control/cards/sets/" + encodeURIComponent(S.setId) + "/cards", { card: S.card, replaces: S.replaces });
    if (r && r.problems && !r.ok) { S.form.showProblems(r.problems); return; }
    if (!r) return;
    S.replaces = S.card.id;
    editorButtons();
    toast(t("saved") + (r.decks_broken && r.decks_broken.length ? " · " + t("decks_broken", { d: r.decks_broken.map((d) => d.deck).join(", ") }) : ""));
    await loadSets();
    search();
    lintSoon(0);
  });
  $("#ed-delete").addEventListener("click", async () => {
    if (!S.replaces || S.what !== "card" || !confirm(t("confirm_delete"))) return;
    const r = await control("/api/control/cards/sets/" + encodeURIComponent(S.setId) + "/cards/" + encodeURIComponent(S.replaces) + "/delete", {});
    if (r && r.ok) {
      toast(t("deleted")); S.card = null; S.form = null; S.replaces = null; $("#ed-form").textContent = ""; $("#ed-face").textContent = "";
      $("#ed-where").textContent = ""; $("#ed-lint").textContent = ""; editorButtons(); await loadSets(); search(); showTab("library");
    }
  });

  // ------------------------------------------------------------ try it
  async function fillTryCards() {
    const sid = $("#try-set").value;
    const r = await api("/api/cards/search?set=" + encodeURIComponent(sid));
    const s = $("#try-card");
    s.textContent = "";
    for (const c of (r.json.cards || []).filter((c) => c.kind !== "special")) {
      s.append(el("option", { value: c.id, text: c.name + " · " + t("kind_" + c.kind) + (c.speed != null ? " " + c.speed + " " + t("pos_" + c.position) : "") }));
    }
  }
  // the characters whose traits apply in the try (none: a plain character without a trait)
  function fillTryCharacters() {
    for (const [sel, sid, who] of [["#try-char-a", S.setId, "me"], ["#try-char-b", $("#try-set").value, "them"]]) {
      const s = $(sel), keep = s.value;
      s.textContent = "";
      s.append(el("option", { value: "", text: t(who) + ": " + t("no_character") }));
      for (const c of (setInfo(sid) || { characters: [] }).characters) s.append(el("option", { value: c.id, text: t(who) + ": " + (c.name || c.id) }));
      if ([...s.options].some((o) => o.value === keep)) s.value = keep;
    }
  }
  $("#try-set").addEventListener("change", () => { fillTryCards(); fillTryCharacters(); });
  $("#try-go").addEventListener("click", async () => {
    const out = $("#try-out");
    out.textContent = "";
    const r = await api("/api/cards/try", { card: S.card, set: S.setId, against_set: $("#try-set").value, against_id: $("#try-card").value,
                                           fp_a: parseInt($("#try-fp-a").value, 10) || 0, fp_b: parseInt($("#try-fp-b").value, 10) || 0,
                                           character_a: $("#try-char-a").value || null, character_b: $("#try-char-b").value || null });
    if (!r.ok) { out.append(el("p", { class: "warn", text: msgOf(r.json) })); return; }
    const j = r.json;
    const side = (s, who) => el("div", { class: "bside " + s }, el("small", { text: t(who) }),
      el("div", { class: "outcome", text: (j.outcome_text[s] || {})[S.lang] || "—" }),
      el("div", { text: t("fp_after") + " " + j.fp[s] + " · " + t("damage_taken") + " " + j.damage[s] }));
    out.append(el("div", { class: "battle-row try-result" }, side("a", "me"), side("b", "them")));
    // the reason's own "[가이드 …]" becomes the badge: the rule is said once
    if (j.reason) out.append(el("p", { class: "reason" }, j.reason[S.lang].replace(/\s*\[[^\]]+\]\s*$/, ""),
      j.rule ? el("span", { class: "rule", text: S.lang === "ko" ? j.rule.replace(/^guide/, "가이드") : j.rule }) : null));
    out.append(el("ol", { class: "details" }, j.events.filter((e) => e.e !== "judgment").map((e) => el("li", { text: e.text[S.lang] }))));
    if (j.asked.length) out.append(el("p", { class: "muted", text: t("asked") + ": " + j.asked.map((a) => a.kind + " → " + JSON.stringify(a.answer)).join(", ") }));
  });

  // ------------------------------------------------------------ import and export
  $("#io-export-set").addEventListener("change", () => { $("#io-export").href = "/api/cards/sets/" + $("#io-export-set").value + "/export?download=true"; });
  const readFile = (input) => new Promise((ok) => { const f = input.files[0]; if (!f) return ok(null); const rd = new FileReader(); rd.onload = () => ok(rd.result); rd.readAsText(f); });
  $("#io-set-go").addEventListener("click", async () => {
    const text = await readFile($("#io-set-file"));
    if (text == null) return;
    const r = await control("/api/control/cards/import", { text: text, set_id: $("#io-set-id").value.trim() || null });
    if (r && r.ok) { toast(t("imported", { n: r.set })); loadSets(); }
  });
  $("#io-csv-file").addEventListener("change", async () => { const x = await readFile($("#io-csv-file")); if (x != null) $("#io-csv-text").value = x; });
  $("#io-csv-go").addEventListener("click", async () => {
    const out = $("#io-csv-out");
    out.textContent = "";
    const r = await control("/api/control/cards/sets/" + encodeURIComponent($("#io-csv-set").value) + "/csv", { text: $("#io-csv-text").value });
    if (r && r.ok) { toast(t("imported", { n: r.cards.length })); out.append(el("p", { text: t("imported", { n: r.cards.join(", ") }) })); loadSets(); search(); }
    else if (r && r.problems) {
      const where = (p) => !p.row ? "" : (S.lang === "ko" ? p.row + "행" + (p.column ? ", " + p.column + " 열" : "") : "row " + p.row + (p.column ? ", " + p.column : "")) + ": ";
      out.append(el("ul", { class: "warn" }, r.problems.map((p) => el("li", { text: where(p) + ((S.lang === "ko" && p.message_ko) || p.message) }))));
    }
  });

  // ------------------------------------------------------------ start
  window.Cards = { S: S, api: api, control: control, t: t, el: el, toast: toast, msgOf: msgOf, showTab: showTab, loadSets: loadSets,
                   edit: edit, openCard: openCard };
  (async function start() {
    const v = await api("/api/cards/vocabulary");
    S.vocab = v.json;
    applyLang();
    await loadSets();
    await fillTryCards();
    search();
    if (S.token && (await checkToken(S.token))) setAdmin(true); else setAdmin(false);
    const m = /admin=([^&]+)/.exec(location.hash);
    if (m) { S.token = decodeURIComponent(m[1]); localStorage.setItem(TOKEN_KEY, S.token); if (await checkToken(S.token)) setAdmin(true); }
    editorButtons();
    const tab = (location.hash.replace("#", "").split("&")[0]) || "library";
    showTab(["library", "editor", "deck", "table", "io"].includes(tab) ? tab : "library");
    document.body.dataset.ready = "1";
  })();
})();

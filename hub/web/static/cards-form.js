// The card editor's form, generated from the effect registry (/api/cards/vocabulary): every
// field of docs/card-format.md, and each effect entry's parameters by their registry type, so a
// new primitive shows up with its fields and no change here.
//
// The form edits the card data in place and only where the user changes something: a field
// whose shown value equals what it would write is left alone, keys the form has no field for
// are kept, so loading a card and saving it gives back the same data (tests/web/test_cards_browser.py
// touches every field of every sample card and compares).
"use strict";
window.CardForm = (function () {
  const POS = ["high", "mid", "low"];

  // ---------------------------------------------------------------- paths
  function fieldName(path) {
    let s = "";
    for (const k of path) s += (typeof k === "number") ? "[" + k + "]" : (s ? "." : "") + k;
    return s;
  }
  function getAt(obj, path) {
    let o = obj;
    for (const k of path) { if (o == null || typeof o !== "object") return undefined; o = o[k]; }
    return o;
  }
  function setAt(obj, path, value) {
    let o = obj;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i];
      if (o[k] == null || typeof o[k] !== "object") o[k] = (typeof path[i + 1] === "number") ? [] : {};
      o = o[k];
    }
    o[path[path.length - 1]] = value;
  }
  function delAt(obj, path) {
    const parent = getAt(obj, path.slice(0, -1));
    if (parent && typeof parent === "object" && !Array.isArray(parent)) delete parent[path[path.length - 1]];
  }
  const isEmpty = (v) => v === "" || v === null || (Array.isArray(v) && v.length === 0);

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid != null) e.append(kid);
    return e;
  }

  // ---------------------------------------------------------------- the form
  function build(root, card, vocab, opts) {
    const t = opts.t;                   // t(key) -> the page's string in its language
    const onChange = opts.onChange || function () {};
    const prim = {};
    for (const p of vocab.primitives) prim[p.name] = p;
    const cond = {};
    for (const c of vocab.conditions) cond[c.name] = c;

    // a card that changes kind loses the other kind's fields (they would be load errors)
    function dropForeign() {
      const own = { attack: ["speed", "position", "damage", "results", "special"], defense: ["guard", "evade", "offset", "results"], special: [] }[card.kind] || [];
      for (const k of ["speed", "position", "damage", "results", "special", "guard", "evade", "offset"]) if (!own.includes(k)) delete card[k];
      const allowed = (vocab.results[card.kind] || []);
      if (card.results && typeof card.results === "object") for (const k of Object.keys(card.results)) if (!allowed.includes(k)) delete card.results[k];
    }
    function changed(structural) { if (structural) render(); onChange(card); }

    // a value input: fmt(current) is what it shows; parse(text) what it writes ("" means unset)
    function bind(input, path, fmt, parse, structural) {
      input.dataset.field = fieldName(path);
      const cur = getAt(card, path);
      input.value = fmt(cur);
      const handler = () => {
        const now = getAt(card, path);
        if (fmt(now) === input.value) return;          // what it shows is what is there: nothing to write
        const v = parse(input.value);
        if (path[0] === "text" && path.length === 2 && typeof card.text === "string") card.text = { ko: card.text };
        if (path[0] === "trait" && path[1] === "text" && path.length === 3 && card.trait && typeof card.trait.text === "string") card.trait.text = { ko: card.trait.text };
        if (v === undefined) { if (!isEmpty(now)) delAt(card, path); } else setAt(card, path, v);
        if (path.length === 1 && path[0] === "kind") dropForeign();
        changed(structural);
      };
      input.addEventListener("input", handler);
      input.addEventListener("change", handler);
      return input;
    }
    const str = (v) => v == null ? "" : (typeof v === "string" ? v : JSON.stringify(v));
    const numFmt = (v) => v == null ? "" : String(v);
    const numParse = (s) => s.trim() === "" ? undefined : (/^[+-]?\d+$/.test(s.trim()) ? parseInt(s, 10) : s);
    const strParse = (s) => s === "" ? undefined : s;

    function textField(path, label, wide) {
      return row(label, bind(el("input", { type: "text", class: wide ? "wide" : null, spellcheck: "false" }), path, str, strParse), path);
    }
    function numField(path, label) {
      return row(label, bind(el("input", { type: "text", inputmode: "numeric", class: "num" }), path, numFmt, numParse), path);
    }
    function selectField(path, label, choices, labels, structural, noneLabel) {
      const s = el("select", {});
      s.append(el("option", { value: "", text: noneLabel || "—" }));
      for (const c of choices) s.append(el("option", { value: c, text: labels ? labels(c) : c }));
      const cur = getAt(card, path);
      if (cur != null && !choices.includes(cur)) s.append(el("option", { value: str(cur), text: str(cur) + " ?" }));
      return row(label, bind(s, path, str, (v) => v === "" ? undefined : (choices.includes(v) ? v : getAt(card, path)), structural), path);
    }
    function boolSelect(path, label) {      // true / false / unset, for conditions
      const s = el("select", {});
      for (const [v, l] of [["", "—"], ["true", t("yes")], ["false", t("no")]]) s.append(el("option", { value: v, text: l }));
      return row(label, bind(s, path, (v) => v === true ? "true" : v === false ? "false" : "",
                            (v) => v === "" ? undefined : v === "true"), path);
    }
    function checkField(path, label, structural) {
      const c = el("input", { type: "checkbox" });
      c.dataset.field = fieldName(path);
      c.checked = getAt(card, path) === true;
      c.addEventListener("change", () => {
        const now = getAt(card, path);
        if ((now === true) === c.checked) return;
        if (c.checked) setAt(card, path, true); else if (now === true) delAt(card, path);
        changed(structural);
      });
      return row(label, c, path, true);
    }
    function positionsBox(path, label, read, write) {
      // read() -> the positions shown; write(list) stores them (in place, keeping the data's shape)
      const box = el("span", { class: "checks" });
      box.dataset.field = fieldName(path);
      const shown = read();
      for (const p of POS) {
        const c = el("input", { type: "checkbox", value: p });
        c.checked = shown.includes(p);
        c.addEventListener("change", () => {
          const want = POS.filter((x) => box.querySelector('input[value="' + x + '"]').checked);
          const have = read();
          if (want.length === have.length && want.every((x) => have.includes(x))) return;
          write(want);
          changed(false);
        });
        box.append(el("label", { class: "check" }, c, t("pos_" + p)));
      }
      return row(label, box, path);
    }
    function row(label, input, path, inline) {
      const r = el("label", { class: "frow" + (inline ? " inline" : "") }, el("span", { class: "flabel", text: label }), input);
      r.dataset.field = fieldName(path);
      return r;
    }

    // a judgment condition: [positions] or {positions, speed_min, speed_max}, edited in place
    function judgment(path, label) {
      const readPos = () => {
        const v = getAt(card, path);
        if (Array.isArray(v)) return v.slice();
        if (v && typeof v === "object") return Array.isArray(v.positions) ? v.positions.slice()
          : ((v.speed_min != null || v.speed_max != null) ? POS.slice() : []);
        return [];
      };
      const writePos = (list) => {
        const v = getAt(card, path);
        if (v && typeof v === "object" && !Array.isArray(v)) v.positions = list; else setAt(card, path, list);
      };
      const wrap = el("div", { class: "judgment" });
      wrap.dataset.field = fieldName(path);
      wrap.append(positionsBox(path, label, readPos, writePos));
      for (const b of ["speed_min", "speed_max"]) {
        const inp = el("input", { type: "text", inputmode: "numeric", class: "num" });
        const v = getAt(card, path);
        inp.value = v && typeof v === "object" && !Array.isArray(v) && v[b] != null ? String(v[b]) : "";
        inp.dataset.field = fieldName(path);
        const h = () => {
          let cur = getAt(card, path);
          const shownNow = cur && typeof cur === "object" && !Array.isArray(cur) && cur[b] != null ? String(cur[b]) : "";
          if (shownNow === inp.value) return;
          if (!(cur && typeof cur === "object" && !Array.isArray(cur))) {
            const m = {};
            if (Array.isArray(cur) && cur.length) m.positions = cur;
            setAt(card, path, m);
            cur = m;
          }
          const n = numParse(inp.value);
          if (n === undefined) delete cur[b]; else cur[b] = n;
          changed(false);
        };
        inp.addEventListener("input", h);
        inp.addEventListener("change", h);
        wrap.append(el("label", { class: "frow inline" }, el("span", { class: "flabel", text: t(b) }), inp));
      }
      return wrap;
    }

    function results(keys) {
      const box = el("fieldset", { class: "results" }, el("legend", { text: t("results") }));
      box.dataset.field = "results";
      for (const k of keys) {
        const r = el("div", { class: "rrow" }, el("span", { class: "rkey", text: t("res_" + k) }));
        r.dataset.field = "results." + k;
        r.append(numField(["results", k, "fp"], "FP"), checkField(["results", k, "combo"], t("combo")));
        box.append(r);
      }
      return box;
    }

    // ---------------------------------------------------------------- conditions (if)
    function conditions(path) {
      const cur = getAt(card, path);
      const keys = cur && typeof cur === "object" ? Object.keys(cur) : [];
      const box = el("fieldset", { class: "conds" + (keys.length ? "" : " empty") }, el("legend", { text: t("if") }));
      box.dataset.field = fieldName(path);
      for (const k of keys) {
        const c = cond[k];
        const p = path.concat([k]);
        const line = el("div", { class: "cond" });
        line.dataset.field = fieldName(p);
        if (!c) line.append(el("span", { class: "warn", text: k + " ?" }));
        else if (c.type === "int") line.append(numField(p, k));
        else if (c.type === "bool") line.append(boolSelect(p, k));
        else if (c.type === "labels") line.append(labelsBox(p, k));
        else if (c.type === "count") {
          line.append(el("span", { class: "flabel", text: k }), selectField(p.concat(["zone"]), t("zone"), vocab.count_zones),
                      selectField(p.concat(["who"]), t("who"), vocab.targets), numField(p.concat(["min"]), "min"), numField(p.concat(["max"]), "max"));
        } else if (c.type === "card") {
          line.append(el("span", { class: "flabel", text: k }), selectField(p.concat(["kind"]), t("kind"), vocab.kinds),
                      selectField(p.concat(["position"]), t("position"), vocab.positions), boolSelect(p.concat(["grab"]), t("grab")),
                      numField(p.concat(["speed_min"]), t("speed_min")), numField(p.concat(["speed_max"]), t("speed_max")),
                      textField(p.concat(["id"]), "id"));
        } else if (c.type === "tokens") line.append(tokensBox(p, k));
        line.append(el("button", { type: "button", class: "mini", title: t("remove") }, "✕"));
        line.lastChild.addEventListener("click", () => { delete getAt(card, path)[k]; if (!Object.keys(getAt(card, path)).length) delAt(card, path); changed(true); });
        if (c) line.title = c.doc;
        box.append(line);
      }
      const add = el("select", { class: "add" });
      add.append(el("option", { value: "", text: "+ " + t("add_condition") }));
      for (const c of vocab.conditions) if (!keys.includes(c.name)) add.append(el("option", { value: c.name, text: c.name, title: c.doc }));
      add.addEventListener("change", () => {
        const c = cond[add.value];
        if (!c) return;
        const blank = { int: 0, bool: true, labels: [vocab.labels[0]], count: { zone: "hand" }, card: {}, tokens: {} }[c.type];
        setAt(card, path.concat([c.name]), blank);
        changed(true);
      });
      box.append(add);
      return box;
    }
    function labelsBox(path, label) {
      const box = el("span", { class: "checks" });
      box.dataset.field = fieldName(path);
      const read = () => Array.isArray(getAt(card, path)) ? getAt(card, path) : [];
      for (const l of vocab.labels) {
        const c = el("input", { type: "checkbox", value: l });
        c.checked = read().includes(l);
        c.addEventListener("change", () => {
          const want = vocab.labels.filter((x) => box.querySelector('input[value="' + x + '"]').checked);
          const have = read();
          if (want.length === have.length && want.every((x) => have.includes(x))) return;
          setAt(card, path, want);
          changed(false);
        });
        box.append(el("label", { class: "check" }, c, l));
      }
      return row(label, box, path);
    }
    function tokensBox(path, label) {
      const box = el("span", { class: "tokens-cond" }, el("span", { class: "flabel", text: label }));
      const cur = getAt(card, path) || {};
      for (const name of Object.keys(cur)) {
        box.append(el("span", { class: "tok", text: name }), numField(path.concat([name, "min"]), "min"), numField(path.concat([name, "max"]), "max"));
      }
      const inp = el("input", { type: "text", class: "num", placeholder: t("token_id") });
      inp.addEventListener("change", () => { if (inp.value) { setAt(card, path.concat([inp.value]), {}); changed(true); } });
      box.append(inp);
      return box;
    }

    // ---------------------------------------------------------------- effect entries
    function entries(path, top, label, addLabel) {
      const list = getAt(card, path);
      const none = !Array.isArray(list) || !list.length;
      const box = el("fieldset", { class: (top ? "effects" : "nested") + (none && !top ? " empty" : "") }, el("legend", { text: label }));
      box.dataset.field = fieldName(path);
      (Array.isArray(list) ? list : []).forEach((e, i) => box.append(entry(path.concat([i]), top, list.length)));
      const add = el("button", { type: "button", class: "add" }, "+ " + t(addLabel || (top ? "add_effect" : "add_then")));
      add.addEventListener("click", () => {
        // a new entry is blank: the user picks what it does and when (never a silent "FP +1 on hit")
        const l = getAt(card, path);
        const fresh = { do: "" };
        if (Array.isArray(l)) l.push(fresh); else setAt(card, path, [fresh]);
        changed(true);
      });
      box.append(add);
      return box;
    }
    function entry(path, top, count) {
      const e = getAt(card, path);
      const box = el("div", { class: "entry" });
      box.dataset.field = fieldName(path);
      if (!e || typeof e !== "object") { box.append(el("span", { class: "warn", text: JSON.stringify(e) })); return box; }
      const p = prim[e.do];
      const head = el("div", { class: "ehead" });
      const doSel = el("select", { class: "do" });
      doSel.dataset.field = fieldName(path.concat(["do"]));
      if (!e.do) doSel.append(el("option", { value: "", text: "— " + t("pick_effect") + " —" }));
      for (const q of vocab.primitives) doSel.append(el("option", { value: q.name, text: q.name + " — " + (opts.lang() === "ko" ? q.ko : q.en) }));
      if (!p && e.do) doSel.append(el("option", { value: str(e.do), text: str(e.do) + " ?" }));
      doSel.value = p ? e.do : str(e.do);
      doSel.addEventListener("change", () => {
        if (doSel.value === e.do) return;
        const q = prim[doSel.value];
        if (!q) return;
        const keep = new Set(["do", "timing", "zone", "number", "optional", "if", "then", "text", "duration"]);
        for (const k of Object.keys(e)) if (!keep.has(k) && !(q.params.some((x) => x.name === k))) delete e[k];
        e.do = doSel.value;
        for (const x of q.params) if (x.required && e[x.name] === undefined) e[x.name] = blankFor(x);
        changed(true);
      });
      head.append(doSel);
      const parent = getAt(card, path.slice(0, -1));
      const i = path[path.length - 1];
      const btn = (label, title, fn) => { const b = el("button", { type: "button", class: "mini", title: title }, label); b.addEventListener("click", fn); return b; };
      if (i > 0) head.append(btn("↑", t("up"), () => { [parent[i - 1], parent[i]] = [parent[i], parent[i - 1]]; changed(true); }));
      if (i < count - 1) head.append(btn("↓", t("down"), () => { [parent[i + 1], parent[i]] = [parent[i], parent[i + 1]]; changed(true); }));
      head.append(btn("✕", t("remove"), () => {
        parent.splice(i, 1);
        if (!parent.length) delAt(card, path.slice(0, -1));
        changed(true);
      }));
      if (p) head.append(el("small", { class: "muted", text: p.guide + " · " + (opts.lang() === "ko" ? p.ko : p.en) }));
      box.append(head);
      const body = el("div", { class: "ebody" });
      if (top) {
        body.append(selectField(path.concat(["timing"]), t("timing"), vocab.timings.map((x) => x.name),
                                (n) => { const x = vocab.timings.find((y) => y.name === n); return opts.lang() === "ko" ? x.ko + " (" + n + ")" : x.en + " (" + n + ")"; },
                                false, t("continuous")));
        const zones = vocab.zones[opts.mode === "character" ? "trait" : card.kind] || [];
        body.append(selectField(path.concat(["zone"]), t("zone"), zones, (z) => { const l = t("zone_" + z); return l === "zone_" + z ? z : l + " (" + z + ")"; }, false, t("default") + " (" + (zones[0] || "") + ")"));
        body.append(numField(path.concat(["number"]), t("number")), checkField(path.concat(["optional"]), t("optional")));
      }
      for (const x of (p ? p.params : [])) body.append(param(path.concat([x.name]), x));
      body.append(textField(path.concat(["text"]), t("entry_text"), true));
      const known = new Set(["do", "if", "then", "text"].concat(top ? ["timing", "zone", "number", "optional"] : []).concat(p ? p.params.map((x) => x.name) : []));
      const other = Object.keys(e).filter((k) => !known.has(k));
      if (other.length) body.append(el("div", { class: "warn" }, t("other_keys") + ": " + other.map((k) => k + "=" + JSON.stringify(e[k])).join(", ")));
      box.append(body, conditions(path.concat(["if"])), entries(path.concat(["then"]), false, t("then")));
      return box;
    }
    function blankFor(x) {
      // what a required parameter starts as: empty where the user must say it (a token's name,
      // the effects of an option), the registry's neutral value where there is one
      return { int: 1, posint: 1, nonneg: 0, bool: true, str: "", card: "this", enum: (x.choices || [])[0], positions: [],
               effects: [{ do: "" }], options: { a: [{ do: "" }], b: [{ do: "" }] }, cond: {} }[x.type];
    }
    function param(path, x) {
      const label = x.name + (x.required ? " *" : "");
      let f;
      if (x.type === "int" || x.type === "posint" || x.type === "nonneg") f = numField(path, label);
      else if (x.type === "bool") f = checkField(path, label);
      else if (x.type === "enum") f = selectField(path, label, x.choices, null, false, x.default != null ? t("default") + ": " + x.default : "—");
      else if (x.type === "positions") f = positionsBox(path, label, () => Array.isArray(getAt(card, path)) ? getAt(card, path) : [], (l) => setAt(card, path, l));
      else if (x.type === "effects") f = entries(path, false, label, "add_effect");
      else if (x.type === "options") f = options(path, label);
      else if (x.type === "cond") f = conditions(path);
      else f = textField(path, label);
      if (x.doc) f.title = x.doc;
      return f;
    }
    function options(path, label) {
      const box = el("fieldset", { class: "options" }, el("legend", { text: label }));
      box.dataset.field = fieldName(path);
      const cur = getAt(card, path) || {};
      for (const name of Object.keys(cur)) {
        const nameIn = el("input", { type: "text", class: "num", value: name });
        nameIn.addEventListener("change", () => {
          const o = getAt(card, path);
          if (!nameIn.value || nameIn.value === name || nameIn.value in o) { nameIn.value = name; return; }
          const rebuilt = {};
          for (const k of Object.keys(o)) rebuilt[k === name ? nameIn.value : k] = o[k];
          setAt(card, path, rebuilt);
          changed(true);
        });
        box.append(el("div", { class: "opt" }, el("span", { class: "flabel", text: t("option") }), nameIn, entries(path.concat([name]), false, name, "add_effect")));
      }
      const add = el("button", { type: "button", class: "add" }, "+ " + t("add_option"));
      add.addEventListener("click", () => { let n = 1; while (("option" + n) in cur) n++; setAt(card, path.concat(["option" + n]), [{ do: "" }]); changed(true); });
      box.append(add);
      return box;
    }

    // a list of whole numbers written "5000, 4000, 3000" (anything else is kept for the linter)
    function intList(path, label) {
      const fmt = (v) => Array.isArray(v) ? v.join(", ") : str(v);
      const parse = (s) => s.trim() === "" ? undefined : s.split(/[\s,]+/).filter(Boolean).map((x) => /^[+-]?\d+$/.test(x) ? parseInt(x, 10) : x);
      return row(label, bind(el("input", { type: "text", class: "wide" }), path, fmt, parse), path);
    }
    function tokens() {
      const box = el("fieldset", { class: "tokens" }, el("legend", { text: t("tokens") }));
      box.dataset.field = "tokens";
      const list = Array.isArray(card.tokens) ? card.tokens : [];
      list.forEach((tk, i) => {
        const p = ["tokens", i];
        const rm = el("button", { type: "button", class: "mini", title: t("remove") }, "✕");
        rm.addEventListener("click", () => { card.tokens.splice(i, 1); if (!card.tokens.length) delete card.tokens; changed(true); });
        const line = el("div", { class: "cond" }, textField(p.concat(["id"]), "id *"), textField(p.concat(["name"]), t("name")),
                        textField(p.concat(["name_en"]), t("name_en")), numField(p.concat(["start"]), t("token_start")),
                        numField(p.concat(["max"]), t("token_max")), rm);
        line.dataset.field = fieldName(p);
        box.append(line);
      });
      const add = el("button", { type: "button", class: "add" }, "+ " + t("add_token"));
      add.addEventListener("click", () => { (card.tokens = card.tokens || []).push({ id: "token" + (list.length + 1), start: 0, max: null }); changed(true); });
      box.append(add);
      return box;
    }
    function renderCharacter() {
      root.append(el("fieldset", { class: "common" }, el("legend", { text: t("character") }),
        textField(["id"], "id *"), textField(["name"], t("name")), textField(["name_en"], t("name_en")), textField(["mark"], t("mark")),
        intList(["health"], t("health_bands") + " *"), intList(["hand_limit"], t("hand_limits") + " *")));
      const tr = el("fieldset", { class: "trait" }, el("legend", { text: t("trait") }),
        textField(["trait", "id"], "id"), textField(["trait", "name"], t("name")), textField(["trait", "name_en"], t("name_en")),
        textArea(typeof getAt(card, ["trait", "text"]) === "string" ? ["trait", "text"] : ["trait", "text", "ko"], "ko"), textArea(["trait", "text", "en"], "en"),
        entries(["trait", "effects"], true, t("effects")));
      tr.dataset.field = "trait";
      root.append(tr, tokens());
    }

    // ---------------------------------------------------------------- the whole card
    function render() {
      root.textContent = "";
      if (opts.mode === "character") { renderCharacter(); return; }
      const kind = card.kind;
      const marks = ["neutral"].concat((opts.marks && opts.marks()) || []);
      const common = el("fieldset", { class: "common" }, el("legend", { text: t("card") }),
        textField(["id"], "id *"), textField(["number"], t("number_printed")), textField(["name"], t("name") + " *"),
        textField(["name_en"], t("name_en")),
        selectField(["kind"], t("kind") + " *", vocab.kinds, (k) => t("kind_" + k), true),
        selectField(["mark"], t("mark"), marks, (m) => m === "neutral" ? t("neutral") : m, false, t("neutral")),
        checkField(["ultimate"], t("ultimate")));
      root.append(common);
      if (kind === "attack") {
        root.append(el("fieldset", { class: "stats" }, el("legend", { text: t("attack") }),
          numField(["speed"], t("speed") + " *"), selectField(["position"], t("position") + " *", vocab.positions, (p) => t("pos_" + p)),
          numField(["damage"], t("damage"))));
        root.append(results(vocab.results.attack));
        root.append(el("fieldset", { class: "special" }, el("legend", { text: t("special_judgments") }),
          judgment(["special", "evade"], t("evade")), judgment(["special", "offset"], t("offset")), checkField(["special", "grab"], t("grab"))));
      } else if (kind === "defense") {
        root.append(el("fieldset", { class: "stats" }, el("legend", { text: t("defense") }),
          judgment(["guard"], t("guard")), judgment(["evade"], t("evade")), judgment(["offset"], t("offset"))));
        root.append(results(vocab.results.defense));
      }
      const printed = el("fieldset", { class: "printed" }, el("legend", { text: t("printed_text") }));
      printed.append(textArea(typeof card.text === "string" ? ["text"] : ["text", "ko"], "ko"), textArea(["text", "en"], "en"));
      root.append(printed);
      root.append(entries(["effects"], true, t("effects")));
    }
    function textArea(path, label) {
      const a = el("textarea", { rows: "2", class: "wide" });
      return row(label, bind(a, path, str, strParse), path);
    }

    function showProblems(problems) {
      for (const n of root.querySelectorAll(".prob")) n.remove();
      for (const n of root.querySelectorAll(".bad")) n.classList.remove("bad");
      const loose = [];
      for (const p of problems) {
        // the field itself, else its nearest enclosing field: effects[0].then[1].amount -> ... -> effects[0] -> effects
        let f = p.field || "", target = null;
        while (f && !(target = root.querySelector('[data-field="' + CSS.escape(f) + '"]'))) {
          const cut = f.replace(/(\[\d+\]|\.[^.[\]]+)$/, "");
          f = cut === f ? "" : cut;
        }
        if (!target) { loose.push(p); continue; }
        const holder = target.closest(".frow, .entry, fieldset, .cond, .rrow") || target;
        holder.classList.add("bad");
        holder.append(el("div", { class: "prob", text: (p.field ? p.field + ": " : "") + ((opts.lang() === "ko" && p.message_ko) || p.message) }));
      }
      return loose;
    }

    // every field written with what it shows: the form must not change the card (the round-trip test)
    function touchAll() {
      for (const n of root.querySelectorAll("input, select, textarea")) {
        if (n.classList.contains("add")) continue;
        n.dispatchEvent(new Event(n.type === "checkbox" ? "change" : "input"));
      }
    }

    render();
    return { render: render, showProblems: showProblems, touchAll: touchAll, card: () => card };
  }

  return { build: build, fieldName: fieldName };
})();

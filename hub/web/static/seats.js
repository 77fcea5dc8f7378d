// Lumen Condenser's two seats (tracker and referee mode) and the tracker's table controls:
// health and its bar with the hand-limit band edges, FP, the hand limit, who has readied (never
// what) and the 10-second countdown, the tokens or the zones, and for the judge the calculator's
// buttons. Each seat is a region redrawn when its part of the state changes (core.js).
// Text marked "sec" is secondary (a card's numbers, a caption): the TV draws it smaller.
"use strict";
(function () {
  const L = window.Lumen, h = L.h, t = L.t;
  const $ = L.$;
  const lumen = (S) => S && S.view !== "profile";

  // a card as a chip: its name, then its numbers (secondary)
  // ``discard``: the seat whose pending discard this chip may be picked for (admin: a tap selects it)
  function cardChip(S, id, discard) {
    if (id === "?") return h("span", { class: "card hidden-card", title: t("hidden_card"), "aria-label": t("hidden_card"), text: "?" });
    const c = (S.cards || {})[id];
    if (!c) return h("span", { class: "card", text: id });
    let sub = t("kind_" + c.kind);
    if (c.kind === "attack") sub = t("pos_" + c.position) + " · " + t("speed") + " " + c.speed + " · " + c.damage;
    return h("span", { class: ["card", "k-" + c.kind, discard && L.selected.has(id) && "selected"], "data-card": id,
      "data-discard": discard || null, role: discard ? "button" : null, tabindex: discard ? "0" : null,
      "aria-pressed": discard ? String(L.selected.has(id)) : null }, h("b", { text: L.nm(c) }), " ", h("small", { class: "sec", text: sub }));
  }
  L.cardChip = cardChip;
  function zone(S, title, ids, count, key, discard) {
    const n = count !== undefined && count !== null ? count : ids.length;
    return h("div", { class: "zone", "data-zone": key },
      h("h3", { class: "sec" }, title, " ", h("small", { text: t("cards_n", { n: n }) })),
      h("div", { class: "chips" }, ids.length ? ids.map((id) => cardChip(S, id, discard)) : h("span", { class: "muted", text: "—" })));
  }

  // who is ready (never what) and the 10-second countdown, as of now; the tick keeps it moving
  function readyNow(S, s) {
    const r = (S.ready || {})[s] || {};
    const inReady = S.phase === "ready" && !S.winner;
    const asked = S.mode === "tracker" ? inReady : (S.pending || []).some((q) => q.player === s && q.kind === "ready");
    const state = r.locked && inReady ? "locked" : asked ? "waiting" : "off";
    const label = state === "locked" ? t("ready_locked") : state === "waiting" ? (S.mode === "tracker" ? t("ready_waiting") : t("ready_choosing")) : "";
    const left = state === "waiting" ? L.readyLeft(s) : null;
    return { state: state, label: label, left: left };
  }
  function readyBox(S, s) {
    const r = readyNow(S, s);
    return h("div", { class: "ready-box", id: "ready-" + s, "data-state": r.state },
      h("span", { class: "ready-state", text: r.label }),
      h("span", { class: ["countdown", r.left !== null && r.left <= 3000 && "urgent"], id: "countdown-" + s,
        text: r.left !== null ? (r.left / 1000).toFixed(1) : "" }),
      h("span", { class: "cdbar", hidden: r.left === null, "aria-hidden": "true" },
        h("i", { style: { width: r.left === null ? "0%" : Math.min(100, r.left / 100) + "%" } })));
  }
  L.tick(() => {
    const S = L.S;
    if (!lumen(S) || !S.seats) return;
    ["a", "b"].forEach((s) => {
      const box = $("#ready-" + s);
      if (!box) return;
      const r = readyNow(S, s);
      L.data(box, "state", r.state);
      L.text($(".ready-state", box), r.label);
      const cd = $("#countdown-" + s), bar = $(".cdbar", box);
      L.text(cd, r.left !== null ? (r.left / 1000).toFixed(1) : "");
      const urgent = r.left !== null && r.left <= 3000;
      if (cd.classList.contains("urgent") !== urgent) cd.classList.toggle("urgent", urgent);
      if (bar.hidden !== (r.left === null)) bar.hidden = r.left === null;
      const w = r.left === null ? "0%" : Math.min(100, r.left / 100) + "%";
      if ($("i", bar).style.width !== w) $("i", bar).style.width = w;
    });
  });

  function hpBar(p) {
    const max = Math.max(p.start_health, p.health, 1);
    return h("div", { class: "hpbar", "data-f": "bar", "aria-hidden": "true" },
      h("div", { class: "fill", style: { width: Math.max(0, Math.min(100, (100 * p.health) / max)) + "%" } }),
      (p.bands || []).slice(1).map((edge) => h("i", { class: "tick", style: { left: (100 * edge) / max + "%" } })));
  }
  function meta(S, p) {
    const handN = p.hand_count;
    return h("div", { class: "meta", "data-f": "meta" },
      h("span", null, t("hand_limit", { n: "" }), h("b", { text: String(p.hand_limit) })),
      h("span", { text: handN === null || handN === undefined ? t("hand_unknown") : t("hand_count", { n: handN }) }),
      (p.over_limit || (typeof handN === "number" && S.mode === "referee" && handN > p.hand_limit)) && h("span", { class: "warn", text: t("over_limit") }),
      p.non_responses ? h("span", { class: "warn", text: t("non_resp", { n: p.non_responses }) }) : null,
      S.mode === "tracker" && p.trait_on ? h("span", { class: "flag", text: t("trait_on") }) : null);
  }
  function tokenRow(S, s, p) {
    return h("div", { class: "tokens", "data-f": "tokens" }, (p.tokens || []).map((tk) => {
      const name = L.lang === "en" ? tk.name_en : tk.name;
      const btn = (d, cls, sign) => L.admin ? h("button", { class: cls, type: "button", "aria-label": name + " " + (d > 0 ? "+1" : "−1"),
        "data-cmd": JSON.stringify({ action: "token", seat: s, name: tk.name, delta: d }) }, sign) : null;
      return h("span", { class: "token" }, btn(-1, "minus", "−"), h("span", { text: name }), " ",
        h("b", { "data-token": tk.name, text: tk.value + "/" + (tk.max === null ? "∞" : tk.max) }), btn(1, "plus", "+"));
    }));
  }
  function trackerExtra(S, p) {
    const out = [];
    if (p.stance) {
      out.push(h("div", null, t("stance") + ": ", h("b", { text: p.stance }),
        (p.active_stances || []).length > 1 ? " (" + p.active_stances.join("·") + ")" : ""));
    }
    if (p.trait) {
      const tn = L.lang === "en" ? p.trait.name_en : p.trait.name;
      const generic = tn === "특성" || tn === "trait";
      out.push(h("div", { class: "trait-note sec", text: t("trait") + (generic ? "" : " " + tn) + ": " + (L.lang === "en" ? p.trait.note_en : p.trait.note_ko) }));
    }
    return h("div", { class: "extra", "data-f": "extra" }, out);
  }
  function zones(S, s, p) {
    const discard = L.admin && (S.pending || []).some((r) => r.kind === "discard" && r.player === s) ? s : null;
    const tokens = (p.tokens || []).map((tk) => (L.lang === "en" ? tk.name_en : tk.name) + " " + tk.value +
      (tk.max === null || tk.max === undefined ? "" : "/" + tk.max)).join(" · ");
    const inline = h("div", { class: "zone-inline" },
      tokens ? h("span", { text: t("tokens") + ": " + tokens }) : null,
      h("span", null, t("zone_ultimate") + ": ", p.ultimate ? cardChip(S, p.ultimate) : "—"),
      h("span", null, t("zone_side") + ": ", h("b", { text: t("cards_n", { n: p.side_deck }) })),
      p.lumen_zone.length ? null : h("span", { text: t("zone_lumen") + ": —" }),
      p.break_zone.length ? null : h("span", { text: t("zone_break") + ": —" }));
    return h("div", { class: "extra zones", "data-f": "extra" },
      zone(S, t("zone_hand"), p.hand, p.hand_count, "hand", discard),
      zone(S, t("zone_battle"), p.battle_zone, undefined, "battle"),
      zone(S, t("zone_list"), p.list, p.list_count, "list"),
      p.lumen_zone.length ? zone(S, t("zone_lumen"), p.lumen_zone, undefined, "lumen") : null,
      p.break_zone.length ? zone(S, t("zone_break"), p.break_zone, undefined, "break") : null,
      inline,
      p.trait ? h("div", { class: "trait-note sec", text: t("trait") + " " + L.nm(p.trait) + ": " + L.tx(p.trait.text) }) : null);
  }

  function drawSeat(s) {
    const S = L.S, el = $("#seat-" + s);
    el.hidden = !lumen(S);                  // another game's profile draws its own seats
    if (!lumen(S)) return;
    if (!S.seats) { L.patch(el, h("div", { class: "seat-head" }, h("span", { class: "badge", text: L.seatLabel(s) }))); el.classList.remove("has-priority"); return; }
    const p = S.seats[s], tracker = S.mode === "tracker", mine = S.priority === s;
    el.classList.toggle("has-priority", mine);
    el.setAttribute("aria-label", L.seatLabel(s) + " " + L.nm(p));
    L.patch(el,
      h("div", { class: "seat-head" }, h("span", { class: "badge", text: L.seatLabel(s) }),
        h("span", { class: "player", "data-f": "player", hidden: !p.player, text: p.player || "" }),
        h("span", { class: "char", "data-f": "name", text: L.nm(p) }),
        h("span", { class: "prio", "data-f": "prio", hidden: !mine, text: t("priority") })),
      h("div", { class: "big-row" },
        h("div", { class: "hp-box" }, h("div", { class: "cap sec", text: t("health") }),
          h("div", { class: "hp" },
            h("span", { class: ["hp-value", p.health <= 0 && "out", p.health > 0 && p.health <= 1000 && "low"], id: "hp-" + s,
              title: String(p.health), text: String(Math.max(0, p.health)) }),     // a KO shows 0 (and KO); the log keeps "-200"
            h("span", { class: "ko", "data-f": "ko", hidden: p.health > 0, text: "KO" }),
            h("span", { class: "hp-max sec", "data-f": "hpmax", text: "/" + p.start_health }))),
        h("div", { class: "fp-box" }, h("div", { class: "cap sec", text: "FP" }),
          h("div", { class: ["fp-value", p.fp > 0 && "pos", p.fp < 0 && "neg", L.admin && tracker && "tap"], id: "fp-" + s,
            role: L.admin && tracker ? "button" : null, tabindex: L.admin && tracker ? "0" : null,
            "aria-label": L.admin && tracker ? "FP " + L.signed(p.fp) + " · " + t("fp_zero") : null,
            "data-cmd": L.admin && tracker ? JSON.stringify({ action: "reset_fp", seat: s }) : null, text: L.signed(p.fp) }))),
      hpBar(p),
      meta(S, p),
      readyBox(S, s),
      tracker ? tokenRow(S, s, p) : null,
      tracker ? trackerExtra(S, p) : zones(S, s, p),
      tracker && L.admin ? LumenAdmin.seatControls(s, p) : null);
  }
  const SEAT_DEPS = ["mode", "game_id", "priority", "cards", "pending", "phase", "turn", "sudden_death", "winner", "view"];
  L.region("seat-a", SEAT_DEPS.concat(["seats.a"]), () => drawSeat("a"), L.isLumen);
  L.region("seat-b", SEAT_DEPS.concat(["seats.b"]), () => drawSeat("b"), L.isLumen);

  // the tracker's table controls (admin): next turn, undo (naming what), both hit, sudden death, reset
  L.region("controls", ["mode", "can_undo", "undo_text", "next_priority", "view"], (S) => {
    const el = $("#table-controls");
    const show = lumen(S) && L.admin && S.mode === "tracker" && !!S.seats;
    el.hidden = !show;
    if (!show) return;
    L.patch(el,
      h("button", { type: "button", id: "next-turn-btn", "data-cmd": '{"action":"next_turn"}', text: t("next_turn") }),
      h("button", { type: "button", id: "undo-btn", class: "undo", "data-cmd": '{"action":"undo"}', disabled: !S.can_undo,
        text: S.can_undo && S.undo_text ? t("undo_what", { what: L.tx(S.undo_text) }) : t("undo") }),
      h("button", { type: "button", id: "both-btn", "data-both": "1", text: t("both_hit") }),
      h("button", { type: "button", "data-sd": "1", text: t("sudden_death_btn") }),
      h("button", { type: "button", "data-reset": "1", text: t("reset") }),
      h("span", { class: "info", "data-f": "np", text: S.next_priority ? t("next_priority", { seat: L.seatLabel(S.next_priority) }) : "" }));
  }, L.isLumen);
})();

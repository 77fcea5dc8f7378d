// The pages' one way to draw (docs/display.md, "One way to draw"): elements are built with DOM
// calls through h() (text is always text: no HTML strings, nothing to escape), a region is
// redrawn by patch() (morphdom keeps every element that is still there, so a button under a
// finger, the focus, a scrolled log and a typed value survive a redraw), and a page lists its
// regions with the parts of the state each one reads: regions.draw(S, touched) redraws only
// those a change touched. Shared by the table display, the card pages and the TD page (and
// meant for any other page: a seat's phone, issue 40). Classic script: window.LumenDraw.
"use strict";
window.LumenDraw = (function () {
  // h("button", {class: "word", "data-cmd": json, disabled: !ok, text: "..."}, child, [children], null)
  //   class: a string or a list (falsy entries left out); text: the text content; style: an
  //   object of properties; a boolean attribute is present when true; null/undefined/false leave
  //   an attribute out; value/checked/selected set the property too (a form field's state).
  function h(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const k in attrs) {
        const v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === "class") e.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
        else if (k === "text") e.textContent = v;
        else if (k === "style" && typeof v === "object") { for (const p in v) e.style.setProperty(p, v[p]); }
        else if (k === "value" || k === "checked" || k === "selected") { e[k] = v; e.setAttribute(k, v === true ? "" : v); }
        else e.setAttribute(k, v === true ? "" : v);
      }
    }
    add(e, kids);
    return e;
  }
  function add(e, kids) {
    for (const kid of kids) {
      if (kid === null || kid === undefined || kid === false || kid === "") continue;
      if (Array.isArray(kid)) add(e, kid);
      else e.append(kid);          // a string becomes a text node
    }
  }

  // A form field the person owns (a typed name, a chosen deck, an image loaded after the draw):
  // data-user marks it; a redraw leaves it as it is unless its data-user value changed (e.g. the
  // options it offers). The field being typed in is never touched.
  function keep(from, to) {
    if (from === document.activeElement && /^(INPUT|SELECT|TEXTAREA)$/.test(from.tagName)) return false;
    if (from.hasAttribute("data-user") && from.getAttribute("data-user") === to.getAttribute("data-user")) return false;
    return !from.isEqualNode(to);
  }
  const OPTIONS = { childrenOnly: true, onBeforeElUpdated: keep,
    getNodeKey: (n) => (n.nodeType === 1 ? n.id || n.getAttribute("data-key") || undefined : undefined) };

  // patch(el, ...kids): el's children become kids (elements, strings, lists), changing only what
  // differs in the live page. el itself (its attributes, hidden) is the caller's.
  function patch(el, ...kids) {
    const next = el.cloneNode(false);
    add(next, kids);
    window.morphdom(el, next, OPTIONS);
    // a select none of whose options is marked selected shows its first, as a new one would
    // (morphdom leaves it at none)
    for (const sel of el.tagName === "SELECT" ? [el] : el.querySelectorAll("select")) {
      if (sel.selectedIndex < 0 && sel.options.length) sel.selectedIndex = 0;
    }
    return el;
  }

  // list(el, items): el's children become ``items`` (elements, each with a data-key), where a
  // list mostly grows at one end (the log, newest first): an item already there is kept and
  // patched in place, a new one inserted, a gone one removed, so a line added costs one insertion
  // (morphdom would move every keyed line after a new first one).
  function list(el, items) {
    const old = new Map();
    for (const c of el.children) old.set(c.getAttribute("data-key"), c);
    const want = new Set(items.map((x) => x.getAttribute("data-key")));
    for (const [k, c] of old) if (!want.has(k)) { c.remove(); old.delete(k); }
    let at = el.firstElementChild;
    for (const item of items) {
      const here = old.get(item.getAttribute("data-key"));
      if (here) {
        if (here !== at) el.insertBefore(here, at);
        else at = at.nextElementSibling;
        if (!here.isEqualNode(item)) window.morphdom(here, item, { onBeforeElUpdated: keep });
      } else el.insertBefore(item, at);
    }
    return el;
  }

  // A page's regions: add(name, deps, fn, when) with deps the state's parts fn reads (top-level
  // keys, "seats.a" for one seat's) and ``when(S)`` whether the region shows at all (another
  // mode's region is left alone); draw(S, touched) calls the fns whose deps a change touched
  // (touched: a Set of parts, or null: everything, as after a language switch, a new game or a
  // whole state: then every region draws, a hidden one hiding itself).
  function regions() {
    const list = [];
    return {
      add(name, deps, fn, when) { list.push({ name: name, deps: deps, fn: fn, when: when }); },
      draw(S, touched) {
        const drawn = [];
        for (const r of list) {
          if (touched && (!r.deps.some((d) => touched.has(d)) || (r.when && !r.when(S)))) continue;
          drawn.push(r.name);
          try { r.fn(S); } catch (e) { console.error("region " + r.name, e); }   // one region never breaks the rest
        }
        return drawn;
      },
      // one region, now (its own data came: the whole log, the recent games)
      drawOne(name, S) {
        for (const r of list) if (r.name === name) { try { r.fn(S); } catch (e) { console.error("region " + name, e); } }
      },
    };
  }

  // What changed between two states a live connection handed over: the parts of the state that
  // are not the same object (live.js shares what a delta left alone), or whose JSON differs
  // (a polled state is all new objects). "seats.a" for a seat; null: no state before.
  function touchedBetween(prev, next) {
    if (!prev) return null;
    const out = new Set();
    const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);
    for (const k of new Set(Object.keys(prev).concat(Object.keys(next)))) {
      if (k === "seats" && prev.seats && next.seats) {
        for (const s of new Set(Object.keys(prev.seats).concat(Object.keys(next.seats)))) {
          if (!same(prev.seats[s], next.seats[s])) { out.add("seats"); out.add("seats." + s); }
        }
      } else if (!same(prev[k], next[k])) out.add(k);
    }
    return out;
  }

  return { h: h, patch: patch, list: list, regions: regions, touchedBetween: touchedBetween };
})();

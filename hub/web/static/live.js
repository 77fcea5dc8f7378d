// The display's live connection: a WebSocket to /ws, and while it is down /api/state polled
// every second, reconnecting with backoff; "offline" once neither answers (issue 12, point 14:
// the page shows a banner and disables its controls, and comes back without a reload).
// The hub sends the whole state once, then only what changed (docs/display.md, "Live
// updates"): this keeps the state, applies each delta to it and hands the page the whole
// state, a new object each time (what did not change is shared; nothing handed out is
// changed afterwards). A delta that does not follow the kept version asks for the whole
// state again: the page never shows a state it did not get whole or by every step.
"use strict";
window.LumenLive = (function () {
  let ws = null, wsOk = false, retry = 500, pollTimer = null, reachable = true, on = null;
  let kept = null, asked = false;      // the state at version kept.v; a full state is on its way
  const changed = () => { if (on) on.changed(); };
  function applyDelta(s, m) {
    const out = Object.assign({}, s, m.set || {}, { v: m.v, cause: m.cause || [] });
    if (m.seats) {
      out.seats = Object.assign({}, s.seats);
      for (const k in m.seats) out.seats[k] = Object.assign({}, s.seats[k], m.seats[k]);
    }
    if (m.log) out.log = s.log.slice(m.log.drop).concat(m.log.add);
    if (m.cards) {
      out.cards = Object.assign({}, s.cards, m.cards.add);
      for (const c of m.cards.drop) delete out.cards[c];
    }
    return out;
  }
  function resync() {
    kept = null;
    if (!asked && ws && wsOk) { asked = true; try { ws.send("state"); } catch (e) { /* reconnects */ } }
  }
  function receive(m) {
    if (m.t === "state") {
      kept = m; asked = false;
      on.state(m);
    } else if (m.t === "delta" || m.t === "clock") {
      if (!kept || m.base !== kept.v) { resync(); return; }      // missed one: whole state again
      if (m.t === "delta") {
        kept = applyDelta(kept, m);
        on.state(kept);
      } else {
        kept = Object.assign({}, kept, { v: m.v, timer: m.timer, ready: m.ready });
        on.clock(m);
      }
    }
  }
  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    try { ws = new WebSocket(url); } catch (e) { reconnectLater(); return; }
    kept = null; asked = false;          // a new connection starts with the whole state
    ws.onopen = () => { wsOk = true; reachable = true; retry = 500; changed(); stopPolling(); };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      receive(m);
    };
    ws.onclose = () => { wsOk = false; kept = null; changed(); startPolling(); reconnectLater(); };
    ws.onerror = () => { try { ws.close(); } catch (e) { /* closed */ } };
  }
  function reconnectLater() { setTimeout(connect, retry); retry = Math.min(retry * 2, 5000); }
  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(async () => {
      if (wsOk) return;
      try {
        const r = await fetch("/api/state", { cache: "no-store" });
        if (r.ok) {
          const d = (await r.json()).display;
          if (typeof d.v === "number") kept = d;     // a control reply's delta applies to it
          reachable = true; on.state(d); changed();
        }
      } catch (e) { reachable = false; changed(); }
    }, 1000);
  }
  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
  // a control reply's change (the stream's own message) while the WebSocket is down: applied
  // when it follows the state kept, else the state is polled now
  async function reply(m) {
    if (wsOk || !m) return;
    if (m.t === "state" || (m.t === "delta" && kept && m.base === kept.v)) { receive(m); return; }
    try {
      const r = await fetch("/api/state", { cache: "no-store" });
      if (r.ok) { const d = (await r.json()).display; if (typeof d.v === "number") kept = d; on.state(d); }
    } catch (e) { /* the poll goes on */ }
  }
  setInterval(() => { if (wsOk && ws) try { ws.send("ping"); } catch (e) { /* reconnects */ } }, 20000);
  return {
    start: (handlers) => { on = handlers; connect(); },
    ok: () => wsOk,
    kept: () => kept,            // the state as applied (tests compare it with the hub's)
    receive: receive,            // a message as if from the hub (tests: a missed delta)
    reply: reply,                // a control reply's change, while the WebSocket is down
    offline: () => !wsOk && !reachable,
    unreachable: () => { if (!wsOk) { reachable = false; changed(); } },
  };
})();

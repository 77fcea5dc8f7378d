// The display's live connection: a WebSocket to /ws, and while it is down /api/state polled
// every second, reconnecting with backoff; "offline" once neither answers (issue 12, point 14:
// the page shows a banner and disables its controls, and comes back without a reload).
"use strict";
window.LumenLive = (function () {
  let ws = null, wsOk = false, retry = 500, pollTimer = null, reachable = true, on = null;
  const changed = () => { if (on) on.changed(); };
  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    try { ws = new WebSocket(url); } catch (e) { reconnectLater(); return; }
    ws.onopen = () => { wsOk = true; reachable = true; retry = 500; changed(); stopPolling(); };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.t === "state") on.state(m);
      else if (m.t === "clock") on.clock(m);
    };
    ws.onclose = () => { wsOk = false; changed(); startPolling(); reconnectLater(); };
    ws.onerror = () => { try { ws.close(); } catch (e) { /* closed */ } };
  }
  function reconnectLater() { setTimeout(connect, retry); retry = Math.min(retry * 2, 5000); }
  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(async () => {
      if (wsOk) return;
      try {
        const r = await fetch("/api/state", { cache: "no-store" });
        if (r.ok) { reachable = true; on.state((await r.json()).display); changed(); }
      } catch (e) { reachable = false; changed(); }
    }, 1000);
  }
  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
  setInterval(() => { if (wsOk && ws) try { ws.send("ping"); } catch (e) { /* reconnects */ } }, 20000);
  return {
    start: (handlers) => { on = handlers; connect(); },
    ok: () => wsOk,
    offline: () => !wsOk && !reachable,
    unreachable: () => { if (!wsOk) { reachable = false; changed(); } },
  };
})();

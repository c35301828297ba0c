// Replays: a journaled game or a script transcript, one step at a time, as the spectator or one seat saw it.
"use strict";

(() => {
  const { el } = ZT;
  let current = null;  // {id, seat, count, step}
  const tok = ZT.token ? "&t=" + encodeURIComponent(ZT.token) : "";

  async function api(url, opts) {
    const r = await fetch(url, opts);
    const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
    return body;
  }

  const STATUS = { finished: ["finie", "finished"], playing: ["en cours", "playing"], abandoned: ["abandonnée", "abandoned"] };

  function chooser(id, seats, label) {
    const row = el("div", { class: "game", "data-replay": id }, el("span", { text: label }));
    row.append(el("button", { class: "link", "data-as": "", onclick: () => open(id, null) }, ZT.say("spectateur", "spectator")));
    for (const s of seats) row.append(el("button", { class: "link", "data-as": s, onclick: () => open(id, s) }, ZT.say(`siège ${s}`, `seat ${s}`)));
    return row;
  }

  async function list() {
    const box = document.getElementById("games");
    try {
      const { games } = await api("/api/games");
      box.innerHTML = "";
      if (!games.length) box.append(el("span", { class: "status", text: ZT.say("aucune partie", "no game") }));
      for (const g of games) {
        const when = new Date(g.started * 1000).toLocaleString(document.documentElement.lang);
        const status = ZT.say(...(STATUS[g.status] || [g.status, g.status]));
        box.append(chooser(String(g.id), g.seats.filter(s => s !== null),
          ZT.say(`n° ${g.id} — ${ZT.t(g.name)} — ${status} — ${g.moves} coups — ${when}`,
            `#${g.id} — ${ZT.t(g.name)} — ${status} — ${g.moves} moves — ${when}`)));
      }
    } catch (e) { box.innerHTML = ""; box.append(el("span", { class: "status", text: e.message })); }
  }

  async function open(id, seat) {
    current = { id, seat, step: 0, count: 0 };
    document.getElementById("choose").hidden = true;
    document.getElementById("player").hidden = false;
    document.getElementById("as").textContent = seat === null ? ZT.say("spectateur", "spectator") : ZT.say(`siège ${seat}`, `seat ${seat}`);
    ZT.buildBoard(document.getElementById("centre"), ["centre.1", "centre.2", "centre.3", "centre.4", "centre.5"]);
    await go(0);
  }

  async function go(step) {
    if (!current) return;
    const seat = current.seat === null ? "" : current.seat;
    try {
      const doc = await api(`/api/replay/${current.id}?step=${step}&seat=${seat}${tok}`);
      current.step = doc.step; current.count = doc.count;
      const slider = document.getElementById("slider");
      slider.max = doc.count - 1; slider.value = doc.step;
      document.getElementById("step").textContent = doc.step;
      document.getElementById("count").textContent = doc.count - 1;
      const p = doc.payload;
      ZTWatch.render(p);
      document.getElementById("effects").textContent = (p.effects || []).join(" · ");
      const canvas = document.getElementById("screen");
      canvas.hidden = !p.screen;
      if (p.screen) ZT.drawScreen(canvas, p.screen);
      document.getElementById("private-box").hidden = !p.private;
      ZT.summary(document.getElementById("private"), p.mine, p.game, { players: false, facts: false });
    } catch (e) { ZT.showError(e.message); }
  }

  document.getElementById("back").onclick = () => go(Math.max(0, current.step - 1));
  document.getElementById("next").onclick = () => go(Math.min(current.count - 1, current.step + 1));
  document.getElementById("slider").oninput = ev => go(Number(ev.target.value));
  document.getElementById("close").onclick = () => {
    current = null;
    document.getElementById("choose").hidden = false;
    document.getElementById("player").hidden = true;
    list();
  };
  document.addEventListener("keydown", ev => {
    if (!current || ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
    if (ev.key === "ArrowLeft") document.getElementById("back").click();
    if (ev.key === "ArrowRight") document.getElementById("next").click();
  });
  document.getElementById("transcript").onchange = async ev => {
    const file = ev.target.files[0];
    if (!file) return;
    try {
      const doc = await api("/api/transcript" + (ZT.token ? "?t=" + encodeURIComponent(ZT.token) : ""),
        { method: "POST", body: await file.text() });
      const box = document.getElementById("games");
      box.prepend(chooser(doc.id, doc.seats, ZT.say(`transcription ${file.name} — ${doc.count} lignes`,
        `transcript ${file.name} — ${doc.count} lines`)));
    } catch (e) { ZT.showError(e.message); }
  };
  ZT.setLang(document.documentElement.lang);  // the server writes the table's language into the page
  list();
})();

// The virtual table: every seat's screen, buttons and pad, the board with its LEDs, trays of pieces.
// Every action is sent to the table as hardware: a mock pin edge or a tag on the virtual reader.
"use strict";

(() => {
  const { el } = ZT;
  let live = null, hello = null, active = 1, selected = null;
  const seatEls = {};

  function seatPanel(seat) {
    const names = hello.buttons[String(seat)] || [];
    const buttons = el("div", { class: "buttons" });
    for (const [name, sign] of [["left", "◀"], ["right", "▶"], ["ok", "OK"]]) {
      if (!names.includes(name)) continue;
      buttons.append(el("button", { "data-seat": seat, "data-button": name, title: `siège ${seat} : ${sign}` }, sign));
    }
    const link = hello.links && hello.links[String(seat)];
    const panel = el("div", { class: "seat", "data-seat": seat },
      el("h3", {}, el("span", { text: `Siège ${seat}` }),
        link ? el("a", { href: link, target: "_blank", title: "la page de ce siège pour un téléphone" }, "téléphone") : null),
      el("canvas", { class: "oled", width: 128, height: 64, "data-seat": seat }),
      buttons,
      ZT.zoneEl(`seat${seat}.pad`, "plateau", "zone pad"),
      el("div", { class: "tray", "data-tray": String(seat), title: "les pièces en main de ce siège" }));
    panel.addEventListener("pointerdown", () => setActive(seat));
    return panel;
  }

  // a phone seat in the game: its screen, its page's three buttons and link; no pad, no tray
  function phonePanel(seat) {
    const buttons = el("div", { class: "buttons" });
    for (const [name, sign] of [["left", "◀"], ["right", "▶"], ["ok", "OK"]]) {
      buttons.append(el("button", { "data-seat": seat, "data-button": name, title: `téléphone ${seat} : ${sign}` }, sign));
    }
    const link = hello.links && hello.links[String(seat)];
    return el("div", { class: "seat phone-seat", "data-seat": seat },
      el("h3", {}, el("span", { text: `Téléphone ${seat}` }),
        link ? el("a", { href: link, target: "_blank", title: "la page de ce téléphone" }, "page") : null),
      el("canvas", { class: "oled", width: 128, height: 64, "data-seat": seat }), buttons);
  }

  function syncPhones(game) {
    const phones = game ? game.phones || [] : [];
    const row = document.getElementById("seats-phones");
    for (const [s, p] of Object.entries(seatEls)) {
      if (p.classList.contains("phone-seat") && !phones.includes(Number(s))) { p.remove(); delete seatEls[s]; }
    }
    for (const s of phones) if (!seatEls[s]) { seatEls[s] = phonePanel(s); row.append(seatEls[s]); }
  }

  function setActive(seat) {
    active = seat;
    for (const [s, p] of Object.entries(seatEls)) p.classList.toggle("active", Number(s) === seat);
  }

  function build(msg) {
    hello = msg;
    const top = document.getElementById("seats-top"), bottom = document.getElementById("seats-bottom");
    top.innerHTML = ""; bottom.innerHTML = "";
    for (const seat of msg.seats) {
      seatEls[seat] = seatPanel(seat);
      (seat <= Math.ceil(msg.seats.length / 2) ? bottom : top).append(seatEls[seat]);
    }
    ZT.buildBoard(document.getElementById("centre"), msg.zones);
    setActive(msg.seats[0]);
    if (ZT.token) document.getElementById("replays").href = "/replay?t=" + encodeURIComponent(ZT.token);
  }

  function fillTray(box, pieces, labels) {
    const key = JSON.stringify(pieces);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.innerHTML = "";
    for (const p of pieces) box.append(ZT.pieceEl(p, labels, { from: "tray" }));
  }

  function update(state) {
    const game = state.game;
    document.getElementById("game").textContent = game ? ZT.t(game.name) : (state.app === "test" ? "test de la table" : "menu");
    document.getElementById("moves").textContent = game ? game.moves : 0;
    document.getElementById("reader").textContent = state.reader;
    const out = document.getElementById("outcome");
    out.textContent = game && game.outcome ? `Fin — scores ${game.outcome.scores.join(" / ")}` : "";
    out.className = game && game.outcome ? "status outcome" : "status";
    syncPhones(game);
    for (const [seat, screen] of Object.entries(state.screens || {})) {
      const c = document.querySelector(`canvas.oled[data-seat="${seat}"]`);
      if (c && screen && c.dataset.bits !== screen.bits) ZT.drawScreen(c, screen);
    }
    const toAct = new Set(game ? game.to_act : []);
    for (const [s, p] of Object.entries(seatEls)) p.classList.toggle("turn", toAct.has(Number(s)));
    ZT.fillZones(document.body, state.zones || {}, state.labels);
    ZT.lightZones(document.body, state.leds);
    const trays = state.trays || { seats: {}, box: {} };
    for (const seat of hello.seats) {
      const box = document.querySelector(`.tray[data-tray="${seat}"]`);
      if (box) fillTray(box, trays.seats[String(seat)] || [], state.labels);
    }
    const boxEl = document.getElementById("box");
    const key = JSON.stringify(trays.box);
    if (boxEl.dataset.key !== key) {
      boxEl.dataset.key = key;
      boxEl.innerHTML = "";
      for (const [set, pieces] of Object.entries(trays.box || {})) {
        const d = el("details", { open: Object.keys(trays.box).length < 3 || null },
          el("summary", { text: `${(state.sets || {})[set] || set || "pièces"} (${pieces.length})` }));
        const inner = el("div", { class: "box", "data-tray": "box" });
        for (const p of pieces) inner.append(ZT.pieceEl(p, state.labels, { from: "tray" }));
        d.append(inner);
        boxEl.append(d);
      }
    }
  }

  // -- hands: pieces ----------------------------------------------------------------------------
  function move(piece, from, to) {
    if (from === to) return;
    if (from && from !== "tray") live.send({ do: "remove", zone: from, piece });
    if (to) live.send({ do: "place", zone: to, piece });
  }

  document.addEventListener("dragstart", ev => {
    const p = ev.target.closest && ev.target.closest(".piece");
    if (!p) return;
    ev.dataTransfer.setData("text/plain", JSON.stringify({ piece: p.dataset.piece, from: p.dataset.from }));
    ev.dataTransfer.effectAllowed = "move";
  });
  function target(ev) { return ev.target.closest && ev.target.closest("[data-zone], [data-tray]"); }
  document.addEventListener("dragover", ev => { const z = target(ev); if (z) { ev.preventDefault(); z.classList.add("drop"); } });
  document.addEventListener("dragleave", ev => { const z = target(ev); if (z) z.classList.remove("drop"); });
  document.addEventListener("drop", ev => {
    const z = target(ev);
    if (!z) return;
    ev.preventDefault();
    z.classList.remove("drop");
    let data;
    try { data = JSON.parse(ev.dataTransfer.getData("text/plain")); } catch (e) { return; }
    move(data.piece, data.from, z.dataset.zone || null);
  });
  // click a piece, then a zone (or a tray to lift it): for touch screens and keyboards
  document.addEventListener("click", ev => {
    const p = ev.target.closest && ev.target.closest(".piece");
    if (p) {
      if (selected) selected.classList.remove("selected");
      selected = selected === p ? null : p;
      if (selected) selected.classList.add("selected");
      ev.stopPropagation();
      return;
    }
    const z = target(ev);
    if (z && selected) {
      move(selected.dataset.piece, selected.dataset.from, z.dataset.zone || null);
      selected.classList.remove("selected");
      selected = null;
    }
  });
  document.addEventListener("dblclick", ev => {
    const p = ev.target.closest && ev.target.closest(".piece");
    if (p && p.dataset.from && p.dataset.from !== "tray") move(p.dataset.piece, p.dataset.from, null);
  });

  // -- hands: buttons (down and up, so a long press is a long press) ---------------------------
  const down = new Set();
  function press(seat, button, isDown) {
    const key = seat + ":" + button;
    if (isDown === down.has(key)) return;
    (isDown ? down.add(key) : down.delete(key));
    const b = document.querySelector(`button[data-seat="${seat}"][data-button="${button}"]`);
    if (b) b.classList.toggle("down", isDown);
    live.send({ do: "button", seat: Number(seat), button, down: isDown });
  }
  document.addEventListener("pointerdown", ev => {
    const b = ev.target.closest && ev.target.closest("button[data-button]");
    if (b) { ev.preventDefault(); b.setPointerCapture && b.setPointerCapture(ev.pointerId); press(b.dataset.seat, b.dataset.button, true); }
  });
  for (const type of ["pointerup", "pointercancel"]) {
    document.addEventListener(type, ev => {
      const b = ev.target.closest && ev.target.closest("button[data-button]");
      if (b) press(b.dataset.seat, b.dataset.button, false);
      else for (const key of [...down]) { const [s, n] = key.split(":"); press(s, n, false); }
    });
  }
  const KEYS = { ArrowLeft: "left", ArrowRight: "right", Enter: "ok", " ": "ok" };
  document.addEventListener("keydown", ev => {
    if (ev.target.tagName === "INPUT") return;
    if (/^[1-8]$/.test(ev.key) && seatEls[Number(ev.key)]) { setActive(Number(ev.key)); return; }
    const button = KEYS[ev.key];
    if (button) { ev.preventDefault(); if (!ev.repeat) press(active, button, true); }
  });
  document.addEventListener("keyup", ev => { const button = KEYS[ev.key]; if (button) press(active, button, false); });

  live = ZT.connect("table", null, { hello: build, update });
  window.zt = { get state() { return live.state; } };
})();

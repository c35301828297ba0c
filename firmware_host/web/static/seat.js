// A phone as one seat's screen: its picture, its three buttons, and in the simulator its pad and hands.
"use strict";

(() => {
  const { el } = ZT;
  const seat = Number(location.pathname.split("/").pop());
  let live = null, selected = null;
  const down = new Set();
  document.getElementById("title").textContent = `Siège ${seat}`;

  function press(button, isDown) {
    if (isDown === down.has(button)) return;
    (isDown ? down.add(button) : down.delete(button));
    const b = document.querySelector(`button[data-button="${button}"]`);
    if (b) b.classList.toggle("down", isDown);
    live.send({ do: "button", seat, button, down: isDown });
  }

  function hello(msg) {
    const box = document.getElementById("buttons");
    box.innerHTML = "";
    const names = msg.buttons[String(seat)] || [];
    for (const [name, sign] of [["left", "◀"], ["right", "▶"], ["ok", "OK"]]) {
      if (!names.includes(name)) continue;
      const b = el("button", { "data-button": name }, sign);
      b.addEventListener("pointerdown", ev => { ev.preventDefault(); b.setPointerCapture && b.setPointerCapture(ev.pointerId); press(name, true); });
      for (const type of ["pointerup", "pointercancel"]) b.addEventListener(type, () => press(name, false));
      box.append(b);
    }
    document.getElementById("hands").hidden = !msg.sim;
    document.getElementById("pad").dataset.zone = `seat${seat}.pad`;
  }

  function update(state) {
    if (state.screen) ZT.drawScreen(document.getElementById("screen"), state.screen);
    const game = state.game;
    document.getElementById("game").textContent = game ? ZT.t(game.name) : "menu";
    document.getElementById("turn").textContent = game && game.to_act.includes(seat) ? "● à vous" : "";
    const pad = document.getElementById("pad");
    ZT.fillZones(pad.parentElement, { [`seat${seat}.pad`]: state.pad || [] }, state.labels);
    ZT.lightZones(pad.parentElement, state.leds);
    const tray = document.getElementById("tray");
    const key = JSON.stringify(state.tray || []);
    if (tray.dataset.key !== key) {
      tray.dataset.key = key;
      tray.innerHTML = "";
      for (const p of state.tray || []) tray.append(ZT.pieceEl(p, state.labels, { from: "tray" }));
    }
    ZT.facts(document.getElementById("facts"), state.private, state.labels);
  }

  function move(piece, from, to) {
    if (from === to) return;
    if (from && from !== "tray") live.send({ do: "remove", zone: from, piece });
    if (to) live.send({ do: "place", zone: to, piece });
  }
  document.addEventListener("click", ev => {
    const p = ev.target.closest(".piece");
    if (p) {
      if (selected) selected.classList.remove("selected");
      selected = selected === p ? null : p;
      if (selected) selected.classList.add("selected");
      ev.stopPropagation();
      return;
    }
    const z = ev.target.closest("[data-zone], [data-tray]");
    if (z && selected) {
      move(selected.dataset.piece, selected.dataset.from, z.dataset.zone || null);
      selected.classList.remove("selected");
      selected = null;
    }
  });
  document.addEventListener("dragstart", ev => {
    const p = ev.target.closest(".piece");
    if (p) ev.dataTransfer.setData("text/plain", JSON.stringify({ piece: p.dataset.piece, from: p.dataset.from }));
  });
  document.addEventListener("dragover", ev => { if (ev.target.closest("[data-zone], [data-tray]")) ev.preventDefault(); });
  document.addEventListener("drop", ev => {
    const z = ev.target.closest("[data-zone], [data-tray]");
    if (!z) return;
    ev.preventDefault();
    try { const d = JSON.parse(ev.dataTransfer.getData("text/plain")); move(d.piece, d.from, z.dataset.zone || null); } catch (e) { /* not ours */ }
  });
  const KEYS = { ArrowLeft: "left", ArrowRight: "right", Enter: "ok", " ": "ok" };
  document.addEventListener("keydown", ev => { const b = KEYS[ev.key]; if (b) { ev.preventDefault(); if (!ev.repeat) press(b, true); } });
  document.addEventListener("keyup", ev => { const b = KEYS[ev.key]; if (b) press(b, false); });

  live = ZT.connect("seat", seat, { hello, update });
  window.zt = { get state() { return live.state; } };
})();

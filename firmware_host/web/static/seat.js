// A phone as one seat's screen: what to do now, the seat's menu as big buttons (each pressing the
// seat's own buttons until its entry is chosen, as a person at the OLED would), its cards and
// score, the OLED picture on demand, its three buttons, and in the simulator its pad and hands.
"use strict";

(() => {
  const { el } = ZT;
  const seat = Number(location.pathname.split("/").pop());
  let live = null, selected = null, names = [], choosing = false;
  let refused = null;  // the table's count of this page's OKs that chose nothing, as last read
  // a ◀ ▶ sent that this page's frame does not show yet: its OK is then pressed blind, as a quick
  // hand presses the table's own buttons, and says nothing it could not have seen
  let blind = false, shownKey = null;
  const down = new Set();
  const ARROWS = { left: "◀", right: "▶", ok: "OK" };

  // the page's own ◀ ▶ OK buttons and keys: held as long as the finger or the key is; OK's
  // release says what it means on the frame this page shows (see tap)
  function press(button, isDown) {
    if (isDown === down.has(button)) return;
    (isDown ? down.add(button) : down.delete(button));
    const b = document.querySelector(`button[data-button="${button}"]`);
    if (b) b.classList.toggle("down", isDown);
    if (isDown && button !== "ok") blind = true;
    live.send({ do: "button", seat, button, down: isDown, ...(button === "ok" && !isDown ? meant() : {}) });
  }

  // what an OK means on this page's frame: the entry under its cursor, the way back to the menu
  // from an extra page, or (no menu: a message to clear) nothing to check
  function meant() {
    if (blind) return {};
    const f = live.state.frame;
    if (f && f.page) return { back: true };
    const label = f && f.menu ? f.menu[f.cursor] : undefined;
    // a label the table would refuse to read (its bound: 200 characters) is not said
    return typeof label === "string" && label.length > 0 && label.length <= 200 ? { expect: label } : {};
  }

  // a menu entry's press and release in one message: however busy the table's web loop is
  // between two messages, a choice is never taken for a long press. An OK says what it means
  // (this page's frame can be one frame late): expect, the entry to choose (nothing chosen if the
  // table's cursor is no longer on an entry reading so); back, leaving an extra page for the
  // menu (nothing chosen if the table shows its menu already)
  function tap(button, means) {
    if (down.has(button)) return;  // held on its own button: that release ends the press
    const b = document.querySelector(`button[data-button="${button}"]`);
    if (b) { b.classList.add("down"); setTimeout(() => b.classList.remove("down"), 120); }
    if (button !== "ok") blind = true;
    live.send({ do: "button", seat, button, tap: true, ...means });
  }

  const sleep = ms => new Promise(r => setTimeout(r, ms));

  // waits until the seat's cursor, page or menu moved: a countdown's bar or a message ending also
  // changes the frame, and must not be taken for the press's answer
  async function cursorMoved(before, ms) {
    const key = f => JSON.stringify(f ? [f.cursor, f.page, f.menu] : null);
    for (let waited = 0; waited < ms; waited += 25) {
      if (key(live.state.frame) !== before) return true;
      await sleep(25);
    }
    return false;
  }

  // Menu entry i: ◀ ▶ until the cursor is on it, then OK, each press checked on the seat's frame.
  async function choose(i, label) {
    if (choosing) return;
    choosing = true;
    try {
      for (let n = 0; n < 60; n++) {
        const f = live.state.frame;
        if (!f || !f.menu || f.menu[i] !== label) {
          ZT.showError(ZT.say("Le menu a changé : choisissez à nouveau.", "The menu changed: choose again."));
          return;
        }
        let b = f.page || f.cursor === i ? "ok" : i > f.cursor ? "right" : "left";
        if (!names.includes(b)) b = "right";  // no ◀ on this seat: go round
        const before = JSON.stringify([f.cursor, f.page, f.menu]);
        const chosen = b === "ok" && !f.page;
        tap(b, chosen ? { expect: label } : b === "ok" ? { back: true } : {});
        if (chosen) return;
        const moved = await cursorMoved(before, 5000);
        if (!moved) { ZT.showError(ZT.say("La table ne répond pas.", "The table does not answer.")); return; }
      }
    } finally { choosing = false; }
  }

  function menu(frame) {
    const box = document.getElementById("menu");
    const entries = frame && frame.menu ? frame.menu : [];
    const key = JSON.stringify([entries, frame && frame.cursor]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.innerHTML = "";
    entries.forEach((label, i) => {
      box.append(el("button", { class: "choice" + (i === frame.cursor ? " cursor" : ""), "data-entry": i,
        "aria-current": i === frame.cursor ? "true" : null, onclick: () => choose(i, label) }, label));
    });
  }

  function hello(msg) {
    refused = null;  // a new connection: only the refusals after it are news
    ZT.setLang(msg.lang);
    document.getElementById("title").textContent = msg.phone ? ZT.say(`Téléphone ${seat}`, `Phone ${seat}`)
      : ZT.say(`Siège ${seat}`, `Seat ${seat}`);
    const box = document.getElementById("buttons");
    box.innerHTML = "";
    names = msg.buttons[String(seat)] || [];
    for (const [name, sign] of Object.entries(ARROWS)) {
      if (!names.includes(name)) continue;
      const b = el("button", { "data-button": name, "aria-label": ZT.say(`bouton ${sign} du siège`, `seat's ${sign} button`) }, sign);
      b.addEventListener("pointerdown", ev => { ev.preventDefault(); b.setPointerCapture && b.setPointerCapture(ev.pointerId); press(name, true); });
      for (const type of ["pointerup", "pointercancel"]) b.addEventListener(type, () => press(name, false));
      box.append(b);
    }
    document.getElementById("hands").hidden = !msg.sim || msg.phone;  // a phone seat has no pad: its menu lays its cards
    document.getElementById("pad").dataset.zone = `seat${seat}.pad`;
  }

  function update(state) {
    // an OK sent on a frame the table's menu had already left chose nothing: say so, as the
    // page says it when it sees the change itself
    const n = state.refused || 0;
    if (refused !== null && n > refused) {
      ZT.showError(ZT.say("La table n'a rien choisi : le menu avait changé. Choisissez à nouveau.",
        "The table chose nothing: the menu had changed. Choose again."));
    }
    refused = n;
    const seen = JSON.stringify(state.frame ? [state.frame.cursor, state.frame.page, state.frame.menu] : null);
    if (seen !== shownKey) { shownKey = seen; blind = false; }
    if (state.screen) ZT.drawScreen(document.getElementById("screen"), state.screen);
    const game = state.game, frame = state.frame;
    document.getElementById("game").textContent = game ? ZT.t(game.name) : "menu";
    const doing = frame ? (frame.banner || frame.status || frame.title) : "";
    const turn = game ? ZT.turnLine(game, seat) : "";
    const now = document.getElementById("now");
    now.textContent = [turn, doing].filter(Boolean).join(" — ");
    now.classList.toggle("mine", !!(game && game.to_act.includes(seat) && !game.outcome));
    document.getElementById("todo").textContent = frame ? frame.lines.filter(Boolean).join(" · ") : "";
    document.getElementById("big").textContent = frame && frame.big ? frame.big : "";
    const mine = state.mine;
    const scores = game && game.outcome ? game.outcome.scores : null;
    const gseat = game ? game.seats.indexOf(seat) : -1;
    document.getElementById("score").textContent = scores && gseat >= 0 ? `${scores[gseat]} pts` : (mine && mine.score) || "";
    menu(frame);
    ZT.summary(document.getElementById("mine"), mine ? { ...mine, players: [], facts: [] } : null, game);
    ZT.summary(document.getElementById("summary"), game ? game.summary : null, game);
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
  // Enter and Space are the seat's OK unless a control has the focus (it gets them, as it should)
  const ours = ev => KEYS[ev.key] && (ev.key.startsWith("Arrow") || !ev.target.closest("button, a, summary, input"));
  document.addEventListener("keydown", ev => { if (ours(ev)) { ev.preventDefault(); if (!ev.repeat) press(KEYS[ev.key], true); } });
  document.addEventListener("keyup", ev => { if (ours(ev)) press(KEYS[ev.key], false); });

  live = ZT.connect("seat", seat, { hello, update });
  window.zt = { get state() { return live.state; } };
})();

// Shared by every page of the table: the live channel, OLED pictures, the board, pieces, the public view.
"use strict";

const ZT = (() => {
  const query = new URLSearchParams(location.search);
  const token = query.get("t") || "";
  // the virtual table's key, written into its page by the server; another site's page cannot read it
  const key = document.querySelector('meta[name="zt-key"]')?.content || "";
  const LED = { red: "#ff3b30", green: "#34c759", blue: "#0a84ff", yellow: "#ffcc00", white: "#ffffff",
    orange: "#ff7a00", purple: "#a020f0", cyan: "#00c8ff" };
  const COLS = "ABCDEF";
  const HUES = { white: 48, green: 120, light: 55, dark: 265, resources: 30, partners: 330, covers: 200,
    objectives: 0, nationality: 210, identification: 150, passport: 280, documents: 90 };

  function el(tag, attrs = {}, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
    return e;
  }

  // the table's language (from the server's hello): the pages' own words follow it
  function say(fr, en) { return document.documentElement.lang === "en" ? en : fr; }
  // the page's own words: French in the HTML, English in each element's data-en
  function setLang(lang) {
    if (lang !== "fr" && lang !== "en") return;
    document.documentElement.lang = lang;
    for (const e of document.querySelectorAll("[data-en]")) {
      if (!("fr" in e.dataset)) e.dataset.fr = e.textContent;
      e.textContent = lang === "en" ? e.dataset.en : e.dataset.fr;
    }
    // a screen reader's names and the tooltips too: data-en-label, data-en-title
    for (const [attr, key] of [["aria-label", "enLabel"], ["title", "enTitle"]]) {
      for (const e of document.querySelectorAll(`[data-${key === "enLabel" ? "en-label" : "en-title"}]`)) {
        const fr = "fr" + key.slice(2);
        if (!(fr in e.dataset)) e.dataset[fr] = e.getAttribute(attr) || "";
        e.setAttribute(attr, lang === "en" ? e.dataset[key] : e.dataset[fr]);
      }
    }
  }

  function t(text) { return text && typeof text === "object" ? (text[document.documentElement.lang] || text.fr) : text; }

  // A 1-bit picture: rows packed 8 pixels a byte, most significant bit first, 1 = lit.
  function drawScreen(canvas, screen) {
    if (!screen) return;
    const bytes = Uint8Array.from(atob(screen.bits), c => c.charCodeAt(0));
    if (canvas.width !== screen.w || canvas.height !== screen.h) { canvas.width = screen.w; canvas.height = screen.h; }
    const ctx = canvas.getContext("2d");
    const img = ctx.createImageData(screen.w, screen.h);
    const stride = Math.ceil(screen.w / 8);
    for (let y = 0; y < screen.h; y++) {
      for (let x = 0; x < screen.w; x++) {
        const on = (bytes[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1;
        const i = (y * screen.w + x) * 4;
        img.data[i] = on ? 191 : 5; img.data[i + 1] = on ? 232 : 8; img.data[i + 2] = on ? 255 : 10; img.data[i + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
    canvas.dataset.bits = screen.bits;
  }

  function setOf(piece) { const p = piece.split("/"); return p.length > 2 ? p[1] : ""; }
  function hue(set) {
    if (set in HUES) return HUES[set];
    let h = 0; for (const c of set) h = (h * 31 + c.charCodeAt(0)) % 360; return h;
  }
  function short(piece) { const p = piece.split("/"); return p.length > 2 ? p.slice(2).join(" ") : piece; }

  // a piece's name on the table without its article ("le zèbre blanc 2" -> "zèbre blanc 2")
  function named(piece, labels) {
    const label = labels && labels[piece];
    return label ? label.replace(/^(le |la |les |l'|l’|the )/i, "") : short(piece);
  }

  // One icon per animal and card kind, drawn in a 24×24 box: paths (strings) and circles [cx, cy, r].
  const ICONS = {
    zebra: [[12, 12, 8], "M8 6l3 5M12 4l2 7M16 6l-1 5M6 14l5-1M13 14l5 1M9 19l3-3 3 3"],
    gazelle: ["M9 3c-2 4 0 6 2 8M15 3c2 4 0 6-2 8M8 12h8l-2 8h-4z"],
    crocodile: ["M2 9h14l6 3-6 3H2zM4 9l2 3 2-3 2 3 2-3 2 3"],
    elephant: ["M5 10a7 6 0 0 1 14 0v3h-3v6h-3v-5h-2v5H8v-6H5zM19 12c2 2 2 5 0 7"],
    lion: [[12, 12, 4], "M12 2v4M12 18v4M2 12h4M18 12h4M5 5l3 3M16 16l3 3M5 19l3-3M16 8l3-3"],
    attack: ["M4 20l4-4M5 14l5 5M8 16L19 5V3h-2L6 14"],
    defence: ["M12 3l8 3v6c0 5-4 8-8 9-4-1-8-4-8-9V6z"],
    special: ["M12 3l2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.6l-5.4 2.9 1.2-6-4.5-4.2 6.1-.7z"],
    documents: ["M6 3h9l4 4v14H6zM15 3v4h4M9 11h7M9 14h7M9 17h5"],
    magnetophones: ["M3 6h18v12H3zM7 15h10", [8, 11, 2], [16, 11, 2]],
    photographies: ["M3 8h4l2-3h6l2 3h4v11H3z", [12, 13, 3.5]],
    poisons: ["M10 3h4M11 3v5l-5 7a4 4 0 0 0 3 6h6a4 4 0 0 0 3-6l-5-7V3M8 15h8"],
    pistolets: ["M3 8h17v4H10l-1 7H5l1-7H3zM11 12v2"],
    gants: ["M7 21v-9L5 8l2-1 2 3V4h2v6V3h2v7V4h2v7l1-3h2l-1 6-2 7z"],
    mallettes: ["M3 8h18v11H3zM9 8V5h6v3M3 13h18"],
    manteaux: ["M8 3h8l4 5-2 13H6L4 8zM12 8v13M8 3l4 5 4-5"],
    deguisements: ["M3 9c3-2 15-2 18 0 0 5-3 7-5 7-2 0-3-2-4-2s-2 2-4 2c-2 0-5-2-5-7zM7 11h3M14 11h3"],
    "double-agent": ["M2 20c1-4 3-6 6-6s5 2 6 6M10 20c1-4 3-6 6-6s5 2 6 6", [8, 9, 3], [16, 9, 3]],
    hitman: [[12, 12, 7], "M12 2v6M12 16v6M2 12h6M16 12h6"],
    "mata-hari": ["M2 12c3-5 17-5 20 0-3 5-17 5-20 0z", [12, 12, 2.5]],
    cover: ["M5 3h14v18H5zM5 3l14 18M19 3L5 21"],
    objective: [[12, 12, 9], [12, 12, 5], [12, 12, 1]],
    nationality: ["M5 21V3M5 4h13l-3 4 3 4H5"],
    passport: ["M5 3h13v18H5zM8 17h7", [11.5, 10, 3]],
    identification: ["M4 6h16v13H4zM6 17c1-2 5-2 6 0M14 10h4M14 14h4M10 6V3h4v3", [9, 11, 2]],
  };

  // the icon a piece is drawn with: its animal, its card's kind (Mata Hari: its resource)
  function iconKind(piece) {
    const [game, set, kind] = piece.split("/");
    if (game === "droles-de-zebres" || game === "zop") return kind;
    if (game === "mata-hari") return set === "resources" ? (kind || "").replace(/-\d+$/, "") : set === "partners" ? kind
      : set === "objectives" ? "objective" : "cover";
    return set;
  }

  function icon(piece) {
    const shapes = ICONS[iconKind(piece)];
    if (!shapes) return null;
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true", fill: "none",
      stroke: "currentColor", "stroke-width": "1.8", "stroke-linecap": "round", "stroke-linejoin": "round",
      "data-icon": iconKind(piece) })) svg.setAttribute(k, v);
    for (const s of shapes) {
      const shape = document.createElementNS(NS, typeof s === "string" ? "path" : "circle");
      if (typeof s === "string") shape.setAttribute("d", s);
      else { shape.setAttribute("cx", s[0]); shape.setAttribute("cy", s[1]); shape.setAttribute("r", s[2]); }
      svg.append(shape);
    }
    return svg;
  }

  // A piece as the page shows it: its icon and its name in the table's language, on a chip that can
  // be dragged, or (a board's animal, seen from the stands) a round token in its player's colour.
  function pieceEl(piece, labels, opts = {}) {
    const name = named(piece, labels);
    if (opts.static && piece.startsWith("droles-de-zebres/")) {
      const e = el("span", { class: "piece static token", "data-piece": piece, "data-set": setOf(piece),
        role: "img", "aria-label": name, title: name }, icon(piece) || name.charAt(0).toUpperCase());
      return e;
    }
    const e = el("span", { class: "piece" + (opts.static ? " static" : ""), "data-piece": piece,
      title: (labels && labels[piece]) || piece, draggable: opts.static ? null : "true" }, icon(piece),
      el("span", { class: "label", text: name }));
    e.style.setProperty("--hue", hue(setOf(piece)));
    if (opts.from) e.dataset.from = opts.from;
    return e;
  }

  // The board's 30 squares (A1 top-left seen from seat 1) and the centre slots present on this table.
  function buildBoard(container, zones) {
    container.innerHTML = "";
    const board = el("div", { class: "board" });
    board.append(el("div"));
    for (const c of COLS) board.append(el("div", { class: "label col", text: c }));
    for (let r = 1; r <= 5; r++) {
      board.append(el("div", { class: "label", text: String(r) }));
      for (const c of COLS) board.append(zoneEl(c + r, c + r));
    }
    container.append(board);
    const slots = zones.filter(z => z.startsWith("centre.")).sort();
    if (slots.length) {
      const box = el("div", {}, el("div", { class: "slots-title", text: "Centre" }));
      const row = el("div", { class: "slots" });
      for (const z of slots) row.append(zoneEl(z, z.replace("centre.", "centre ")));
      box.append(row);
      container.append(box);
    }
  }

  function zoneEl(zone, name, cls = "zone") {
    return el("div", { class: cls, "data-zone": zone }, el("span", { class: "name", text: name }));
  }

  // Fill zones with pieces; only zones whose content changed are touched (a drag in progress survives).
  function fillZones(root, content, labels, opts = {}) {
    for (const z of root.querySelectorAll("[data-zone]")) {
      const pieces = content[z.dataset.zone] || [];
      const key = JSON.stringify(pieces);
      if (z.dataset.key === key) continue;
      z.dataset.key = key;
      for (const p of z.querySelectorAll(".piece")) p.remove();
      for (const p of pieces) z.append(pieceEl(typeof p === "string" ? p : p.piece, labels,
        { from: z.dataset.zone, static: opts.static }));
    }
  }

  function lightZones(root, leds) {
    for (const z of root.querySelectorAll("[data-zone]")) {
      const c = leds && leds[z.dataset.zone];
      if (c) { z.dataset.led = c; z.style.setProperty("--led", LED[c] || "#fff"); }
      else { delete z.dataset.led; z.style.removeProperty("--led"); }
    }
  }

  // What the public view says lies on the board and the centre slots (games that place pieces there).
  function publicZones(game) {
    const out = {};
    const pub = game && game.public;
    if (!pub) return out;
    if (Array.isArray(pub.squares)) for (const s of pub.squares) if (s && s.square && s.piece) out[s.square] = [s.piece];
    if (Array.isArray(pub.centre)) pub.centre.forEach((p, i) => { if (typeof p === "string") out["centre." + (i + 1)] = [p]; });
    return out;
  }

  // "siège 3", or "téléphone 9" for a seat played on a phone
  function seatName(game, seat) {
    return game && (game.phones || []).includes(seat) ? say(`téléphone ${seat}`, `phone ${seat}`) : say(`siège ${seat}`, `seat ${seat}`);
  }

  // "J1 (siège 3)": a game seat as the pages name it
  function player(game, gseat) {
    const seat = game && game.seats ? game.seats[gseat] : null;
    return say("J", "P") + (gseat + 1) + (seat === null || seat === undefined ? "" : ` (${seatName(game, seat)})`);
  }

  // one line: who is to play (or the end and its winners)
  function turnLine(game, mySeat) {
    if (!game) return "";
    const out = game.outcome;
    if (out) {
      const won = out.winners.map(w => player(game, w)).join(", ");
      return say("Partie finie", "Game over") + (won ? say(` — gagnant : ${won}`, ` — winner: ${won}`) : "");
    }
    const who = game.to_act || [];
    if (mySeat !== undefined && mySeat !== null && who.includes(mySeat)) return say("À vous de jouer", "Your turn");
    const names = who.map(s => player(game, game.seats.indexOf(s)));
    return names.length ? say("À jouer : ", "To play: ") + names.join(", ") : say("La table joue…", "The table is playing…");
  }

  // A readable summary (built by the server from the page's own view): players, facts, cards.
  function summary(box, sum, game, opts = {}) {
    const key = JSON.stringify([sum, game && game.to_act, game && game.outcome, opts.players]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.innerHTML = "";
    if (!sum) return;
    if (opts.players !== false && sum.players.length) {
      const list = el("ul", { class: "players", "aria-label": say("Joueurs", "Players") });
      const scores = game && game.outcome ? game.outcome.scores : null;
      sum.players.forEach((p, i) => {
        const turn = game && p.seat !== null && game.to_act.includes(p.seat) && !game.outcome;
        const li = el("li", { class: "player" + (turn ? " turn" : ""), "data-seat": p.seat ?? "" },
          el("b", { text: p.who }),
          p.seat === null ? null : el("span", { class: "seatno", text: " " + seatName(game, p.seat) }),
          turn ? el("span", { class: "mark", text: say(" — à jouer", " — to play") }) : null,
          scores ? el("span", { class: "mark", text: ` — ${scores[i]} pts` + (game.outcome.winners.includes(i) ? say(" (gagnant)", " (winner)") : "") }) : null);
        if (p.lines.length) li.append(el("div", { class: "lines", text: p.lines.join(" · ") }));
        list.append(li);
      });
      box.append(list);
    }
    if (opts.facts !== false && sum.facts.length) {
      const ul = el("ul", { class: "facts" });
      for (const f of sum.facts) ul.append(el("li", { text: f }));
      box.append(ul);
    }
    for (const row of sum.cards) box.append(cardRow(row));
  }

  function cardRow(row) {
    const sec = el("section", { class: "cardrow" }, el("h3", { text: row.title }));
    if (row.cards) {
      const ul = el("ul", { class: "cards" });
      for (const c of row.cards) {
        const li = el("li", { class: "card", "data-piece": c.piece }, c.piece ? icon(c.piece) : null,
          el("span", { class: "label", text: c.label }));
        li.style.setProperty("--hue", hue(c.set));
        ul.append(li);
      }
      sec.append(ul);
    }
    if (row.text || row.lines) {
      const doc = el("div", { class: "card document" });
      for (const x of row.text || []) doc.append(el("b", { text: x }));
      for (const x of row.lines || []) doc.append(el("p", { text: x }));
      sec.append(doc);
    }
    return sec;
  }

  function merge(state, msg) {
    for (const [k, v] of Object.entries(msg)) {
      if (k === "screens" && state.screens) Object.assign(state.screens, v);
      else state[k] = v;
    }
    return state;
  }

  function showError(text) {
    const bar = document.getElementById("error");
    if (!bar) return;
    bar.textContent = text;
    bar.classList.toggle("on", !!text);
    if (text) setTimeout(() => { if (bar.textContent === text) bar.classList.remove("on"); }, 5000);
  }

  // The live channel: hello, then every change; reconnects, and says so if the token was refused.
  function connect(role, seat, handlers) {
    const params = new URLSearchParams({ role });
    if (seat !== null && seat !== undefined) params.set("seat", seat);
    if (token) params.set("t", token);
    if (key && role === "table") params.set("k", key);
    let state = {}, delay = 500, ws = null;
    const api = { send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); }, get state() { return state; } };
    function open() {
      ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?" + params);
      ws.onopen = () => { delay = 500; document.body.dataset.live = "1"; };
      ws.onmessage = ev => {
        const msg = JSON.parse(ev.data);
        if (msg.kind === "hello") { state = { screens: {} }; handlers.hello && handlers.hello(msg); return; }
        if (msg.kind === "error") { showError(msg.message); return; }
        merge(state, msg);
        handlers.update(state, msg);
      };
      ws.onclose = async () => {
        document.body.dataset.live = "0";
        try {
          const r = await fetch("/api/access?" + params);
          if (r.status === 403) { location.reload(); return; }  // the server shows the page saying why
        } catch (e) { /* the table is away: try again */ }
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 8000);
      };
    }
    open();
    return api;
  }

  return { token, key, el, t, say, setLang, player, seatName, icon, iconKind, turnLine, summary, drawScreen, pieceEl, buildBoard, zoneEl, fillZones, lightZones, publicZones,
    connect, showError, merge, short };
})();

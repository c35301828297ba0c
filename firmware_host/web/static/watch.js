// The spectator's view: the board as the public view tells it, LEDs, whose turn, scores. No screen.
"use strict";

const ZTWatch = (() => {
  const { el } = ZT;

  function players(container, state, seats) {
    container.innerHTML = "";
    const game = state.game;
    if (!game) {
      const what = state.menu_game ? `on prépare une partie (${state.menu_game})` : "la table attend une partie";
      container.append(el("div", { class: "player", text: state.app === "test" ? "test de la table" : what }));
      return;
    }
    const scores = game.outcome ? game.outcome.scores : null;
    game.seats.forEach((seat, i) => {
      const turn = seat !== null && game.to_act.includes(seat);
      const who = seat === null ? `joueur ${i + 1} (sans siège)` : `Siège ${seat}`;
      const score = scores ? ` — ${scores[i]} pts` + (game.outcome.winners.includes(i) ? " 🏆" : "") : "";
      container.append(el("div", { class: "player" + (turn ? " turn" : ""), "data-seat": seat ?? "" },
        who + (turn ? " — à jouer" : "") + score));
    });
  }

  // draws a payload of the spectator's shape (live or replayed) into the page
  function render(state, seats) {
    const game = state.game;
    document.getElementById("game").textContent = game ? ZT.t(game.name) : (state.app === "test" ? "test" : "menu");
    document.getElementById("moves").textContent = game ? game.moves : 0;
    const out = document.getElementById("outcome");
    out.textContent = game && game.outcome ? `Fin — scores ${game.outcome.scores.join(" / ")}` : "";
    out.className = game && game.outcome ? "status outcome" : "status";
    const board = document.querySelector("#centre .board");
    if (board) board.hidden = !!(game && !Array.isArray(game.public && game.public.squares));  // a card game
    ZT.fillZones(document.getElementById("centre"), ZT.publicZones(game), state.labels, { static: true });
    ZT.lightZones(document.getElementById("centre"), state.leds);
    players(document.getElementById("players"), state, seats);
    ZT.facts(document.getElementById("facts"), game ? game.public : null, state.labels);
  }

  function start() {
    let seats = [];
    ZT.connect("watch", null, {
      hello(msg) { seats = msg.seats; ZT.buildBoard(document.getElementById("centre"), msg.zones); },
      update(state) { render(state, seats); },
    });
  }
  return { render, start };
})();
if (document.body.querySelector("#centre") && !document.body.dataset.replay) ZTWatch.start();

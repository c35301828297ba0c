// The spectator's view: whose turn, the players, the board as the public view tells it, LEDs, a
// readable summary of the public view (made by the server, in the table's language). No screen.
"use strict";

const ZTWatch = (() => {
  function waiting(state) {
    if (state.app === "test") return ZT.say("Test de la table", "Table test");
    return state.menu_game ? ZT.say(`On prépare une partie (${state.menu_game})`, `A game is being set up (${state.menu_game})`)
      : ZT.say("La table attend une partie", "The table is waiting for a game");
  }

  // draws a payload of the spectator's shape (live or replayed) into the page
  function render(state) {
    const game = state.game;
    document.getElementById("game").textContent = game ? ZT.t(game.name) : (state.app === "test" ? "test" : "menu");
    document.getElementById("moves").textContent = game ? game.moves : 0;
    const out = document.getElementById("outcome");
    out.textContent = game && game.outcome ? ZT.say("Fin — scores ", "End — scores ") + game.outcome.scores.join(" / ") : "";
    out.className = game && game.outcome ? "status outcome" : "status";
    const now = document.getElementById("now");
    if (now) now.textContent = game ? ZT.turnLine(game) : waiting(state);
    const squares = ZT.publicZones(game);
    const board = document.querySelector("#centre .board");
    if (board) board.hidden = !!(game && !Array.isArray(game.public && game.public.squares));  // a card game
    const slots = document.querySelector("#centre .slots");
    if (slots) slots.parentElement.hidden = !Object.keys(squares).some(z => z.startsWith("centre."));
    const area = document.getElementById("centre");
    area.hidden = (!board || board.hidden) && (!slots || slots.parentElement.hidden);
    ZT.fillZones(area, squares, state.labels, { static: true });
    ZT.lightZones(area, state.leds);
    ZT.summary(document.getElementById("summary"), game ? game.summary : null, game);
  }

  function start() {
    ZT.connect("watch", null, {
      hello(msg) { ZT.setLang(msg.lang); ZT.buildBoard(document.getElementById("centre"), msg.zones); },
      update(state) { render(state); },
    });
  }
  return { render, start };
})();
if (document.body.querySelector("#centre") && !document.body.dataset.replay) ZTWatch.start();

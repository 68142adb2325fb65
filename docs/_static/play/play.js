// The Play page: a game of Ba-awa or Bakuk against another person or a built-in
// player, with the real engine (see engine.js). Every number shown comes from the
// engine: the board, the legal moves, the events of each move, the score, the end.
import { loadEngine, drawBoard, stepper, ruleLinks, ruleHref, el, EngineError } from "./engine.js";

const root = document.getElementById("mancala-play");
const status = document.getElementById("play-status");
const COMPUTER_DELAY = 350;   // ms before a built-in player moves, so a person sees it

function say(text, kind = "info") {
  status.textContent = text;
  status.dataset.kind = kind;
}

async function main() {
  const started = performance.now();
  let engine;
  try {
    engine = await loadEngine();
  } catch (error) {
    say(`The engine could not start: ${error.message}`, "error");
    return;
  }
  const games = engine.games();
  const rules = await ruleLinks();
  let state = null;
  let busy = false;
  let generation = 0;      // bumped by every new game, undo and replay: stale computer moves are dropped

  // -- controls --------------------------------------------------------------------
  const gameSelect = el("select", { id: "play-game", name: "game" },
    games.map((g) => el("option", { value: g.name }, g.title)));
  const opponent = el("select", { id: "play-opponent", name: "opponent" },
    el("option", { value: "person" }, "another person"),
    el("option", { value: "random" }, "the random player"),
    el("option", { value: "greedy" }, "the greedy player"));
  const optionBox = el("div", { class: "play-options" });
  const boardBox = el("div", { class: "play-board" });
  const turn = el("p", { class: "play-turn", "aria-live": "polite" });
  const explanation = el("div", { class: "play-explanation" });
  const moveList = el("p", { class: "play-moves" });
  const recordOut = el("textarea", { id: "play-record", rows: 4, readonly: true, spellcheck: "false" });
  const recordIn = el("textarea", { id: "play-replay", rows: 4, spellcheck: "false",
                                    placeholder: "game: bakuk\nmoves: a B c" });

  function optionValues() {
    const values = {};
    for (const select of optionBox.querySelectorAll("select")) {
      values[select.name] = JSON.parse(select.value);
    }
    return values;
  }

  function drawOptions(name, current = {}) {
    const game = games.find((g) => g.name === name);
    optionBox.replaceChildren(...game.options.map((option) => {
      const value = option.name in current ? current[option.name] : option.default;
      const select = el("select", { name: option.name, "data-option": option.name,
                                    onchange: () => start() },
        option.choices.map((choice, i) => el("option", {
          value: JSON.stringify(choice),
          title: option.meanings[i] || null,
          selected: JSON.stringify(choice) === JSON.stringify(value),
        }, String(choice) + (JSON.stringify(choice) === JSON.stringify(option.default) ? " (default)" : ""))));
      return el("label", { class: "play-option" },
        el("code", {}, option.name), " ", select, " ",
        el("span", { class: "play-option-doc" }, option.doc, " — ",
           el("a", { href: ruleHref(rules, option.rule) }, option.rule)));
    }));
  }

  function humanToMove() {
    return opponent.value === "person" || state.to_move === 0;
  }

  function render() {
    const board = drawBoard(boardBox, state, {
      position: state.position,
      legal: !state.over && humanToMove() && !busy ? state.legal : [],
      onPlay: play,
    });
    board.id = "play-board";
    const players = state.players;
    if (state.over) {
      const winner = state.winner === null ? "a draw" : `${players[state.winner]} wins`;
      turn.replaceChildren(el("strong", {}, `Game over: ${winner}`), ` (${
        players.map((p, i) => `${p} ${state.captured[i]}`).join(", ")}).`,
        state.end ? [" ", state.end.text.replace(/^game over: /, "Why: "), " ",
                     el("a", { href: ruleHref(rules, state.end.rule) }, state.end.rule)] : []);
    } else {
      turn.textContent = `${players[state.to_move]} to move` +
        (humanToMove() ? ": click one of the highlighted pits." : " (the computer is thinking).");
    }
    turn.dataset.over = state.over;
    moveList.textContent = state.moves.length ? `Moves: ${state.moves.join(" ")}` : "No move yet.";
    recordOut.value = state.record;
    if (state.last.length) {
      const summary = el("ol", { class: "play-last-events" }, state.last.map((step) =>
        el("li", { "data-rule": step.rule }, step.text, " ",
           el("a", { href: ruleHref(rules, step.rule), class: "rule-link" }, step.rule))));
      const details = el("details", { class: "play-last" },
        el("summary", {}, `The last move, ${state.moves[state.moves.length - 1]}: its events`), summary);
      const stepBox = el("div", { class: "stepper", id: "play-stepper" });
      const stepButton = el("button", { type: "button", class: "play-step-through", onclick: () => {
        const previous = engine.exampleSteps(state.game, state.options,
          state.previous, state.moves[state.moves.length - 1]);
        stepper(stepBox, previous);
        stepButton.remove();
      } }, "Step through the last move");
      explanation.replaceChildren(details, stepButton, stepBox);
    } else {
      explanation.replaceChildren();
    }
  }

  function update(next) {
    state = next;
    render();
    maybeComputer();
  }

  function play(pit) {
    if (busy) return;
    try {
      update(engine.play(pit));
    } catch (error) {
      say(error.message, "error");
    }
  }

  function maybeComputer() {
    if (state.over || humanToMove()) return;
    busy = true;
    render();
    const mine = generation;
    setTimeout(() => {
      if (mine !== generation) return;
      busy = false;
      if (!state.over && !humanToMove()) play(engine.computer(opponent.value));
      else render();
    }, COMPUTER_DELAY);
  }

  function start() {
    generation++;
    busy = false;
    say("");
    try {
      update(engine.newGame(gameSelect.value, optionValues()));
    } catch (error) {     // options that do not go together (choose=row with three players)
      if (!(error instanceof EngineError)) throw error;
      say(error.message, "error");
    }
  }

  function undo() {
    if (!state.moves.length) return;
    generation++;
    busy = false;
    let next = engine.undo(1);
    // against a built-in player, go back to the last position where South (you) moves
    while (opponent.value !== "person" && next.to_move !== 0 && next.moves.length) next = engine.undo(1);
    state = next;
    render();
  }

  function replay() {
    try {
      const next = engine.load(recordIn.value);
      generation++;
      busy = false;
      gameSelect.value = next.game;
      drawOptions(next.game, next.options);
      opponent.value = "person";
      state = next;
      render();
      say(`Replayed ${next.moves.length} moves.`);
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      say(`That record cannot be replayed: ${error.message}`, "error");
    }
  }

  async function copy() {
    recordOut.select();
    try {
      await navigator.clipboard.writeText(recordOut.value);
      say("The game record is on the clipboard.");
    } catch {
      say("Select the record and copy it (the browser did not allow the clipboard).");
    }
  }

  gameSelect.addEventListener("change", () => { drawOptions(gameSelect.value); start(); });
  opponent.addEventListener("change", () => { render(); maybeComputer(); });
  drawOptions(gameSelect.value);

  root.replaceChildren(
    el("div", { class: "play-controls" },
      el("label", {}, "Game ", gameSelect),
      el("label", {}, "Play against ", opponent),
      el("button", { type: "button", id: "play-new", onclick: start }, "New game"),
      el("button", { type: "button", id: "play-undo", onclick: undo }, "Undo")),
    el("details", { class: "play-options-box" },
      el("summary", {}, "Options (editorial completions and variants; each switches a rule)"),
      optionBox),
    boardBox, turn, moveList, explanation,
    el("div", { class: "play-records" },
      el("div", {}, el("label", { for: "play-record" }, "This game's record"), recordOut,
         el("button", { type: "button", id: "play-copy", onclick: copy }, "Copy")),
      el("div", {}, el("label", { for: "play-replay" }, "Paste a record to replay it"), recordIn,
         el("button", { type: "button", id: "play-load", onclick: replay }, "Replay"))),
  );
  start();
  root.dataset.ready = "true";
  say(`Engine ready (Pyodide loaded in ${(engine.loadTime / 1000).toFixed(1)} s; page ready in ${
    ((performance.now() - started) / 1000).toFixed(1)} s).`);
}

main();

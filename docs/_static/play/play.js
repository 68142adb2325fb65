// The Play page: a game of Ba-awa or Bakuk against another person or a built-in
// player, with the real engine (see engine.js), as an analysis board: every move in
// a list to walk through, the game in the page's address, the last move marked, a
// preview of each pit's sowing, and for Bakuk and Ba-awa the exact value of every move. Every
// number shown comes from the engine (play.py): this file only draws and listens. The
// engine runs in a worker of its own (engine.js): each call is a message and its answer,
// and the changes of the game are made one after another (act), each on the state the
// one before it left.
import { loadEngine, drawBoard, stepper, ruleLinks, ruleHref, el, EngineError, ROOT, STATIC } from "./engine.js";

const root = document.getElementById("mancala-play");
const status = document.getElementById("play-status");
const COMPUTER_DELAY = 350;   // ms before a built-in player moves, so a person sees it
const OPPONENTS = [
  ["person", "another person"],
  ["random", "the random player"],
  ["greedy", "the greedy player (best capture now)"],
  ["strong", "the strong player (searches ahead)"],
  ["perfect", "the perfect player (solved)"],
];

function say(text, kind = "info") {
  status.textContent = text;
  status.dataset.kind = kind;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// A rule link: opens in a new tab, so the game here stays as it is (the address
// keeps it too).
function ruleLink(rules, id, cls = "rule-link") {
  return el("a", { href: ruleHref(rules, id), class: cls, target: "_blank", rel: "noopener",
                   title: "opens the rule in a new tab" }, id);
}

// What the page draws before the engine has loaded (written by the site build from the
// same engine, dev.py's write_play_preload): the games and each one's opening state.
async function fetchPreload() {
  try {
    const response = await fetch(new URL("play/preload.json", STATIC));
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

async function main() {
  // the engine (about 14 MB) loads behind the board, which is drawn from the preload:
  // its worker was started as the page was read (play.md); the page's part of its start
  // (compiling Pyodide's WebAssembly, engine.js) waits until the board is drawn
  const [preload, rules] = await Promise.all([fetchPreload(), ruleLinks()]);
  const query = Object.fromEntries(new URLSearchParams(location.search));
  // the board at once for a plain page (only a game, an opponent, the values asked
  // for); a link with moves, a start or options waits for the engine to read it
  const plain = preload && Object.keys(query).every((k) => ["game", "opponent", "values"].includes(k))
    && (!query.game || query.game in preload.states);
  const startEngine = () => {
    const engine = loadEngine();
    engine.catch(() => {});            // its failure is reported below, once awaited
    return engine;
  };
  let starting = plain ? null : startEngine();
  let engine = null;       // set once the engine has loaded the page's first game
  let started = null;      // the engine, once it has started
  if (!plain) {
    try {
      started = await starting;
    } catch (error) {
      say(`The engine could not start: ${error.message}`, "error");
      return;
    }
  }
  const games = plain ? preload.games : await started.games();
  let queued = null;       // a move made before the engine was ready: played once it is
  let state = null;
  let busy = false;
  let generation = 0;      // bumped by every new game, undo and replay: stale computer moves are dropped
  let values = null;       // {values: {pit: value}, value} or {unavailable}, for the shown position
  let lastComputer = null; // what the last computer move cost (the strong player's search)
  let focusBoard = false;  // put focus back on the board after the next drawing
  let lastPit = null;      // the pit the player last had focus on or played: focus returns near it
  let focusResult = false; // put focus on the result once the game has just ended

  // Every change of the game waits for the one before it: an engine call is a message to
  // the worker and back, and a click or key pressed meanwhile must act on the state that
  // change leaves, not the one it found. What fails unexpectedly is said in one line.
  // While changes wait or run, or a built-in player is about to move, the page is marked
  // data-busy: what it shows may be about to change (the tests wait for it to settle).
  let chain = Promise.resolve();
  let acting = 0;
  function hold() {
    acting++;
    root.dataset.busy = "true";
    return () => { if (!--acting) delete root.dataset.busy; };
  }
  function act(change) {
    const release = hold();
    const run = chain.then(change);
    chain = run.catch((error) => {
      busy = false;
      say(`The engine failed: ${error.message}`, "error");
      if (state) render();
    }).finally(release);
    return chain;
  }

  function tell(text, fresh = false) {
    if (fresh) announce.replaceChildren();
    announce.append(el("p", {}, text));
    while (announce.children.length > 2) announce.firstElementChild.remove();
  }

  // -- controls --------------------------------------------------------------------
  const gameSelect = el("select", { id: "play-game", name: "game" },
    games.map((g) => el("option", { value: g.name }, g.title)));
  // the named rulesets: this reference's, other programs' readings, Koumma
  const rulesetSelect = el("select", { id: "play-ruleset", name: "ruleset",
                                       "aria-describedby": "play-ruleset-about" });
  const rulesetInfo = el("div", { class: "play-ruleset-info", id: "play-ruleset-info" });
  const opponent = el("select", { id: "play-opponent", name: "opponent" },
    OPPONENTS.map(([value, text]) => el("option", { value }, text)));
  const valuesBox = el("input", { type: "checkbox", id: "play-values" });
  const valuesLabel = el("label", { class: "play-values-toggle", for: "play-values" }, valuesBox,
    " Show each move's exact value");
  const optionBox = el("div", { class: "play-options" });
  const pending = el("div", { class: "play-pending", hidden: true, role: "alert" });
  const boardBox = el("div", { class: "play-board" });
  const turn = el("p", { class: "play-turn", id: "play-turn", tabindex: "-1" });
  // announcements queue: each is a paragraph added to the live region, read in turn
  // (the player's move, then the computer's), the last two kept in sight
  const announce = el("div", { id: "play-announce", class: "play-announce", "aria-live": "polite",
                               "aria-relevant": "additions" });
  const preview = el("p", { id: "play-preview", class: "play-preview" });
  const valueLine = el("p", { class: "play-values-line", id: "play-values-line" });
  // the moves, one Tab stop: ← → walk the line, ↑ ↓ every move listed (variations too),
  // Home End its start and end (a roving tabindex: only the move shown is in the Tab order)
  const moveList = el("ol", { class: "play-movelist", id: "play-movelist",
                              "aria-label": "Moves of this game: arrow keys walk through them" });
  const moveNav = el("div", { class: "play-move-nav" });
  const explanation = el("div", { class: "play-explanation" });
  const recordOut = el("textarea", { id: "play-record", rows: 4, readonly: true, spellcheck: "false" });
  const recordIn = el("textarea", { id: "play-replay", rows: 4, spellcheck: "false",
                                    placeholder: "game: bakuk\nmoves: a B c" });
  const linkOut = el("a", { id: "play-link", class: "play-link" }, "Link to this game");

  const gameOf = (name) => games.find((g) => g.name === name);
  const rulesetOf = (name, ruleset) => gameOf(name).rulesets.find((r) => r.name === ruleset)
    || gameOf(name).rulesets[0];

  function drawRulesets(name, current = "mancala_spec") {
    rulesetSelect.replaceChildren(...gameOf(name).rulesets.map((r) =>
      el("option", { value: r.name, selected: r.name === current }, r.title)));
    rulesetSelect.value = rulesetOf(name, current).name;
  }

  // every option at the value the ruleset gives it (its values over the defaults)
  function rulesetValues(name, ruleset) {
    const out = {};
    for (const option of gameOf(name).options) out[option.name] = option.default;
    return { ...out, ...rulesetOf(name, ruleset).values };
  }

  const valueText = (value) => String(value);

  // The ruleset's title and basis, the program it reads (a secondary source of what
  // that program does), the changes made on top of it, and each difference with its
  // basis: the program's files and lines, or the source's quote, or a reading.
  function describeRuleset(name, ruleset, changes = {}) {
    const r = rulesetOf(name, ruleset);
    const wasOpen = Boolean(rulesetInfo.querySelector("details[open]"));
    const parts = [el("p", { id: "play-ruleset-about" }, el("strong", {}, r.title), ": ", r.basis)];
    if (r.program) {
      const p = r.program;
      parts.push(el("p", {}, "Source: ", el("a", { href: p.url, target: "_blank", rel: "noopener" }, p.name),
        ` (${p.repository}, commit `, el("code", {}, p.commit.slice(0, 12)), `, ${p.licence}): a secondary ` +
        "source of what that program does, never of what the game is."));
    }
    const changed = Object.entries(changes);
    if (changed.length && r.name !== "mancala_spec") {
      parts.push(el("p", { class: "play-ruleset-changes" }, "Changed here on top of this ruleset: ",
        changed.map(([k, v]) => `${k} = ${valueText(v)}`).join(", "), "."));
    }
    if (r.differences.length) {
      const quoted = new Set();      // a sentence quoted for several differences is shown once
      const items = r.differences.map((d) => {
        const basis = [];
        if (d.basis === "program") {
          basis.push("Read in ", ...d.where.flatMap((w, i) => [i ? ", " : "",
            el("a", { href: w.href, target: "_blank", rel: "noopener" }, el("code", {}, w.text))]), ".");
        } else {
          for (const q of d.quotes) {
            const label = d.basis === "source" ? "Source: " : "The text: ";
            if (quoted.has(q.quote)) basis.push(label, `the sentence quoted above (line ${q.line}). `);
            else {
              basis.push(label, "“", el("span", { lang: q.lang }, q.quote), "” (",
                q.translation, ") — ", `${q.source}, line ${q.line}, CC BY-SA. `);
            }
            quoted.add(q.quote);
          }
          if (d.basis === "reading") basis.push(`A reading: ${d.why} Another reading: ${d.other}`);
        }
        const setting = el("code", {}, `${d.option}=${valueText(d.value)}`);
        const played = !d.option ? [`Not played: ${d.unplayed}`]
          : d.match ? ["A match setting, ", setting, ": this page plays single games."]
          : ["Played by ", setting, "."];
        return el("li", { "data-rule": d.rule }, ruleLink(rules, d.rule), ": ", d.text,
          el("br"), el("span", { class: "play-ruleset-basis" }, ...basis), " ", ...played);
      });
      parts.push(el("details", { class: "play-ruleset-differences", open: wasOpen },
        el("summary", {}, `Its ${plural(r.differences.length, "difference", "differences")} from ` +
          "this reference, each with its basis"),
        el("ul", {}, items),
        el("p", {}, "Each is compared, with the smallest position where it changes a move, on ",
          el("a", { href: new URL("readings-compared.html", ROOT).href }, "Readings compared"), ".")));
    }
    rulesetInfo.replaceChildren(...parts);
  }

  function optionValues() {
    const out = {};
    for (const select of optionBox.querySelectorAll("select")) out[select.name] = JSON.parse(select.value);
    return out;
  }

  // Each option: what it decides, in words; its values by their meanings; its rule.
  function drawOptions(name, current = {}) {
    const game = gameOf(name);
    optionBox.replaceChildren(...game.options.map((option) => {
      const value = option.name in current ? current[option.name] : option.default;
      const id = `play-option-${option.name}`;
      // a phone cuts a long meaning off inside its closed dropdown: the chosen one is
      // also written out below it (for the eye only: the select already says it)
      const chosen = el("p", { class: "play-option-chosen", "aria-hidden": "true" });
      const showChosen = () => {
        chosen.textContent = select.options[select.selectedIndex].textContent;
      };
      const select = el("select", { id, name: option.name, "data-option": option.name,
                                    onchange: (event) => { showChosen(); optionsChanged(event); } },
        option.choices.map((choice, i) => el("option", {
          value: JSON.stringify(choice),
          selected: JSON.stringify(choice) === JSON.stringify(value),
        }, capital(option.meanings[i] || String(choice))
           + (JSON.stringify(choice) === JSON.stringify(option.default) ? " (default)" : ""))));
      showChosen();
      return el("div", { class: "play-option" },
        el("label", { for: id }, capital(option.doc)),
        " ", el("span", { class: "play-option-rule" }, "rule ", ruleLink(rules, option.rule)),
        el("div", {}, select), chosen);
    }));
  }

  function showOptions() {
    gameSelect.value = state.game;
    drawRulesets(state.game, state.ruleset);
    drawOptions(state.game, state.options);
    describeRuleset(state.game, state.ruleset, state.overrides);
  }

  // -- asking before a game is lost ------------------------------------------------
  function optionsChanged() {
    if (!state || !state.tree.length) { start(); return; }
    pending.hidden = false;
    pending.replaceChildren(
      el("p", {}, `A change of game or option starts a new game: the ${
        plural(state.moves.length, "move", "moves")} played so far would be lost.`),
      el("button", { type: "button", id: "play-pending-new", onclick: start }, "Start a new game"),
      " ",
      el("button", { type: "button", id: "play-pending-keep", onclick: keep }, "Keep this game"));
    render();
  }

  function keep() {
    pending.hidden = true;
    showOptions();
    render();
  }

  // -- the game --------------------------------------------------------------------
  function humanToMove() {
    return opponent.value === "person" || state.to_move === 0;
  }

  function atEnd() { return state.ply === state.moves.length; }

  function moveText(move) {
    // "South played c: 5 laps; North takes 4 from E (ba-awa-owner-four) …"
    const parts = [`${move.player} played ${move.pit}`];
    const details = [plural(move.laps, "lap", "laps")];
    for (const group of move.groups) {
      details.push(`${group.player} takes ${group.seeds} from ${group.pits.join(", ")} (${group.rule})`);
    }
    return `${parts[0]}: ${details.join("; ")}.`;
  }

  function moveLine(move, withLinks) {
    // the same as moveText, the rule IDs linked
    const out = [`${move.player} played ${move.pit}: ${plural(move.laps, "lap", "laps")}`];
    for (const group of move.groups) {
      out.push(`; ${group.player} takes ${group.seeds} from ${group.pits.join(", ")} (`,
               withLinks ? ruleLink(rules, group.rule) : group.rule, ")");
    }
    out.push(".");
    return out;
  }

  function overText() {
    const players = state.players;
    const winner = state.winner === null ? "a draw" : `${players[state.winner]} wins`;
    return `Game over: ${winner} (${players.map((p, i) => `${p} ${state.captured[i]}`).join(", ")}).`;
  }

  function turnText() {
    if (state.over) return overText();
    return `${state.players[state.to_move]} to move.`;
  }

  function marks() {
    const out = {};
    const add = (name, cls) => { (out[name] = out[name] || []).push(cls); };
    if (state.shown) {
      add(state.shown.pit, "pit-last");
      for (const name of state.shown.captured_pits) add(name, "pit-captured");
    }
    return out;
  }

  // the playable pit nearest to the one the player was at (the same pit if it is playable)
  function nearestPit(board, name) {
    const pits = [...board.querySelectorAll("button.pit:not([disabled])")];
    if (!pits.length) return null;
    const at = state.names.indexOf(name);
    if (at < 0) return pits[0];
    const size = state.names.length;
    const distance = (pit) => {
      const d = Math.abs(state.names.indexOf(pit.dataset.pit) - at);
      return Math.min(d, size - d);
    };
    return pits.reduce((best, pit) => (distance(pit) < distance(best) ? pit : best));
  }

  function render() {
    const hadFocus = focusBoard || (document.activeElement && boardBox.contains(document.activeElement));
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.pit : null;
    if (hadFocus && focused) lastPit = focused;
    focusBoard = false;
    const canPlay = !state.over && humanToMove() && !busy && pending.hidden;
    const shownValues = values && values.values ? values.values : null;
    if (state.over) { preview.replaceChildren(); }
    const board = drawBoard(boardBox, state, {
      position: state.position,
      label: state.over ? `board, ${overText()}` : `board, ${state.players[state.to_move]} to move`,
      legal: canPlay ? state.legal : [],
      onPlay: play,
      marks: marks(),
      values: shownValues,
      onFocusPit: showPreview,
      onLeavePit: () => { preview.replaceChildren(); clearPreviewMarks(); },
    });
    board.id = "play-board";
    board.tabIndex = -1;             // focus can rest on the board while nothing is playable
    for (const pit of board.querySelectorAll("button.pit")) pit.setAttribute("aria-describedby", "play-preview");
    const nearest = nearestPit(board, lastPit);
    if (nearest) {     // the board's one Tab stop: the pit nearest to where the player was
      board.querySelectorAll("button.pit:not([disabled])").forEach((pit) => { pit.tabIndex = pit === nearest ? 0 : -1; });
    }
    if (focusResult && state.over) {
      focusResult = false;
      turn.focus({ preventScroll: true });
    } else if (hadFocus) (nearest || board).focus({ preventScroll: true });
    // the turn, or how the game ended
    turn.dataset.over = state.over;
    if (state.over) {
      const end = state.end;          // the position's outcome: reason, rule, winner
      turn.replaceChildren(el("strong", {}, overText()),
        ...(end ? [" Why: ", end.text, " (", ruleLink(rules, end.rule), ")."] : []));
    } else if (!pending.hidden) {
      turn.textContent = `${turnText()} Start a new game or keep this one first.`;
    } else if (!atEnd()) {
      turn.textContent = `${turnText()} You are looking at move ${state.ply} of ${state.moves.length}` +
        `${state.variation ? " of a variation" : ""}: a move other than the next one starts a variation.`;
    } else {
      turn.textContent = turnText() + (humanToMove() ? " Choose one of the highlighted pits."
        : " (the computer is thinking).");
    }
    // the values line
    if (state.unsolved) valueLine.textContent = state.unsolved;
    else if (values && values.unavailable) valueLine.textContent = values.unavailable;
    else if (shownValues && !state.over) {
      const entries = Object.entries(shownValues);
      valueLine.textContent = `Exact values${values.source === "search" ? ", by a search to the game's end (the solved table does not hold this position)," : ""} for ${state.players[state.to_move]} (what each move ` +
        `captures now minus the best the opponent can then force): ${entries.map(([p, v]) =>
          `${p} ${v > 0 ? "+" : ""}${v}`).join(", ")}. The position is worth ${values.value > 0 ? "+" : ""}${values.value}.` +
        (values.history ? ` ${values.history}` : "");
    } else valueLine.textContent = "";
    valueLine.hidden = !valueLine.textContent;
    drawMoveList();
    drawExplanation();
    recordOut.value = state.record;
    updateAddress();
  }

  const sr = (text) => el("span", { class: "mancala-sr" }, text);

  // the captures of a move, saying who took them: ", N +4" (for the eye), ", North takes 4"
  // (each player's captures added up, in the order they first took)
  function takes(move) {
    const took = new Map();
    for (const g of move.groups) took.set(g.player, (took.get(g.player) || 0) + g.seeds);
    return [...took].map(([player, seeds]) => [el("span", { class: "play-move-take", "aria-hidden": "true" },
      `, ${player[0]} +${seeds}`), sr(`, ${player} takes ${seeds}`)]);
  }

  function moveButton(move) {
    const current = move.id === state.node;
    return el("button", {
      type: "button", class: "play-move" + (current ? " play-move-current" : ""),
      "data-ply": String(move.ply), "data-node": String(move.id),
      "aria-current": current ? "step" : null, tabindex: "-1",
      title: moveText(move),
      onclick: () => gotoNode(move.id),
    }, sr(`move ${move.ply}, `),
       el("span", { class: "play-move-player" }, move.player[0]),
       sr(move.player.slice(1)), ` ${move.pit}`, ...takes(move));
  }

  // a line of moves; after a move, the variations that replace it, each a line of its own
  function lineItems(line) {
    const items = [];
    for (const move of line) {
      items.push(el("li", {}, moveButton(move)));
      if (move.variations.length) {
        items.push(el("li", { class: "play-variations" }, el("ul", {}, move.variations.map((variation) =>
          el("li", { class: "play-variation" }, sr(`variation from move ${variation[0].ply}: `),
            el("ol", { class: "play-line" }, lineItems(variation)))))));
      }
    }
    return items;
  }

  function drawMoveList() {
    const inList = moveList.contains(document.activeElement);
    moveList.replaceChildren(...lineItems(state.tree));
    moveList.hidden = !state.tree.length;
    const buttons = [...moveList.querySelectorAll("button.play-move")];
    const current = moveList.querySelector(".play-move-current") || buttons[0];
    if (current) current.tabIndex = 0;
    // walking the list keeps focus in it, on the move shown
    if (inList && current) current.focus({ preventScroll: true });
    else if (inList) (moveNav.querySelector("button:not([disabled])") || boardBox).focus({ preventScroll: true });
    const nav = (text, label, ply, id) => el("button", {
      type: "button", id, title: label, disabled: ply === state.ply || ply < 0 || ply > state.moves.length,
      onclick: () => goto(ply) }, text);
    moveNav.replaceChildren(
      nav("« start", "the start (Home)", 0, "play-first"),
      nav("◀ back", "the move before (left arrow)", state.ply - 1, "play-prev"),
      el("span", { class: "play-move-count" }, state.moves.length
        ? `move ${state.ply} of ${state.moves.length}` : "no move yet"),
      nav("next ▶", "the next move, again (right arrow)", state.ply + 1, "play-next"),
      nav("end »", "the last move of this line (End)", state.moves.length, "play-last"),
      el("button", { type: "button", id: "play-promote", disabled: !state.variation, onclick: promote,
                     title: "make this variation the line before it" }, "Promote variation"),
      el("button", { type: "button", id: "play-delete", disabled: !state.ply, onclick: deleteMove,
                     title: "delete the move shown and the moves after it" }, "Delete from here"));
  }

  moveList.addEventListener("keydown", (event) => {
    if (!state || event.altKey || event.ctrlKey || event.metaKey) return;
    const buttons = [...moveList.querySelectorAll("button.play-move")];
    const at = buttons.indexOf(document.activeElement);
    let step = null;
    if (event.key === "ArrowLeft") step = () => goto((s) => s.ply - 1);
    else if (event.key === "ArrowRight") step = () => goto((s) => s.ply + 1);
    else if (event.key === "Home") step = () => goto(0);
    else if (event.key === "End") step = () => goto((s) => s.moves.length);
    else if (event.key === "ArrowUp" && at > 0) step = () => gotoNode(+buttons[at - 1].dataset.node);
    else if (event.key === "ArrowDown" && at >= 0 && at < buttons.length - 1) {
      step = () => gotoNode(+buttons[at + 1].dataset.node);
    }
    if (!step && !["ArrowUp", "ArrowDown"].includes(event.key)) return;
    event.preventDefault();
    event.stopPropagation();
    if (step) step();
  });

  function drawExplanation() {
    if (!state.ply) { explanation.replaceChildren(); return; }
    const move = state.history[state.ply - 1];
    const summary = el("ol", { class: "play-last-events" }, state.last.map((step) =>
      el("li", { "data-rule": step.rule }, step.text, " ", ruleLink(rules, step.rule))));
    const details = el("details", { class: "play-last" },
      el("summary", {}, `Move ${state.ply}, ${move.player} ${move.pit}: its ${state.last.length} events`), summary);
    const stepBox = el("div", { class: "stepper", id: "play-stepper" });
    const shown = state;
    const stepButton = el("button", { type: "button", class: "play-step-through", onclick: () => act(async () => {
      if (state !== shown) return;
      let data;
      try {
        data = await engine.exampleSteps(state.game, state.options, state.previous, move.pit);
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        say(error.message, "error");
        return;
      }
      await stepper(stepBox, { ...data, stores: state.stores });
      stepButton.remove();
      details.remove();       // the stepper lists the same events: not twice
    }) }, `Step through move ${state.ply} seed by seed`);
    explanation.replaceChildren(
      el("p", { class: "play-shown" }, `Move ${state.ply}: `, ...moveLine(move, true)),
      details, stepButton, stepBox);
  }

  // the address says what is on the board: a reload or a shared link restores it
  function updateAddress() {
    const params = { ...state.link };
    if (valuesBox.checked) params.values = "1";
    if (opponent.value !== "person") params.opponent = opponent.value;
    const query = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)
      .replace(/%2C/g, ",").replace(/%2F/g, "/").replace(/%3D/g, "=")}`).join("&");
    const url = `${location.pathname}?${query}`;
    if (url !== location.pathname + location.search) history.replaceState(null, "", url);
    linkOut.href = url;
  }

  function clearPreviewMarks() {
    for (const pit of boardBox.querySelectorAll(".pit-preview-capture")) pit.classList.remove("pit-preview-capture");
  }

  // what sowing a pit would do, shown while it is hovered or has focus (if the answer
  // comes while it still is, and the position is still the one shown)
  let previewing = null;
  async function showPreview(name) {
    let move;
    previewing = name;
    if (!engine) return;
    const shown = state;
    try { move = await engine.preview(name); } catch { return; }
    if (previewing !== name || state !== shown) return;
    clearPreviewMarks();
    for (const pit of move.captured_pits) {
      const node = boardBox.querySelector(`[data-pit="${pit}"]`);
      if (node) node.classList.add("pit-preview-capture");
    }
    const ends = move.ends.map((e) => e.text.replace(/^move ends: /, "ends: ").replace(/^game over: /, "the game ends: "));
    preview.textContent = `Sowing ${name}: ${plural(move.laps, "lap", "laps")}` +
      (move.groups.length ? "; " + move.groups.map((g) => `${g.player} takes ${g.seeds} from ${g.pits.join(", ")} (${g.rule})`).join("; ") : "; no capture") +
      (ends.length ? "; " + ends.join("; ") : "") + ".";
  }

  // The values of the position shown, asked of the engine (the one place they are
  // asked for: the worker fetches the solver's table the first time).
  async function refreshValues() {
    values = null;
    if (!valuesBox.checked || !engine) return;
    // rules the solver did not solve: no value at all (the table holds other rules')
    if (state.unsolved) { values = { unavailable: state.unsolved }; return; }
    const shown = state;
    let answer;
    try { answer = await engine.values(); } catch (error) { answer = { unavailable: error.message }; }
    if (state === shown) values = answer;
  }

  async function update(next, moved = false) {
    state = next;
    strongAvailable();
    perfectAvailable();
    await refreshValues();
    if (state !== next) return;
    if (moved) {
      const move = state.history[state.ply - 1];
      tell(`${moveText(move)} ${turnText()}`);
      if (state.over) focusResult = true;
    }
    render();
    maybeComputer();
  }

  function play(pit) {
    if (busy) return;
    if (!engine) {             // the engine is still loading: the move waits for it
      queued = pit;
      busy = true;
      say(`Your move ${pit} is played as soon as the engine is ready (it is loading).`);
      render();
      return;
    }
    const clicked = state;     // a second click before the first is played finds it moved on
    focusBoard = true;
    act(async () => {
      if (state !== clicked) return;
      let next;
      try {
        next = await engine.play(pit);
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        say(error.message, "error");
        return;
      }
      await update(next, true);
    });
  }

  function shownText() {
    return state.ply ? `Move ${state.ply} of ${state.moves.length}${state.variation ? " (a variation)" : ""}: ` +
      `${moveText(state.history[state.ply - 1])}` : "The start of the game.";
  }

  // a move of the line to show: a ply, or a function of the state found (a key pressed
  // twice goes two moves on, the second from where the first went)
  function goto(where) {
    if (!engine) return;
    act(async () => {
      const ply = typeof where === "function" ? where(state) : where;
      if (!state || ply < 0 || ply > state.moves.length || ply === state.ply) return;
      generation++;
      busy = false;
      await update(await engine.goto(ply));
      tell(shownText(), true);
    });
  }

  function gotoNode(id) {
    if (!engine) return;
    act(async () => {
      if (!state || id === state.node) return;
      generation++;
      busy = false;
      await update(await engine.gotoNode(id));
      tell(shownText(), true);
    });
  }

  function promote() {
    generation++;
    act(async () => {
      busy = false;
      await update(await engine.promote());
      tell(`Promoted: ${shownText()}`, true);
    });
  }

  function deleteMove() {
    generation++;
    act(async () => {
      const gone = state.moves.length - state.ply + 1;
      busy = false;
      await update(await engine.deleteMove());
      tell(`Deleted ${plural(gone, "move", "moves")}. ${shownText()}`, true);
    });
  }

  function maybeComputer() {
    if (!engine || state.over || humanToMove() || !atEnd() || !pending.hidden) return;
    busy = true;
    render();
    const mine = generation;
    const release = hold();
    setTimeout(() => act(async () => {
      if (mine !== generation) return;
      let choice;
      try {
        choice = await engine.computer(opponent.value);
      } catch (error) {
        if (mine !== generation) return;
        busy = false;
        say(error.message, "error");
        render();
        return;
      }
      if (mine !== generation) return;   // the game changed while the computer thought
      busy = false;
      lastComputer = { ...choice, player: opponent.value };
      window.mancalaLastComputerMove = lastComputer;   // for the tests
      if (!state.over && !humanToMove()) {
        focusBoard = document.activeElement === document.body || boardBox.contains(document.activeElement);
        await update(await engine.play(choice.pit), true);
      } else render();
    }).finally(release), COMPUTER_DELAY);
  }

  function start() {
    generation++;
    act(async () => {
      busy = false;
      say("");
      let next;
      try {
        next = await engine.newGame(gameSelect.value, optionValues(), "", rulesetSelect.value);
      } catch (error) {   // options that do not go together (choose=row with three players)
        if (!(error instanceof EngineError)) throw error;
        say(`${error.message}. The game goes on with the options it had.`, "error");
        pending.hidden = true;
        showOptions();    // the refused choice is not left selected
        render();
        return;
      }
      pending.hidden = true;
      describeRuleset(next.game, next.ruleset, next.overrides);
      tell(`A new game of ${next.title}. ${next.players[next.to_move]} to move.`, true);
      await update(next);
    });
  }

  // Undo goes back (the moves stay: Redo plays them again, another move starts a variation)
  function undo() {
    if (!state.ply) return;
    generation++;
    act(async () => {
      if (!state.ply) return;
      busy = false;
      let next = await engine.undo(1);
      // against a built-in player, go back to the last position where South (you) moves
      while (opponent.value !== "person" && next.to_move !== 0 && next.ply) next = await engine.undo(1);
      tell(`Took back moves: ${next.players[next.to_move]} to move.`, true);
      await update(next);
    });
  }

  function redo() {
    if (state.ply >= state.moves.length) return;
    generation++;
    act(async () => {
      if (state.ply >= state.moves.length) return;
      busy = false;
      let next = await engine.goto(state.ply + 1);
      while (opponent.value !== "person" && next.to_move !== 0 && next.ply < next.moves.length) {
        next = await engine.goto(next.ply + 1);
      }
      tell(`Redone: ${next.ply ? moveText(next.history[next.ply - 1]) : ""}`, true);
      await update(next);
    });
  }

  function replay() {
    const text = recordIn.value;
    act(async () => {
      let next;
      try {
        next = await engine.load(text);
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        say(`That record cannot be replayed: ${error.message}`, "error");
        return;
      }
      generation++;
      busy = false;
      pending.hidden = true;
      let note = "";
      if (opponent.value !== "person") {
        opponent.value = "person";
        note = " Play against is now \u201canother person\u201d, so no built-in player moves in the " +
          "replayed game; choose one to play on against it.";
      }
      say(`Replayed the record: ${plural(next.moves.length, "move", "moves")}.${note}`);
      state = next;
      showOptions();
      await update(next);
    });
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

  // the perfect player and the values: only for the rules the solver solved (play.py
  // says which, and why not, from every option the game declares)
  function perfectAvailable() {
    const perfect = opponent.querySelector("option[value=perfect]");
    const unsolved = Boolean(state && state.unsolved);
    perfect.disabled = unsolved;
    perfect.textContent = unsolved ? "the perfect player (the solved rules only)" : "the perfect player (solved)";
    if (perfect.disabled && opponent.value === "perfect") {
      opponent.value = state && state.kernel ? "strong" : "greedy";
      say(`The perfect player knows the solved rules only, so the ${opponent.value} player plays instead.`);
    }
  }

  // the strong player searches with the fast kernel, which plays no other program's
  // reading: under such options it is not offered
  function strongAvailable() {
    const strong = opponent.querySelector("option[value=strong]");
    strong.disabled = !state.kernel;
    strong.textContent = state.kernel ? "the strong player (searches ahead)"
      : "the strong player (this reference's rules only)";
    if (strong.disabled && opponent.value === "strong") {
      opponent.value = "greedy";
      say("The strong player searches with this reference's rules only, so the greedy player plays instead.");
    }
  }

  gameSelect.addEventListener("change", () => {
    drawRulesets(gameSelect.value);
    drawOptions(gameSelect.value);
    describeRuleset(gameSelect.value, rulesetSelect.value);
    perfectAvailable();
    optionsChanged();
  });
  // a ruleset sets every option to its value; an option changed afterwards overrides it
  rulesetSelect.addEventListener("change", () => {
    drawOptions(gameSelect.value, rulesetValues(gameSelect.value, rulesetSelect.value));
    describeRuleset(gameSelect.value, rulesetSelect.value);
    optionsChanged();
  });
  opponent.addEventListener("change", () => { render(); maybeComputer(); });
  valuesBox.addEventListener("change", () => act(async () => { await refreshValues(); render(); }));
  // ← → Home End walk through the moves (except where those keys do something else)
  document.addEventListener("keydown", (event) => {
    if (!state || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest && (target.closest("input, select, textarea, .mancala-board, .stepper")
        || target.isContentEditable)) return;
    if (moveList.contains(target)) return;      // the move list walks itself
    const ply = { ArrowLeft: (s) => s.ply - 1, ArrowRight: (s) => s.ply + 1, Home: () => 0,
                  End: (s) => s.moves.length }[event.key];
    if (ply === undefined || (target !== document.body && !target.closest("#mancala-play"))) return;
    event.preventDefault();
    goto(ply);
  });

  root.replaceChildren(
    el("div", { class: "play-controls" },
      el("label", {}, "Game ", gameSelect),
      el("label", {}, "Ruleset ", rulesetSelect),
      el("label", {}, "Play against ", opponent),
      el("button", { type: "button", id: "play-new", onclick: start }, "New game"),
      el("button", { type: "button", id: "play-undo", onclick: undo }, "Undo"),
      el("button", { type: "button", id: "play-redo", onclick: redo }, "Redo"),
      valuesLabel),
    rulesetInfo,
    pending,
    boardBox, turn, preview, valueLine, announce,
    el("section", { class: "play-moves-box", "aria-label": "The moves" },
      el("h2", { class: "play-subheading" }, "Moves"),
      el("p", { class: "play-note" }, "Choose a move, or use \u2190 \u2192 Home End (\u2191 \u2193 " +
        "in the list reach the variations too), to see the position after it. A move other than " +
        "the next one, played from an earlier position, starts a variation: the moves after it " +
        "stay, listed beside it. Undo goes back, Redo forward again."),
      moveNav, moveList, explanation),
    el("details", { class: "play-options-box", open: true },
      el("summary", {}, "Options: each switches a rule (editorial completions, variants, forms)"),
      el("p", { class: "play-note" }, "The ruleset chosen above sets them; an option changed here " +
        "overrides the ruleset's value."),
      optionBox),
    el("div", { class: "play-records" },
      el("div", {}, el("label", { for: "play-record" }, "This game's record (variations in parentheses)"), recordOut,
         el("button", { type: "button", id: "play-copy", onclick: copy }, "Copy"), " ", linkOut),
      el("div", {}, el("label", { for: "play-replay" }, "Paste a record to replay it"), recordIn,
         el("button", { type: "button", id: "play-load", onclick: replay }, "Replay"))),
  );

  // a link with a game (play.html?game=bakuk&moves=a,B,c&values=1) restores it
  if (query.opponent && OPPONENTS.some(([value]) => value === query.opponent)) opponent.value = query.opponent;
  if (query.values === "1") valuesBox.checked = true;
  // until the engine is ready only the board takes a move: the controls wait for it
  const waiting = () => [gameSelect, rulesetSelect, opponent, valuesBox,
    ...root.querySelectorAll(".play-controls button, .play-options select, #play-load")];
  if (plain) {
    state = preload.states[query.game || "ba-awa"];
    showOptions();
    perfectAvailable();
    await update(state);
    for (const control of waiting()) control.disabled = true;
    root.dataset.board = "ready";
    say("The engine is loading (about 14 MB, once); the board already takes your move.");
    starting = startEngine();
    try {
      started = await starting;
    } catch (error) {
      say(`The engine could not start: ${error.message}`, "error");
      busy = true;
      render();
      return;
    }
  }
  // the page's first game, from the engine: what the link says, else a new game
  let first = null;
  if (query.game || query.moves || query.start) {
    try {
      first = await started.loadLink(query);
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      say(`The game in this link cannot be shown: ${error.message}`, "error");
    }
  }
  if (!first) first = await started.newGame(query.game && gameOf(query.game) ? query.game : "ba-awa", {});
  engine = started;
  // Ba-awa's values come a file at a time (the index, then the parts a position needs)
  engine.onProgress(({ names, done, total }) => {
    if (!valuesBox.checked && opponent.value !== "perfect") return;
    valueLine.hidden = false;
    valueLine.textContent = names[0] === "index.json" ? "Loading Ba-awa's exact values: their index…"
      : `Loading Ba-awa's exact values: ${done} of ${plural(total, "part", "parts")} for this position…`;
  });
  if (plain) for (const control of waiting()) control.disabled = false;
  state = first;
  showOptions();
  perfectAvailable();
  busy = false;
  await update(first);
  root.dataset.board = "ready";
  root.dataset.ready = "true";
  if (status.dataset.kind !== "error") say("");
  if (queued) {                // the move made while the engine loaded
    const pit = queued;
    queued = null;
    if (state.legal.includes(pit) && humanToMove()) play(pit);
  }
}

main();

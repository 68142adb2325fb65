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

function say(text, kind = "info", loading = false) {
  status.textContent = text;
  status.dataset.kind = kind;
  if (loading) status.dataset.loading = "true";
  else delete status.dataset.loading;
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
  // the engine (Pyodide and the wheel: the site's largest download) loads behind the board, which is drawn from the preload:
  // its worker was started as the page was read (play.md); the page's part of its start
  // (compiling Pyodide's WebAssembly, engine.js) waits until the board is drawn
  const [preload, rules] = await Promise.all([fetchPreload(), ruleLinks()]);
  const query = Object.fromEntries(new URLSearchParams(location.search));
  // the board at once for a plain page (only a game, an opponent, the values asked
  // for); a link with moves, a start or options waits for the engine to read it
  const plain = preload && Object.keys(query).every((k) => ["game", "opponent", "values", "as", "flip"].includes(k))
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
  const sideSelect = el("select", { id: "play-as", name: "as" },
    el("option", { value: "south" }, "South"), el("option", { value: "north" }, "North"),
    el("option", { value: "both" }, "both sides"));
  const flipBox = el("input", { type: "checkbox", id: "play-flip" });
  // why a player is not offered (the perfect player without values, the strong one
  // under another program's rules): said beside the choice
  const opponentWhy = el("p", { id: "play-opponent-why", class: "play-note play-opponent-why", hidden: true });
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
  // the player you are (0 South, 1 North; as the command line's --as north)
  function mine() { return sideSelect.value === "north" ? 1 : 0; }

  function humanToMove() {
    return opponent.value === "person" || sideSelect.value === "both" || state.to_move === mine();
  }

  function atEnd() { return state.ply === state.moves.length; }

  // whether the person plays the side to move in *s* (else a built-in player does)
  function humanPlays(s) {
    return opponent.value === "person" || sideSelect.value === "both" || s.to_move === mine();
  }

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

  let drawn = null;            // the state last drawn: a new one clears the preview
  let quiet = false;           // focus moved by the page, not the reader: no preview shown

  function render() {
    if (drawn !== state) { preview.replaceChildren(); drawn = state; }
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
      turned: flipBox.checked,
      marks: marks(),
      values: shownValues,
      onFocusPit: showPreview,
      onLeavePit: () => { preview.replaceChildren(); clearPreviewMarks(); },
    });
    board.id = "play-board";
    board.tabIndex = -1;             // focus can rest on the board while nothing is playable
    // each playable pit described by what its sowing would do (its own text, hidden)
    const previews = canPlay && state.previews ? state.previews : {};
    for (const pit of board.querySelectorAll("button.pit:not([disabled])")) {
      const move = previews[pit.dataset.pit];
      if (!move) continue;
      const id = `play-describe-${pit.dataset.pit}`;
      board.append(el("span", { id, class: "mancala-sr", hidden: true }, previewText(pit.dataset.pit, move)));
      pit.setAttribute("aria-describedby", id);
    }
    const nearest = nearestPit(board, lastPit);
    if (nearest) {     // the board's one Tab stop: the pit nearest to where the player was
      board.querySelectorAll("button.pit:not([disabled])").forEach((pit) => { pit.tabIndex = pit === nearest ? 0 : -1; });
    }
    quiet = true;
    if (focusResult && state.over) {
      focusResult = false;
      turn.focus({ preventScroll: true });
      scrollToResult = true;
    } else if (hadFocus) (nearest || board).focus({ preventScroll: true });
    quiet = false;
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
    else if (values && values.unavailable) {
      valueLine.replaceChildren(values.unavailable);
      if (values.retry) {          // the network failed: asked again here, or at the next position
        valueLine.append(" ", el("button", { type: "button", id: "play-values-retry", onclick: () =>
          act(async () => { await refreshValues(); render(); }) }, "Try again"));
      }
    }
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
    drawAnalysis();
    recordOut.value = state.record;
    updateAddress();
    if (scrollToResult) {     // the end of the game in sight (on a phone it is below the board)
      scrollToResult = false;
      const box = turn.getBoundingClientRect();
      if (box.top < 0 || box.bottom > innerHeight) turn.scrollIntoView({ block: "nearest" });
    }
  }
  let scrollToResult = false;

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
    }, sr(`move ${move.ply}, ${move.player}`),
       el("span", { class: "play-move-player", "aria-hidden": "true" }, move.player[0]),
       ` ${move.pit}`, move.mark ? el("span", { class: "play-move-mark" }, move.mark) : null,
       ...takes(move));
  }

  // a line of moves; after a move, the variations that replace it, each a line of its own
  function lineItems(line) {
    const items = [];
    for (const move of line) {
      items.push(el("li", {}, moveButton(move),
        move.comment ? el("span", { class: "play-move-comment" }, ` ${move.comment}`) : null));
      if (move.variations.length) {
        // the variations beside a move, collapsed and shown again by their button (never
        // collapsed while the move shown is in one of them)
        const key = String(move.id);
        const closed = collapsed.has(key) && !move.variations.some((v) => holds(v, state.node));
        const count = move.variations.reduce((n, v) => n + counted(v), 0);
        const toggle = el("button", {
          type: "button", class: "play-variations-toggle", tabindex: "-1", "aria-expanded": String(!closed),
          title: closed ? "show these variations" : "hide these variations",
          onclick: () => {
            if (closed) collapsed.delete(key); else collapsed.add(key);
            drawMoveList();
            const again = moveList.querySelector(`.play-variations[data-after="${key}"] > button`);
            if (again) again.focus({ preventScroll: true });
          },
        }, closed ? `+ ${plural(move.variations.length, "variation", "variations")}, ${plural(count, "move", "moves")}`
          : "\u2212", sr(closed ? "" : ` hide the ${plural(move.variations.length, "variation", "variations")}`));
        items.push(el("li", { class: "play-variations", "data-after": key }, toggle, closed ? null
          : el("ul", {}, move.variations.map((variation) =>
            el("li", { class: "play-variation" }, sr(`variation from move ${variation[0].ply}: `),
              el("ol", { class: "play-line" }, lineItems(variation)))))));
      }
    }
    return items;
  }

  const collapsed = new Set();     // the moves whose variations are collapsed (their ids)
  // whether a listed line (or a variation in it) holds the move *id*
  const holds = (line, id) => line.some((move) => move.id === id
    || move.variations.some((variation) => holds(variation, id)));

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
    const off = (button, disabled) => {
      if (disabled) button.setAttribute("aria-disabled", "true");
      else button.removeAttribute("aria-disabled");
    };
    const to = { "play-first": 0, "play-prev": state.ply - 1, "play-next": state.ply + 1,
                 "play-last": state.moves.length };
    for (const [id, ply] of Object.entries(to)) {
      off(navButtons[id], ply === state.ply || ply < 0 || ply > state.moves.length);
    }
    off(navButtons["play-promote"], !state.variation);
    off(navButtons["play-delete"], !state.ply);
    moveCount.textContent = state.moves.length ? `move ${state.ply} of ${state.moves.length}` : "no move yet";
  }

  // The buttons that walk the moves: made once and kept (a button drawn anew would take
  // the keyboard's focus with it); one that has nothing to do is aria-disabled, and
  // keeps focus.
  const moveCount = el("span", { class: "play-move-count" });
  const navButtons = {};
  const navButton = (id, text, title, action) => {
    navButtons[id] = el("button", { type: "button", id, title, onclick: (event) => {
      if (event.currentTarget.getAttribute("aria-disabled") !== "true") action();
    } }, text);
    return navButtons[id];
  };
  moveNav.replaceChildren(
    navButton("play-first", "« start", "the start (Home)", () => goto(0)),
    navButton("play-prev", "◀ back", "the move before (left arrow)", () => goto((s) => s.ply - 1)),
    moveCount,
    navButton("play-next", "next ▶", "the next move, again (right arrow)", () => goto((s) => s.ply + 1)),
    navButton("play-last", "end »", "the last move of this line (End)", () => goto((s) => s.moves.length)),
    navButton("play-promote", "Promote variation", "make this variation the line before it", promote),
    navButton("play-delete", "Delete from here", "delete the move shown and the moves after it", deleteMove),
    el("label", { class: "play-flip-toggle" }, flipBox, " North's row at the bottom"),
    el("button", { type: "button", id: "play-keys-open", onclick: () => showKeys(),
                   "aria-keyshortcuts": "?" }, "Keys (?)"));

  moveList.addEventListener("keydown", (event) => {
    if (!state || event.altKey || event.ctrlKey || event.metaKey) return;
    const buttons = [...moveList.querySelectorAll("button.play-move")];
    const at = buttons.indexOf(document.activeElement);
    const visit = (button) => () => gotoNode(+button.dataset.node);
    // - and + collapse and show the variations beside the move with focus
    const focusedMove = at >= 0 ? buttons[at].dataset.node : null;
    if ((event.key === "-" || event.key === "+") && focusedMove
        && moveList.querySelector(`.play-variations[data-after="${focusedMove}"]`)) {
      event.preventDefault();
      event.stopPropagation();
      if (event.key === "-") collapsed.add(focusedMove); else collapsed.delete(focusedMove);
      drawMoveList();
      const again = moveList.querySelector(`.play-move[data-node="${focusedMove}"]`);
      if (again) again.focus({ preventScroll: true });
      return;
    }
    let step = null;
    if (event.key === "ArrowLeft") step = () => goto((s) => s.ply - 1);
    else if (event.key === "ArrowRight") step = () => goto((s) => s.ply + 1);
    else if (event.key === "Home") step = () => goto(0);
    else if (event.key === "End") step = () => goto((s) => s.moves.length);
    else if (event.key === "ArrowUp" && at > 0) step = visit(buttons[at - 1]);
    else if (event.key === "ArrowDown" && at >= 0 && at < buttons.length - 1) step = visit(buttons[at + 1]);
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
      noteForm(), details, stepButton, stepBox);
  }

  // the note of the move shown: an annotation mark and a comment (the record keeps them,
  // and so the link and a record copied and pasted)
  const MARKS = [["", "no mark"], ["!", "! a good move"], ["?", "? a mistake"], ["!!", "!! a brilliant move"],
                 ["??", "?? a blunder"], ["!?", "!? an interesting move"], ["?!", "?! a dubious move"]];
  function noteForm() {
    const mark = el("select", { id: "play-note-mark" },
      MARKS.map(([value, text]) => el("option", { value, selected: value === state.mark }, text)));
    const comment = el("input", { type: "text", id: "play-note-comment", maxlength: "500",
                                  value: state.comment, placeholder: "a comment on this move" });
    const save = (event) => {
      event.preventDefault();
      act(async () => {
        let next;
        try {
          next = await engine.annotate(mark.value, comment.value);
        } catch (error) {
          if (!(error instanceof EngineError)) throw error;
          say(error.message, "error");
          return;
        }
        await update(next);
        tell(`Move ${next.ply} annotated${next.mark ? ` ${next.mark}` : ""}${next.comment ? `: ${next.comment}` : ""}.`, true);
        const again = document.getElementById("play-note-save");
        if (again) again.focus({ preventScroll: true });
      });
    };
    return el("form", { class: "play-note-form", onsubmit: save },
      el("label", { for: "play-note-mark" }, `Note on move ${state.ply}: `), mark, " ",
      el("label", { for: "play-note-comment", class: "mancala-sr" }, "Comment"), comment, " ",
      el("button", { type: "submit", id: "play-note-save" }, "Save note"));
  }

  // the address says what is on the board: a reload or a shared link restores it
  function updateAddress() {
    const params = { ...state.link };
    if (valuesBox.checked) params.values = "1";
    if (opponent.value !== "person") params.opponent = opponent.value;
    if (sideSelect.value !== "south") params.as = sideSelect.value;
    if (flipBox.checked !== (sideSelect.value === "north")) params.flip = flipBox.checked ? "1" : "0";
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
  // (play.py gives each legal move's summary with the state: no question to the engine)
  function previewText(name, move) {
    const ends = move.ends.map((e) => e.text.replace(/^move ends: /, "ends: ").replace(/^game over: /, "the game ends: "));
    return `Sowing ${name}: ${plural(move.laps, "lap", "laps")}` +
      (move.groups.length ? "; " + move.groups.map((g) => `${g.player} takes ${g.seeds} from ${g.pits.join(", ")} (${g.rule})`).join("; ") : "; no capture") +
      (ends.length ? "; " + ends.join("; ") : "") + ".";
  }

  function showPreview(name) {
    const move = state && state.previews ? state.previews[name] : null;
    if (quiet || !move) return;
    clearPreviewMarks();
    for (const pit of move.captured_pits) {
      const node = boardBox.querySelector(`[data-pit="${pit}"]`);
      if (node) node.classList.add("pit-preview-capture");
    }
    preview.textContent = previewText(name, move);
  }

  // The values of the position shown, asked of the engine (the one place they are
  // asked for: the worker fetches the solver's table the first time).
  async function refreshValues() {
    values = null;
    if (!valuesBox.checked || !engine) return;
    // rules the solver did not solve: no value at all (the table holds other rules')
    if (state.no_values || state.unsolved) { values = { unavailable: state.no_values || state.unsolved }; return; }
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

  // the moves of a listed tree, variations and all
  const counted = (line) => line.reduce((n, move) =>
    n + 1 + move.variations.reduce((m, variation) => m + counted(variation), 0), 0);

  function deleteMove() {
    generation++;
    act(async () => {
      if (!state.ply) return;
      const before = counted(state.tree);
      busy = false;
      await update(await engine.deleteMove());
      tell(`Deleted ${plural(before - counted(state.tree), "move", "moves")}. ${shownText()}`, true);
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
        if (opponent.value === "perfect") {     // no values to play by: another plays, said
          opponent.value = state.kernel ? "strong" : "greedy";
          say(`The perfect player cannot move: ${error.message} The ${opponent.value} player plays instead.`,
              "error");
          render();
          maybeComputer();
          return;
        }
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
      while (!humanPlays(next) && next.ply) next = await engine.undo(1);
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
      while (!humanPlays(next) && next.ply < next.moves.length) {
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
    const why = state ? state.no_values || state.unsolved : null;
    perfect.disabled = Boolean(why);
    perfect.textContent = !why ? "the perfect player (solved)"
      : state.unsolved ? "the perfect player (the solved rules only)"
      : "the perfect player (no values in this build)";
    if (perfect.disabled && opponent.value === "perfect") {
      opponent.value = state && state.kernel ? "strong" : "greedy";
      say(`The perfect player is not offered here (${why}), so the ${opponent.value} player plays instead.`);
    }
    explainOpponents();
  }

  // why a player is not offered, beside the choice of player (and its description)
  function explainOpponents() {
    const why = [];
    if (state && (state.no_values || state.unsolved)) {
      // its first words here (the whole reason is under Analysis, below)
      const reason = (state.no_values || state.unsolved).split(/ \(|: |\. /)[0].replace(/\.$/, "");
      why.push(`The perfect player is not offered: ${reason} (see Analysis, below).`);
    }
    if (state && !state.kernel) why.push("The strong player searches with this reference's rules only.");
    opponentWhy.textContent = why.join(" ");
    opponentWhy.hidden = !why.length;
    if (why.length) opponent.setAttribute("aria-describedby", "play-opponent-why");
    else opponent.removeAttribute("aria-describedby");
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
    explainOpponents();
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
  // your side: the board turns with it (North's row at the bottom), and the built-in
  // player takes the other side (both: no built-in player moves)
  sideSelect.addEventListener("change", () => {
    flipBox.checked = sideSelect.value === "north";
    opponent.disabled = sideSelect.value === "both";
    render();
    maybeComputer();
  });
  flipBox.addEventListener("change", () => render());
  valuesBox.addEventListener("change", () => act(async () => { await refreshValues(); render(); }));
  // ← → Home End walk through the moves wherever the focus is (except where those keys
  // do something else: a text box, a list to choose from, the board, the move list),
  // and ← → never reach the theme's page navigation (Sphinx's, on the document): the
  // listener is on the body, which the key passes first, and stops them there.
  document.body.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const arrow = event.key === "ArrowLeft" || event.key === "ArrowRight";
    if (arrow) event.stopPropagation();
    const target = event.target;
    const typing = target.closest && (target.closest("input, select, textarea, [contenteditable]")
      || target.isContentEditable);
    if (event.key === "?" && !typing) { event.preventDefault(); showKeys(); return; }
    if (!state || typing || (target.closest && target.closest(".mancala-board, .stepper, #play-movelist, dialog"))) return;
    const ply = { ArrowLeft: (s) => s.ply - 1, ArrowRight: (s) => s.ply + 1, Home: () => 0,
                  End: (s) => s.moves.length }[event.key];
    if (ply === undefined) return;
    event.preventDefault();
    goto(ply);
  });

  // -- analysis from the values: the best line from here, the game's value move by move --
  const signed = (v) => (v > 0 ? `+${v}` : String(v).replace("-", "\u2212"));
  const analysisWhy = el("p", { id: "play-analysis-why", class: "play-note" });
  const bestOut = el("div", { id: "play-best-line", class: "play-best-line" });
  const reviewOut = el("div", { id: "play-review", class: "play-review" });
  const bestButton = el("button", { type: "button", id: "play-best", onclick: () => showBestLine() },
    "Best line from here");
  const reviewButton = el("button", { type: "button", id: "play-review-button", onclick: () => showReview() },
    "Graph of the game's value");
  const analysisBox = el("section", { class: "play-analysis-box", "aria-labelledby": "play-analysis-title" },
    el("h2", { class: "play-subheading", id: "play-analysis-title" }, "Analysis from the exact values"),
    analysisWhy, el("div", { class: "play-analysis-buttons" }, bestButton, " ", reviewButton), bestOut, reviewOut);

  // offered where the values are (else why not); what was shown stays while it holds
  function drawAnalysis() {
    const why = state.no_values || state.unsolved;
    analysisWhy.textContent = why ? `Not offered here: ${why}`
      : "From the solver's values: the best line from the position shown (a move of the best " +
        "value for its player at each turn, of equal ones the first pit), and the margin South " +
        "can force after each move of the game, the moves that lost some marked.";
    bestButton.hidden = reviewButton.hidden = Boolean(why);
    if (why || bestOut.dataset.node !== String(state.node) || bestOut.dataset.record !== state.record) {
      bestOut.replaceChildren();
      delete bestOut.dataset.node;
    }
    if (why || reviewOut.dataset.record !== state.record) {
      reviewOut.replaceChildren();
      delete reviewOut.dataset.record;
    }
  }

  function showBestLine() {
    act(async () => {
      const shown = state;
      bestOut.replaceChildren(el("p", {}, "Finding the best line\u2026"));
      let line;
      try { line = await engine.bestLine(); } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        line = { unavailable: error.message };
      }
      if (state !== shown) return;
      if (line.unavailable) { bestOut.replaceChildren(el("p", {}, line.unavailable)); return; }
      bestOut.dataset.node = String(state.node);
      bestOut.dataset.record = state.record;
      const from = state.ply ? `move ${state.ply}` : "the start";
      bestOut.replaceChildren(
        el("p", {}, `The best line from ${from}: ${line.player} to move can force ${signed(line.value)} ` +
          `(captures to come, theirs less the opponent's)${line.complete ? ", to the game's end" : `; its first ${line.moves.length} moves`}:`),
        el("ol", { class: "play-best-moves" }, line.moves.map((m, i) =>
          el("li", {}, `${state.ply + i + 1}. `, sr(`${m.player} `),
             el("span", { "aria-hidden": "true" }, m.player[0]), ` ${m.pit}`))),
        el("button", { type: "button", id: "play-best-play", onclick: () => playLine(line.moves) },
          "Play it on the board"));
    });
  }

  function playLine(moves) {
    generation++;
    act(async () => {
      let next = state;
      for (const move of moves) next = await engine.play(move.pit);
      busy = false;
      tell(`Played the best line (a variation, unless it goes on from the end of the game): ${plural(moves.length, "move", "moves")}. ${next.players[next.to_move]} to move.`, true);
      await update(next);
    });
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs = {}, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    for (const child of children) node.append(child);
    return node;
  }

  // the margin South can force after each move, a line; the moves that lost value marked
  function graph(review) {
    // as wide as its column (at most 640 px), so that its words are never shrunk on a phone
    const W = Math.max(300, Math.min(640, Math.round(reviewOut.clientWidth || 640))), H = 190, PAD = 34;
    const last = review.points[review.points.length - 1].ply || 1;
    const top = Math.max(2, ...review.points.map((p) => Math.abs(p.margin)));
    const x = (ply) => PAD + (ply * (W - 2 * PAD)) / last;
    const y = (m) => H / 2 - (m * (H / 2 - 16)) / top;
    const lost = new Map(review.losses.map((l) => [l.ply, l]));
    const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "play-review-graph", role: "img",
                                 "aria-labelledby": "play-review-caption" },
      svg("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "play-review-zero" }),
      svg("text", { x: 2, y: y(top) + 4, class: "play-review-label" }, signed(top)),
      svg("text", { x: 2, y: y(0) + 4, class: "play-review-label" }, "0"),
      svg("text", { x: 2, y: y(-top) + 4, class: "play-review-label" }, signed(-top)),
      svg("text", { x: PAD + 4, y: 12, class: "play-review-label" }, `${state.players[0]} ahead`),
      svg("text", { x: PAD + 4, y: H - 4, class: "play-review-label" }, `${state.players[1]} ahead`),
      svg("polyline", { class: "play-review-line", points: review.points.map((p) => `${x(p.ply)},${y(p.margin)}`).join(" ") }));
    for (const p of review.points) {
      const loss = lost.get(p.ply);
      const dot = svg("circle", { cx: x(p.ply), cy: y(p.margin), r: loss ? 5 : 2.2,
                                  class: loss ? "play-review-loss" : "play-review-point", "data-ply": p.ply },
        svg("title", {}, loss ? lossText(loss) : `after move ${p.ply}: ${signed(p.margin)}`));
      picture.append(dot);
    }
    return picture;
  }

  const lossText = (l) => `move ${l.ply}, ${l.player} ${l.pit}: lost ${l.loss} (best: ${l.best.join(", ")})`;

  function showReview() {
    act(async () => {
      const shown = state;
      reviewOut.replaceChildren(el("p", {}, "Reading the values along the game\u2026"));
      let review;
      try { review = await engine.review(); } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        review = { unavailable: error.message };
      }
      if (state !== shown) return;
      if (review.unavailable) { reviewOut.replaceChildren(el("p", {}, review.unavailable)); return; }
      reviewOut.dataset.record = state.record;
      const first = review.points[0], end = review.points[review.points.length - 1];
      reviewOut.replaceChildren(
        el("p", { id: "play-review-caption" }, `The margin ${state.players[0]} can force after each move ` +
          `of the game (${state.players[0]}'s seeds less ${state.players[1]}'s at the end, with perfect ` +
          `play from there): ${signed(first.margin)} at the start, ${signed(end.margin)} after move ${end.ply}` +
          `; ${plural(review.losses.length, "move", "moves")} lost value` +
          (review.points.length < state.moves.length + 1 ? `; the values end after move ${end.ply}.` : ".")),
        graph(review),
        review.losses.length ? el("ul", { class: "play-review-losses" }, review.losses.map((l) =>
          el("li", {}, el("button", { type: "button", class: "play-review-move", "data-ply": String(l.ply),
                                      onclick: () => gotoNode(l.id) }, lossText(l))))) : "");
    });
  }

  // -- an image of the position: an SVG drawn as the site's diagrams draw a board (their
  // colours, from the build: preload.json), as the board is shown (turned or not) ------
  const COLOURS = (preload && preload.diagram) || { background: "#FFFFFF", ink: "#1A1A1A", grey: "#5A5A5A",
    players: ["#0072B2", "#D55E00", "#009E73"], tints: ["#D4E6F3", "#F8DECC", "#CCECE3"] };
  function positionImage() {
    const n = state.pits_per_row, R = 26, GAP = 10, STORE = state.stores ? 64 : 0;
    const W = 2 * 24 + STORE * 2 + n * (2 * R + GAP) - GAP, H = 2 * (2 * R) + GAP + 110;
    const c = COLOURS;
    const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const turned = flipBox.checked;
    const top = turned ? [...Array(n).keys()].reverse() : [...Array(n).keys()].map((i) => 2 * n - 1 - i);
    const bottom = turned ? [...Array(n).keys()].map((i) => n + i) : [...Array(n).keys()];
    const parts = [];
    const x0 = 24 + STORE;
    const pit = (index, row) => {
      const owner = state.owners[index];
      const cx = x0 + R + (row === 0 ? top : bottom).indexOf(index) * (2 * R + GAP);
      const cy = 52 + R + row * (2 * R + GAP);
      parts.push(`<g data-pit="${esc(state.names[index])}" data-seeds="${state.pits[index]}">` +
        `<circle cx="${cx}" cy="${cy}" r="${R}" fill="${c.tints[owner]}" stroke="${c.players[owner]}" stroke-width="2.5"/>` +
        `<text x="${cx}" y="${cy + 6}" text-anchor="middle" font-size="18" font-weight="bold" fill="${c.ink}">${state.pits[index]}</text>` +
        `<text x="${cx}" y="${row === 0 ? cy - R - 6 : cy + R + 16}" text-anchor="middle" font-size="12" fill="${c.grey}">${esc(state.names[index])}</text></g>`);
    };
    top.forEach((i) => pit(i, 0));
    bottom.forEach((i) => pit(i, 1));
    if (state.stores) {     // each player's store at their right, as the diagrams draw them
      const store = (player, left) => {
        const x = left ? 24 : W - 24 - STORE + 8;
        parts.push(`<g data-store="${player}"><rect x="${x}" y="52" width="${STORE - 8}" height="${4 * R + GAP}" rx="18" ` +
          `fill="${c.tints[player]}" stroke="${c.players[player]}" stroke-width="2.5"/>` +
          `<text x="${x + (STORE - 8) / 2}" y="${52 + 2 * R + GAP / 2 + 6}" text-anchor="middle" font-size="18" font-weight="bold" fill="${c.ink}">${state.captured[player]}</text></g>`);
      };
      store(turned ? 0 : 1, true);
      store(turned ? 1 : 0, false);
    }
    const title = `${state.title}, ${state.ply ? `after move ${state.ply}` : "the start"}: ${turnText()}`;
    const score = state.players.map((p, i) => `${p} ${state.captured[i]}`).join(", ");
    const y = 52 + 4 * R + GAP;
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ` +
      `font-family="DejaVu Sans, sans-serif" role="img" aria-label="${esc(title)}">` +
      `<title>${esc(title)}</title><rect width="${W}" height="${H}" fill="${c.background}"/>` +
      `<text x="24" y="26" font-size="15" font-weight="bold" fill="${c.ink}">${esc(title)}</text>` +
      parts.join("") +
      `<text x="24" y="${y + 40}" font-size="13" fill="${c.ink}">Captured: ${esc(score)}</text>` +
      `<text x="24" y="${y + 60}" font-size="12" fill="${c.grey}" font-family="DejaVu Sans Mono, monospace">${esc(state.position)}</text>` +
      "</svg>\n";
  }

  function downloadImage() {
    const blob = new Blob([positionImage()], { type: "image/svg+xml" });
    const link = el("a", { href: URL.createObjectURL(blob),
                           download: `${state.game}-${state.ply ? `move-${state.ply}` : "start"}.svg` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    say("The image of the position (SVG) is downloaded.");
  }

  // the keyboard's shortcuts, listed on ? (and by the Keys button)
  const KEYS = [
    ["\u2190 \u2192", "the move before, the move after (anywhere on the page but a text box, a list to choose from, the board)"],
    ["Home End", "the start, the end of the line shown"],
    ["\u2191 \u2193", "in the move list: every move listed, variations too"],
    ["- +", "in the move list, on a move with variations beside it: collapse them, show them"],
    ["\u2190 \u2192 \u2191 \u2193 Home End", "on the board: from pit to pit (the pits you may play)"],
    ["Enter, Space", "on a pit: sow it; on a move of the list: show it"],
    ["Tab", "the next control: the board and the move list are one stop each"],
    ["?", "this list"],
    ["Esc", "close this list"],
  ];
  const keysDialog = el("dialog", { id: "play-keys", class: "play-keys", "aria-labelledby": "play-keys-title" },
    el("h2", { id: "play-keys-title", class: "play-subheading" }, "Keyboard shortcuts"),
    el("dl", {}, KEYS.flatMap(([keys, what]) => [el("dt", {}, el("kbd", {}, keys)), el("dd", {}, what)])),
    el("form", { method: "dialog" }, el("button", { type: "submit", id: "play-keys-close" }, "Close")));
  function showKeys() {
    if (!keysDialog.open) keysDialog.showModal();
  }

  root.replaceChildren(
    el("div", { class: "play-controls" },
      el("label", {}, "Game ", gameSelect),
      el("label", {}, "Ruleset ", rulesetSelect),
      el("label", {}, "You play ", sideSelect),
      el("label", {}, "against ", opponent),

      el("button", { type: "button", id: "play-new", onclick: start }, "New game"),
      el("button", { type: "button", id: "play-undo", onclick: undo }, "Undo"),
      el("button", { type: "button", id: "play-redo", onclick: redo }, "Redo"),
      valuesLabel),
    opponentWhy,
    rulesetInfo,
    pending,
    boardBox, moveNav, turn, preview, valueLine, announce,
    el("section", { class: "play-moves-box", "aria-label": "The moves" },
      el("h2", { class: "play-subheading" }, "Moves"),
      el("p", { class: "play-note" }, "Choose a move, or use \u2190 \u2192 Home End (\u2191 \u2193 " +
        "in the list reach the variations too), to see the position after it. A move other than " +
        "the next one, played from an earlier position, starts a variation: the moves after it " +
        "stay, listed beside it. Undo goes back, Redo forward again."),
      moveList, explanation),
    analysisBox,
    el("details", { class: "play-options-box", open: true },
      el("summary", {}, "Options: each switches a rule (editorial completions, variants, forms)"),
      el("p", { class: "play-note" }, "The ruleset chosen above sets them; an option changed here " +
        "overrides the ruleset's value."),
      optionBox),
    el("div", { class: "play-records" },
      el("div", {}, el("label", { for: "play-record" }, "This game's record (variations in parentheses, notes after their moves)"), recordOut,
         el("button", { type: "button", id: "play-copy", onclick: copy }, "Copy"), " ",
         el("button", { type: "button", id: "play-image", onclick: () => downloadImage() }, "Image of the position (SVG)"),
         " ", linkOut),
      el("div", {}, el("label", { for: "play-replay" }, "Paste a record to replay it"), recordIn,
         el("button", { type: "button", id: "play-load", onclick: replay }, "Replay"))),
    keysDialog,
  );

  // a link with a game (play.html?game=bakuk&moves=a,B,c&values=1) restores it
  if (query.opponent && OPPONENTS.some(([value]) => value === query.opponent)) opponent.value = query.opponent;
  if (query.values === "1") valuesBox.checked = true;
  if (["south", "north", "both"].includes(query.as)) sideSelect.value = query.as;
  flipBox.checked = query.flip ? query.flip === "1" : sideSelect.value === "north";
  // until the engine is ready only the board takes a move: the controls wait for it
  const waiting = () => [gameSelect, rulesetSelect, opponent, valuesBox, sideSelect,
    ...root.querySelectorAll(".play-controls button, .play-options select, #play-load")];
  if (plain) {
    state = preload.states[query.game || "ba-awa"];
    showOptions();
    perfectAvailable();
    await update(state);
    for (const control of waiting()) control.disabled = true;
    root.dataset.board = "ready";
    say("The engine is loading (once: the largest download of the site); the board already takes your move.", "info", true);
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
      if (first.note) say(first.note, "error");
    } catch (error) {
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
  opponent.disabled = sideSelect.value === "both";
  state = first;
  showOptions();
  perfectAvailable();
  busy = false;
  await update(first);
  root.dataset.board = "ready";
  root.dataset.ready = "true";
  keepOffline();
  if (status.dataset.loading) say("");
  if (queued) {                // the move made while the engine loaded
    const pit = queued;
    queued = null;
    if (state.legal.includes(pit) && humanToMove()) play(pit);
  }
}

// After one visit the page reloads and plays offline: its service worker (play-sw.js, at
// the site's root) keeps the engine's files by the build's digest of them, and the page's
// own files. Asked once the engine is ready, so that it takes nothing from the page's
// start (most of what it keeps comes from the browser's HTTP cache); the page is marked
// data-offline="ready" once it is all kept.
function keepOffline() {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data && "kept" in data) root.dataset.offline = data.kept ? "ready" : "failed";
    if (data && data.kept === false) console.warn(`the page is not kept for offline use: ${data.why}`);
  });
  navigator.serviceWorker.register(new URL("play-sw.js", ROOT), { scope: ROOT.href })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.active.postMessage("keep"))
    .catch((error) => console.warn(`no offline copy of the page: ${error.message}`));
}

main();

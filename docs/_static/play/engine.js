// The mancala_spec engine in the page: Pyodide (copied into the built site, no CDN),
// the project's own wheel, and play.py (the bridge that returns JSON), all in a Web
// Worker of their own (worker.js), so the page is never held up while Python starts
// or a built-in player searches. Shared by the Play page (play.js) and the "Try it"
// buttons on the rules pages (tryit.js). Every call is a message to the worker and
// its answer: each method returns a promise.

export const STATIC = new URL("../", import.meta.url);   // the site's _static/
export const ROOT = new URL("../../", import.meta.url);  // the site's root

async function fetchOk(url, kind) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url} (${response.status})`);
  return kind === "json" ? response.json() : kind === "text" ? response.text() : response.arrayBuffer();
}

let worker = null;
let workerStarted = null;          // when the worker was started (ms from navigation)
let enginePromise = null;

// The worker: the one the Play page started while it was read (play.md), else one
// started now.
function startWorker() {
  if (!worker && window.mancalaWorker) {
    worker = window.mancalaWorker;
    workerStarted = worker.started;
  } else if (!worker) {
    workerStarted = performance.now();
    worker = new Worker(new URL("play/worker.js", STATIC), { type: "module" });
  }
  return worker;
}

// Start the engine; resolves, once it is ready, to an object whose methods call
// play.py's functions in the worker and resolve to their parsed JSON answers (a bad
// input rejects with an EngineError, whose message is play.py's one line).
export function loadEngine() {
  if (!enginePromise) enginePromise = startEngine();
  return enginePromise;
}

// Pyodide's WebAssembly, compiled here (streaming, off the page's thread) and its module
// handed to the worker (see worker.js): a browser keeps what a page compiled for the
// next visit, not what a worker did (engine ready on a reload, bench_play_load at load
// ≈ 7: a median 6.1 s compiled in the worker, 3.8 s on the page before the worker).
function compileFor(thread) {
  WebAssembly.compileStreaming(fetch(new URL("pyodide/pyodide.asm.wasm", STATIC))).then(
    (module) => thread.postMessage({ wasm: module }),
    () => thread.postMessage({ wasm: null }));       // the worker compiles it itself
}

async function startEngine() {
  if (location.protocol === "file:") {
    throw new Error("this page was opened from disk (file://), where browsers load no " +
                    "WebAssembly: serve the site with  python -m http.server  (see the Play page)");
  }
  const started = performance.now();
  const thread = startWorker();
  compileFor(thread);
  const waiting = new Map();       // id -> {resolve, reject} of each call not yet answered
  let next = 0;
  let broken = null;               // why the worker stopped, if it did
  let progress = null;             // told how the files of a call come in (Ba-awa's values)
  thread.addEventListener("message", ({ data }) => {
    const call = waiting.get(data.id);
    if (!call) return;
    if ("progress" in data) { if (progress) progress(data.progress); return; }
    waiting.delete(data.id);
    if ("error" in data) call.reject(new Error(data.error));
    else call.resolve(data.answer);
  });
  const stop = (why) => {
    broken = new Error(`the engine's worker stopped (${why || "it could not be loaded"})`);
    for (const call of waiting.values()) call.reject(broken);
    waiting.clear();
  };
  thread.addEventListener("error", (event) => {     // the worker's script failed to load or run
    event.preventDefault();
    stop(event.message);
  });
  if (thread.failed) stop(thread.failed);           // before this listened
  const send = (method, ...args) => new Promise((resolve, reject) => {
    if (broken) { reject(broken); return; }
    const id = ++next;
    waiting.set(id, { resolve, reject });
    thread.postMessage({ id, method, args });
  });
  const ask = async (method, ...args) => {
    const answer = JSON.parse(await send(method, ...args));
    if (answer && answer.error) throw new EngineError(answer.error);
    return answer;
  };
  const timings = JSON.parse(await send("ready"));
  const engine = {
    loadTime: performance.now() - started,
    workerStarted,
    timings,                       // when each step of the worker's start ended (worker.js)
    games: () => ask("games"),
    newGame: (game, options, start = "", ruleset = "mancala_spec") =>
      ask("newGame", game, JSON.stringify(options), start, ruleset),
    play: (pit) => ask("play", pit),
    goto: (ply) => ask("goto", ply),
    gotoNode: (id) => ask("gotoNode", id),
    promote: () => ask("promote"),
    deleteMove: () => ask("deleteMove"),
    undo: (count) => ask("undo", count),
    computer: (kind) => ask("computer", kind),
    preview: (pit) => ask("preview", pit),
    // the values of the position shown (the worker fetches the solver's table the
    // first time): {values: {pit: value}, value} or {unavailable: why}
    values: () => ask("values"),
    // the best line from the position shown; the game's value move by move (play.py)
    bestLine: () => ask("bestLine"),
    annotate: (mark, comment) => ask("annotate", mark, comment),
    review: () => ask("review"),
    // fn({names, done, total}) as the worker fetches the files of Ba-awa's values
    onProgress: (fn) => { progress = fn; },
    load: (text) => ask("load", text),
    loadLink: (query) => ask("loadLink", JSON.stringify(query)),
    exampleMove: (code) => ask("exampleMove", code),
    exampleSteps: (game, options, position, pit) =>
      ask("exampleSteps", game, JSON.stringify(options), position, pit),
  };
  window.mancalaEngine = engine;   // for the console and the browser tests
  return engine;
}

export class EngineError extends Error {}

// -- rule links: traceability.json says which page holds each rule ------------------

let rulePages = null;
export async function ruleLinks() {
  if (!rulePages) {
    rulePages = fetchOk(new URL("traceability.json", ROOT), "json")
      .then((data) => data.rules)
      .catch(() => ({}));
  }
  return rulePages;
}

export function ruleHref(rules, id) {
  const entry = rules[id];
  const page = entry ? entry.page : "rules.html";
  return new URL(`${page}#rule-${id}`, ROOT).href;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// -- the board --------------------------------------------------------------------

// Pits as South sees the board: North's row on top, right to left (A is on the right),
// South's row below, left to right. Returns the pit indices row by row.
export function rows(pitsPerRow) {
  const north = [], south = [];
  for (let i = 2 * pitsPerRow - 1; i >= pitsPerRow; i--) north.push(i);
  for (let i = 0; i < pitsPerRow; i++) south.push(i);
  return [north, south];
}

// The name a screen reader gives a pit: "pit c, South, 4 seeds".
export function pitLabel(name, player, seeds) {
  return `pit ${name}, ${player}, ${seeds} ${seeds === 1 ? "seed" : "seeds"}`;
}

// Draw a board: data = {pits, owners, names, pits_per_row, players, captured, stores};
// options: {legal: [names], onPlay(name), highlight: index, position: text,
// marks: {name: [classes]}, values: {name: value}, onFocusPit(name), onLeavePit(),
// turned: true to draw it as North sees it (North's row at the bottom, A on its left)}.
// Two-player Ba-awa draws its stores at the ends, as the diagrams do (South's at
// South's right, North's at North's right); elsewhere the score line says who holds what.
export function drawBoard(target, data, options = {}) {
  const turned = Boolean(options.turned);
  const board = el("div", {
    class: "mancala-board" + (data.stores ? " with-stores" : "") + ` players-${data.players.length}`
      + (turned ? " turned" : ""),
    "data-position": options.position,
    role: "group",
    "aria-label": options.label || "board",
    style: `--pits-per-row: ${data.pits_per_row}`,
  });
  const legal = new Set(options.legal || []);
  const marks = options.marks || {};
  const values = options.values || null;
  const store = (player) => el("div", {
    class: `store store-${player === 0 ? "south" : "north"} owner-${player}`,
    "data-player": player, "data-seeds": data.captured[player],
    role: "img", "aria-label": `${data.players[player]}'s store, ${data.captured[player]} seeds`,
  }, el("span", { class: "store-seeds", "aria-hidden": "true" }, String(data.captured[player])),
     el("span", { class: "store-name", "aria-hidden": "true" }, data.players[player]));
  if (data.stores) board.append(store(turned ? 0 : 1));
  const [north, south] = rows(data.pits_per_row);
  // turned, the board is seen from North's side: South's row on top (a on the right),
  // North's below (A on the left); the pits in the order they are seen, for the keys too
  const drawn = turned ? [south.slice().reverse(), north.slice().reverse()] : [north, south];
  for (const row of drawn) {
    for (const [column, index] of row.entries()) {
      const name = data.names[index];
      const owner = data.owners[index];
      const playable = legal.has(name) && options.onPlay;
      const seeds = data.pits[index];
      const player = data.players[owner];
      const value = values && playable && name in values ? values[name] : null;
      const marked = marks[name] || [];
      const sr = (text) => el("span", { class: "mancala-sr" }, text);
      // the name comes from the content, in the order "pit c, South, 4 seeds":
      // the words only a screen reader needs are visually hidden
      const pit = el("button", {
        type: "button",
        class: [`pit owner-${owner}`, index >= data.pits_per_row ? "row-north" : "row-south",
                index === options.highlight ? "pit-highlight" : "",
                ...marked].filter(Boolean).join(" "),
        "data-pit": name,
        "data-seeds": seeds,
        "data-owner": owner,
        "data-value": value === null ? null : String(value),
        disabled: !playable,
        style: `--col: ${column + 1}`,
        onclick: playable ? () => options.onPlay(name) : undefined,
        onmouseenter: playable && options.onFocusPit ? () => options.onFocusPit(name) : undefined,
        onfocus: playable && options.onFocusPit ? () => options.onFocusPit(name) : undefined,
        onmouseleave: options.onLeavePit || undefined,
      }, sr("pit "),
         el("span", { class: "pit-name" }, name,
            data.players.length > 2 ? el("span", { class: "pit-owner", "aria-hidden": "true" }, player[0]) : null),
         sr(`, ${player}, `),
         el("span", { class: "pit-seeds" }, String(seeds)),
         sr(seeds === 1 ? " seed" : " seeds"),
         value === null ? null : [sr(", worth "), el("span", { class: "pit-value" }, (value > 0 ? "+" : "") + value)],
         marked.includes("pit-last") ? sr(", the last move") : null,
         marked.includes("pit-captured") ? sr(", captured from") : null);
      board.append(pit);
    }
  }
  if (data.stores) board.append(store(turned ? 1 : 0));
  // arrow keys move between the playable pits (one tab stop: the board)
  const playable = [...board.querySelectorAll("button.pit:not([disabled])")];
  playable.forEach((pit, i) => { pit.tabIndex = i === 0 ? 0 : -1; });
  board.addEventListener("keydown", (event) => {
    const at = playable.indexOf(document.activeElement);
    if (at < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    let next = null;
    if (step) next = playable[(at + step + playable.length) % playable.length];
    else if (event.key === "Home") next = playable[0];
    else if (event.key === "End") next = playable[playable.length - 1];
    if (!next) return;
    event.preventDefault();
    event.stopPropagation();
    playable.forEach((pit) => { pit.tabIndex = pit === next ? 0 : -1; });
    next.focus();
  });
  const score = el("p", { class: "mancala-score" },
    data.players.map((player, i) =>
      el("span", { class: `score owner-${i}`, "data-player": i },
        `${player} ${data.captured[i]}`)));
  target.replaceChildren(board, score);
  return board;
}

// -- stepping through a move ------------------------------------------------------

// A step-through of one move: a board, the current event with its rule linked,
// and buttons to go back and forth. data = {before, captured, owners, names,
// pits_per_row, players, steps: [{kind, rule, text, pit, pits, captured}]}.
export async function stepper(target, data) {
  const rules = await ruleLinks();
  const boardBox = el("div", { class: "stepper-board" });
  const caption = el("p", { class: "stepper-event", "aria-live": "polite" });
  const list = el("ol", { class: "stepper-events" });
  let at = -1;
  const items = data.steps.map((step, i) => {
    const item = el("li", { "data-step": i, "data-kind": step.kind, "data-rule": step.rule },
      el("button", { type: "button", class: "stepper-jump", onclick: () => show(i) }, step.text),
      " ", el("a", { href: ruleHref(rules, step.rule), class: "rule-link" }, step.rule));
    list.append(item);
    return item;
  });
  const back = el("button", { type: "button", class: "stepper-back", onclick: () => show(at - 1) }, "◀ back");
  const next = el("button", { type: "button", class: "stepper-next", onclick: () => show(at + 1) }, "step ▶");
  const counter = el("span", { class: "stepper-counter" });
  function show(i) {
    at = Math.max(-1, Math.min(i, data.steps.length - 1));
    const step = at >= 0 ? data.steps[at] : null;
    drawBoard(boardBox, {
      ...data,
      pits: step ? step.pits : data.before,
      captured: step ? step.captured : data.captured,
    }, { highlight: step ? step.pit : null });
    caption.replaceChildren(...(step
      ? [`${at + 1}. ${step.text} `, el("a", { href: ruleHref(rules, step.rule), class: "rule-link" }, step.rule)]
      : ["Before the move. Press step ▶ to sow seed by seed."]));
    caption.dataset.step = at;
    items.forEach((item, j) => item.classList.toggle("stepper-current", j === at));
    counter.textContent = `${at + 1} / ${data.steps.length}`;
    back.disabled = at < 0;
    next.disabled = at >= data.steps.length - 1;
  }
  target.replaceChildren(boardBox, el("div", { class: "stepper-controls" }, back, counter, next), caption, list);
  show(-1);
  return { show };
}

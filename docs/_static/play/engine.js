// The mancala_spec engine in the page: Pyodide (copied into the built site, no CDN),
// the project's own wheel, and play.py (the bridge that returns JSON). Shared by the
// Play page (play.js) and the "Try it" buttons on the rules pages (tryit.js).

export const STATIC = new URL("../", import.meta.url);   // the site's _static/
export const ROOT = new URL("../../", import.meta.url);  // the site's root

let enginePromise = null;

// Load Pyodide, install the wheel, run play.py; resolves to an object whose methods
// call play.py's functions and parse their JSON answers.
export function loadEngine() {
  if (!enginePromise) enginePromise = startEngine();
  return enginePromise;
}

async function fetchOk(url, kind) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url} (${response.status})`);
  return kind === "json" ? response.json() : kind === "text" ? response.text() : response.arrayBuffer();
}

async function startEngine() {
  if (location.protocol === "file:") {
    throw new Error("this page was opened from disk (file://), where browsers load no " +
                    "WebAssembly: serve the site with  python -m http.server  (see the Play page)");
  }
  const started = performance.now();
  const [{ loadPyodide }, manifest] = await Promise.all([
    import(new URL("pyodide/pyodide.mjs", STATIC).href),
    fetchOk(new URL("play/manifest.json", STATIC), "json"),
  ]);
  const [pyodide, wheel, bridge] = await Promise.all([
    loadPyodide({ indexURL: new URL("pyodide/", STATIC).href, packages: [] }),
    fetchOk(new URL(`play/${manifest.wheel}`, STATIC), "bytes"),
    fetchOk(new URL("play/play.py", STATIC), "text"),
  ]);
  pyodide.unpackArchive(wheel, "wheel");
  const namespace = pyodide.globals.get("dict")();
  pyodide.runPython(bridge, { globals: namespace });
  const fn = (name) => namespace.get(name);
  const call = fn("call");
  const session = fn("session");
  const ask = (method, ...args) => {
    const answer = JSON.parse(call(method, ...args));
    if (answer && answer.error) throw new EngineError(answer.error);
    return answer;
  };
  const engine = {
    pyodide,
    loadTime: performance.now() - started,
    games: () => ask(fn("games")),
    newGame: (game, options) => ask(session.new, game, JSON.stringify(options)),
    play: (pit) => ask(session.play, pit),
    undo: (count) => ask(session.undo, count),
    computer: (kind) => session.computer(kind),
    load: (text) => ask(session.load, text),
    exampleMove: (code) => ask(fn("example_move"), code),
    exampleSteps: (game, options, position, pit) =>
      ask(fn("example_steps"), game, JSON.stringify(options), position, pit),
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

// Draw a board: data = {pits, owners, names, pits_per_row, players, captured};
// options: {legal: [names], onPlay(name), highlight: index, position: text}.
export function drawBoard(target, data, options = {}) {
  const board = el("div", {
    class: "mancala-board",
    "data-position": options.position,
    role: "group",
    "aria-label": "board",
    style: `--pits-per-row: ${data.pits_per_row}`,
  });
  const legal = new Set(options.legal || []);
  for (const row of rows(data.pits_per_row)) {
    for (const index of row) {
      const name = data.names[index];
      const owner = data.owners[index];
      const playable = legal.has(name) && options.onPlay;
      const pit = el("button", {
        type: "button",
        class: `pit owner-${owner}` + (index === options.highlight ? " pit-highlight" : ""),
        "data-pit": name,
        "data-seeds": data.pits[index],
        disabled: !playable,
        "aria-label": `pit ${name} (${data.players[owner]}): ${data.pits[index]}`,
        onclick: playable ? () => options.onPlay(name) : undefined,
      }, el("span", { class: "pit-seeds" }, String(data.pits[index])),
         el("span", { class: "pit-name" }, name));
      board.append(pit);
    }
  }
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

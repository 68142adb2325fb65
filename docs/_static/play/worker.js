// The engine's own thread: Pyodide, the project's wheel and play.py (the bridge that
// returns JSON) run here, in a Web Worker, so that starting Python (seconds on a slow
// machine) and a long search never hold up the page, which stays free to draw the
// board and take a click. engine.js starts this worker and speaks to it; each message
// {id, method, args} is answered by {id, answer} (play.py's JSON text) or {id, error}.
// Messages are answered one at a time, in the order they came: the page's game (the
// session) lives here, and each call sees the calls before it done.

const STATIC = new URL("../", import.meta.url);   // the site's _static/

async function fetchOk(url, kind) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url} (${response.status})`);
  return kind === "json" ? response.json() : kind === "text" ? response.text() : response.arrayBuffer();
}

// Each method the page may call: a function of play.py (or of its session), with
// what it needs done first. JSON travels as text, as play.py writes it.
const METHODS = {
  games: [null, "games"],
  newGame: ["session", "new"],
  play: ["session", "play"],
  goto: ["session", "goto"],
  gotoNode: ["session", "goto_node"],
  promote: ["session", "promote"],
  deleteMove: ["session", "delete"],
  undo: ["session", "undo"],
  computer: ["session", "computer"],
  preview: ["session", "preview"],
  values: ["session", "values"],
  bestLine: ["session", "best_line"],
  annotate: ["session", "annotate"],
  review: ["session", "review"],
  load: ["session", "load"],
  loadLink: ["session", "load_link"],
  exampleMove: [null, "example_move"],
  exampleSteps: [null, "example_steps"],
};

// Pyodide's WebAssembly is compiled by the page (engine.js) and its module sent here: a
// browser keeps the code it compiled for a page for the next visit (V8's code cache),
// but not what a worker compiled, so on a reload the engine was slower in a worker
// than on the page. Pyodide's own fetch of the file is answered with nothing and its
// instantiation takes the page's module; if the page could not compile it (a server
// that does not say application/wasm, say), the worker fetches and compiles it itself.
const WASM = new URL("pyodide/pyodide.asm.wasm", STATIC).href;
let giveModule;
const compiledByPage = new Promise((resolve) => { giveModule = resolve; });
const fetchAnything = self.fetch.bind(self);
self.fetch = (input, init) => (String(input instanceof Request ? input.url : input) === WASM
  ? Promise.resolve(new Response(null)) : fetchAnything(input, init));
WebAssembly.instantiateStreaming = async (source, imports) => {
  const module = await compiledByPage
    || await WebAssembly.compileStreaming(fetchAnything(WASM));
  return { module, instance: await WebAssembly.instantiate(module, imports) };
};

// When each step of the start ended (ms from the worker's start): the page's "ready"
// answer carries them, for the benchmark (benchmarks/bench_play_load.py).
const timings = {};
const mark = (name) => { timings[name] = Math.round(performance.now()); };

// Everything the engine needs is asked for at once, so the fetches overlap the
// compiling of Pyodide's WebAssembly: the loader, the manifest (which names the wheel
// and the snapshot), then the wheel and the snapshot.
async function start() {
  const manifest = fetchOk(new URL("play/manifest.json", STATIC), "json");
  const wheel = manifest.then((m) => fetchOk(new URL(`play/${m.wheel}`, STATIC), "bytes"));
  const snapshot = manifest.then((m) => inflate(m.snapshot));
  snapshot.catch(() => {});      // (a failure is seen below, when it is awaited)
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", STATIC).href);
  mark("loader");
  const indexURL = new URL("pyodide/", STATIC).href;
  let pyodide, namespace;
  try {
    pyodide = await loadPyodide({ indexURL, packages: [], _loadSnapshot: snapshot });
    mark("python");
    const bytes = new Uint8Array(await wheel);
    namespace = pyodide.globals;
    if (fingerprint(bytes) !== namespace.get("SNAPSHOT_WHEEL")) {
      throw new Error("it was made with another wheel than the one fetched");
    }
    pyodide.FS.writeFile(WHEEL_PATH, bytes);
    namespace.get("session").rng.seed();   // not the random state the snapshot was made with
    timings.boot = "snapshot";
  } catch (error) {
    // no snapshot, or one that does not restore here: Python started cold, as the
    // snapshot was made (slower, the same engine)
    console.warn(`the engine starts without its snapshot: ${error && error.message || error}`);
    timings.boot = "cold";
    const bridge = fetchOk(new URL("play/play.py", STATIC), "text");
    pyodide = await loadPyodide({ indexURL, packages: [] });
    mark("python");
    pyodide.unpackArchive(await wheel, "wheel");
    namespace = pyodide.globals.get("dict")();
    pyodide.runPython(await bridge, { globals: namespace });
  }
  mark("bridge");
  const session = namespace.get("session");
  const functions = {};          // each method's Python function, looked up once
  for (const [method, [owner, name]] of Object.entries(METHODS)) {
    functions[method] = owner ? session[name] : namespace.get(name);
  }
  return { pyodide, namespace, call: namespace.get("call"), functions,
           valuesFile: namespace.get("VALUES_FILE"), manifest: await manifest };
}

// The engine as the build left it (tools/play_snapshot.mjs): Python's memory after
// Pyodide started and play.py ran, gzipped; restored, it spares Python's start (most
// of the engine's). The wheel is imported from its zip file at WHEEL_PATH (the same
// in the script), written back after the restore. Rejects if the build made none.
const WHEEL_PATH = "/lib/mancala_spec.whl";
// The wheel's length and FNV-1a hash (the same in the script): the snapshot is
// restored only with the wheel it was made with (a browser may have kept an older
// one under the same name: then the engine starts cold).
function fingerprint(bytes) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return `${bytes.length}-${(hash >>> 0).toString(16)}`;
}
async function inflate(name) {
  if (!name) throw new Error("the build made none (see its warnings)");
  const response = await fetch(new URL(`play/${name}`, STATIC));
  if (!response.ok) throw new Error(`cannot load ${response.url} (${response.status})`);
  const bytes = await new Response(response.body.pipeThrough(new DecompressionStream("gzip")))
    .arrayBuffer();
  mark("snapshot");
  return bytes;
}

const starting = start().then(async (engine) => { await markAbsentTables(engine); return engine; });
starting.catch(() => {});     // reported to the page with the first message it answers

// A file of a table of values: its bytes, or null if the site has none (404). A
// fetch that fails (the network, or the server's error) rejects with a NetworkFailure:
// nothing is written, so the next question asks for the file again.
class NetworkFailure extends Error {}
class MissingPart extends Error {}
async function fetchTableFile(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new NetworkFailure(`the network failed (${error && error.message || error})`);
  }
  if (response.status === 404) return null;
  if (!response.ok) throw new NetworkFailure(`the server answered ${response.status}`);
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new NetworkFailure(`the network failed while it came (${error && error.message || error})`);
  }
}

// What the page is told when a table's file could not be had: for the values, why not
// (and that they are asked for again); for the perfect player, an error (one line).
function failed(method, error, what) {
  const why = error instanceof NetworkFailure
    ? `${what} could not be fetched: ${error.message}. They are asked for again at the ` +
      "next position, or with Try again."
    : error.message;
  return JSON.stringify(method !== "computer" ? { unavailable: why, retry: error instanceof NetworkFailure }
    : { error: why });
}

// Bakuk's solved values (written by the site build): fetched when first needed, into
// the file play.py reads them from (empty if the site has none: play.py says "not part
// of this copy of the site"); a fetch that failed is tried again the next time. The one
// place a table of values comes in (the page asks through engine.values() alone).
let valuesLoaded = null;
function loadValues(engine) {
  if (!valuesLoaded) {
    valuesLoaded = fetchTableFile(new URL("play/bakuk-values.bin", STATIC)).then((bytes) => {
      engine.pyodide.FS.writeFile(engine.valuesFile, bytes || new Uint8Array(0));
    });
    valuesLoaded.catch(() => { valuesLoaded = null; });
  }
  return valuesLoaded;
}

// Ba-awa's solved values (in a build given a table: dev.py site --ba-awa-values) come
// a file at a time: play.py answers {"need": [files]} (the index, then the shards the
// position needs), and these are fetched into the folder it reads, each reported to the
// page as it comes ({id, progress}), and the question asked again. An index the site
// does not have (404) is written empty (play.py: "not part of this build"); a part of
// the table it lacks is a MissingPart (the copy of the table is incomplete); a fetch
// that failed is a NetworkFailure, nothing written, so the next question tries again.
const BA_AWA = new URL("play/ba-awa-values/", STATIC);
async function fetchNeeded(engine, id, names) {
  let done = 0;
  const folder = engine.namespace.get("BA_AWA_FOLDER");
  const problems = [];
  self.postMessage({ id, progress: { names, done, total: names.length } });
  await Promise.all(names.map(async (name) => {
    try {
      const bytes = await fetchTableFile(new URL(name, BA_AWA));
      if (bytes === null && name !== "index.json") {
        throw new MissingPart(`The site's table of Ba-awa's values lacks its part ${name} ` +
          "(the server answered 404 Not Found): the copy of the table on this site is " +
          "incomplete, so no value is shown here.");
      }
      engine.pyodide.FS.writeFile(`${folder}/${name}`, bytes || new Uint8Array(0));
    } catch (error) {
      problems.push(error);
    }
    self.postMessage({ id, progress: { names, done: ++done, total: names.length } });
  }));
  if (problems.length) throw problems.find((e) => e instanceof MissingPart) || problems[0];
}

// A site built without Ba-awa's table says so in its manifest (dev.copy_play_assets):
// its index is then written empty at once, so the page knows before asking (play.py's
// no_values), and fetches nothing.
async function markAbsentTables(engine) {
  try {
    if (engine.manifest.ba_awa_values === false) {
      const folder = engine.namespace.get("BA_AWA_FOLDER");
      engine.pyodide.FS.mkdirTree(folder);
      engine.pyodide.FS.writeFile(`${folder}/index.json`, new Uint8Array(0));
    }
  } catch { /* then the index is asked for when needed, as before */ }
}

async function answer(engine, id, method, args) {
  if (method === "ready") return JSON.stringify(timings);
  if (!(method in METHODS)) throw new Error(`no engine method ${method}`);
  // the values (and the perfect player, who plays by them) need the table in first
  // (a best line or a review reads many positions: the files come in over many rounds)
  const analysis = method === "bestLine" || method === "review";
  const exact = method === "values" || analysis || (method === "computer" && args[0] === "perfect");
  if (exact && engine.pyodide.runPython("session.game.name", { globals: engine.namespace }) === "bakuk") {
    try {
      await loadValues(engine);
    } catch (error) {
      return failed(method, error, "Bakuk's exact values");
    }
  }
  let result = engine.call(engine.functions[method], ...args);
  for (let round = 0; exact && round < (analysis ? 400 : 3) && result.startsWith('{"need": '); round++) {
    try {
      await fetchNeeded(engine, id, JSON.parse(result).need);
    } catch (error) {
      return failed(method, error, "Ba-awa's exact values");
    }
    result = engine.call(engine.functions[method], ...args);
  }
  return result;
}

let queue = Promise.resolve();
self.onmessage = ({ data: { id, method, args, wasm } }) => {
  if (wasm !== undefined) { giveModule(wasm); return; }    // the page's compiled module (or null)
  queue = queue.then(async () => {
    let engine;
    try {
      engine = await starting;
    } catch (error) {
      self.postMessage({ id, error: error.message, starting: true });
      return;
    }
    try {
      self.postMessage({ id, answer: await answer(engine, id, method, args || []) });
    } catch (error) {
      // a Python exception play.py does not turn into {"error"}: one line, no traceback
      const text = String(error && error.message || error).trim().split("\n").pop();
      self.postMessage({ id, error: text });
    }
  });
};

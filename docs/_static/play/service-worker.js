// The Play page offline: a service worker (the build copies it to the site's root as
// play-sw.js, so that it may answer for play.html; play.js registers it once the engine
// is ready). After one visit the page reloads and plays with no network:
// - the engine's files (Pyodide, the wheel, the snapshot, Bakuk's values) are kept in a
//   cache named by the build's digest of them (manifest.json: the snapshot's name is a
//   digest of the wheel, play.py and Pyodide; Pyodide's version, the wheel's name), and
//   answered from it first: a new build has a new name, and the old cache is deleted;
// - the page and what it loads (the theme's files, play.js and its kin, the preload, the
//   rule index) are asked of the network first, and answered from the cache when the
//   network fails.
// Nothing else of the site is touched: other pages, and the tables of values (fetched
// when asked for, a failed fetch said and tried again), go to the network as ever.

const PAGES = "mancala-play-pages";
const ENGINE_PREFIX = "mancala-play-engine-";
const SCOPE = new URL("./", self.location).href;             // the site's root
const MANIFEST = new URL("_static/play/manifest.json", SCOPE).href;
const PLAY = new URL("play.html", SCOPE).href;
const PYODIDE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"];
// the engine's files: kept by the build's digest, answered from the cache first
const ENGINE = /\/_static\/(pyodide\/[^/?]+|play\/(engine-[0-9a-f]+\.snapshot\.gz|mancala_spec-[^/]+\.whl))$/;
const VALUES = /\/_static\/play\/(ba-awa-values\/|bakuk-values\.bin)/;

const engineCache = (manifest) =>
  `${ENGINE_PREFIX}${manifest.pyodide}-${manifest.wheel}-${manifest.snapshot || "cold"}`;

// the page's files: play.html, the site's _static/ and the rule index (for rule links)
function ours(url) {
  return url.href.startsWith(SCOPE) && !VALUES.test(url.pathname) && (url.href.split(/[?#]/)[0] === PLAY
    || url.href.startsWith(new URL("_static/", SCOPE).href)
    || url.href === new URL("traceability.json", SCOPE).href);
}

// (what is kept is written beside the answer, not before it: *keep* is the fetch event's
// waitUntil, or none to wait for it)
async function networkFirst(request, keep = null) {
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    if (response.ok) {
      const put = cache.put(request, response.clone());
      if (keep) keep(put); else await put;
    }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: request.url.split("?")[0] === PLAY });
    if (kept) return kept;
    throw error;
  }
}

// The manifest as the network has it, else as kept: it names the engine's cache. Asked
// once for the files of one start of the engine (they come within seconds), not for each.
let asked = null;
function manifest() {
  if (!asked) {
    asked = networkFirst(new Request(MANIFEST)).then((response) => response.json());
    asked.catch(() => {});
    setTimeout(() => { asked = null; }, 10_000);
  }
  return asked;
}

async function engineFile(request, keep = null) {
  let name;
  try {
    name = engineCache(await manifest());
  } catch {
    return fetch(request);
  }
  const cache = await caches.open(name);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    const put = cache.put(request, response.clone());
    if (keep) keep(put); else await put;
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || !ours(url)) return;
  const keep = (put) => event.waitUntil(put.catch(() => {}));
  event.respondWith(ENGINE.test(url.pathname) ? engineFile(event.request, keep)
    : networkFirst(event.request, keep));
});

// Kept at once (the page asks once its engine is ready, so most come from the
// browser's HTTP cache): the page, every file of the site it names, the engine's
// files; the caches of other builds' engines deleted.
async function keepAll() {
  const page = await networkFirst(new Request(PLAY));
  const html = await page.clone().text();
  const named = [...html.matchAll(/(?:src|href)="([^"#]+)"/g)].map((m) => new URL(m[1], PLAY))
    .filter((url) => ours(url) && url.pathname.startsWith(new URL(SCOPE).pathname + "_static/"));
  const play = ["engine.js", "play.js", "worker.js", "play.css", "play.py", "preload.json",
                "manifest.json"].map((name) => new URL(`_static/play/${name}`, SCOPE));
  await Promise.all([...named, ...play, new URL("traceability.json", SCOPE)].map((url) =>
    networkFirst(new Request(url.href)).catch(() => null)));
  const m = await manifest();
  const engine = [...PYODIDE.map((name) => `_static/pyodide/${name}`), `_static/play/${m.wheel}`,
                  ...(m.snapshot ? [`_static/play/${m.snapshot}`] : [])];
  await Promise.all(engine.map((name) => engineFile(new Request(new URL(name, SCOPE).href))));
  const current = engineCache(m);
  for (const name of await caches.keys()) {
    if (name.startsWith(ENGINE_PREFIX) && name !== current) await caches.delete(name);
  }
}

self.addEventListener("install", (event) => { self.skipWaiting(); });
self.addEventListener("activate", (event) => { event.waitUntil(self.clients.claim()); });
// the page's question: keep everything now, answer when it is kept (or why not)
self.addEventListener("message", (event) => {
  if (event.data !== "keep") return;
  event.waitUntil(keepAll().then(() => event.source.postMessage({ kept: true }),
    (error) => event.source.postMessage({ kept: false, why: String(error && error.message || error) })));
});

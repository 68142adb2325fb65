// The Play page's engine, started once at build time and kept as a memory snapshot:
// Pyodide booted, the project's wheel on sys.path and play.py run (every module it
// imports imported, its session made). The page's worker (docs/_static/play/worker.js)
// restores it instead of starting Python cold, which is most of the engine's start
// (on a quiet machine about 2.7 s of a 3.0 s start, benchmarks/bench_play_load.py).
//
//     node tools/play_snapshot.mjs PYODIDE_DIR WHEEL PLAY_PY OUT
//
// writes OUT, the snapshot gzipped (the worker inflates it with DecompressionStream).
// dev.write_play_snapshot runs it (time-bounded) and keeps OUT in the build's cache
// under a digest of the wheel, play.py and Pyodide's version. A snapshot restores only
// in the same build of Pyodide (restoreSnapshot checks its build id); the worker falls
// back to the cold start if it cannot be fetched or restored.
//
// The wheel is imported from its zip file (zipimport), at the path WHEEL_PATH, which
// the worker writes again after restoring: the snapshot holds Python's memory, not
// the virtual file system, and a zip file written back is one write, where unpacking
// the wheel again took 0.2 s.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const WHEEL_PATH = "/lib/mancala_spec.whl";    // the same in worker.js

const [pyodideDir, wheel, bridge, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tools/play_snapshot.mjs PYODIDE_DIR WHEEL PLAY_PY OUT");
  process.exit(2);
}
const indexURL = resolve(pyodideDir) + "/";      // in Node, a path
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL, packages: [], _makeSnapshot: true });
pyodide.FS.writeFile(WHEEL_PATH, new Uint8Array(readFileSync(wheel)));
pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(WHEEL_PATH)})`);
pyodide.runPython(readFileSync(bridge, "utf8"));     // in __main__: pyodide.globals
pyodide.runPython("import gc; gc.collect()");
writeFileSync(out, gzipSync(pyodide.makeMemorySnapshot(), { level: 9 }));

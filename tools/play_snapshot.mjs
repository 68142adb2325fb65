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

// The wheel's length and FNV-1a hash: which wheel this is (the same in worker.js,
// where crypto.subtle is missing on a site served by http:// other than localhost).
function fingerprint(bytes) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return `${bytes.length}-${(hash >>> 0).toString(16)}`;
}

const [pyodideDir, wheel, bridge, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tools/play_snapshot.mjs PYODIDE_DIR WHEEL PLAY_PY OUT");
  process.exit(2);
}
const indexURL = resolve(pyodideDir) + "/";      // in Node, a path
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
// (sys.executable as a browser has it, not this script's path)
const pyodide = await loadPyodide({ indexURL, packages: [], _makeSnapshot: true,
                                   _sysExecutable: "./this.program" });
const wheelBytes = readFileSync(wheel);
pyodide.FS.writeFile(WHEEL_PATH, new Uint8Array(wheelBytes));
pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(WHEEL_PATH)})`);
// which wheel this is: the worker restores the snapshot only with the same bytes
// (a browser that kept an older wheel under the same name starts cold instead)
pyodide.runPython(`SNAPSHOT_WHEEL = "${fingerprint(wheelBytes)}"`);
pyodide.runPython(readFileSync(bridge, "utf8"));     // in __main__: pyodide.globals
pyodide.runPython("import gc; gc.collect()");
writeFileSync(out, gzipSync(pyodide.makeMemorySnapshot(), { level: 9 }));

// "Try it" on each rule's worked examples: runs the example's own doctest code in
// the page's engine (Pyodide in a worker, loaded on the first click), finds the move it plays,
// and steps through that move event by event, each event linked to its rule. The
// options of the game switch live, so a reader sees what an editorial completion
// changes.
import { loadEngine, stepper, ruleLinks, ruleHref, el, ROOT } from "./engine.js";

function exampleCode(caption) {
  // the doctest block follows its caption (see mancala_spec.sphinx.rules)
  let node = caption.nextElementSibling;
  while (node && !node.querySelector("pre") && !node.matches("pre")) node = node.nextElementSibling;
  const pre = node && (node.matches("pre") ? node : node.querySelector("pre"));
  return pre ? pre.textContent : null;
}

async function open(caption, panel, button) {
  const code = exampleCode(caption);
  button.disabled = true;
  panel.hidden = false;
  panel.replaceChildren(el("p", { class: "tryit-status" }, "Starting the engine…"));
  let engine;
  try {
    engine = await loadEngine();
  } catch (error) {
    panel.replaceChildren(el("p", { class: "tryit-status", "data-kind": "error" }, error.message));
    button.disabled = false;
    return;
  }
  let move, games;
  try {
    move = code && await engine.exampleMove(code);
    games = await engine.games();
  } catch (error) {
    panel.replaceChildren(el("p", { class: "tryit-status", "data-kind": "error" }, error.message));
    button.disabled = false;
    return;
  }
  if (!move) {
    panel.replaceChildren(el("p", { class: "tryit-status" }, "This example plays no move to step through."));
    return;
  }
  const rules = await ruleLinks();
  const game = games.find((g) => g.name === move.game);
  const values = Object.fromEntries(game.options.map((o) =>
    [o.name, o.name in move.options ? move.options[o.name] : o.default]));
  const stepBox = el("div", { class: "stepper" });
  const note = el("p", { class: "tryit-status" });
  // the steps under the options chosen, asked of the engine: the panel is data-ready
  // once they are drawn (options switched quickly: only the last one's answer is drawn)
  let asked = 0;
  const redraw = async () => {
    const mine = ++asked;
    delete panel.dataset.ready;
    let data = null;
    try {
      data = await engine.exampleSteps(move.game, values, move.position, move.pit);
    } catch (error) {
      if (mine !== asked) return;
      note.textContent = `With these options: ${error.message}`;
      stepBox.replaceChildren();
    }
    if (mine !== asked) return;
    if (data) {
      note.textContent = "";
      await stepper(stepBox, data);
    }
    if (mine === asked) panel.dataset.ready = "true";
  };
  const optionBox = el("div", { class: "play-options" }, game.options
    .filter((o) => !["players", "turn_order"].includes(o.name) || o.name in move.options)
    .map((option) => el("label", { class: "play-option" }, el("code", {}, option.name), " ",
      el("select", { "data-option": option.name, onchange: (event) => {
        values[option.name] = JSON.parse(event.target.value);
        redraw();
      } }, option.choices.map((choice, i) => el("option", {
        value: JSON.stringify(choice),
        selected: JSON.stringify(choice) === JSON.stringify(values[option.name]),
      }, `${String(choice)}: ${option.meanings[i] || ""}`
         + (JSON.stringify(choice) === JSON.stringify(option.default) ? " (default)" : "")))),
      " ", el("a", { href: ruleHref(rules, option.rule), class: "rule-link" }, option.rule))));
  panel.replaceChildren(
    el("p", { class: "tryit-move" }, `${move.game}: from `, el("code", {}, move.position),
       " play ", el("code", {}, move.pit), "."),
    el("details", { class: "play-options-box" }, el("summary", {}, "Options"), optionBox),
    note, stepBox);
  await redraw();
}

// The Play page's address of a move: play.html?game=G&start=POSITION&moves=PIT&NAME=VALUE
export function playHref(move) {
  return positionHref(move, [["moves", move.pit]]);
}

// ... and of a position, with nothing played: play.html?game=G&start=POSITION&NAME=VALUE
function positionHref(move, more = []) {
  const params = [["game", move.game], ["start", move.position], ...more,
                  ...Object.entries(move.options).map(([k, v]) => [k, String(v)])];
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)
    .replace(/%2C/g, ",").replace(/%2F/g, "/").replace(/%3D/g, "=")}`).join("&");
  return new URL(`play.html?${query}`, ROOT).href;
}

// "Open in Play": the example's move on the Play page, from the data its caption
// carries (data-game, data-position, data-move, data-options="k=v k=v"; see
// mancala_spec.sphinx.examples.play_data). An example that plays no move (legal
// moves, a refused move, an outcome) opens its position, to play from there.
function playControl(caption) {
  const data = caption.dataset;
  const options = Object.fromEntries((data.options || "").split(/\s+/).filter(Boolean)
    .map((item) => item.split("=")));
  const href = data.move
    ? playHref({ game: data.game, position: data.position, pit: data.move, options })
    : positionHref({ game: data.game, position: data.position, options });
  return el("a", { class: "open-in-play", href },
            data.move ? "Open in Play" : "Open this position in Play");
}

// Only an example that plays a move has something to step through: it gets the
// "Try it" button; every example with a position gets its Play link.
for (const caption of document.querySelectorAll(".rule-examples p.example-caption")) {
  if (!caption.dataset.game || !caption.dataset.position) continue;
  const controls = [];
  if (caption.dataset.move) {
    const panel = el("div", { class: "tryit-panel", hidden: true });
    const button = el("button", { type: "button", class: "tryit-button",
                                  onclick: () => open(caption, panel, button) }, "Try it: step through");
    controls.push(" ", button);
    const code = caption.nextElementSibling;
    (code || caption).after(panel);
  }
  caption.append(...controls, " ", playControl(caption));
}
// The controls above make captions taller (on a phone, a line or two each): if the page
// was opened at an anchor, put the anchor back at the top, so a permalink still lands:
// at once, as the browser's own jump to an anchor is (furo's smooth scrolling would
// slide the page down from the top for a second or more on every permalink).
if (location.hash) {
  const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView({ behavior: "instant" });
}

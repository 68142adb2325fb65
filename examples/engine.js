#!/usr/bin/env node
// A conformance engine for mancala_spec in JavaScript (Node 18+), written from the
// protocol page alone: it reads one JSON request per line on stdin and writes one
// JSON answer per line on stdout. This reference's ruleset at its default options
// only (any other ruleset or option is answered "unsupported"), no match play, no events.
//
//   mancala-spec conformance run --engine "node examples/engine.js" --min-supported 0
"use strict";
const readline = require("readline");

const DEFAULTS = {
  "ba-awa": { choose: "owned", skip_origin: false, endless: "illegal", no_move: "pass",
              repetition: "end", decided: false, players: 2, turn_order: "sowing" },
  "bakuk": { skip_origin: false, first_counter: "next", sixes: false, chain: "forward",
             decided: false, no_move: "end", leftovers: "unscored", repetition: "end",
             players: 2, turn_order: "sowing" },
};

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// Relay-sow from pit; return [pits, captured], or null if the sowing never ends.
function baAwaSow(pits, owners, captured, pit, mover) {
  pits = pits.slice(); captured = captured.slice();
  const seen = new Set();
  for (;;) {
    const state = pits.join(",") + "@" + pit;
    if (seen.has(state)) return null;
    seen.add(state);
    let hand = pits[pit]; pits[pit] = 0;
    while (hand) {
      pit = (pit + 1) % pits.length; pits[pit] += 1; hand -= 1;
      if (pits[pit] === 4) {
        captured[hand ? owners[pit] : mover] += 4; pits[pit] = 0;
        if (!hand) return [pits, captured];
      }
    }
    if (pits[pit] === 1) return [pits, captured];
  }
}

function baAwaMoves(p) {
  const moves = [];
  p.pits.forEach((n, i) => {
    if (n && p.owners[i] === p.to_move && baAwaSow(p.pits, p.owners, p.captured, i, p.to_move))
      moves.push(i);
  });
  return moves;
}

function playersAfter(p, mover) {
  const count = p.captured.length, order = [];
  for (let k = 1; k <= count; k++) order.push((mover + k) % count);
  return order.filter((q) => p.owners.includes(q) || q === mover);
}

function baAwaPlay(p, pit) {
  const [pits, captured] = baAwaSow(p.pits, p.owners, p.captured, pit, p.to_move);
  const seen = same(captured, p.captured) ? p.history.concat([[p.pits, p.to_move]]) : [];
  const q = { ...p, pits, captured, history: seen };
  const sweep = () => {
    captured[p.opener] += sum(pits);
    return { ...q, pits: pits.map(() => 0), history: [],
             to_move: playersAfter(p, p.to_move)[0] };
  };
  if (sum(pits) <= 8) return sweep();
  for (const player of playersAfter(p, p.to_move)) {
    if (baAwaMoves({ ...q, to_move: player }).length) {
      q.to_move = player;
      return seen.some((s) => same(s, [pits, player])) ? sweep() : q;
    }
  }
  return sweep();
}

function bakukPlay(p, pit) {
  const pits = p.pits.slice(), captured = p.captured.slice();
  let hand = pits[pit], last = pit;
  pits[pit] = 0;
  for (; hand; hand--) { last = (last + 1) % pits.length; pits[last] += 1; }
  while (pits[last] === 2 || pits[last] === 4) {
    captured[p.to_move] += pits[last]; pits[last] = 0; last = (last + 1) % pits.length;
  }
  const seen = same(captured, p.captured) ? p.history.concat([[p.pits, p.to_move]]) : [];
  return { ...p, pits, captured, history: seen, to_move: playersAfter(p, p.to_move)[0] };
}

const bakukMoves = (p) => p.pits.flatMap((n, i) => (n && p.owners[i] === p.to_move ? [i] : []));
const bakukOver = (p) => !sum(p.pits) || !bakukMoves(p).length ||
  p.history.some((s) => same(s, [p.pits, p.to_move]));

function winner(p) {
  const best = Math.max(...p.captured);
  return p.captured.filter((c) => c === best).length === 1 ? p.captured.indexOf(best) : null;
}

function answer(request) {
  const { id, game, position: p } = request;
  // options hold every value the case plays; ruleset names the set they come from
  if ((request.ruleset ?? "mancala_spec") !== "mancala_spec")
    return { id, unsupported: `only this reference's ruleset, not ${request.ruleset}` };
  if (!(game in DEFAULTS) || !same(request.options, DEFAULTS[game]))
    return { id, unsupported: "only default options" };
  if (request.match) return { id, unsupported: "no match play" };
  const [moves, play, over] = game === "ba-awa"
    ? [baAwaMoves, baAwaPlay, (q) => !sum(q.pits)]
    : [bakukMoves, bakukPlay, bakukOver];
  const legal = over(p) ? [] : moves(p);
  if (request.move === null || request.move === undefined)
    return { id, legal_moves: legal, is_over: over(p), winner: over(p) ? winner(p) : null };
  if (!legal.includes(request.move)) return { id, legal_moves: legal, error: "illegal" };
  const q = play(p, request.move), done = over(q);
  return { id, legal_moves: legal, result: {
    pits: q.pits, to_move: q.to_move, captured: q.captured, opener: q.opener,
    owners: q.owners, is_over: done, winner: done ? winner(q) : null } };
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let reply;
  try { reply = answer(JSON.parse(line)); }
  catch (error) { reply = { id: null, unsupported: `bad request: ${error.message}` }; }
  process.stdout.write(JSON.stringify(reply) + "\n");
});

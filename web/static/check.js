// The check pages: enter a deal or position by clicking, ask the solver, watch its line.
"use strict";
const GAME = location.pathname.split("/").filter(Boolean)[1];
let stopAnim = () => {};

async function run(label, fn) {
  $("#busy").textContent = label;
  try { await fn(); } catch (e) { $("#message").textContent = e.message; } finally { $("#busy").textContent = ""; }
}

function showAnswer(text, data) {
  stopAnim();
  $("#answer").textContent = text;
  $("#shareid").textContent = data.id || "—";
  const link = $("#playlink");
  link.hidden = !data.id;
  if (data.id) link.href = playUrl(data.id);
  const line = $("#line");
  line.innerHTML = "";
  (data.line_text || []).forEach((m) => line.append(el("li", {}, m)));
  stopAnim = animate(data.frames || [], $("#frame"), $("#caption"), $("#controls"));
}

function clearAnswer() {
  stopAnim();
  for (const s of ["#answer", "#message", "#caption", "#frame", "#controls", "#line"]) $(s).innerHTML = "";
  $("#shareid").textContent = "—"; $("#playlink").hidden = true;
}

// --- Zangle: a solo deal -----------------------------------------------------------------
const Z = {deck: [], zones: {}, active: "middle", piles: 5};
function zoneNames() { return ["middle", ...Array.from({length: Z.piles}, (_, i) => `pile ${i}`), "draw"]; }
async function zangleInit() {
  $("#title").textContent = "Check a Zangle solo deal";
  $("#how").textContent = "Click a zone (the middle, a pile, the draw pile), then cards of the deck to put them there, in order: piles bottom to top, the draw pile next card first. Click a placed card to take it back.";
  const d = await api("/api/data/zangle");
  Z.deck = d.cards;
  const entry = $("#entry");
  entry.innerHTML = "";
  const sel = el("select", {id: "piles", "aria-label": "number of piles"});
  for (const n of [5, 6]) sel.append(el("option", {value: n}, `${n} piles`));
  sel.addEventListener("change", () => { Z.piles = +sel.value; zangleReset(); });
  entry.append(el("div", {}, sel), el("div", {id: "zones"}), el("h2", {}, "Deck"), el("div", {class: "cards deck", id: "deck"}));
  zangleReset();
}
function zangleReset() {
  Z.zones = {}; zoneNames().forEach((n) => { Z.zones[n] = []; }); Z.active = "middle";
  clearAnswer(); zangleDraw();
}
function cardDiv(c, extra) {
  const d = el("div", Object.assign({class: "card", "data-card": c.card}, extra || {}));
  d.innerHTML = c.svg;
  d.append(el("div", {class: "cid"}, c.card));
  return d;
}
function zangleDraw() {
  const used = new Set(Object.values(Z.zones).flat());
  const zones = $("#zones");
  zones.innerHTML = "";
  for (const n of zoneNames()) {
    const z = el("div", {class: "zone" + (n === Z.active ? " active" : ""), "data-zone": n});
    z.addEventListener("click", () => { Z.active = n; zangleDraw(); });
    const max = n === "middle" ? " (3 cards)" : n === "draw" ? " (next card first)" : " (bottom to top)";
    z.append(el("div", {class: "title"}, n + max));
    const row = el("div", {class: "cards"});
    for (const id of Z.zones[n]) {
      const c = Z.deck.find((x) => x.card === id);
      row.append(cardDiv(c, {onclick: (ev) => { ev.stopPropagation(); Z.zones[n] = Z.zones[n].filter((x) => x !== id); zangleDraw(); }}));
    }
    z.append(row);
    zones.append(z);
  }
  const deck = $("#deck");
  deck.innerHTML = "";
  for (const c of Z.deck) {
    const d = cardDiv(c, {onclick: () => {
      if (used.has(c.card)) return;
      if (Z.active === "middle" && Z.zones.middle.length >= 3) { $("#message").textContent = "the middle holds 3 cards: choose another zone"; return; }
      $("#message").textContent = "";
      Z.zones[Z.active].push(c.card); zangleDraw();
    }});
    if (used.has(c.card)) d.classList.add("used");
    deck.append(d);
  }
}
async function zangleSolve() {
  const body = {middle: Z.zones.middle, draw: Z.zones.draw, piles: Array.from({length: Z.piles}, (_, i) => Z.zones[`pile ${i}`])};
  const r = await api("/api/check/zangle", body);
  const text = r.solvable === null ? `unknown: the solver stopped after ${r.states} states` :
    r.solvable ? `solvable: a winning line of ${r.line.length} actions (${r.states} states searched)` : `not solvable (${r.states} states searched)`;
  showAnswer(text, r);
}

// --- Tanglung: a 16-card layout -----------------------------------------------------------
const T = {cells: Array(16).fill("."), letter: "C", counts: []};
function tLayout() { return [0, 1, 2, 3].map((r) => T.cells.slice(4 * r, 4 * r + 4).join("")).join("/"); }
async function tanglungInit() {
  $("#title").textContent = "Check a Tanglung solo layout";
  $("#how").textContent = "Choose a card kind, then click cells to place it (click a placed card again to remove it). The default set: 2 Roosters, 3 Rabbits, 3 Butterflies, 3 Fish, 3 Horses, 2 Dragons.";
  const entry = $("#entry");
  entry.innerHTML = "";
  entry.append(el("div", {class: "palette", id: "palette"}), el("div", {id: "grid"}),
    el("div", {class: "status"}, "layout: ", el("input", {type: "text", id: "layouttext", size: 22, "aria-label": "layout, rows from the top, / between rows"})));
  $("#layouttext").addEventListener("change", () => { const v = $("#layouttext").value.replace(/\//g, "").toUpperCase(); if (v.length === 16) { T.cells = v.split(""); tanglungDraw(); } });
  await tanglungDraw();
}
let drawSeq = 0;  // only the newest picture is shown (answers may arrive out of order)
async function tanglungDraw() {
  const seq = ++drawSeq;
  const d = await api("/api/draw/tanglung", {layout: tLayout()});
  if (seq !== drawSeq) return;
  T.counts = d.cards;
  const pal = $("#palette");
  pal.innerHTML = "";
  for (const c of d.cards) pal.append(el("button", {class: c.letter === T.letter ? "sel" : "", "data-letter": c.letter,
    onclick: (ev) => { T.letter = c.letter; pal.querySelectorAll("button").forEach((b) => b.classList.toggle("sel", b === ev.currentTarget)); }}, `${c.letter} ${c.name} ${c.placed}/${c.count}`));
  $("#grid").innerHTML = d.svg;
  $("#layouttext").value = d.layout;
  document.querySelectorAll("#grid .hot").forEach((h) => h.addEventListener("click", () => {
    const i = +h.dataset.action;
    T.cells[i] = T.cells[i] === T.letter ? "." : T.letter;
    tanglungDraw();
  }));
}
async function tanglungSolve() {
  const r = await api("/api/check/tanglung", {layout: tLayout()});
  const text = r.solvable ? `solvable in ${r.moves} moves from ${r.start.join(",")} (${r.optimal_tours} optimal tours)` : "cannot be won from either Rooster";
  showAnswer(text, r);
}

// --- QANGO: a position ------------------------------------------------------------------------
const QG = {board: "6", cells: {}, position: ""};
async function qangoInit() {
  $("#title").textContent = "Check a QANGO position";
  $("#how").textContent = "Click a cell to cycle it: empty, X (dark, moves first), O (light). The side to move follows from the counts.";
  const entry = $("#entry");
  entry.innerHTML = "";
  const sel = el("select", {id: "board", "aria-label": "QANGO board"});
  for (const b of ["6", "7", "7plus"]) sel.append(el("option", {value: b}, `QANGO ${b}`));
  sel.addEventListener("change", () => { QG.board = sel.value; QG.cells = {}; clearAnswer(); qangoDraw(); });
  entry.append(el("div", {}, sel), el("div", {id: "grid"}), el("div", {class: "status mono", id: "postext"}));
  await qangoDraw();
}
async function qangoDraw() {
  const seq = ++drawSeq;
  const d = await api("/api/draw/qango", {board: QG.board, cells: QG.cells});
  if (seq !== drawSeq) return;
  QG.position = d.position;
  $("#grid").innerHTML = d.svg;
  $("#postext").textContent = d.position;
  document.querySelectorAll("#grid .hot").forEach((h) => h.addEventListener("click", () => {
    const c = h.dataset.action, v = QG.cells[c];
    if (!v) QG.cells[c] = "X"; else if (v === "X") QG.cells[c] = "O"; else delete QG.cells[c];
    qangoDraw();
  }));
}
// a QANGO move count with both units (docs/json.md, Conventions): "3 counters (5 plies)"
function countersText(r) {
  return `${r.counters} counter${r.counters === 1 ? "" : "s"} (${r.plies} pl${r.plies === 1 ? "y" : "ies"})`;
}
async function qangoSolve() {
  const r = await api("/api/check/qango", {board: QG.board, position: QG.position});
  const mv = r.best_move ? ` (best move ${r.best_move.join(",")})` : "";
  const text = r.value === "unknown" ? "unknown: the solver ran out of time" :
    r.value === "win" && r.plies === null ? `${r.side} to move wins${mv}` :
    r.value === "win" ? `${r.side} to move wins in ${countersText(r)}${mv}` :
    r.value === "loss" ? `${r.side} to move loses` + (r.plies === null ? "" : `: ${r.side === "X" ? "O" : "X"} wins in ${countersText(r)}`) + mv : `a draw with best play${mv}`;
  showAnswer(text, r);
}

const PAGES = {zangle: [zangleInit, zangleSolve, zangleReset], tanglung: [tanglungInit, tanglungSolve, () => { T.cells = Array(16).fill("."); clearAnswer(); tanglungDraw(); }],
  qango: [qangoInit, qangoSolve, () => { QG.cells = {}; clearAnswer(); qangoDraw(); }]};
const [init, solve, reset] = PAGES[GAME];
$("#solve").addEventListener("click", () => run("solving…", async () => { $("#message").textContent = ""; await solve(); }));
$("#reset").addEventListener("click", () => reset());
run("loading…", init);

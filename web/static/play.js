// The play page: the position is the URL (/play/<ID>?moves=a.b.c&seed=S&bots=...); every click
// asks the server, which checks the move with the engine and answers with the new position.
"use strict";
const ID = decodeURIComponent(location.pathname.slice("/play/".length));
const Q = new URLSearchParams(location.search);
let view = null, busy = false, sel = {target: null, pieces: new Set()}, hinted = null;

function query(extra) {
  const q = new URLSearchParams({id: ID, moves: view ? view.moves.join(".") : (Q.get("moves") || "")});
  for (const k of ["seed", "bots"]) if (Q.get(k)) q.set(k, Q.get(k));
  for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
  return q.toString();
}

async function call(name, extra) {
  if (busy) return;
  busy = true; $("#busy").textContent = "thinking…";
  try {
    const data = await api(`/api/${name}?` + query(extra));
    if (name === "hint") showHint(data);
    else { $("#message").textContent = ""; $("#hinttext").textContent = ""; hinted = null; render(data); }
  } catch (e) {
    $("#message").textContent = e.message;
  } finally { busy = false; $("#busy").textContent = ""; }
}

function syncUrl() {
  const q = new URLSearchParams();
  if (view.moves.length) q.set("moves", view.moves.join("."));
  for (const k of ["seed", "bots"]) if (Q.get(k)) q.set(k, Q.get(k));
  history.replaceState(null, "", playUrl(ID, Object.fromEntries(q)));
}

function render(v) {
  view = v;
  syncUrl();
  $("#title").textContent = `${v.game}`;
  document.title = `tanglekit: ${v.game}`;
  $("#idline").textContent = `ID ${v.id}` + (v.seats.length > 1 ? `   seats: ${v.seats.map((s, i) => `player ${i} ${s}`).join(", ")}` : "");
  $("#goal").textContent = v.goal ? `Goal: ${v.goal}` + (v.optimum !== null ? ` (${v.optimum_note}: ${v.optimum})` : "") : "";
  $("#prompt").textContent = v.prompt;
  const res = $("#result");
  res.textContent = v.result || "";
  res.className = v.result && !v.solved && /not solved|winner/.test(v.result) ? "lost" : "";
  $("#board").innerHTML = v.svg;
  $("#board").className = v.game;
  document.querySelectorAll("#board .hot").forEach((h) => h.addEventListener("click", () => {
    if (view.human_to_move) call("move", {action: h.dataset.action});
  }));
  // Zangle: the face-up cards as clickable places
  const zb = $("#zangle");
  zb.hidden = !v.can_zangle;
  const lz = $("#lastzangle");
  lz.hidden = !v.last_zangle;
  if (v.last_zangle) { $("#lastzangle-svg").innerHTML = v.last_zangle.svg; $("#lastzangle-text").textContent = v.last_zangle.text; }
  sel = {target: null, pieces: new Set()};
  document.querySelectorAll("#board .card[data-place]").forEach((c) => c.addEventListener("click", () => {
    if (view.human_to_move) pick(+c.dataset.place);
  }));
  drawPlaces();
  // every other legal move as a button
  const box = $("#buttons");
  box.innerHTML = "";
  $("#filterbox").hidden = v.buttons.length <= 24 && !v.buttons.some((b) => b.move.startsWith("correct "));
  $("#filter").placeholder = v.sides ? "filter, e.g. V2; or click sides on the board" : "filter moves (type 'correct' for corrected calls)";
  $("#pickinfo").textContent = "";
  for (const b of v.buttons) {
    const btn = el("button", {class: "move", "data-action": b.action, onclick: () => call("move", {action: b.action})}, b.move);
    box.append(btn);
  }
  if (v.sides) tangleSetup(v);
  applyFilter();
  const log = $("#log");
  log.innerHTML = "";
  v.move_names.forEach((m) => log.append(el("li", {}, m)));
  log.scrollTop = log.scrollHeight;
  if (v.messages.length && v.messages.length > 1) $("#message").textContent = "";
  $("#undo").disabled = !v.moves.length;
  $("#hint").disabled = !v.human_to_move;
}

function drawPlaces() {
  // the Zangle cards on the board: target (red), pieces (green), the hint's cards (gold)
  document.querySelectorAll("#board .card[data-place]").forEach((c) => {
    const p = +c.dataset.place;
    c.classList.toggle("target", sel.target === p);
    c.classList.toggle("piece", sel.pieces.has(p));
    c.classList.toggle("hinted", !!(hinted && hinted.places && hinted.places.includes(p)));
  });
  const t = view && (view.places || []).find((p) => p.place === sel.target);
  const names = view ? (view.places || []).filter((p) => sel.pieces.has(p.place)).map((p) => p.card) : [];
  $("#selection").textContent = t ? `${t.card} <= ${names.join(" + ") || "…"}` : "";
}

function pick(place) {
  if (sel.target === place) sel.target = null;
  else if (sel.pieces.has(place)) sel.pieces.delete(place);
  else if (sel.target === null) sel.target = place;
  else sel.pieces.add(place);
  drawPlaces();
}

function zangleAction() {
  if (sel.target === null) { $("#message").textContent = "illegal: click the target card first"; return null; }
  let mask = 1 << sel.target;
  sel.pieces.forEach((p) => { mask |= 1 << p; });
  const c = view.compose;  // the game's encoding of a move composed of places (from the server)
  return c.base + c.target_stride * sel.target + c.mask_stride * mask;
}

function showHint(h) {
  $("#hinttext").textContent = h.action === null ? h.hint : `hint: ${h.move} (${h.hint})`;
  hinted = h.action === null ? null : {action: h.action};
  document.querySelectorAll(".hinted").forEach((e) => e.classList.remove("hinted"));
  if (h.action === null) return;
  document.querySelectorAll(`[data-action="${h.action}"]`).forEach((e) => e.classList.add("hinted"));
  const c = view.compose;
  if (c && h.action >= c.base && (view.places || []).length) {
    const t = (h.action - c.base) % c.mask_stride, m = Math.floor((h.action - c.base) / c.mask_stride);
    hinted.places = view.places.map((p) => p.place).filter((p) => (m >> p) & 1);
    sel = {target: t, pieces: new Set(hinted.places.filter((p) => p !== t))};
    drawPlaces();
  }
}

// Tangle: click sides on the board to narrow the placements to those covering them; hovering
// a placement draws it on the board.
let chosen = new Set();
const SVGNS = "http://www.w3.org/2000/svg";
function overlay() {
  let g = document.querySelector("#board svg #overlay");
  if (!g) { g = document.createElementNS(SVGNS, "g"); g.setAttribute("id", "overlay"); g.style.pointerEvents = "none"; document.querySelector("#board svg").append(g); }
  return g;
}
function drawSides(list, colour, dash, cls) {
  const g = overlay();
  g.querySelectorAll("." + cls).forEach((e) => e.remove());
  for (const si of list) {
    const [x1, y1, x2, y2] = view.sides[si];
    const l = document.createElementNS(SVGNS, "line");
    for (const [k, val] of Object.entries({x1, y1, x2, y2, stroke: colour, "stroke-width": 5, "stroke-linecap": "round", "stroke-dasharray": dash, class: cls})) l.setAttribute(k, val);
    g.append(l);
  }
}
function tangleSetup(v) {
  chosen = new Set();
  document.querySelectorAll("#board .side").forEach((line) => line.addEventListener("click", () => {
    const si = +line.dataset.side;
    if (chosen.has(si)) chosen.delete(si); else chosen.add(si);
    drawSides([...chosen], "#222", "2 3", "chosen");
    applyFilter();
    const shown = [...document.querySelectorAll("#buttons button")].filter((b) => !b.hidden);
    $("#pickinfo").textContent = chosen.size ? `${shown.length} placement${shown.length === 1 ? "" : "s"} cover the chosen side${chosen.size === 1 ? "" : "s"}` : "";
  }));
  const bySides = new Map(v.buttons.map((b) => [String(b.action), b.sides || []]));
  document.querySelectorAll("#buttons button").forEach((btn) => {
    btn.addEventListener("mouseenter", () => drawSides(bySides.get(btn.dataset.action), "#d4380d", "6 3", "preview"));
    btn.addEventListener("mouseleave", () => drawSides([], "", "", "preview"));
  });
}

function applyFilter() {
  const f = $("#filter").value.trim().toLowerCase();
  const sidesOf = view && view.sides ? new Map(view.buttons.map((b) => [String(b.action), new Set(b.sides || [])])) : null;
  document.querySelectorAll("#buttons button").forEach((b) => {
    const t = b.textContent.toLowerCase();
    let hide = f ? !t.includes(f) : t.startsWith("correct ");  // corrected Zinga calls: type to see them
    if (sidesOf && chosen.size) { const s = sidesOf.get(b.dataset.action); hide = hide || ![...chosen].every((x) => s.has(x)); }
    b.hidden = hide;
  });
}

$("#filter").addEventListener("input", applyFilter);
$("#undo").addEventListener("click", () => call("undo"));
$("#hint").addEventListener("click", () => call("hint"));
$("#zangle-go").addEventListener("click", () => { const a = zangleAction(); if (a !== null) call("move", {action: a}); });
$("#zangle-clear").addEventListener("click", () => { sel = {target: null, pieces: new Set()}; drawPlaces(); });
call("state").then(() => showRules({id: ID, seed: Q.get("seed") || ""}));

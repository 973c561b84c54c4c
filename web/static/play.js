// The play page: the position is the URL (/play/<ID>?moves=a.b.c&seed=S&bots=...); every move
// asks the server, which checks it with the engine and answers with the new position.
// Keyboard: the board's spots (hot cells, cards, sides) are one tab stop; the arrow keys move
// between them by their place on the screen; Enter or Space acts; u/r/t/h/a are the controls.
"use strict";
const ID = decodeURIComponent(location.pathname.slice("/play/".length));
const Q = new URLSearchParams(location.search);
let view = null, busy = false, sel = {target: null, pieces: new Set()}, hinted = null;
let redoStack = [];      // move lists undone (or left by a restart), the latest last
let playing = null;      // the answer being played: {stop}
let loadFailed = false, restartable = false;
let focusKey = null, focusCentre = null;  // the board spot with the keyboard focus (kept over a redraw)
let lastFocus = null, busyTimer = null;
let answerNote = "";     // how the last answer ended (until the next move)

const WHAT = {state: "loading the position (a new puzzle is generated on first use)", move: "playing the move",
              undo: "undoing", hint: "looking for a hint", answer: "working out the answer"};
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

function urlMoves() { return (Q.get("moves") || "").split(/[.,]/).filter((x) => x !== ""); }

function query(extra, moves) {
  const m = moves !== undefined ? moves : (view ? view.moves : urlMoves());
  const q = new URLSearchParams({id: ID, moves: m.join(".")});
  for (const k of ["seed", "bots"]) if (Q.get(k)) q.set(k, Q.get(k));
  for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
  return q.toString();
}

// -- busy: a visible progress line (what and how long) and the controls disabled ---------------
function startBusy(what) {
  busy = true;
  const a = document.activeElement;
  lastFocus = a && a !== document.body ? a : null;
  const t0 = Date.now();
  const show = () => { $("#busy").textContent = `${what}… ${Math.floor((Date.now() - t0) / 1000)} s`; };
  show();
  $("#busysr").textContent = `${what}…`;  // said once (the seconds only on the screen)
  $("#spinner").hidden = false;
  $("#controls").setAttribute("aria-busy", "true");
  busyTimer = setInterval(show, 250);
  setControls();
}
function endBusy() {
  busy = false;
  clearInterval(busyTimer);
  $("#busy").textContent = "";
  $("#busysr").textContent = "";
  $("#spinner").hidden = true;
  $("#controls").removeAttribute("aria-busy");
  setControls();
  restoreFocus();
}

async function call(name, extra, opts) {
  if (busy) return null;
  opts = opts || {};
  startBusy(opts.what || WHAT[name]);
  try {
    return await api(`/api/${name}?` + query(extra, opts.moves));
  } catch (e) {
    if (opts.onError) opts.onError(e.message); else $("#message").textContent = e.message;
    return null;
  } finally { endBusy(); }
}

function setControls() {
  const ok = !!view && !loadFailed;
  const locked = busy || !!playing;
  const mine = ok && (view.played > 0 || (view.moves.length > 0 && view.seats.every((x) => x !== "human")));
  $("#undo").disabled = locked || !mine;
  $("#redo").disabled = locked || !ok || !redoStack.length;
  $("#restart").disabled = locked || !(ok ? mine : restartable);
  $("#hint").disabled = locked || !ok || !view.human_to_move;
  const why = ok ? view.answer_why : "no position";
  $("#answer").disabled = locked || !!why;
  $("#answer").title = why ? `no answer to show: ${why}` : "show the answer (a)";
  if (!playing) $("#answerinfo").textContent = answerNote || (ok && why && !view.finished ? `No answer to show: ${why}.` : "");
  $("#stop").hidden = !playing;
  document.querySelectorAll("#buttons button, #zangle button").forEach((b) => { b.disabled = locked || !ok; });
}

function restoreFocus() {
  if (busy) return;
  const a = document.activeElement;
  if (a && a !== document.body && a.isConnected) return;
  if (lastFocus && lastFocus.isConnected && !lastFocus.disabled && !lastFocus.hidden) { lastFocus.focus(); return; }
  if (lastFocus && focusKey) { const c = currentItem(); if (c) c.focus(); }
}

// -- the position ---------------------------------------------------------------------------
function syncUrl() {
  const q = new URLSearchParams();
  if (view.moves.length) q.set("moves", view.moves.join("."));
  for (const k of ["seed", "bots"]) if (Q.get(k)) q.set(k, Q.get(k));
  history.replaceState(null, "", playUrl(ID, Object.fromEntries(q)));
}

function render(v) {
  const hadFocus = $("#board").contains(document.activeElement);
  view = v;
  loadFailed = false;
  restartable = false;
  syncUrl();
  $("#title").textContent = `${v.game}`;
  document.title = `tanglekit: ${v.game}`;
  $("#heading").textContent = `Play ${v.game}`;
  $("#idline").textContent = `ID ${v.id}` + (v.seats.length > 1 ? `   seats: ${v.seats.map((s, i) => `player ${i} ${s}`).join(", ")}` : "");
  $("#goal").textContent = v.goal ? `Goal: ${v.goal}` + (v.optimum !== null ? ` (${v.optimum_note}: ${v.optimum})` : "") : "";
  $("#prompt").textContent = v.prompt;
  const res = $("#result");
  // the end in words: the verdict, then each reason on its own line (who won and why, who is out and why)
  const parts = (v.result || "").split("; ");
  res.textContent = parts[0];
  if (parts.length > 1) {
    const ul = el("ul", {class: "why"});
    parts.slice(1).forEach((p) => ul.append(el("li", {}, p)));
    res.append(ul);
  }
  const humans = v.seats.map((x, i) => (x === "human" ? i : -1)).filter((i) => i >= 0);
  const r = v.returns || [];
  const won = r.length > 1 && Math.max(...r) > Math.min(...r) && humans.some((h) => r[h] === Math.max(...r));
  res.className = v.result && !v.solved && !won && /not solved|winner/.test(v.result) ? "lost" : "";
  const scroll = $("#board").scrollLeft;
  $("#board").innerHTML = v.svg;
  $("#board").className = v.game;
  fitBoard();
  $("#board").scrollLeft = scroll;
  sel = {target: null, pieces: new Set()};
  chosen = new Set();
  const zb = $("#zangle");
  zb.hidden = !v.can_zangle;
  const lz = $("#lastzangle");
  lz.hidden = !v.last_zangle;
  if (v.last_zangle) { $("#lastzangle-svg").innerHTML = v.last_zangle.svg; $("#lastzangle-text").textContent = v.last_zangle.text; }
  // every legal move without a spot on the board as a button
  const box = $("#buttons");
  box.innerHTML = "";
  $("#filterbox").hidden = v.buttons.length <= 24 && !v.buttons.some((b) => b.move.startsWith("correct "));
  $("#filter").placeholder = v.sides ? "e.g. V2 (or choose a side on the board)"
    : v.buttons.some((b) => b.move.startsWith("correct ")) ? "e.g. pass (type 'correct' for corrected calls)" : "type part of a move";
  $("#pickinfo").textContent = "";
  for (const b of v.buttons) {
    box.append(el("button", {class: "move", "data-action": b.action, onclick: () => move(b.action)}, b.move));
  }
  setupBoard(v);
  if (v.sides) tangleSetup(v);
  picked = [];
  if (v.spot_names) spotsChanged();
  drawPlaces();
  applyFilter();
  const log = $("#log");
  log.innerHTML = "";
  v.move_names.forEach((m) => log.append(el("li", {}, m)));
  log.scrollTop = log.scrollHeight;
  setControls();
  if (hadFocus || (document.activeElement === document.body && lastFocus && !lastFocus.isConnected)) {
    const c = currentItem();
    if (c) c.focus();
  } else restoreFocus();
}

function loadError(msg) {
  // nothing stale: no board, log, result or moves; only the controls that can work stay enabled
  view = null;
  loadFailed = true;
  $("#board").innerHTML = "";
  $("#board").className = "";
  $("#board").append(el("p", {class: "error"}, "No position to show: " + msg));
  for (const s of ["#prompt", "#result", "#hinttext", "#pickinfo", "#selection", "#goal", "#answerinfo"]) $(s).textContent = "";
  $("#log").innerHTML = "";
  $("#buttons").innerHTML = "";
  for (const s of ["#zangle", "#lastzangle", "#filterbox"]) $(s).hidden = true;
  $("#idline").textContent = `ID ${ID} could not be opened`;
  $("#message").textContent = msg;
  setControls();
}

async function load() {
  let err = null;
  const v = await call("state", {}, {onError: (m) => { err = m; }});
  if (v) { render(v); return; }
  loadError(err);
  if (urlMoves().length) {  // does the start open without the address's moves? then restart can work
    let ok = false;
    await call("state", {}, {moves: [], what: "checking the start without the moves", onError: () => {}}).then((d) => { ok = !!d; });
    if (ok) {
      restartable = true;
      $("#message").textContent = `${err}. Restart opens the start without these moves.`;
      setControls();
    }
  }
}

async function move(action) {
  answerNote = "";
  if (busy || playing || !view) return;
  if (!view.human_to_move) { $("#message").textContent = view.finished ? "refused: the game is over" : "refused: it is not your turn"; return; }
  const v = await call("move", {action});
  if (!v) return;
  // the move the undone line made: the rest of it stays to redo; any other move drops it
  const top = redoStack[redoStack.length - 1];
  if (!(top && v.moves.length <= top.length && v.moves.every((m, i) => String(m) === String(top[i])))) redoStack = [];
  else if (v.moves.length === top.length) redoStack.pop();
  afterStep(v);
}

function afterStep(v) {
  $("#message").textContent = "";
  $("#hinttext").textContent = "";
  hinted = null;
  render(v);
}

async function undo() {
  answerNote = "";
  if (busy || playing || !view || $("#undo").disabled) return;
  const before = view.moves.slice();
  const v = await call("undo");
  if (!v) return;
  redoStack.push(before);
  afterStep(v);
}

async function redo() {
  answerNote = "";
  if (busy || playing || !redoStack.length) return;
  const target = redoStack[redoStack.length - 1];
  // forward to the next person's move along the undone line (a restart's line comes back whole)
  const v = await call("state", {}, {moves: target, what: "redoing"});
  if (!v) return;
  redoStack.pop();
  afterStep(v);
}

async function restart() {
  answerNote = "";
  if (busy || playing || $("#restart").disabled) return;
  const before = view ? view.moves.slice() : null;
  const v = await call("state", {}, {moves: [], what: "going back to the start"});
  if (!v) return;
  if (before) redoStack.push(before);
  afterStep(v);
}

async function hint() {
  if (busy || playing || !view || !view.human_to_move) return;
  const h = await call("hint");
  if (h) showHint(h);
}

// -- the answer: the solver's line from here, played step by step ------------------------------
async function showAnswer() {
  if (busy || playing || !view || view.answer_why) return;
  playing = {stop: false};
  redoStack = [];
  answerNote = "";
  setControls();
  $("#stop").focus();
  let played = 0, last = "";
  try {
    for (let round = 0; round < 50 && !playing.stop; round++) {
      const data = await call("answer", {}, {what: round ? "working out the rest of the answer" : "working out the answer"});
      if (!data) return;
      for (const [k, step] of data.steps.entries()) {
        if (playing.stop) break;
        const v = await call("state", {}, {moves: step.moves, what: `answer: step ${played + 1}`});
        if (!v) return;
        played++;
        afterStep(v);
        $("#answerinfo").textContent = `Answer, step ${played}: ${step.move} (${step.why})` + (k === data.steps.length - 1 && data.done ? `. ${data.reason}` : "");
        await sleep(600);
      }
      last = data.reason;
      if (data.done || !data.steps.length) break;
    }
    answerNote = playing.stop ? `Answer stopped after ${played} step${played === 1 ? "" : "s"}.`
      : `Answer: ${played} step${played === 1 ? "" : "s"} played; ${last}.`;
  } finally {
    playing = null;
    setControls();
    if (document.activeElement === document.body || !document.activeElement) $("#answer").disabled ? $("#hint").focus() : $("#answer").focus();
  }
}

// -- the board's spots: focusable, named, reachable by the arrow keys --------------------------
function boardItems() { return [...document.querySelectorAll("#board [data-k]")]; }

function setupBoard(v) {
  const names = v.hot_names || {};
  const legal = new Set();
  document.querySelectorAll("#board .hot[data-spot]").forEach((h) => {
    h.dataset.k = "c" + h.dataset.spot;
    h.setAttribute("aria-label", (v.spot_names && v.spot_names[+h.dataset.spot]) || `spot ${h.dataset.spot}`);
    h.addEventListener("click", () => chooseSpot(+h.dataset.spot));
  });
  document.querySelectorAll("#board .hot[data-action]").forEach((h) => {
    const a = h.dataset.action;
    h.dataset.k = "a" + a;
    h.setAttribute("aria-label", names[a] || `move ${a}`);
    if (h.classList.contains("legal") || (names[a] && !/not legal now/.test(names[a]))) legal.add(h);
    h.addEventListener("click", () => move(+h.dataset.action));
  });
  document.querySelectorAll("#board .card[data-place]").forEach((c) => {
    const p = (v.places || []).find((x) => String(x.place) === c.dataset.place);
    c.dataset.k = "p" + c.dataset.place;
    c.setAttribute("aria-label", p ? `card ${p.card}, ${p.where}` : `card ${c.dataset.card || c.dataset.place}`);
    c.addEventListener("click", () => {
      if (view.human_to_move && view.can_zangle) pick(+c.dataset.place);
      else $("#message").textContent = "refused: " + (view.finished ? "the game is over" : "no Zangle can be made now");
    });
  });
  document.querySelectorAll("#board .side[data-side]").forEach((s) => { s.dataset.k = "s" + s.dataset.side; });
  const items = boardItems();
  for (const e of items) {
    e.setAttribute("role", "button");
    e.setAttribute("tabindex", "-1");
    e.addEventListener("focus", () => {
      items.forEach((x) => x.setAttribute("tabindex", x === e ? "0" : "-1"));
      focusKey = e.dataset.k;
      const r = e.getBoundingClientRect();
      focusCentre = [r.left + r.width / 2, r.top + r.height / 2];
      if (e.dataset.side !== undefined) drawSides([+e.dataset.side], "#1a56db", "", "focus");
      const bx = $("#board").getBoundingClientRect();
      const toolbar = $("#controls").getBoundingClientRect().bottom;
      const bottom = document.body.classList.contains("choosing") && window.innerWidth < 700 ? window.innerHeight * 0.55 : window.innerHeight;
      if (r.left < bx.left || r.right > bx.right || r.top < toolbar || r.bottom > bottom) reveal([e]);
    });
    e.addEventListener("blur", () => { if (e.dataset.side !== undefined) drawSides([], "", "", "focus"); });
  }
  const covered = new Set(v.sides ? v.buttons.flatMap((b) => b.sides || []) : []);
  const starts = new Set(v.buttons.map((b) => (b.spots || [])[0]));
  const playable = items.filter((e) => legal.has(e) || (e.dataset.side !== undefined && covered.has(+e.dataset.side))
    || (e.dataset.spot !== undefined && starts.has(+e.dataset.spot)));
  let first = items.find((e) => e.dataset.k === focusKey);
  if (!first && playable.length) {  // the playable spot nearest the middle of them all
    const cs = playable.map((e) => { const r = e.getBoundingClientRect(); return [e, r.left + r.width / 2, r.top + r.height / 2]; });
    const mx = cs.reduce((t, c) => t + c[1], 0) / cs.length, my = cs.reduce((t, c) => t + c[2], 0) / cs.length;
    first = cs.reduce((b, c) => (Math.hypot(c[1] - mx, c[2] - my) < Math.hypot(b[1] - mx, b[2] - my) ? c : b))[0];
  }
  first = first || items[0];
  if (first) first.setAttribute("tabindex", "0");
}

function fitBoard() {
  // on a phone, a board whose spots would be under 40 px is drawn larger (it scrolls sideways in
  // its own box; the page does not)
  const svg = document.querySelector("#board > svg");
  $("#fitnote").hidden = true;
  if (!svg) return;
  svg.style.width = "";
  svg.style.maxWidth = "";
  if (window.innerWidth >= 700) return;
  // the size of a spot: a rectangle's shorter side; for a side's area (a rhombus of 60 and 120 degrees
  // around the side) the widest circle inside it, 0.866 of the side's length
  const k = svg.getBoundingClientRect().width / (svg.viewBox.baseVal && svg.viewBox.baseVal.width || svg.width.baseVal.value || 1);
  const sizes = [...svg.querySelectorAll(".hot, .side")].map((e) => {
    if (e.dataset.side !== undefined && view.sides) { const [x1, y1, x2, y2] = view.sides[+e.dataset.side]; return 0.866 * Math.hypot(x2 - x1, y2 - y1) * k; }
    const r = e.getBoundingClientRect(); return Math.min(r.width, r.height);
  }).filter((x) => x > 0).sort((a, b) => a - b);
  if (!sizes.length) return;
  const small = sizes[Math.floor(sizes.length / 2)];
  if (small >= 40) return;
  const w = svg.getBoundingClientRect().width;
  if (!fitScreen) { svg.style.width = Math.ceil(w * Math.min(40.5 / small, 3)) + "px"; svg.style.maxWidth = "none"; }
  $("#fitbutton").textContent = fitScreen ? "enlarge the board for touch" : "fit the board to the screen";
  $("#fitnote").hidden = false;
}
let fitScreen = false;
window.addEventListener("resize", () => { if (view) fitBoard(); });

function currentItem() {
  const items = boardItems();
  const same = items.find((e) => e.dataset.k === focusKey);
  if (same) return same;
  if (focusCentre && items.length) {
    let best = null, bd = Infinity;
    for (const e of items) {
      const r = e.getBoundingClientRect();
      const d = Math.hypot(r.left + r.width / 2 - focusCentre[0], r.top + r.height / 2 - focusCentre[1]);
      if (d < bd) { bd = d; best = e; }
    }
    return best;
  }
  return items.find((e) => e.getAttribute("tabindex") === "0") || items[0] || null;
}

function nearest(from, key) {
  // the spot nearest in the arrow's direction, by the centres of the spots' boxes on the screen
  const r0 = from.getBoundingClientRect();
  const x0 = r0.left + r0.width / 2, y0 = r0.top + r0.height / 2;
  let best = null, bestScore = Infinity;
  for (const e of boardItems()) {
    if (e === from) continue;
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    const dx = r.left + r.width / 2 - x0, dy = r.top + r.height / 2 - y0;
    const [along, across] = key === "ArrowRight" ? [dx, dy] : key === "ArrowLeft" ? [-dx, dy] : key === "ArrowDown" ? [dy, dx] : [-dy, dx];
    if (along < 2) continue;
    const score = along + 2.5 * Math.abs(across);
    if (score < bestScore) { bestScore = score; best = e; }
  }
  return best;
}

function activate(item) {
  item.dispatchEvent(new MouseEvent("click", {bubbles: true}));
}

// -- Zangle: the target card, then the pieces, then "Zangle!" ----------------------------------
function drawPlaces() {
  // the cards on the board: target (red), pieces (green), the hint's cards (gold)
  document.querySelectorAll("#board .card[data-place]").forEach((c) => {
    const p = +c.dataset.place;
    c.classList.toggle("target", sel.target === p);
    c.classList.toggle("piece", sel.pieces.has(p));
    c.classList.toggle("hinted", !!(hinted && hinted.places && hinted.places.includes(p)));
    c.setAttribute("aria-pressed", sel.target === p || sel.pieces.has(p) ? "true" : "false");
  });
  const t = view && (view.places || []).find((p) => p.place === sel.target);
  const names = view ? (view.places || []).filter((p) => sel.pieces.has(p.place)).map((p) => p.card) : [];
  $("#selection").textContent = t ? `target ${t.card} <= ${names.join(" + ") || "… (now choose the pieces)"}` : "";
}

function pick(place) {
  if (sel.target === place) sel.target = null;
  else if (sel.pieces.has(place)) sel.pieces.delete(place);
  else if (sel.target === null) sel.target = place;
  else sel.pieces.add(place);
  drawPlaces();
}

function zangleAction() {
  if (sel.target === null) { $("#message").textContent = "refused: choose the target card first"; return null; }
  let mask = 1 << sel.target;
  sel.pieces.forEach((p) => { mask |= 1 << p; });
  const c = view.compose;  // the game's encoding of a move composed of places (from the server)
  return c.base + c.target_stride * sel.target + c.mask_stride * mask;
}

function clearChoice() {
  sel = {target: null, pieces: new Set()};
  drawPlaces();
  if (view && view.sides) { chosen = new Set(); sidesChanged(); }
  if (view && view.spot_names && picked.length) { picked = []; spotsChanged(); }
}

function showHint(h) {
  $("#hinttext").textContent = h.action === null ? `No hint: ${h.hint}` : `hint: ${h.move} (${h.hint})`;
  hinted = h.action === null ? null : {action: h.action};
  document.querySelectorAll(".hinted").forEach((e) => e.classList.remove("hinted"));
  if (h.action === null) return;
  document.querySelectorAll(`[data-action="${h.action}"]`).forEach((e) => e.classList.add("hinted"));
  const b = view.buttons.find((x) => x.action === h.action);
  if (view.sides && b && b.sides && b.sides.length) {  // the hinted placement: its sides chosen, its button shown
    chosen = new Set(b.sides);
    sidesChanged();
    drawSides(b.sides, "#b35c00", "6 3", "preview");
  }
  const c = view.compose;
  if (c && h.action >= c.base && (view.places || []).length) {
    const t = (h.action - c.base) % c.mask_stride, m = Math.floor((h.action - c.base) / c.mask_stride);
    hinted.places = view.places.map((p) => p.place).filter((p) => (m >> p) & 1);
    sel = {target: t, pieces: new Set(hinted.places.filter((p) => p !== t))};
    drawPlaces();
  }
}

// -- sides (a game whose moves cover sides of the board): choose a side, then one of the few
// placements covering it; a placement's sides are drawn on the board while it is hovered or focused
let chosen = new Set(), kind = null;  // the sides chosen; the piece (a move's first word) chosen among them
const SVGNS = "http://www.w3.org/2000/svg";
function overlay() {
  const svg = document.querySelector("#board svg");
  if (!svg) return null;
  let g = svg.querySelector("#overlay");
  if (!g) { g = document.createElementNS(SVGNS, "g"); g.setAttribute("id", "overlay"); g.style.pointerEvents = "none"; svg.append(g); }
  return g;
}
function drawSides(list, colour, dash, cls) {
  const g = overlay();
  if (!g || !view || !view.sides) return;
  g.querySelectorAll("." + cls).forEach((e) => e.remove());
  for (const si of list) {
    const [x1, y1, x2, y2] = view.sides[si];
    const l = document.createElementNS(SVGNS, "line");
    for (const [k, val] of Object.entries({x1, y1, x2, y2, stroke: colour, "stroke-width": cls === "focus" ? 7 : 5, "stroke-linecap": "round", "stroke-dasharray": dash, class: cls})) l.setAttribute(k, val);
    g.append(l);
  }
}
function sideName(si) { return (view.side_names && view.side_names[si]) || `side ${si}`; }
function coverOf(b) { return new Set(b.sides || []); }

async function chooseSide(si) {
  if (!view.human_to_move) { $("#message").textContent = "refused: " + (view.finished ? "the game is over" : "it is not your turn"); return; }
  const covering = (set) => view.buttons.filter((b) => { const s = coverOf(b); return [...set].every((x) => s.has(x)); });
  if (chosen.has(si)) { chosen.delete(si); sidesChanged(); return; }
  const more = new Set([...chosen, si]);
  if (covering(more).length) { chosen = more; sidesChanged(); return; }
  if (covering(new Set([si])).length) { chosen = new Set([si]); sidesChanged(); return; }
  // no legal placement covers it: the engine says why, for one placement that would
  chosen = new Set();
  sidesChanged();
  const probe = (view.side_probe || [])[si];
  if (probe !== undefined && probe >= 0) {
    const r = await call("move", {action: probe}, {what: "asking why", onError: (m) => {
      $("#message").textContent = `No placement can cover side ${sideName(si)}: ${m.replace(/^illegal: /, "")}`; }});
    if (r) afterStep(r);  // (not expected: the probe is not legal)
  } else $("#message").textContent = `No placement can cover side ${sideName(si)}.`;
}

function sidesChanged(keepKind) {
  drawSides([...chosen], "#222", "2 3", "chosen");
  drawSides([], "", "", "preview");
  if (!keepKind) kind = null;
  const saved = kind;
  kind = null;
  applyFilter();
  const covering = [...document.querySelectorAll("#buttons button")].filter((b) => !b.hidden && b.dataset.sides);
  // many placements: one button per piece narrows them
  const kinds = new Map();
  covering.forEach((b) => { const k = b.textContent.split(" ")[0]; kinds.set(k, (kinds.get(k) || 0) + 1); });
  const box = $("#kinds");
  box.innerHTML = "";
  box.hidden = covering.length <= 12 || kinds.size < 2;
  if (!box.hidden) {
    box.append(el("span", {class: "small"}, "piece: "));
    for (const [k, n] of kinds) {
      box.append(el("button", {class: "kind", "aria-pressed": String(k === saved),
        onclick: () => {
          kind = kind === k ? null : k;
          sidesChanged(true);
          const again = [...$("#kinds").querySelectorAll("button")].find((x) => x.textContent.startsWith(k + " "));
          if (again) again.focus();
        }}, `${k} (${n})`));
    }
  }
  kind = saved;
  applyFilter();
  const shown = [...document.querySelectorAll("#buttons button")].filter((b) => !b.hidden && b.dataset.sides);
  const names = [...chosen].map(sideName).join(" and ");
  $("#pickinfo").textContent = chosen.size
    ? `${shown.length} placement${shown.length === 1 ? " covers" : "s cover"} side${chosen.size === 1 ? "" : "s"} ${names}` + (kind ? ` with ${kind}` : "") +
      (shown.length ? ": choose one below (hover or focus one to see it on the board), or choose another side to narrow them" : "")
    : (view.human_to_move ? "Choose a side on the board (click it, or Tab to the board, arrows, Enter); the placements covering it appear here." : "");
  if (chosen.size) $("#message").textContent = "";
  document.body.classList.toggle("choosing", chosen.size > 0);
  $("#choices-close").hidden = !chosen.size;
  if (chosen.size && window.innerWidth < 700) showOnBoard([...chosen]);
}

function showOnBoard(list) {
  // a small screen with the choices over the board's lower part: the placement in the upper part
  reveal(list.map((si) => document.querySelector(`#board [data-side="${si}"]`)).filter(Boolean));
}

function reveal(els) {
  // the spots in view: sideways in the board's box, and in the upper part of the screen
  if (!els.length) return;
  const rs = els.map((e) => e.getBoundingClientRect());
  const x = (Math.min(...rs.map((r) => r.left)) + Math.max(...rs.map((r) => r.right))) / 2;
  const y = (Math.min(...rs.map((r) => r.top)) + Math.max(...rs.map((r) => r.bottom))) / 2;
  const b = $("#board"), br = b.getBoundingClientRect();
  b.scrollLeft += x - (br.left + br.width / 2);
  window.scrollBy(0, y - window.innerHeight * 0.3);
}

function tangleSetup(v) {
  chosen = new Set();
  document.querySelectorAll("#board .side").forEach((s) => s.addEventListener("click", () => chooseSide(+s.dataset.side)));
  const bySides = new Map(v.buttons.map((b) => [String(b.action), b.sides || []]));
  document.querySelectorAll("#buttons button").forEach((btn) => {
    const s = bySides.get(btn.dataset.action);
    if (s && s.length) btn.dataset.sides = s.join(" ");
    const show = (ev) => {
      drawSides(s || [], "#b35c00", "6 3", "preview");
      if (ev.type === "focus" && s && s.length && window.innerWidth < 700) showOnBoard(s);
    };
    const hide = () => drawSides([], "", "", "preview");
    btn.addEventListener("mouseenter", show);
    btn.addEventListener("focus", show);
    btn.addEventListener("mouseleave", hide);
    btn.addEventListener("blur", hide);
  });
  sidesChanged();
}

function applyFilter() {
  const f = $("#filter").value.trim().toLowerCase();
  const sidesOf = view && view.sides ? new Map(view.buttons.map((b) => [String(b.action), coverOf(b)])) : null;
  document.querySelectorAll("#buttons button").forEach((b) => {
    const t = b.textContent.toLowerCase();
    let hide = f ? !t.includes(f) : t.startsWith("correct ");  // corrected Zinga calls: type to see them
    if (sidesOf) {
      const s = sidesOf.get(b.dataset.action);
      if (s.size) hide = chosen.size ? hide || ![...chosen].every((x) => s.has(x)) : !f || hide;  // placements: by side
    }
    if (kind && !t.startsWith(kind.toLowerCase() + " ")) hide = true;
    if (picked.length && view) {
      const b0 = view.buttons.find((x) => String(x.action) === b.dataset.action);
      if (!(b0 && b0.spots && picked.every((x, i) => b0.spots[i] === x))) hide = true;
    }
    b.hidden = hide;
  });
}

// -- spots (a game whose moves are chosen cell by cell on the board): the cells chosen so far
// narrow the moves to those starting so; one move left is played
let picked = [];
function spotName(i) { return (view.spot_names && view.spot_names[i]) || `spot ${i}`; }
function spotCandidates(seq) { return view.buttons.filter((b) => b.spots && seq.every((x, i) => b.spots[i] === x)); }

async function chooseSpot(i) {
  if (!view.human_to_move) { $("#message").textContent = "refused: " + (view.finished ? "the game is over" : "it is not your turn"); return; }
  if (picked.length && picked[picked.length - 1] === i) { picked.pop(); spotsChanged(); return; }
  let seq = [...picked, i];
  let c = spotCandidates(seq);
  if (!c.length && picked.length) { seq = [i]; c = spotCandidates(seq); }
  if (c.length === 1) { picked = []; spotsChanged(); move(c[0].action); return; }
  if (c.length) { picked = seq; spotsChanged(); return; }
  // no legal move starts here: the engine says why, for a move of the present kind that would
  picked = [];
  spotsChanged();
  const probe = (view.spot_probe || [])[i];
  if (probe !== undefined && probe >= 0) {
    const r = await call("move", {action: probe}, {what: "asking why", onError: (m) => {
      $("#message").textContent = `refused: no move from ${spotName(i)}: ${m.replace(/^illegal: /, "")}`; }});
    if (r) afterStep(r);  // (not expected: the probe is not legal)
  } else $("#message").textContent = `refused: no legal move uses ${spotName(i)} now`;
}

function spotsChanged() {
  const c = spotCandidates(picked);
  document.querySelectorAll("#board .hot[data-spot]").forEach((h) => {
    const s = +h.dataset.spot;
    h.classList.toggle("chosen", picked.includes(s));
    h.classList.toggle("legal", c.some((b) => b.spots.length > picked.length && b.spots[picked.length] === s));
  });
  applyFilter();
  $("#pickinfo").textContent = picked.length
    ? `${c.length} moves start with ${picked.map(spotName).join(" then ")}: choose the next card on the board (tinted), or a move below`
    : "";
  if (picked.length) $("#message").textContent = "";
  document.body.classList.toggle("choosing", picked.length > 0);
  $("#choices-close").hidden = !picked.length;
}

// -- keys ---------------------------------------------------------------------------------------
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  const inField = t && t.matches && t.matches("input, textarea, select");
  if (e.key === "Escape") {
    if (playing) playing.stop = true;
    else if (chosen.size || picked.length) $("#choices-close").click();
    else clearChoice();
    return;
  }
  if (inField) return;
  const item = t && t.closest ? t.closest("#board [data-k]") : null;
  if (e.key.startsWith("Arrow")) {
    if (item) {
      const n = nearest(item, e.key);
      if (n) n.focus();
      e.preventDefault();
    } else if (t === document.body) {
      const c = currentItem();
      if (c) { c.focus(); e.preventDefault(); }
    }
    return;
  }
  if ((e.key === "Enter" || e.key === " ") && item) {
    e.preventDefault();
    activate(item);
    return;
  }
  if (e.shiftKey && e.key.length === 1 && e.key !== e.key.toUpperCase()) return;
  const button = {u: "#undo", r: "#redo", t: "#restart", h: "#hint", a: "#answer", z: "#zangle-go", c: "#zangle-clear"}[e.key];
  if (button) {
    const b = $(button);
    if (b && !b.disabled && !b.closest("[hidden]")) { e.preventDefault(); b.click(); }
  }
});

$("#filter").addEventListener("input", applyFilter);
$("#undo").addEventListener("click", undo);
$("#redo").addEventListener("click", redo);
$("#restart").addEventListener("click", restart);
$("#hint").addEventListener("click", hint);
$("#answer").addEventListener("click", showAnswer);
$("#stop").addEventListener("click", () => { if (playing) playing.stop = true; });
$("#zangle-go").addEventListener("click", () => { const a = zangleAction(); if (a !== null) move(a); });
$("#zangle-clear").addEventListener("click", clearChoice);
$("#choices-close").addEventListener("click", () => {
  const si = [...chosen][0], sp = picked[0];
  clearChoice();
  const s = (si !== undefined && document.querySelector(`#board [data-side="${si}"]`))
    || (sp !== undefined && document.querySelector(`#board [data-spot="${sp}"]`));
  if (s) s.focus();
});
$("#fitbutton").addEventListener("click", () => { fitScreen = !fitScreen; fitBoard(); });
load().then(() => { if (view) showRules({id: ID, seed: Q.get("seed") || ""}); });

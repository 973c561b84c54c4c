// The check pages: enter a deal or position (mouse or keyboard), ask the solver, watch its line.
// Generic: what to enter comes from the game's plugin (/api/data/<family>): a grid of cells (each
// cell cycles through values, or takes the chosen value of a palette) or a deck of cards put into
// zones. /api/draw/<family> draws a grid and says whether it can be checked; /api/check/<family>
// answers with a sentence, an ID that opens a play page, and the solver's line as frames.
"use strict";
const FAMILY = location.pathname.split("/").filter(Boolean)[1];
let SPEC = {};          // the plugin's check data
const E = {sel: {}, cells: {}, zones: {}};  // what has been entered (an edit changes it)
let activeZone = null;  // deck: where the next card goes
let value = null;       // grid with a palette: the value a cell takes
let drawn = null;       // grid: the newest picture (ready, why, check body, names, palette)
let drawing = Promise.resolve();
let drawSeq = 0;
let history = [];       // snapshots of E before each edit (u: undo)
let busy = false;
let errorKey = null;    // the entry that gave the error shown (checking it again cannot work)
let stopAnim = () => {};
let focusKey = null;    // the item (cell action or card) holding the roving tab stop

const key = () => JSON.stringify(E);
const isDeck = () => SPEC.entry === "deck";

// --- result, errors, controls -----------------------------------------------------------------
function clearResult() {
  stopAnim(); stopAnim = () => {};
  for (const s of ["#answer", "#caption", "#frame", "#controls", "#line"]) $(s).innerHTML = "";
  $("#shareid").textContent = "—";
  $("#playlink").hidden = true; $("#playlink").removeAttribute("href");
  $("#result").hidden = true;
  $("#message").textContent = "";
  errorKey = null;
}
function showError(msg) {
  clearResult();
  $("#message").textContent = msg;
  errorKey = key();
  updateControls();
}
function showAnswer(r) {
  clearResult();
  $("#result").hidden = false;
  $("#answer").textContent = r.answer || "";
  $("#shareid").textContent = r.id || "—";
  const link = $("#playlink");
  link.hidden = !r.id;
  if (r.id) link.href = playUrl(r.id);
  (r.line_text || []).forEach((m) => $("#line").append(el("li", {}, m)));
  stopAnim = animate(r.frames || [], $("#frame"), $("#caption"), $("#controls"));
  const names = {"anim-first": "first step", "anim-prev": "previous step", "anim-play": "play the line", "anim-next": "next step", "anim-last": "last step"};
  for (const [id, label] of Object.entries(names)) { const b = document.getElementById(id); if (b) b.setAttribute("aria-label", label); }
  if ((r.frames || []).length < 2) $("#controls").innerHTML = "";  // nothing to step through
}

function entryEmpty() {
  return isDeck() ? Object.values(E.zones).every((z) => !z.length) : !Object.keys(E.cells).length;
}
function readiness() {  // [ready, why not]
  if (!isDeck()) return drawn ? [drawn.ready !== false, drawn.why || ""] : [false, ""];
  for (const z of zones()) {
    const n = (E.zones[z.name] || []).length;
    if (n < (z.min || 0)) return [false, `${z.name} needs ${z.min === z.max ? "" : "at least "}${z.min} card${z.min === 1 ? "" : "s"} (has ${n})`];
  }
  return [true, ""];
}
function updateControls() {
  const [ready, why] = readiness();
  const stale = errorKey !== null && errorKey === key();
  $("#solve").disabled = busy || !ready || stale;
  $("#undo").disabled = busy || !history.length;
  $("#reset").disabled = busy || entryEmpty();
  document.querySelectorAll("#entry select, #entry input, #entry button").forEach((c) => { c.disabled = busy; });
  document.querySelectorAll("#entry [role=button]").forEach((c) => {
    if (busy) c.setAttribute("aria-disabled", "true"); else if (!c.classList.contains("used")) c.removeAttribute("aria-disabled");
  });
  $("#entry").classList.toggle("busy", busy);
  $("#why").textContent = busy ? "" : stale ? "edit the entry to check again" : ready ? "" : `not ready to check: ${why}`;
}

// a long piece of work: the controls disabled, after a second a progress bar with the seconds
async function run(label, fn) {
  busy = true; updateControls();
  const t0 = Date.now();
  $("#busy").textContent = label;
  const tick = setInterval(() => {
    const s = (Date.now() - t0) / 1000;
    if (s >= 1) { $("#bar").hidden = false; $("#progress").classList.add("on"); $("#busy").textContent = `${label} ${Math.floor(s)} s`; }
  }, 200);
  try { await fn(); } catch (e) { showError(e.message); } finally {
    clearInterval(tick);
    busy = false;
    $("#busy").textContent = ""; $("#bar").hidden = true; $("#progress").classList.remove("on");
    updateControls();
  }
}

// --- edits ----------------------------------------------------------------------------------------
function edit(fn) {
  if (busy) return;
  const before = key();
  fn();
  if (key() === before) return;
  history.push(before);
  if (history.length > 500) history.shift();
  clearResult();
  redraw();
}
function undo() {
  if (busy || !history.length) return;
  Object.assign(E, JSON.parse(history.pop()));
  clearResult(); redraw();
}
function clearAll() {
  edit(() => { E.cells = {}; E.zones = {}; zones().forEach((z) => { E.zones[z.name] = []; }); });
  if (isDeck()) activeZone = zones()[0].name;
}
function redraw() { syncSelects(); if (isDeck()) deckDraw(); else gridDraw(); updateControls(); }

async function solve() {
  if (busy) return;
  await drawing;  // the newest picture's check body
  const [ready] = readiness();
  if (!ready || (errorKey !== null && errorKey === key())) return;
  await run("checking…", async () => {
    const r = await api(`/api/check/${FAMILY}`, checkBody());
    showAnswer(r);
  });
}
function checkBody() {
  if (!isDeck()) return drawn.check;
  const body = Object.assign({}, E.sel);
  for (const z of zones()) {
    const cards = E.zones[z.name] || [];
    if (z.index === undefined) body[z.key] = cards;
    else { if (!Array.isArray(body[z.key])) body[z.key] = []; body[z.key][z.index] = cards; }
  }
  return body;
}

// --- roving focus: one tab stop per group, arrow keys inside it -------------------------------------
function rove(group, item) {
  group.querySelectorAll("[data-k]").forEach((x) => x.setAttribute("tabindex", x === item ? "0" : "-1"));
  if (item) { focusKey = item.dataset.k; item.focus(); }
}
function initTabStop(group) {
  const items = [...group.querySelectorAll("[data-k]")];
  const cur = items.find((x) => x.dataset.k === focusKey) || items[0];
  items.forEach((x) => x.setAttribute("tabindex", x === cur ? "0" : "-1"));
}
function refocus(group, hadFocus) {
  if (!hadFocus) return;
  const it = group.querySelector(`[data-k="${CSS.escape(focusKey || "")}"]`) || group.querySelector("[data-k]");
  if (it) rove(group, it);
}
// the nearest item in the row above or below (by position on the screen)
function vertical(items, cur, dir) {
  const r = cur.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  let best = null, bestRow = Infinity, bestDx = Infinity;
  for (const it of items) {
    const q = it.getBoundingClientRect(), y = q.top + q.height / 2;
    const dy = (y - cy) * dir;
    if (dy < Math.min(r.height, q.height) / 2) continue;
    const dx = Math.abs(q.left + q.width / 2 - cx);
    if (dy < bestRow - 2 || (Math.abs(dy - bestRow) <= 2 && dx < bestDx)) { best = it; bestRow = dy; bestDx = dx; }
  }
  return best;
}
function horizontal(items, cur, dir, wrap) {  // along the row (a deck: on to the next row at its end)
  const t = items[items.indexOf(cur) + dir] || null;
  if (!t || wrap) return t;
  const a = cur.getBoundingClientRect(), b = t.getBoundingClientRect();
  return Math.abs(a.top + a.height / 2 - (b.top + b.height / 2)) < a.height / 2 ? t : null;
}
function arrowTarget(ev, items, cur, wrap) {
  switch (ev.key) {
    case "ArrowLeft": return horizontal(items, cur, -1, wrap);
    case "ArrowRight": return horizontal(items, cur, 1, wrap);
    case "ArrowUp": return vertical(items, cur, -1);
    case "ArrowDown": return vertical(items, cur, 1);
    case "Home": return items[0];
    case "End": return items[items.length - 1];
    default: return undefined;
  }
}
function groupKeys(group, act, remove, wrap) {
  group.addEventListener("keydown", (ev) => {
    const cur = ev.target.closest("[data-k]");
    if (!cur || !group.contains(cur) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const items = [...group.querySelectorAll("[data-k]")];
    const t = arrowTarget(ev, items, cur, wrap);
    if (t !== undefined) { ev.preventDefault(); ev.stopPropagation(); if (t) rove(group, t); return; }
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); focusKey = cur.dataset.k; act(cur); }
    else if ((ev.key === "Delete" || ev.key === "Backspace") && remove) { ev.preventDefault(); ev.stopPropagation(); focusKey = cur.dataset.k; remove(cur); }
  });
  group.addEventListener("focusin", (ev) => { const it = ev.target.closest("[data-k]"); if (it) { focusKey = it.dataset.k; rove(group, it); } });
}

// --- the selects (board, number of piles) and the text box -------------------------------------
function buildSelects(box) {
  for (const s of SPEC.selects || []) {
    const id = `sel-${s.name}`;
    const sel = el("select", {id, name: s.name});
    for (const o of s.options) sel.append(el("option", {value: o.value}, o.label));
    E.sel[s.name] = String(s.options[0].value);
    sel.addEventListener("change", () => {
      edit(() => {
        E.sel[s.name] = sel.value;
        E.cells = {};
        if (isDeck()) { E.zones = {}; zones().forEach((z) => { E.zones[z.name] = []; }); }
      });
      if (isDeck()) activeZone = zones()[0].name;
      if (s.param) showRules(rulesQuery());
    });
    box.append(el("label", {for: id, class: "selectlabel"}, `${s.label}: `), sel, " ");
  }
}
// the rules panel's query: the game checked, with the rule options its selects choose
function rulesQuery() {
  const q = {game: SPEC.rules_game || FAMILY};
  for (const s of SPEC.selects || []) if (s.param) q[s.param] = E.sel[s.name];
  return q;
}
function syncSelects() {
  for (const s of SPEC.selects || []) { const sel = document.getElementById(`sel-${s.name}`); if (sel) sel.value = E.sel[s.name]; }
}

// --- a grid: cells cycling through values, or taking the palette's value ----------------------------
function gridInit(entry) {
  const top = el("div", {class: "entrytop"});
  buildSelects(top);
  entry.append(top);
  if (SPEC.mode === "palette") entry.append(el("div", {class: "palette", id: "palette", role: "group", "aria-label": "card kind to put (keys 1-9)"}));
  entry.append(el("div", {id: "grid", role: "group", "aria-label": "the board: arrow keys move, Enter puts"}));
  if (SPEC.text) {
    const t = SPEC.text;
    const input = el("input", {type: "text", id: "entrytext", size: 24, spellcheck: "false", autocomplete: "off"});
    if (t.readonly) input.readOnly = true;
    else input.addEventListener("change", () => typed(input.value));
    entry.append(el("div", {class: "status"}, el("label", {for: "entrytext"}, `${t.label}: `), input));
  }
  groupKeys($("#grid"), (h) => cellAct(+h.dataset.action), (h) => edit(() => { delete E.cells[h.dataset.action]; }), false);
}
function cellAct(a) {
  edit(() => {
    const cur = E.cells[a];
    if (SPEC.mode === "palette") { if (cur === value) delete E.cells[a]; else E.cells[a] = value; }
    else {
      const seq = SPEC.cycle || [];
      const i = cur === undefined ? -1 : seq.indexOf(cur);
      if (i + 1 < seq.length) E.cells[a] = seq[i + 1]; else delete E.cells[a];
    }
  });
}
async function typed(text) {  // a whole layout typed into the text box
  const seq = ++drawSeq;
  try {
    const d = await api(`/api/draw/${FAMILY}`, Object.assign({}, E.sel, {[SPEC.text.name]: text}));
    if (seq !== drawSeq) return;
    edit(() => { E.cells = d.cells || {}; });
  } catch (e) { showError(e.message); }
}
function gridDraw() {
  const seq = ++drawSeq;
  const p = (async () => {
    let d;
    try { d = await api(`/api/draw/${FAMILY}`, Object.assign({}, E.sel, {cells: E.cells})); } catch (e) {
      if (seq === drawSeq) { drawn = {ready: false, why: e.message}; showError(e.message); }
      return;
    }
    if (seq !== drawSeq) return;
    drawn = d;
    const grid = $("#grid");
    const hadFocus = grid.contains(document.activeElement);
    grid.innerHTML = d.svg;
    const hots = [...grid.querySelectorAll(".hot")];
    const xs = [...new Set(hots.map((h) => +h.getAttribute("x")))].sort((a, b) => a - b);
    const ys = [...new Set(hots.map((h) => +h.getAttribute("y")))].sort((a, b) => a - b);
    for (const h of hots) {
      const a = h.dataset.action, v = E.cells[a];
      const name = (d.names || {})[a] || `${ys.indexOf(+h.getAttribute("y"))},${xs.indexOf(+h.getAttribute("x"))}`;
      h.dataset.k = a;
      h.setAttribute("role", "button");
      h.setAttribute("aria-label", `cell ${name}: ${v === undefined ? "empty" : (SPEC.values || {})[v] || v}`);
      h.addEventListener("click", () => { focusKey = a; cellAct(+a); });
    }
    // reading order: by row, then column (the arrow keys' order along a row)
    hots.sort((p, q) => (+p.getAttribute("y") - +q.getAttribute("y")) || (+p.getAttribute("x") - +q.getAttribute("x")));
    const svg = grid.querySelector("svg");
    if (svg) hots.forEach((h) => svg.append(h));
    initTabStop(grid);
    refocus(grid, hadFocus);
    if (SPEC.mode === "palette") paletteDraw(d.palette || []);
    const input = $("#entrytext");
    if (input) input.value = d.text || "";
    updateControls();
  })();
  drawing = p;
  return p;
}
function paletteDraw(items) {
  const pal = $("#palette");
  if (value === null && items.length) value = items[0].value;
  pal.innerHTML = "";
  items.forEach((c, i) => pal.append(el("button", {type: "button", class: c.value === value ? "sel" : "", "data-value": c.value,
    "aria-pressed": String(c.value === value), "aria-keyshortcuts": String(i + 1),
    onclick: () => choose(c.value)}, el("span", {class: "num", "aria-hidden": "true"}, `${i + 1}`), ` ${c.label}`)));
  if (busy) pal.querySelectorAll("button").forEach((b) => { b.disabled = true; });
}
function choose(v) {
  value = v;
  $("#palette").querySelectorAll("button").forEach((b) => {
    const on = b.dataset.value === v; b.classList.toggle("sel", on); b.setAttribute("aria-pressed", String(on));
  });
}

// --- a deck of cards put into zones ---------------------------------------------------------------
const zones = () => (SPEC.zones || {})[E.sel[SPEC.zone_select]] || Object.values(SPEC.zones || {})[0] || [];
function deckInit(entry) {
  const top = el("div", {class: "entrytop"});
  buildSelects(top);
  zones().forEach((z) => { E.zones[z.name] = []; });
  activeZone = zones()[0].name;
  entry.append(top, el("div", {id: "zones", role: "group", "aria-label": "zones (keys 1-9 choose one)"}),
    el("h2", {id: "deck-title"}, "Deck"), el("div", {class: "cards deck", id: "deck", role: "group", "aria-labelledby": "deck-title"}));
  groupKeys($("#deck"), (c) => putCard(c.dataset.card), null, true);
  const back = (c) => {  // a card taken back by the keyboard: the focus on the next placed card, else on it in the deck
    const card = c.dataset.card;
    takeBack(c.dataset.zone, card);
    if (!$("#zones").contains(document.activeElement)) rove($("#deck"), $(`#deck .card[data-card="${CSS.escape(card)}"]`));
  };
  groupKeys($("#zones"), back, back, true);
  const deck = $("#deck");
  for (const c of SPEC.cards) {
    const d = el("div", {class: "card", "data-card": c.card, "data-k": c.card, role: "button", tabindex: "-1"});
    d.innerHTML = c.svg;
    d.querySelectorAll("svg").forEach((s) => s.setAttribute("aria-hidden", "true"));
    d.append(el("div", {class: "cid"}, c.card));
    d.addEventListener("click", () => { focusKey = c.card; putCard(c.card); });
    deck.append(d);
  }
  initTabStop(deck);
}
function putCard(card) {
  if (busy) return;
  if (Object.values(E.zones).some((z) => z.includes(card))) return;
  const z = zones().find((x) => x.name === activeZone);
  if (z && z.max !== undefined && E.zones[z.name].length >= z.max) {
    clearResult();
    $("#message").textContent = `${z.name} holds ${z.max} cards: choose another zone (keys 1-${zones().length})`;
    return;
  }
  edit(() => { E.zones[activeZone].push(card); });
}
function takeBack(zone, card) {
  edit(() => { E.zones[zone] = E.zones[zone].filter((x) => x !== card); });
}
function chooseZone(name) {
  activeZone = name;
  deckDraw();
}
function deckDraw() {
  syncSelects();
  if (!zones().some((z) => z.name === activeZone)) activeZone = zones()[0].name;
  const used = {};
  for (const [zn, cards] of Object.entries(E.zones)) cards.forEach((c) => { used[c] = zn; });
  const box = $("#zones");
  const hadFocus = box.contains(document.activeElement);
  const focusedZoneBtn = hadFocus && document.activeElement.classList.contains("zonebtn") ? document.activeElement.dataset.zone : null;
  box.innerHTML = "";
  zones().forEach((z, i) => {
    const on = z.name === activeZone;
    const zd = el("div", {class: "zone" + (on ? " active" : ""), "data-zone": z.name});
    zd.addEventListener("click", () => chooseZone(z.name));
    const btn = el("button", {type: "button", class: "zonebtn", "data-zone": z.name, "aria-pressed": String(on), "aria-keyshortcuts": String(i + 1)},
      el("span", {class: "num", "aria-hidden": "true"}, `${i + 1}`), ` ${z.title}`);
    btn.addEventListener("click", (ev) => { ev.stopPropagation(); chooseZone(z.name); });
    const row = el("div", {class: "cards"});
    for (const id of E.zones[z.name] || []) {
      const c = SPEC.cards.find((x) => x.card === id);
      const d = el("div", {class: "card", "data-card": id, "data-zone": z.name, "data-k": `${z.name}/${id}`, role: "button", tabindex: "-1",
        "aria-label": `${id} in ${z.name}: take it back`});
      d.innerHTML = c.svg;
      d.querySelectorAll("svg").forEach((s) => s.setAttribute("aria-hidden", "true"));
      d.append(el("div", {class: "cid"}, id));
      d.addEventListener("click", (ev) => { ev.stopPropagation(); takeBack(z.name, id); });
      row.append(d);
    }
    zd.append(btn, row);
    box.append(zd);
  });
  initTabStop(box);
  if (focusedZoneBtn) { const b = box.querySelector(`.zonebtn[data-zone="${CSS.escape(focusedZoneBtn)}"]`); if (b) b.focus(); }
  else refocus(box, hadFocus);
  document.querySelectorAll("#deck .card").forEach((d) => {
    const where = used[d.dataset.card];
    d.classList.toggle("used", !!where);
    if (where) d.setAttribute("aria-disabled", "true"); else d.removeAttribute("aria-disabled");
    const shown = (d.dataset.shown ||= d.innerText.trim().replace(/\s+/g, " ") || d.dataset.card);  // the name starts with the visible text
    d.setAttribute("aria-label", where ? `${shown}, placed in ${where}` : `${shown}: put it in ${activeZone}`);
  });
}

// --- page keys ------------------------------------------------------------------------------------
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented) return;
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  const k = ev.key.toLowerCase();
  if (k === "c") { ev.preventDefault(); solve(); }
  else if (k === "u") { ev.preventDefault(); undo(); }
  else if (k === "x") { ev.preventDefault(); clearAll(); }
  else if (/^[1-9]$/.test(k) && !busy) {
    const i = +k - 1;
    if (isDeck() && zones()[i]) { ev.preventDefault(); chooseZone(zones()[i].name); }
    else if (!isDeck() && SPEC.mode === "palette" && drawn && (drawn.palette || [])[i]) { ev.preventDefault(); choose(drawn.palette[i].value); }
  }
});

// --- start ----------------------------------------------------------------------------------------
$("#solve").addEventListener("click", solve);
$("#undo").addEventListener("click", undo);
$("#reset").addEventListener("click", clearAll);
run("loading…", async () => {
  SPEC = await api(`/api/data/${FAMILY}`);
  $("#title").textContent = SPEC.title || "Check";
  document.title = `tanglekit: ${SPEC.title || "check"}`;
  $("#how").textContent = SPEC.how || "";
  if (SPEC.solve_label) $("#solve").textContent = SPEC.solve_label;
  const entry = $("#entry");
  entry.innerHTML = "";
  if (isDeck()) { deckInit(entry); deckDraw(); } else { gridInit(entry); await gridDraw(); }
}).then(() => showRules(rulesQuery()));

// Shared helpers of the tanglekit pages (no framework, nothing fetched from elsewhere).
"use strict";
const $ = (sel) => document.querySelector(sel);
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") e.addEventListener("click", v);
    else if (k === "html") e.innerHTML = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}
async function api(path, body) {
  const opts = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const r = await fetch(path, opts);
  let data;
  try { data = await r.json(); } catch (e) { throw new Error(`HTTP ${r.status}`); }
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}
function playUrl(id, extra) {
  const q = new URLSearchParams(extra || {});
  const s = q.toString();
  return "/play/" + encodeURIComponent(id).replace(/%2F/g, "/").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%3D/g, "=") + (s ? "?" + s : "");
}
// A step-by-step animation of solver frames ({caption, svg}) in #frame / #caption.
function animate(frames, box, caption, controls) {
  let k = 0, timer = null;
  const show = () => { box.innerHTML = frames[k].svg; caption.textContent = `${frames[k].caption}  (${k}/${frames.length - 1})`; };
  const stop = () => { if (timer) clearInterval(timer); timer = null; };
  const play = () => { stop(); timer = setInterval(() => { if (k < frames.length - 1) { k++; show(); } else stop(); }, 700); };
  controls.innerHTML = "";
  controls.append(
    el("button", {id: "anim-first", "aria-label": "first step", onclick: () => { stop(); k = 0; show(); }}, "|<"),
    el("button", {id: "anim-prev", "aria-label": "previous step", onclick: () => { stop(); if (k > 0) k--; show(); }}, "<"),
    el("button", {id: "anim-play", "aria-label": "play the steps", onclick: play}, "play"),
    el("button", {id: "anim-next", "aria-label": "next step", onclick: () => { stop(); if (k < frames.length - 1) k++; show(); }}, ">"),
    el("button", {id: "anim-last", "aria-label": "last step", onclick: () => { stop(); k = frames.length - 1; show(); }}, ">|"));
  if (frames.length) { show(); if (frames.length > 1) play(); }
  return stop;
}
// The rules panel (<details id="rules"><summary>Rules</summary></details>): the game's rules in
// short, the rule options in force and a link to the full rules, from /api/rules?<query>
// (query: {id, seed} of a play page or {game} of a check page). The server renders the text.
async function showRules(query) {
  const box = $("#rules");
  if (!box) return;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query || {})) if (v !== null && v !== undefined && v !== "") q.set(k, v);
  const summary = box.querySelector("summary") || el("summary", {}, "Rules");
  let r;
  try { r = await api("/api/rules?" + q.toString()); } catch (e) {
    box.replaceChildren(summary, el("p", {}, `The rules could not be loaded: ${e.message}. `, el("a", {href: "/rules"}, "All the rules")));
    return;
  }
  const body = el("div", {class: "rules-body"});
  body.append(el("div", {class: "rules-summary", html: r.summary_html}));
  for (const s of r.sections) {
    const sec = el("section", {}, el("h2", {}, s.title));
    sec.append(el("div", {html: s.html}));
    body.append(sec);
  }
  if (r.options.length) {
    const table = el("table", {class: "rule-options"}, el("caption", {}, `Rule options in force (${r.game})`));
    table.append(el("thead", {}, el("tr", {}, ...["option", "in force", "default", "meaning"].map((h) => el("th", {scope: "col"}, h)))));
    const tb = el("tbody");
    for (const o of r.options) {
      const value = el("td", {}, o.changed ? el("strong", {}, o.value) : o.value);
      if (o.changed) value.append(" (changed)");
      const meaning = el("td", {html: (o.cap ? "safety cap, not a rule: " : "") + o.meaning_html});
      if (o.values) meaning.append(el("span", {class: "small"}, ` Values: ${o.values}.`));
      const name = el("code");  // a line may break after each _ of a long name
      o.name.split("_").forEach((part, i) => { if (i) name.append("_", el("wbr")); name.append(part); });
      tb.append(el("tr", {class: o.changed ? "changed" : ""}, el("th", {scope: "row"}, name), value,
        el("td", {}, o.default), meaning));
    }
    table.append(tb);
    body.append(table);
  }
  body.append(el("p", {}, el("a", {href: r.link}, `The full rules of ${r.title} as tanglekit reads them`)));
  box.replaceChildren(summary, body);
}

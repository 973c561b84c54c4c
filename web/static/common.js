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

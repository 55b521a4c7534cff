// The game page: zoom and pan of the map, the countdown, orders by clicking on the map, the live check.
// The orders text stays the one source of orders: clicks only write lines into it. The click grammar
// comes from the game's ruleset (Ruleset.map_clicks); this script knows no game.
"use strict";
(function () {
  const view = document.getElementById("map-view");
  const text = document.getElementById("orders-text");
  const live = document.getElementById("live-check");
  const panel = document.getElementById("clicks");

  // -- zoom and pan ------------------------------------------------------------------
  let zoom = parseFloat(getComputedStyle(view).getPropertyValue("--zoom")) || 1;
  document.querySelectorAll("[data-zoom]").forEach((button) => button.addEventListener("click", () => {
    const how = button.dataset.zoom;
    zoom = how === "fit" ? 1 : Math.min(4, Math.max(1, zoom * (how === "in" ? 1.5 : 1 / 1.5)));
    view.style.setProperty("--zoom", zoom);
  }));

  // -- the countdown ---------------------------------------------------------------------
  const left = document.querySelector("[data-deadline]");
  function tick() {
    const ms = Date.parse(left.dataset.deadline) - Date.now();
    if (ms <= 0) { left.textContent = "passed"; return; }
    const m = Math.floor(ms / 60000), d = Math.floor(m / 1440), h = Math.floor(m / 60) % 24;
    const parts = [[d, "day"], [h, "hour"], [m % 60, "minute"]].filter((p) => p[0])
      .map(([n, unit]) => `${n} ${unit}${n > 1 ? "s" : ""}`);
    left.textContent = "in " + (parts.slice(0, 2).join(" ") || "less than a minute");
  }
  if (left) { tick(); setInterval(tick, 30000); }

  // -- errors at the top: jump to the line ------------------------------------------------
  function selectLine(n) {
    const lines = text.value.split("\n");
    const start = lines.slice(0, n - 1).join("\n").length + (n > 1 ? 1 : 0);
    text.focus();
    text.setSelectionRange(start, start + (lines[n - 1] || "").length);
  }
  document.querySelectorAll("a.goto").forEach((a) => a.addEventListener("click", (event) => {
    if (!text) return;
    event.preventDefault();
    selectLine(Number(a.dataset.line));
  }));

  if (!text) return;

  // -- the live check (the JSON API's check-only orders) -----------------------------------
  let timer = null, asked = 0;
  function check() {
    if (!panel) return;
    const mine = ++asked;
    fetch(panel.dataset.check, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": panel.dataset.csrf},
      body: JSON.stringify({side: panel.dataset.side, text: text.value, check_only: true}),
    }).then((r) => r.json()).then((answer) => {
      if (mine !== asked) return;
      const warnings = answer.warnings || [];
      live.className = "live " + (answer.ok ? (warnings.length ? "ok conditional" : "ok") : "bad");
      live.textContent = !answer.ok ? "✗ " + (answer.problems || []).map((p) => p.text).join(" · ")
        : warnings.length ? "✓ Checked, not yet submitted: carried out unless the enemy's actions prevent it. "
          + "These depend on what happens during the day: " + warnings.join(" · ")
        : "✓ Checked: these orders are good (not yet submitted).";
    }).catch(() => { live.textContent = ""; });
  }
  function checkSoon() { clearTimeout(timer); timer = setTimeout(check, 400); }
  text.addEventListener("input", checkSoon);

  // -- orders by clicking on the map -----------------------------------------------------
  if (!panel || !view.dataset.svg) return;
  const grammar = JSON.parse(panel.dataset.grammar);
  const verbsBox = document.getElementById("click-verbs");
  const said = document.getElementById("click-selection");
  const blockSelect = document.getElementById("click-block");
  const targetSelect = document.getElementById("click-target");
  let selected = [], at = null, atKind = null, verb = null, targets = [], lineNo = null;

  function kindOf(place) { return place.includes(">") ? "approach" : "locale"; }
  function blockEl(id) { return view.querySelector(`[data-block="${CSS.escape(id)}"]`); }

  function fits(v) {
    if (!selected.length) return false;
    if (v.from && !v.from.includes(atKind)) return false;
    if (v.blocks && selected.length > v.blocks) return false;
    return selected.every((id) => Object.entries(v.where || {}).every(
      ([key, value]) => (blockEl(id).dataset[key] || "") === value));
  }

  function showVerbs() {
    verbsBox.replaceChildren();
    for (const v of grammar.verbs.filter(fits)) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = v.title; b.dataset.verb = v.name;
      b.setAttribute("aria-pressed", String(verb === v));
      b.addEventListener("click", () => choose(v));
      verbsBox.append(b);
    }
  }

  function choose(v) {
    if (verb !== v) { targets = []; }
    verb = v;
    showVerbs();
    if (!v.max) { write(); lineNo = null; clear(); }
  }

  function describe() {
    said.textContent = selected.length
      ? `Chosen: ${selected.join(" ")} at ${at}` + (verb ? ` — ${verb.title}` + (verb.max ? (targets.length
        ? ` to ${targets.join(" → ")}` : ": now click where they go") : "") : "")
      : "No block chosen.";
  }

  function write() {
    const join = grammar.join || {};
    const line = verb.line.replace("{blocks}", selected.join(join.blocks || " ")).replace("{from}", at)
      .replace("{targets}", targets.join(join.targets || " -> "));
    const lines = text.value.replace(/\n+$/, "").split("\n");
    if (lineNo !== null && lineNo < lines.length) lines[lineNo] = line;
    else {
      const final = lines.findIndex((l) => /^\s*FINAL\s*(#.*)?$/i.test(l));
      lineNo = final >= 0 ? final : lines.length;
      lines.splice(lineNo, 0, line);
    }
    text.value = lines.join("\n") + "\n";
    describe();
    check();
  }

  function clear() {
    selected.forEach((id) => { const el = blockEl(id); if (el) { el.classList.remove("selected"); el.parentNode.setAttribute("aria-pressed", "false"); } });
    selected = []; at = atKind = verb = null; targets = []; lineNo = null;
    verbsBox.replaceChildren();
    describe();
  }

  function pick(id) {
    const el = blockEl(id);
    if (!el) return;
    const where = el.dataset.at;
    if (at !== where || (verb && verb.max && targets.length)) clear();
    at = where; atKind = kindOf(where);
    const i = selected.indexOf(id);
    if (i >= 0) selected.splice(i, 1); else selected.push(id);
    el.classList.toggle("selected", i < 0);
    el.parentNode.setAttribute("aria-pressed", String(i < 0));
    if (!selected.length) { clear(); return; }
    lineNo = null;
    const offered = grammar.verbs.filter(fits);
    if (!verb || !offered.includes(verb)) verb = offered[0] || null;
    showVerbs();
    describe();
  }

  function target(place) {
    if (!verb || !verb.max || !verb.targets.includes(kindOf(place))) return;
    targets.push(place);
    if (targets.length >= verb.min) write();
    if (targets.length >= verb.max) { lineNo = null; clear(); }
  }

  function setUp(svg) {
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", document.getElementById("map").alt);
    view.querySelector("picture").hidden = true;  // kept: the same map, for what reads the image
    view.append(svg);
    svg.removeAttribute("height");
    svg.removeAttribute("width");
    const places = new Set();
    svg.querySelectorAll("[data-block]").forEach((rect) => {
      const g = rect.parentNode;
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-pressed", "false");
      g.setAttribute("aria-label", `${rect.dataset.block} at ${rect.dataset.at}`);
      g.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(rect.dataset.block); }
      });
      blockSelect.add(new Option(`${rect.dataset.block} (${rect.dataset.at})`, rect.dataset.block));
    });
    svg.querySelectorAll("[data-locale], [data-approach]").forEach((el) => places.add(el.dataset.locale || el.dataset.approach));
    [...places].sort().forEach((p) => targetSelect.add(new Option(p, p)));
    svg.addEventListener("click", (event) => {
      const g = event.target.closest("g");
      const rect = g && g.querySelector(":scope > [data-block]");
      if (rect) { pick(rect.dataset.block); return; }
      const place = event.target.closest("[data-approach], [data-locale]");
      if (place) target(place.dataset.approach || place.dataset.locale);
    });
    panel.hidden = false;
  }

  blockSelect.addEventListener("change", () => { if (blockSelect.value) pick(blockSelect.value); blockSelect.value = ""; });
  document.getElementById("click-add").addEventListener("click", () => { if (targetSelect.value) target(targetSelect.value); });
  document.getElementById("click-clear").addEventListener("click", clear);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") clear(); });

  fetch(view.dataset.svg, {credentials: "same-origin"}).then((r) => r.ok ? r.text() : Promise.reject(r.status))
    .then((source) => {
      const doc = new DOMParser().parseFromString(source, "image/svg+xml");
      const svg = doc.documentElement;
      if (svg.nodeName !== "svg") return;
      setUp(document.importNode(svg, true));
    }).catch(() => {});
})();

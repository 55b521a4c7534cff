// The game page: zoom and pan of the map, the countdown, orders by clicking on the map, the live check.
// The orders text stays the one source of orders: clicks only write lines into it. The click grammar
// comes from the game's ruleset (Ruleset.map_clicks); this script knows no game.
// The map is an image. After the first paint a small JSON of regions (pbem/server/web/clicklayer.py)
// gives a button over each own block; any other click on the map is hit-tested against the places.
"use strict";
(function () {
  const view = document.getElementById("map-view");
  const text = document.getElementById("orders-text");
  const live = document.getElementById("live-check");
  const panel = document.getElementById("clicks");
  // the visible texts, in the reader's language, from the page (templates/_js_texts.html): "{name}" is filled in
  const texts = JSON.parse((document.getElementById("page-texts") || {}).textContent || "{}");
  function t(key, values) {
    return (texts[key] || key).replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? values[name] : all));
  }
  const plural = new Intl.PluralRules(document.documentElement.lang || "en");
  function count(unit, n) {
    const forms = (texts.units || {})[unit] || {};
    return (forms[plural.select(n)] || forms.other || `{n} ${unit}`).replace("{n}", n);
  }

  // -- zoom and pan ------------------------------------------------------------------
  // the zoom the CSS opens the map at is read at the first press: reading it while the page loads
  // would make the browser lay the page out before its first paint
  let zoom = null;
  document.querySelectorAll("[data-zoom]").forEach((button) => button.addEventListener("click", () => {
    const how = button.dataset.zoom;
    if (zoom === null) zoom = parseFloat(getComputedStyle(view).getPropertyValue("--zoom")) || 1;
    zoom = how === "fit" ? 1 : Math.min(4, Math.max(1, zoom * (how === "in" ? 1.5 : 1 / 1.5)));
    view.style.setProperty("--zoom", zoom);
  }));

  // -- the countdown ---------------------------------------------------------------------
  const left = document.querySelector("[data-deadline]");
  function tick() {
    const ms = Date.parse(left.dataset.deadline) - Date.now();
    if (ms <= 0) { left.textContent = t("passed"); return; }
    const m = Math.floor(ms / 60000), d = Math.floor(m / 1440), h = Math.floor(m / 60) % 24;
    const parts = [[d, "day"], [h, "hour"], [m % 60, "minute"]].filter((p) => p[0])
      .map(([n, unit]) => count(unit, n));
    left.textContent = t("in {time}", {time: parts.slice(0, 2).join(" ") || t("less than a minute")});
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
        : warnings.length ? "✓ " + t("Checked, not yet submitted: carried out unless the enemy's actions prevent it. These depend on what happens during the day: {warnings}", {warnings: warnings.join(" · ")})
        : "✓ " + t("Checked: these orders are good (not yet submitted).");
    }).catch(() => { live.textContent = ""; });
  }
  function checkSoon() { clearTimeout(timer); timer = setTimeout(check, 400); }
  text.addEventListener("input", checkSoon);

  // -- orders by clicking on the map -----------------------------------------------------
  // What is offered (a verb for the chosen blocks, a place to go) is what the game's own orders check
  // accepts, asked of the server with the text as it stands (map/offers.json): this script knows no rule.
  if (!panel || !view) return;
  const grammar = JSON.parse(panel.dataset.grammar);
  // a place as the reader's language spells it (grammar.names: the map's name -> its usual spelling there; an
  // approach "A>B" spelled part by part); the order lines keep the map's names, which the orders read in any language
  const spelled = (name) => String(name).split(">").map((part) => (grammar.names || {})[part] || part).join(">");
  const verbsBox = document.getElementById("click-verbs");
  const optionsBox = document.getElementById("click-options");
  const said = document.getElementById("click-selection");
  const refusedBox = document.getElementById("click-refused");
  const blockSelect = document.getElementById("click-block");
  const targetSelect = document.getElementById("click-target");
  const SVG = "http://www.w3.org/2000/svg";
  const blocks = new Map();  // id -> {id, at, kind, data, box, button}
  let places = [], vb = [0, 0, 1, 1], layer = null, marks = null, open = null, hover = null;
  let selected = [], at = null, atKind = null, verb = null, targets = [], lineNo = null, chosen = {};
  let offered = [], allowed = null, refused = new Map(), probing = 0, waiting = null;

  function kindOf(place) { return place.includes(">") ? "approach" : "locale"; }

  // what the grammar itself says of the chosen blocks (where they stand, how many, their marks)
  function fits(v) {
    if (!selected.length) return false;
    if (v.from && !v.from.includes(atKind)) return false;
    if (v.blocks && selected.length > v.blocks) return false;
    return selected.every((id) => Object.entries(v.where || {}).every(
      ([key, value]) => (blocks.get(id).data[key] || "") === value));
  }

  function showVerbs() {
    verbsBox.replaceChildren();
    for (const v of offered) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = v.title; b.dataset.verb = v.name;
      b.setAttribute("aria-pressed", String(verb === v));
      b.addEventListener("click", () => choose(v));
      verbsBox.append(b);
    }
    showOptions();
  }

  function showRefused(notes) {
    refusedBox.textContent = notes.length ? t("Not possible here: {notes}", {notes: notes.join(" · ")}) : "";
  }

  // the verb's options: a list of choices, or boxes to tick among the chosen blocks
  function showOptions() {
    optionsBox.replaceChildren();
    optionsBox.hidden = !(verb && verb.options && verb.options.length);
    if (optionsBox.hidden) return;
    for (const o of verb.options) {
      const row = document.createElement("p");
      const id = `click-option-${o.name}`;
      if (o.choices) {
        const label = document.createElement("label");
        label.className = "inline"; label.htmlFor = id; label.textContent = o.title;
        const select = document.createElement("select");
        select.id = id; select.dataset.option = o.name;
        o.choices.forEach(([value, title]) => select.add(new Option(title, value, false, chosen[o.name] === value)));
        select.addEventListener("change", () => { chosen[o.name] = select.value; optionChanged(); });
        row.append(label, select);
      } else {
        const box = document.createElement("span");
        box.setAttribute("role", "group"); box.setAttribute("aria-label", o.title);
        box.append(o.title + ": ");
        for (const idb of selected) {
          const label = document.createElement("label");
          label.className = "inline";
          const tick = document.createElement("input");
          tick.type = "checkbox"; tick.value = idb; tick.dataset.option = o.name;
          tick.checked = (chosen[o.name] || []).includes(idb);
          tick.addEventListener("change", () => {
            chosen[o.name] = [...optionsBox.querySelectorAll(`input[data-option="${o.name}"]:checked`)].map((t) => t.value);
            rewrite();
          });
          label.append(tick, " " + idb);
          box.append(label);
        }
        row.append(box);
      }
      optionsBox.append(row);
    }
  }

  function choose(v) {
    if (verb !== v) { targets = []; chosen = {}; }
    verb = v;
    showVerbs();
    if (v.min === 0) write();
    if (!v.max && !(v.options && v.options.length)) { clear(); return; }
    describe();
    offerPlaces();
  }

  // a choice changed: the line rewritten, and the places asked again with it (a choice may close some, as
  // the pontoon does: its block stops where it enters); places chosen that the choice refuses are dropped
  function optionChanged() {
    if (!targets.length) { rewrite(); offerPlaces(); return; }
    const mine = ++probing;
    ask([line()]).then(([answer]) => {
      if (mine !== probing) return;
      if (!answer.ok) { targets = []; if (marks) marks.replaceChildren(); }
      rewrite();
      offerPlaces();
    }).catch(() => { if (mine === probing) { rewrite(); offerPlaces(); } });
  }

  // what the chosen verb waits for, as its hint: a verb with no place is written when chosen; one that may
  // stop where it stands (min 0: Enter stops at its entry point) is written too, and a click sends it on;
  // the others wait for a place, then for the next one up to their last
  function next() {
    const written = lineNo !== null, order = verb.title;
    if (!verb.max) return ": " + (written ? t("written below") : t("click “{order}” to write it", {order}));
    const more = allowed !== null && allowed.size > 0;
    if (targets.length) {
      return " " + t("to {places}", {places: targets.map(spelled).join(" → ")})
        + (allowed === null ? "" : more ? "; " + t("or click the next place") : "");
    }
    if (allowed === null) return ": " + t("finding where they may go…");
    if (!verb.min) {
      return ": " + (written ? t("written below: they go no farther") : t("click “{order}” to write it: they go no farther", {order}))
        + (more ? "; " + t("or click where they go next") : "");
    }
    return ": " + (more ? t("now click where they go") : t("no place possible"));
  }

  function describe() {
    said.textContent = selected.length
      ? t("Chosen: {blocks} at {place}", {blocks: selected.join(" "), place: spelled(at)})
        + (verb ? ` — ${verb.title}` + next() : "")
      : t("No block chosen.");
  }

  // the line verb ``v`` writes for the chosen blocks, to these places, with the options chosen (``v``'s own)
  function lineFor(v, to, options) {
    const join = grammar.join || {};
    let where = to.join(join.targets || " -> ");
    if (v.to) where = to.length ? v.to + where : "";
    let out = v.line.replace("{blocks}", selected.join(join.blocks || " ")).replace("{from}", at).replace("{targets}", where);
    for (const o of v.options || []) {
      let value = "";
      if (o.choices) value = options[o.name] || "";
      else {
        const ticked = selected.filter((id) => (options[o.name] || []).includes(id));
        if (ticked.length) value = o.blocks.replace("{}", ticked.join(join.blocks || " "));
      }
      out = out.replace(`{${o.name}}`, value);
    }
    return out;
  }
  function line() { return lineFor(verb, targets, chosen); }

  // where the line goes in the text: over the line being built, or before FINAL, or at the end
  function slot() {
    const lines = text.value.replace(/\n+$/, "").split("\n");
    if (lineNo !== null && lineNo < lines.length) return {lines, at: lineNo, replace: true};
    const final = lines.findIndex((l) => /^\s*FINAL\s*(#.*)?$/i.test(l));
    return {lines, at: final >= 0 ? final : lines.length, replace: false};
  }

  function write() {
    const {lines, at: where, replace} = slot();
    lines.splice(where, replace ? 1 : 0, line());
    lineNo = where;
    text.value = lines.join("\n") + "\n";
    describe();
    check();
  }

  function rewrite() { if (lineNo !== null) write(); }

  // the server's answer: for each line, whether the orders check accepts it written into the text
  function ask(lines) {
    if (!lines.length) return Promise.resolve([]);
    const {at: where, replace} = slot();
    return fetch(panel.dataset.offers, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": panel.dataset.csrf},
      body: JSON.stringify({side: panel.dataset.side, text: text.value, at: where, replace, lines}),
    }).then((r) => r.ok ? r.json() : Promise.reject(r.status)).then((answer) => answer.offers);
  }

  // the verbs the check accepts for the chosen blocks: a verb that needs no place is asked as it is,
  // one that goes somewhere is offered if it may go to one place at least
  function offerVerbs() {
    const mine = ++probing;
    const fitting = grammar.verbs.filter(fits);
    const whole = fitting.filter((v) => !v.min);
    const going = fitting.filter((v) => v.min);
    const names = going.length ? placeNames(going.flatMap((v) => v.targets)) : [];
    offered = []; allowed = null; showVerbs();
    said.textContent = t("Chosen: {blocks} at {place}", {blocks: selected.join(" "), place: spelled(at)}) + " — "
      + t("finding the orders they may take…");
    Promise.all([ask(whole.map((v) => lineFor(v, [], {}))),
                 ...going.map((v) => ask(names.filter((n) => v.targets.includes(kindOf(n))).map((n) => lineFor(v, [n], {}))))])
      .then(([answers, ...goes]) => {
        if (mine !== probing) return;
        const notes = [];
        offered = fitting.filter((v) => {
          const i = whole.indexOf(v);
          const ok = i >= 0 ? answers[i].ok : goes[going.indexOf(v)].some((a) => a.ok);
          if (!ok) notes.push(`${v.title} (${i >= 0 ? answers[i].why : nearestWhy(
            names.filter((n) => v.targets.includes(kindOf(n))), goes[going.indexOf(v)])})`);
          return ok;
        });
        showRefused(notes);
        if (!verb || !offered.includes(verb)) { verb = offered[0] || null; chosen = {}; }
        showVerbs();
        describe();
        const first = going.indexOf(verb);  // its first places were just asked (with no option chosen)
        if (first >= 0 && !targets.length && !Object.keys(chosen).length) {
          const kinds = names.filter((n) => verb.targets.includes(kindOf(n)));
          showPlaces(kinds, goes[first]);
        } else offerPlaces();
      })
      .catch(() => { if (mine === probing) said.textContent = t("The orders could not be asked of the server: type them below."); });
  }
  // why a verb may go nowhere: the check's reason for the place nearest to the blocks (the farther
  // places are refused for being far)
  function middle(p) {
    return p.points.reduce(([x, y], [px, py]) => [x + px / p.points.length, y + py / p.points.length], [0, 0]);
  }
  function nearestWhy(names, answers) {
    const here = places.find((p) => p.name === at);
    const [hx, hy] = here ? middle(here) : [0, 0];
    const far = (n) => {
      const p = places.find((q) => q.name === n);
      if (!here || !p) return 0;
      const [x, y] = middle(p);
      return (x - hx) ** 2 + (y - hy) ** 2;
    };
    const why = names.map((n, i) => [far(n), answers[i].why, n]).filter(([, w, n]) => w && n !== at)
      .sort((a, b) => a[0] - b[0]);
    return why.length ? why[0][1] : t("nowhere to go");
  }

  function placeNames(kinds) {
    return [...new Set(places.filter((p) => kinds.includes(p.kind)).map((p) => p.name))].sort();
  }

  // the places the check accepts as the verb's next place: outlined on the map, listed for the keyboard
  function offerPlaces() {
    allowed = null; refused = new Map();
    if (open) open.replaceChildren();
    targetSelect.replaceChildren(new Option(t("choose a place"), ""));
    if (!verb || !verb.max || targets.length >= verb.max) return;
    const mine = ++probing;
    const names = placeNames(verb.targets);
    describe();
    ask(names.map((n) => lineFor(verb, [...targets, n], chosen))).then((answers) => {
      if (mine === probing) showPlaces(names, answers);
    }).catch(() => { if (mine === probing) said.textContent = t("The places could not be asked of the server."); });
  }
  function showPlaces(names, answers) {
    allowed = new Set(names.filter((n, i) => answers[i].ok));
    refused = new Map(names.filter((n, i) => !answers[i].ok).map((n) => [n, answers[names.indexOf(n)].why]));
    if (open) open.replaceChildren(...places.filter((p) => allowed.has(p.name)).map(outline));
    targetSelect.replaceChildren(new Option(allowed.size ? t("choose a place") : t("no place possible"), ""));
    [...allowed].forEach((n) => targetSelect.add(new Option(spelled(n), n)));
    describe();
    const clicked = waiting;
    waiting = null;
    if (clicked) target(clicked);
  }

  function clear() {
    probing++; waiting = null;
    selected.forEach((id) => {
      const b = blocks.get(id);
      if (b && b.button) { b.button.classList.remove("selected"); b.button.setAttribute("aria-pressed", "false"); }
    });
    selected = []; at = atKind = verb = null; targets = []; lineNo = null; chosen = {};
    offered = []; allowed = null; refused = new Map();
    showVerbs();
    showRefused([]);
    if (marks) marks.replaceChildren();
    if (open) open.replaceChildren();
    targetSelect.replaceChildren(new Option(t("choose a place"), ""));
    blockSelect.value = "";
    describe();
  }

  function pick(id) {
    const b = blocks.get(id);
    if (!b) return;
    if (at !== b.at || lineNo !== null) clear();
    at = b.at; atKind = b.kind || kindOf(b.at);
    const i = selected.indexOf(id);
    if (i >= 0) selected.splice(i, 1); else selected.push(id);
    if (b.button) { b.button.classList.toggle("selected", i < 0); b.button.setAttribute("aria-pressed", String(i < 0)); }
    if (!selected.length) { clear(); return; }
    offerVerbs();
  }

  function outline(place) {
    const p = document.createElementNS(SVG, "polygon");
    p.setAttribute("points", place.points.map((xy) => xy.join(",")).join(" "));
    return p;
  }

  // a place clicked or chosen from the list: taken if the check accepts it, else the reason is said
  function target(name) {
    if (!verb || !verb.max || !verb.targets.includes(kindOf(name))) return;
    if (allowed === null) { waiting = name; describe(); return; }  // taken when the answer comes
    if (!allowed.has(name)) {
      said.textContent = "✗ " + t("{order} to {place}: {why}", {order: verb.title, place: spelled(name),
                                                                   why: refused.get(name) || t("not possible")});
      return;
    }
    targets.push(name);
    const place = places.find((p) => p.name === name);
    if (place && marks) marks.append(outline(place));
    if (targets.length >= verb.min) write();
    if (targets.length >= verb.max) clear();
    else { describe(); offerPlaces(); }
  }

  // which place is at a point of the map: approaches (small, on the edges of locales) first
  function inside(points, x, y) {
    let yes = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i], [xj, yj] = points[j];
      if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) yes = !yes;
    }
    return yes;
  }
  function placeAt(event) {
    const r = layer.getBoundingClientRect();
    const x = vb[0] + (event.clientX - r.left) / r.width * vb[2], y = vb[1] + (event.clientY - r.top) / r.height * vb[3];
    return places.find((p) => p.kind === "approach" && inside(p.points, x, y))
      || places.find((p) => p.kind !== "approach" && inside(p.points, x, y));
  }

  // a click on a block's button: while chosen blocks wait for a place, a place the check accepts under
  // the pointer is where they go (a block drawn over an approach does not catch the click meant for it);
  // otherwise, and always from the keyboard (no pointer), the block is chosen
  function blockClicked(event, b) {
    event.stopPropagation();
    if (event.detail && allowed && verb && verb.max) {
      const place = placeAt(event);
      if (place && place.name !== at && allowed.has(place.name)) { target(place.name); return; }
    }
    pick(b.id);
  }

  function setUp(regions) {
    vb = regions.viewbox;
    const pct = (v, i) => `${(v - vb[i]) / vb[i + 2] * 100}%`;
    layer = document.createElement("div");
    layer.className = "click-layer";
    layer.dataset.viewbox = JSON.stringify(vb);
    layer.setAttribute("role", "group");
    layer.setAttribute("aria-label", t("Your blocks on the map"));
    const drawn = document.createElementNS(SVG, "svg");
    drawn.setAttribute("viewBox", vb.join(" "));
    drawn.setAttribute("preserveAspectRatio", "none");
    drawn.setAttribute("aria-hidden", "true");
    hover = document.createElementNS(SVG, "polygon");
    hover.setAttribute("class", "hover");
    open = document.createElementNS(SVG, "g");
    open.setAttribute("class", "open");
    marks = document.createElementNS(SVG, "g");
    marks.setAttribute("class", "targets");
    drawn.append(open, marks, hover);
    layer.append(drawn);
    for (const b of regions.blocks) {
      blocks.set(b.id, b);
      if (!b.box) continue;
      const [cx, cy, w, h, deg] = b.box;
      const button = b.button = document.createElement("button");
      button.type = "button";
      button.className = "block";
      button.dataset.block = b.id;
      button.setAttribute("aria-pressed", "false");
      button.setAttribute("aria-label", t("{block} at {place}", {block: b.id, place: spelled(b.at)}));
      button.style.cssText = `left:${pct(cx, 0)};top:${pct(cy, 1)};width:${w / vb[2] * 100}%;height:${h / vb[3] * 100}%;`
        + `transform:translate(-50%,-50%) rotate(${deg}deg)`;
      button.addEventListener("click", (event) => blockClicked(event, b));
      layer.append(button);
    }
    places = regions.places;
    layer.addEventListener("click", (event) => {
      const place = placeAt(event);
      if (place) target(place.name);
    });
    let shown = null, queued = null;
    layer.addEventListener("pointermove", (event) => {
      if (event.pointerType !== "mouse") return;
      if (queued === null) requestAnimationFrame(() => {
        const place = queued && placeAt(queued);
        queued = null;
        if (place === shown) return;
        shown = place;
        hover.setAttribute("points", place ? place.points.map((xy) => xy.join(",")).join(" ") : "");
      });
      queued = event;
    });
    view.querySelector(".map-frame").append(layer);
    said.textContent = t("No block chosen.");
  }

  // the block list (every own block) is filled when first used, not while the page loads; the place
  // list holds the places the check accepts for the chosen blocks (filled by offerPlaces)
  function fillBlocks() {
    if (blockSelect.options.length > 1 || !blocks.size) return;
    for (const b of blocks.values()) blockSelect.add(new Option(`${b.id} (${spelled(b.at)})`, b.id));
  }
  blockSelect.addEventListener("focus", fillBlocks);
  blockSelect.addEventListener("pointerdown", fillBlocks);

  // a block typed into the list is taken when the typing stops (each key of "F12" changes the list:
  // F1, then F12). While the list keeps the focus, a later choice replaces the one it made (typing slowly
  // or going down the list with the arrows does not gather every block passed on the way); leaving the
  // list keeps its choice, and coming back to it adds to the chosen blocks (Clear forgets them)
  let typing = null, listPick = null;
  blockSelect.addEventListener("focus", () => { listPick = null; });
  blockSelect.addEventListener("change", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      const id = blockSelect.value;
      if (!id || id === listPick) return;
      if (listPick && selected.includes(listPick) && selected.length > 1) {
        selected.splice(selected.indexOf(listPick), 1);
        const b = blocks.get(listPick);
        if (b && b.button) { b.button.classList.remove("selected"); b.button.setAttribute("aria-pressed", "false"); }
      } else if (listPick && selected.includes(listPick)) clear();
      listPick = id;
      if (!selected.includes(id)) pick(id); else offerVerbs();
    }, 500);
  });
  document.getElementById("click-add").addEventListener("click", () => { if (targetSelect.value) target(targetSelect.value); });
  // Clear (or Escape) forgets the chosen blocks and the list's last choice: the same block chosen from the list
  // again is taken
  function forget() { clear(); listPick = null; }
  document.getElementById("click-clear").addEventListener("click", forget);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") forget(); });

  // after the first paint, when the browser is idle: nothing of this delays the page
  function load() {
    fetch(panel.dataset.regions, {credentials: "same-origin"}).then((r) => r.ok ? r.json() : Promise.reject(r.status))
      .then(setUp).catch(() => { said.textContent = t("The map's blocks could not be loaded: type your orders below."); });
  }
  const later = () => ("requestIdleCallback" in window ? requestIdleCallback(load, {timeout: 1500}) : setTimeout(load, 50));
  if (document.readyState === "complete") later(); else window.addEventListener("load", later);
})();

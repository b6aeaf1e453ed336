// The jewelbot page: the game's picture from a WebSocket, the status band, the dashboard and
// the RAM inspector beside it, and the controls for the person holding them. The messages
// are described in docs/web.md; the keys are the window's, from the table the server sends.
"use strict";

const WIDTH = 256;
const HEIGHT = 240;
const PICTURE = 1;
const FLAG_NEW_PALETTE = 1;
const ROW_BITS = HEIGHT / 8;
/// A changed value stays lit this long, as in the window.
const HIGHLIGHT_MS = 800;
const BUTTON_NAMES = ["A", "B", "Sel", "Start", "^", "v", "<", ">"];
const PAD_ORDER = [6, 4, 5, 7, 2, 3, 1, 0];
const BARS = ["rgb(90,170,255)", "rgb(255,170,70)", "rgb(140,220,120)"];
const STICK_THRESHOLD = 0.5;

const $ = (id) => document.getElementById(id);

const state = {
  socket: null,
  hello: null,
  controls: false,
  palette: [],
  indices: new Uint8Array(WIDTH * HEIGHT),
  image: null,
  marks: [],
  view: null,
  selected: null,
  typed: null,
  keyButtons: 0,
  padButtons: 0,
  sentButtons: -1,
  padAiHeld: false,
  changedFields: new Map(),
  changedBytes: new Map(),
  lastRam: null,
  retry: 500,
  pictures: 0,
};

// ---- connection ----

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.binaryType = "arraybuffer";
  state.socket = socket;
  socket.onopen = () => {
    state.retry = 500;
    $("connection").textContent = "";
  };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") {
      onText(JSON.parse(event.data));
    } else {
      onPicture(new DataView(event.data));
    }
  };
  socket.onclose = () => {
    state.socket = null;
    state.sentButtons = -1;
    $("connection").textContent = "not connected: trying again…";
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 5000);
  };
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
  }
}

function sendAction(action) {
  if (state.controls) send({ type: "action", action });
}

function onText(message) {
  switch (message.type) {
    case "hello":
      onHello(message);
      break;
    case "view":
      onView(message);
      break;
    case "error":
      showMessage(message.error, true);
      break;
  }
}

// ---- hello: the key table, the mode, whether this viewer holds the controls ----

function onHello(hello) {
  state.hello = hello;
  state.controls = hello.controls;
  state.palette = [];
  $("rom").textContent = hello.rom;
  $("who").textContent = hello.mode === "watch"
    ? "a headless run, watched only"
    : hello.controls ? "you hold the controls" : "watching";
  for (const element of document.querySelectorAll("#controls button, #controls select, #controls input")) {
    element.disabled = !hello.controls;
  }
  $("controls").hidden = hello.mode === "watch";
  $("no-controls").hidden = hello.controls;
  const slot = $("slot");
  slot.replaceChildren(...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => new Option(String(n), String(n))));
  const table = $("help-table");
  table.replaceChildren(...hello.help.map(([keys, what]) => {
    const row = document.createElement("tr");
    row.append(cell(keys), cell(what));
    return row;
  }));
  table.append(row2("Pad North", "hand control to the AI / take it back (a gamepad on this page)"));
  if (!hello.sound) table.append(row2("Sound", "not sent to the page"));
}

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function row2(a, b) {
  const row = document.createElement("tr");
  row.append(cell(a), cell(b));
  return row;
}

// ---- pictures ----

function onPicture(data) {
  let at = 0;
  const u8 = () => data.getUint8(at++);
  const u16 = () => { const v = data.getUint16(at, true); at += 2; return v; };
  if (u8() !== PICTURE) return;
  const flags = u8();
  at += 8; // the frame
  const from = u16();
  const count = u16();
  if (flags & FLAG_NEW_PALETTE) state.palette = [];
  if (from !== state.palette.length) return;
  for (let i = 0; i < count; i++) state.palette.push([u8(), u8(), u8()]);
  const marks = u16();
  state.marks = [];
  for (let i = 0; i < marks; i++) {
    const mark = { x: u16(), y: u16(), width: u16(), height: u16() };
    mark.color = `rgba(${u8()},${u8()},${u8()},${u8() / 255})`;
    state.marks.push(mark);
  }
  const bits = new Uint8Array(data.buffer, data.byteOffset + at, ROW_BITS);
  at += ROW_BITS;
  const canvas = $("picture");
  const context = canvas.getContext("2d");
  if (!state.image) state.image = context.createImageData(WIDTH, HEIGHT);
  const pixels = state.image.data;
  const bytes = new Uint8Array(data.buffer, data.byteOffset);
  for (let row = 0; row < HEIGHT; row++) {
    if (!(bits[row >> 3] & (1 << (row & 7)))) continue;
    for (let x = 0; x < WIDTH; x++) {
      const index = bytes[at + x];
      const colour = state.palette[index] || [0, 0, 0];
      const p = (row * WIDTH + x) * 4;
      pixels[p] = colour[0];
      pixels[p + 1] = colour[1];
      pixels[p + 2] = colour[2];
      pixels[p + 3] = 255;
      state.indices[row * WIDTH + x] = index;
    }
    at += WIDTH;
  }
  context.putImageData(state.image, 0, 0);
  drawMarks();
  state.pictures++;
  document.body.dataset.pictures = String(state.pictures);
}

function drawMarks() {
  const canvas = $("marks");
  const box = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  const width = Math.round(box.width * ratio);
  const height = Math.round(box.height * ratio);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, width, height);
  const sx = width / WIDTH;
  const sy = height / HEIGHT;
  const thickness = Math.max(1, Math.min(3, Math.floor(sy)));
  for (const mark of state.marks) {
    context.strokeStyle = mark.color;
    context.lineWidth = thickness;
    context.strokeRect(
      Math.round(mark.x * sx) + thickness / 2,
      Math.round(mark.y * sy) + thickness / 2,
      Math.round(mark.width * sx) - thickness,
      Math.round(mark.height * sy) - thickness,
    );
  }
}

// ---- views: band, dashboard, inspector, run ----

function onView(view) {
  const now = performance.now();
  noteChanges(view, now);
  state.view = view;
  drawBand(view);
  drawControls(view);
  drawDashboard(view);
  drawRun(view);
  drawInspector(view, now);
}

function drawBand(view) {
  const status = $("status");
  const lines = [];
  for (const slot of view.slots) {
    for (const line of slot.lines) lines.push(textLine(line, ""));
    if (slot.notice) lines.push(textLine(slot.notice, "notice"));
  }
  status.replaceChildren(...lines);
  $("pad").replaceChildren(...PAD_ORDER.map((bit) => {
    const span = document.createElement("span");
    span.textContent = BUTTON_NAMES[bit];
    if (view.buttons & (1 << bit)) span.className = "held";
    return span;
  }));
  if (view.message !== null) showMessage(view.message, false);
  else if (!state.messageSticky) $("message").textContent = "";
  $("bar").textContent = view.bar;
}

function textLine(text, className) {
  const div = document.createElement("div");
  div.textContent = text;
  div.className = className;
  return div;
}

function showMessage(text, fromPage) {
  $("message").textContent = text;
  if (fromPage) {
    state.messageSticky = true;
    clearTimeout(state.messageTimer);
    state.messageTimer = setTimeout(() => { state.messageSticky = false; }, 3000);
  }
}

function drawControls(view) {
  const console = view.console;
  if (!console) return;
  const ai = $("ai-button");
  ai.textContent = console.ai ? "AI plays" : "you play";
  ai.classList.toggle("on", console.ai);
  $("pause-button").classList.toggle("on", console.paused);
  $("gif-button").classList.toggle("on", console.recording_gif);
  const speed = $("speed");
  if (document.activeElement !== speed) speed.value = console.speed;
  const slot = $("slot");
  if (document.activeElement !== slot) slot.value = String(console.slot);
  const options = $("options");
  const wanted = view.options.filter((o) => o.choices.length > 0);
  const key = wanted.map((o) => `${o.plugin}.${o.name}:${o.choices.join("/")}`).join(",");
  if (options.dataset.key !== key) {
    options.dataset.key = key;
    options.replaceChildren(...wanted.map((option) => {
      const group = document.createElement("span");
      group.className = "option";
      group.title = option.help;
      group.append(`${option.name}: `);
      for (const choice of option.choices) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = choice;
        button.dataset.option = option.name;
        button.dataset.value = choice;
        button.disabled = !state.controls;
        button.addEventListener("click", () => {
          if (state.controls) send({ type: "option", name: option.name, value: choice });
        });
        group.append(button);
      }
      return group;
    }));
  }
  for (const option of wanted) {
    for (const button of options.querySelectorAll(`button[data-option="${CSS.escape(option.name)}"]`)) {
      button.classList.toggle("on", button.dataset.value === option.value);
    }
  }
}

function drawDashboard(view) {
  const figures = view.stories.flatMap(([, story]) => story.figures);
  const charts = view.stories.flatMap(([, story]) => story.charts);
  const list = $("figures");
  if (figures.length === 0 && charts.length === 0) {
    list.replaceChildren(textLine("(no plug-in tells how it plays)", "dim"));
  } else {
    list.replaceChildren(...figures.map((f) => figure(f.label, f.value)));
  }
  const box = $("charts");
  while (box.children.length > charts.length) box.lastChild.remove();
  while (box.children.length < charts.length) {
    const div = document.createElement("div");
    div.className = "chart";
    div.append(textLine("", "title"), document.createElement("canvas"));
    box.append(div);
  }
  charts.forEach((chart, i) => drawChart(box.children[i], chart, BARS[i % BARS.length]));
}

function figure(label, value) {
  const div = document.createElement("div");
  div.className = "figure";
  const l = document.createElement("span");
  l.className = "label";
  l.textContent = label;
  const v = document.createElement("span");
  v.className = "value";
  v.textContent = value;
  div.append(l, v);
  return div;
}

/// A chart as the window draws it: bars of the events, the largest of those that share a
/// pixel column, the newest marked.
function drawChart(element, chart, colour) {
  const values = chart.values.map((v) => (Number.isFinite(v) ? v : 0));
  const largest = values.reduce((a, b) => Math.max(a, b), 0);
  const last = values.length ? values[values.length - 1] : null;
  element.firstChild.textContent = last === null
    ? chart.label
    : `${chart.label}: ${number(last)}, max ${number(largest)}`;
  const canvas = element.lastChild;
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, width, height);
  const n = values.length;
  if (n === 0 || largest <= 0) return;
  const bars = Math.min(n, width);
  context.fillStyle = colour;
  for (let b = 0; b < bars; b++) {
    const from = Math.floor((b * n) / bars);
    const to = Math.max(Math.floor(((b + 1) * n) / bars), from + 1);
    let value = 0;
    for (let i = from; i < to; i++) value = Math.max(value, values[i]);
    const h = Math.round((value / largest) * height);
    const x0 = Math.floor((b * width) / bars);
    const x1 = Math.floor(((b + 1) * width) / bars);
    context.fillRect(x0, height - h, Math.max(1, x1 - x0), h);
  }
  context.fillStyle = "rgb(255,200,80)";
  context.fillRect(width - 1, 0, 1, height);
}

function number(value) {
  if (Number.isInteger(value) && value >= 0 && value < 1e15) return value.toLocaleString("en-US");
  return value.toFixed(1);
}

function drawRun(view) {
  const run = view.run;
  $("run").hidden = !run;
  if (!run) return;
  $("run-figures").replaceChildren(
    figure("frames", run.frames.toLocaleString("en-US")),
    figure("frames a second", run.fps.toFixed(0)),
    figure("seconds", run.seconds.toFixed(0)),
  );
  $("until").replaceChildren(...run.until.map((u) => {
    const div = document.createElement("div");
    div.className = "until";
    const bar = document.createElement("progress");
    bar.max = Math.max(1, u.at_least);
    bar.value = Math.min(u.value, u.at_least);
    div.append(`--until ${u.condition}: ${number(u.value)} of ${number(u.at_least)}`, bar);
    return div;
  }));
  if (!$("run").querySelector("details").open) return;
  const stats = Object.entries(run.stats)
    .filter(([, value]) => value !== null && typeof value !== "object")
    .map(([key, value]) => figure(key.replaceAll("_", " "),
      typeof value === "number" ? number(value) : String(value)));
  $("run-stats").replaceChildren(...stats);
}

function noteChanges(view, now) {
  for (const [plugin, inspection] of view.inspections) {
    for (const field of inspection.fields) {
      const key = `${plugin}|${field.address}|${field.label}`;
      const seen = state.changedFields.get(key);
      if (!seen) state.changedFields.set(key, { value: field.value, at: -Infinity });
      else if (seen.value !== field.value) state.changedFields.set(key, { value: field.value, at: now });
    }
  }
  if (state.lastRam) {
    for (let i = 0; i < view.ram.length; i += 2) {
      if (view.ram.substr(i, 2) !== state.lastRam.substr(i, 2)) state.changedBytes.set(i / 2, now);
    }
  }
  state.lastRam = view.ram;
}

function drawInspector(view, now) {
  if (document.body.classList.contains("hide-inspector")) return;
  const frozen = new Map(view.frozen.map(([a, v]) => [a, v]));
  const fields = [];
  for (const [plugin, inspection] of view.inspections) {
    for (const field of inspection.fields) {
      const row = document.createElement("div");
      row.className = "field";
      if (state.selected !== null && state.selected >= field.address
          && state.selected < field.address + Math.max(1, field.width)) row.classList.add("selected");
      const address = document.createElement("span");
      address.className = "address";
      address.textContent = `$${hex(field.address, 4)}`;
      const label = document.createElement("span");
      label.textContent = field.label;
      const value = document.createElement("span");
      value.className = "value";
      const changed = state.changedFields.get(`${plugin}|${field.address}|${field.label}`);
      if (changed && now - changed.at < HIGHLIGHT_MS) value.classList.add("changed");
      value.textContent = field.value;
      row.append(address, label, value);
      row.addEventListener("click", () => select(field.address));
      fields.push(row);
    }
  }
  $("fields").replaceChildren(...fields);
  $("panels").replaceChildren(...view.inspections.flatMap(([, inspection]) => inspection.panels.map((panel) => {
    const div = document.createElement("div");
    div.className = "panel";
    const pre = document.createElement("pre");
    pre.textContent = panel.lines.join("\n");
    div.append(textLine(panel.title, "accent"), pre);
    return div;
  })));
  const detail = $("detail");
  if (state.selected === null) {
    detail.textContent = "click an address to select it; with the controls, hex digits write it and Enter freezes it";
  } else {
    const value = parseInt(view.ram.substr(state.selected * 2, 2), 16);
    const field = view.inspections.flatMap(([, i]) => i.fields)
      .find((f) => state.selected >= f.address && state.selected < f.address + Math.max(1, f.width));
    const held = frozen.has(state.selected) ? ` (frozen at ${hex(frozen.get(state.selected), 2)})` : "";
    const typed = state.typed === null ? "" : `  typed ${state.typed.toString(16).toUpperCase()}_`;
    detail.textContent = `$${hex(state.selected, 4)} = ${hex(value, 2)}${held}${typed}`
      + (field ? ` — ${field.label}: ${field.meaning || field.value}` : "");
  }
  drawHex(view, frozen, now);
}

function drawHex(view, frozen, now) {
  const box = $("hex");
  const rows = view.ram.length / 32;
  if (box.children.length !== rows) {
    box.replaceChildren();
    for (let r = 0; r < rows; r++) {
      const line = document.createElement("div");
      line.className = "line";
      const address = document.createElement("span");
      address.className = "row-address";
      address.textContent = `${hex(r * 16, 4)}  `;
      line.append(address);
      for (let c = 0; c < 16; c++) {
        const byte = document.createElement("b");
        const a = r * 16 + c;
        byte.addEventListener("click", () => select(a));
        line.append(byte, c === 15 ? "" : " ");
      }
      box.append(line);
    }
  }
  for (let r = 0; r < rows; r++) {
    const bytes = box.children[r].querySelectorAll("b");
    for (let c = 0; c < 16; c++) {
      const a = r * 16 + c;
      const byte = bytes[c];
      const text = view.ram.substr(a * 2, 2).toUpperCase();
      if (byte.textContent !== text) byte.textContent = text;
      const changed = now - (state.changedBytes.get(a) ?? -Infinity) < HIGHLIGHT_MS;
      byte.className = [changed ? "changed" : "", frozen.has(a) ? "frozen" : "",
        a === state.selected ? "selected" : ""].join(" ").trim();
    }
  }
}

function hex(value, digits) {
  return Number(value).toString(16).toUpperCase().padStart(digits, "0");
}

function select(address) {
  state.selected = address;
  state.typed = null;
  $("poke-address").value = hex(address, 4);
  if (state.view) drawInspector(state.view, performance.now());
}

// ---- the person's input: keys, gamepads, clicks ----

function bindingFor(event) {
  if (!state.hello) return null;
  return state.hello.keys.find((k) => k.code === event.code && k.ctrl === event.ctrlKey
    && k.shift === event.shiftKey && k.alt === event.altKey) || null;
}

function gameBit(code) {
  const key = state.hello && state.hello.game_keys.find((k) => k.input === code);
  return key ? key.bit : null;
}

function typing(event) {
  return event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
}

function onKeyDown(event) {
  if (!state.hello || typing(event)) return;
  if (state.selected !== null && editKey(event)) {
    event.preventDefault();
    return;
  }
  const binding = bindingFor(event);
  // Without the controls the console's keys are the browser's again (Ctrl+R reloads).
  if (binding && !(binding.console && !state.controls)) {
    event.preventDefault();
    const repeats = ["frame_advance", "hex_up", "hex_down", "next_field", "previous_field"];
    if (event.repeat && !repeats.includes(binding.action)) return;
    if (binding.console) sendAction(binding.action);
    else pageAction(binding.action);
    return;
  }
  const letter = /^Key([A-Z])$/.exec(event.code);
  const noModifiers = !event.ctrlKey && !event.shiftKey && !event.altKey;
  if (letter && noModifiers && state.hello.plugin_keys.some((k) => k.letter === letter[1])) {
    event.preventDefault();
    if (!event.repeat) sendAction({ plugin_option: letter[1] });
    return;
  }
  const bit = gameBit(event.code);
  if (bit !== null) {
    event.preventDefault();
    state.keyButtons |= 1 << bit;
    sendButtons();
  }
}

function onKeyUp(event) {
  const bit = gameBit(event.code);
  if (bit !== null) {
    state.keyButtons &= ~(1 << bit);
    sendButtons();
  }
}

/// Keys while an address is selected, as in the window: hex digits write it, Enter freezes
/// or thaws it, arrows move the selection, Esc leaves.
function editKey(event) {
  if (event.ctrlKey || event.altKey || event.shiftKey) return false;
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(event.code) || /^Key([A-F])$/.exec(event.code);
  if (digit) {
    if (!state.controls) return true;
    const value = parseInt(digit[1], 16);
    if (state.typed === null) {
      state.typed = value;
    } else {
      send({ type: "poke", address: state.selected, value: state.typed * 16 + value });
      state.typed = null;
    }
    if (state.view) drawInspector(state.view, performance.now());
    return true;
  }
  const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -16, ArrowDown: 16 };
  if (event.code in steps) {
    select((state.selected + steps[event.code] + 0x800) % 0x800);
    return true;
  }
  if (event.code === "Enter" || event.code === "NumpadEnter") {
    if (state.controls) send({ type: "freeze", address: state.selected });
    return true;
  }
  if (event.code === "Escape") {
    state.selected = null;
    state.typed = null;
    if (state.view) drawInspector(state.view, performance.now());
    return true;
  }
  return false;
}

function pageAction(action) {
  const toggle = (name) => document.body.classList.toggle(name);
  switch (action) {
    case "help": $("help").hidden = !$("help").hidden; break;
    case "back": $("help").hidden = true; break;
    case "toggle_inspector": toggle("hide-inspector"); break;
    case "toggle_marks": toggle("hide-marks"); break;
    case "toggle_status": toggle("hide-status"); break;
    case "toggle_input": toggle("hide-input"); break;
    case "toggle_dashboard": toggle("hide-dashboard"); break;
    case "hex_up": $("hex").scrollBy(0, -16 * 16); break;
    case "hex_down": $("hex").scrollBy(0, 16 * 16); break;
    case "next_field": stepField(1); break;
    case "previous_field": stepField(-1); break;
    case "fullscreen":
      if (document.fullscreenElement) document.exitFullscreen();
      else $("screen").requestFullscreen().catch(() => {});
      break;
    case "window_screenshot": showMessage("the page has no window to take: F12 takes the game's picture", true); break;
    case "mute": showMessage("no sound is sent to the page", true); break;
    default: break;
  }
}

function stepField(step) {
  if (!state.view) return;
  const addresses = state.view.inspections.flatMap(([, i]) => i.fields.map((f) => f.address));
  if (addresses.length === 0) return;
  const at = addresses.indexOf(state.selected);
  const next = at < 0 ? (step > 0 ? 0 : addresses.length - 1) : (at + step + addresses.length) % addresses.length;
  select(addresses[next]);
}

function sendButtons() {
  const buttons = state.keyButtons | state.padButtons;
  if (state.controls && buttons !== state.sentButtons) {
    send({ type: "buttons", buttons });
    state.sentButtons = buttons;
  }
}

function pollGamepads() {
  let buttons = 0;
  let aiHeld = false;
  const pads = navigator.getGamepads ? navigator.getGamepads() : [];
  for (const pad of pads) {
    if (!pad || pad.mapping !== "standard" || !state.hello) continue;
    for (const binding of state.hello.gamepad) {
      if (pad.buttons[binding.input] && pad.buttons[binding.input].pressed) buttons |= 1 << binding.bit;
    }
    const [x = 0, y = 0] = pad.axes;
    if (x <= -STICK_THRESHOLD) buttons |= 1 << 6;
    if (x >= STICK_THRESHOLD) buttons |= 1 << 7;
    if (y <= -STICK_THRESHOLD) buttons |= 1 << 4;
    if (y >= STICK_THRESHOLD) buttons |= 1 << 5;
    const ai = pad.buttons[state.hello.gamepad_ai];
    if (ai && ai.pressed) aiHeld = true;
  }
  if (aiHeld && !state.padAiHeld) sendAction("toggle_ai");
  state.padAiHeld = aiHeld;
  if (buttons !== state.padButtons) {
    state.padButtons = buttons;
    sendButtons();
  }
  requestAnimationFrame(pollGamepads);
}

function wireControls() {
  for (const button of document.querySelectorAll("#controls button[data-action]")) {
    button.addEventListener("click", () => sendAction(button.dataset.action));
  }
  $("speed").addEventListener("change", (e) => {
    if (state.controls) send({ type: "speed", speed: e.target.value });
  });
  $("slot").addEventListener("change", (e) => sendAction({ select_slot: Number(e.target.value) }));
  const address = () => parseInt($("poke-address").value, 16);
  $("poke-button").addEventListener("click", () => {
    const value = parseInt($("poke-value").value, 16);
    if (!(address() >= 0 && address() < 0x800) || !(value >= 0 && value < 256)) {
      showMessage("an address is $0000-$07FF and a value $00-$FF, in hex", true);
      return;
    }
    if (state.controls) send({ type: "poke", address: address(), value });
  });
  $("freeze-button").addEventListener("click", () => {
    if (!(address() >= 0 && address() < 0x800)) {
      showMessage("an address is $0000-$07FF, in hex", true);
      return;
    }
    if (state.controls) send({ type: "freeze", address: address() });
  });
  $("help-button").addEventListener("click", () => pageAction("help"));
  $("help").addEventListener("click", () => pageAction("back"));
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("keyup", onKeyUp);
  // Keys held when the page loses focus will not come up.
  window.addEventListener("blur", () => {
    state.keyButtons = 0;
    sendButtons();
  });
  window.addEventListener("resize", drawMarks);
}

wireControls();
connect();
requestAnimationFrame(pollGamepads);

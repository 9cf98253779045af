// The page of `canasta serve`: it shows what the server sends and sends back what is clicked or typed.
// It knows no rule of the game: the legal actions, refusals, pictures and scores all come from the server.
"use strict";

const $ = (id) => document.getElementById(id);

let names = [];

function setBusy(busy) {
  document.body.dataset.busy = busy ? "1" : "0";
  for (const button of document.querySelectorAll("#legal button, #replay button, #command-send")) {
    button.disabled = busy || button.dataset.off === "1";
  }
}

function showError(element, text) {
  element.textContent = text || "";
  element.hidden = !text;
}

async function call(method, path, body) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    return { status: 0, data: { error: `the server does not answer (${err})` } };
  }
  let data;
  try {
    data = await response.json();
  } catch (err) {
    data = { error: `the server sent no JSON (HTTP ${response.status})` };
  }
  return { status: response.status, data };
}

function sideName(side) {
  return side.seats.map((s) => `seat ${s} (${names[s] || "seat " + s})`).join(" + ");
}

function showScores(state) {
  const parts = state.scores.map((score, side) => `side ${side}: ${score}`);
  $("scores").textContent = `Hand ${state.hand} · scores ${parts.join(" · ")}${state.over ? " · game over" : ""}`;
}

function showLegal(state) {
  const box = $("legal");
  box.replaceChildren();
  let group = null;
  let row = null;
  state.legal.forEach((choice, index) => {
    if (choice.group !== group) {
      group = choice.group;
      const block = document.createElement("div");
      block.className = "group";
      const heading = document.createElement("h2");
      heading.textContent = group;
      row = document.createElement("div");
      row.className = "buttons";
      block.append(heading, row);
      box.append(block);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.id = choice.id;
    button.className = choice.id === "next" ? "next" : "choice";
    const label = document.createElement("span");
    label.textContent = choice.id === "next" ? choice.label : `${index + 1}) ${choice.label}`;
    button.append(label);
    if (choice.command) {
      const kbd = document.createElement("kbd");
      kbd.textContent = choice.command;
      button.append(" ", kbd);
    }
    button.addEventListener("click", () => act({ id: choice.id }));
    row.append(button);
  });
  if (!state.legal.length && state.mode === "play") {
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = state.over ? "The game is over: deal a new game below." : "Waiting for the bots.";
    box.append(note);
  }
}

function showHandScore(score) {
  const box = $("hand-score");
  box.replaceChildren();
  box.hidden = !score;
  if (!score) return;
  const heading = document.createElement("h2");
  heading.textContent = `Hand ${score.hand}: ${score.how}`;
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  head.append(document.createElement("th"));
  for (const side of score.sides) {
    const th = document.createElement("th");
    th.textContent = `side ${side.side}`;
    th.title = sideName(side);
    head.append(th);
  }
  const body = table.createTBody();
  const notes = [];
  // Only the parts some side scored, each with its reason (the server's canasta.scorelines).
  for (const line of score.lines) {
    const row = body.insertRow();
    const th = document.createElement("th");
    th.textContent = line.label;
    row.append(th);
    line.values.forEach((value, index) => {
      const cell = row.insertCell();
      cell.textContent = String(value);
      if (line.reasons[index]) cell.title = line.reasons[index];
    });
    if (line.noted) {
      line.reasons.forEach((reason, index) => {
        if (reason) notes.push(`${line.label}, side ${score.sides[index].side}: ${reason}`);
      });
    }
  }
  for (const [key, label] of [["canastas", "canastas"], ["total", "hand total"], ["score", "game score"]]) {
    const row = body.insertRow();
    if (key !== "canastas") row.className = "sum";
    const th = document.createElement("th");
    th.textContent = label;
    row.append(th);
    for (const side of score.sides) row.insertCell().textContent = String(side[key]);
  }
  const scroller = document.createElement("div");
  scroller.className = "scroll";
  scroller.append(table);
  const reasons = document.createElement("ul");
  reasons.className = "reasons";
  reasons.replaceChildren(...notes.map((note) => {
    const item = document.createElement("li");
    item.textContent = note;
    return item;
  }));
  const seats = document.createElement("p");
  seats.className = "hint";
  seats.textContent = score.sides.map((side) => `side ${side.side}: ${sideName(side)}`).join("; ");
  box.append(heading, scroller, reasons, seats);
}

let shownMoves = [];

function showMoves(lines, mode) {
  // The other seats' moves since the person's last one, where the eye goes: under the message.
  const list = $("log");
  const fresh = lines.length > shownMoves.length && shownMoves.every((line, i) => lines[i] === line)
    ? shownMoves.length : 0;
  list.replaceChildren(...lines.map((line, index) => {
    const item = document.createElement("li");
    item.textContent = line;
    if (index >= fresh) item.className = "fresh";
    return item;
  }));
  shownMoves = lines;
  $("moves").hidden = !lines.length || mode !== "play";
}

function showHelp(rows) {
  const body = $("help-table").tBodies[0];
  body.replaceChildren(...(rows || []).map(([command, meaning]) => {
    const row = document.createElement("tr");
    const code = document.createElement("td");
    const kbd = document.createElement("kbd");
    kbd.textContent = command;
    code.append(kbd);
    const text = document.createElement("td");
    text.textContent = meaning;
    row.append(code, text);
    return row;
  }));
  $("help").hidden = !rows;
}

function showReplay(replay) {
  $("replay").hidden = !replay;
  if (!replay) return;
  $("replay-position").textContent = `position ${replay.at} of ${replay.total}` +
    (replay.complete ? "" : " (the record stops before the game's end)");
  $("replay-first").dataset.off = $("replay-prev").dataset.off = replay.at === 0 ? "1" : "0";
  $("replay-next").dataset.off = $("replay-last").dataset.off = replay.at === replay.total ? "1" : "0";
}

function show(state) {
  names = state.names;
  document.body.dataset.mode = state.mode;
  $("title").textContent = `${state.title} · seed ${state.seed}${state.mode === "replay" ? " · replay" : ""}`;
  $("picture").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(state.svg);
  $("picture").alt = `the table: ${state.message}`;
  $("message").textContent = state.message;
  showError($("error"), state.error);
  showScores(state);
  $("play").hidden = state.mode !== "play";
  showLegal(state);
  $("command").disabled = !state.typing;
  $("command-send").dataset.off = state.typing ? "0" : "1";
  showHandScore(state.hand_score);
  showMoves(state.log, state.mode);
  showHelp(state.help);
  showReplay(state.replay);
  $("record-download").hidden = state.mode !== "play";
  document.body.dataset.version = String(state.version);
}

async function request(method, path, body, errorBox) {
  setBusy(true);
  const { status, data } = await call(method, path, body);
  if (data && data.svg !== undefined) {
    show(data);
  } else {
    showError(errorBox || $("error"), data.error || `HTTP ${status}`);
  }
  setBusy(false);
  return status;
}

async function act(body) {
  const status = await request("POST", "/api/act", body);
  if (status === 200) $("command").value = "";
  $("command").focus();
}

async function loadRecord() {
  showError($("record-error"), "");
  const text = $("record-text").value;
  if (!text.trim()) {
    showError($("record-error"), "choose a record file or paste its JSON first");
    return;
  }
  const status = await request("POST", "/api/replay", { record: text }, $("record-error"));
  if (status === 200) showError($("error"), "");
}

async function newGame(event) {
  event.preventDefault();
  const houseRules = [...document.querySelectorAll("#new-house-rules input:checked")].map((box) => box.value);
  await request("POST", "/api/new", {
    variant: $("new-variant").value,
    players: Number($("new-players").value) || null,
    house_rules: houseRules,
    bot: $("new-bot").value,
    seed: $("new-seed").value.trim() || null,
  });
}

function option(value, text, selected) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = text;
  element.selected = selected;
  return element;
}

// The numbers of players the chosen variant plays, its default selected (the server's for its default variant).
function fillPlayers(variants, defaults) {
  const chosen = variants.find((v) => v.name === $("new-variant").value);
  const counts = chosen ? chosen.players : [];
  const wanted = chosen && chosen.name === defaults.variant && defaults.players ? defaults.players : chosen?.default_players;
  $("new-players").replaceChildren(...counts.map((n) => option(String(n), String(n), n === wanted)));
}

async function fillForm() {
  const { data } = await call("GET", "/api/variants");
  if (!data.variants) return;
  const defaults = data.defaults;
  $("new-variant").replaceChildren(...data.variants.map((v) => option(v.name, v.name, v.name === defaults.variant)));
  fillPlayers(data.variants, defaults);
  $("new-variant").addEventListener("change", () => fillPlayers(data.variants, defaults));
  $("new-bot").replaceChildren(...data.bots.map((b) => option(b, b, b === defaults.bot)));
  const box = $("new-house-rules");
  for (const rule of data.house_rules) {
    const label = document.createElement("label");
    label.className = "check";
    label.title = rule.description + (rule.applies_to ? ` (for ${rule.applies_to.join(", ")})` : "");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = rule.name;
    input.checked = defaults.house_rules.includes(rule.name);
    label.append(input, " ", rule.name);
    box.append(label);
  }
  if (defaults.seed !== null) $("new-seed").value = String(defaults.seed);
}

function start() {
  $("command-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("command").value;
    if (text.trim()) act({ command: text });
  });
  for (const button of document.querySelectorAll("#replay button")) {
    button.addEventListener("click", () => request("POST", "/api/replay/step", { to: button.dataset.to }));
  }
  document.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    const typing = event.target instanceof HTMLElement && event.target.closest("input, textarea, select");
    if (document.body.dataset.mode !== "replay" || typing || !keys[event.key]) return;
    if (document.body.dataset.busy === "1") return;
    event.preventDefault();
    request("POST", "/api/replay/step", { to: keys[event.key] });
  });
  $("new-form").addEventListener("submit", newGame);
  $("record-load").addEventListener("click", loadRecord);
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (file) {
      $("record-text").value = await file.text();
      await loadRecord();
    }
  });
  fillForm();
  request("GET", "/api/state");
}

start();

// The page: a replay viewer and a game against agents, over the JSON API of training/web/app.py.
import { drawBoard, PLAYER_COLOURS } from "./board.js";

const $ = (id) => document.getElementById(id);
let cat = null;

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const body = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

const post = (path, body) =>
  api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body ?? {}) });

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function guarded(fn) {
  try {
    showError("");
    await fn();
  } catch (err) {
    showError(err.message);
  }
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = String(value);
  o.textContent = text;
  return o;
}

function logLines(list, entries) {
  // entries: [{lines, current}] oldest first; shows the last 120 lines, the current move's highlighted
  const items = [];
  for (const { lines, current } of entries)
    for (const line of lines) {
      const li = document.createElement("li");
      li.textContent = line;
      if (current) li.className = "current";
      items.push(li);
    }
  list.replaceChildren(...items.slice(-120));
  list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------------ replays
const replay = { file: null, id: null, info: null, moves: [], chunks: new Map(), step: 0, view: null, timer: null, token: 0 };

async function openRecords(opened) {
  replay.file = opened;
  const select = $("game-select");
  select.replaceChildren(
    ...opened.games.map((g) =>
      option(
        g.index,
        `game ${g.index}: ${g.agents.join(" vs ")}, ${g.steps} moves, won by ${g.winners.map((w) => `player_${w}`).join(", ") || "nobody"}`,
      ),
    ),
  );
  select.hidden = opened.games.length < 2;
  $("file-name").textContent = `${opened.name}: ${opened.games.length} game(s)`;
  await openGame(0);
}

async function openGame(index) {
  stopAuto();
  const token = ++replay.token; // a later open or view wins over one still loading
  const opened = await post(`/api/records/${replay.file.id}/games/${index}`);
  if (token !== replay.token) return;
  Object.assign(replay, { id: opened.id, info: opened, step: 0, view: null });
  const seats = Array.from({ length: opened.players }, (_, p) => p);
  $("view-select").replaceChildren(
    option("", "everything"),
    ...seats.map((p) => option(p, `as player_${p}${opened.agents[p] ? ` (${opened.agents[p]})` : ""} saw it`)),
  );
  $("replay-warning").textContent = opened.ends_as_recorded ? "" : "This replay does not end as the record says.";
  await loadView(token);
  $("replay-controls").hidden = false;
}

async function loadView(token) {
  const view = replay.view === null ? "" : `?view=${replay.view}`;
  const moves = (await api(`/api/replays/${replay.id}/moves${view}`)).moves;
  if (token !== replay.token) return;
  replay.moves = moves;
  replay.chunks = new Map();
  const scrub = $("scrub");
  scrub.max = String(replay.moves.length - 1);
  const rounds = [...new Set(replay.moves.map((m) => m.round))];
  $("round-select").replaceChildren(...rounds.map((r) => option(r, r === 0 ? "setup" : `round ${r}`)));
  await show(replay.step);
}

function chunk(start) {
  // the tables of steps start .. start + cat.chunk - 1, fetched once
  if (!replay.chunks.has(start)) {
    const view = replay.view === null ? "" : `&view=${replay.view}`;
    const got = api(`/api/replays/${replay.id}/tables?start=${start}&count=${cat.chunk}${view}`).then((r) => r.tables);
    got.catch(() => replay.chunks.delete(start));
    replay.chunks.set(start, got);
  }
  return replay.chunks.get(start);
}

async function tableAt(position) {
  // the table after moves[position]; a seat's view leaves out the steps it did not know of
  const step = replay.moves[position].step;
  const start = Math.floor(step / cat.chunk) * cat.chunk;
  const tables = await chunk(start);
  if (step - start > cat.chunk / 2 && start + cat.chunk <= replay.info.steps) chunk(start + cat.chunk); // ahead of need
  return tables[step - start];
}

async function show(position) {
  // draws the table after moves[position]; a later call wins over one still waiting for its table
  position = Math.max(0, Math.min(position, replay.moves.length - 1));
  replay.step = position;
  const token = replay.token;
  const table = await tableAt(position);
  if (replay.step !== position || replay.token !== token) return;
  drawBoard($("replay-board"), table, cat, { names: replay.info.agents, viewer: replay.view });
  const move = replay.moves[position];
  $("replay-move").textContent = move.move || (position === 0 ? "the deal" : "");
  $("replay-move").style.borderColor = move.player === null ? "" : PLAYER_COLOURS[move.player];
  $("step-label").textContent = `step ${position} of ${replay.moves.length - 1}`;
  $("scrub").value = String(position);
  $("round-select").value = String(move.round);
  const phases = [...new Set(replay.moves.filter((m) => m.round === move.round).map((m) => m.phase))];
  $("phase-select").replaceChildren(...phases.map((p) => option(p, `${p}: ${cat.phases[p]}`)));
  $("phase-select").value = String(move.phase);
  const from = Math.max(0, position - 60);
  logLines(
    $("replay-log"),
    replay.moves.slice(from, position + 1).map((m, i) => ({ lines: m.lines, current: from + i === position })),
  );
}

function stopAuto() {
  clearInterval(replay.timer);
  replay.timer = null;
  $("auto").textContent = "▶ play";
}

function startAuto() {
  replay.timer = setInterval(async () => {
    if (replay.step >= replay.moves.length - 1) return stopAuto();
    await show(replay.step + 1);
  }, Number($("speed").value));
  $("auto").textContent = "❚❚ pause";
}

function jump(round, phase) {
  const i = replay.moves.findIndex((m) => m.round === round && (phase === null || m.phase === phase));
  if (i >= 0) guarded(() => show(i));
}

function setUpReplay() {
  $("open-path").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(async () => openRecords(await post("/api/records/path", { path: $("path").value })));
  });
  $("upload").addEventListener("change", () =>
    guarded(async () => {
      const form = new FormData();
      form.append("file", $("upload").files[0]);
      await openRecords(await api("/api/records/upload", { method: "POST", body: form }));
    }),
  );
  $("game-select").addEventListener("change", () => guarded(() => openGame(Number($("game-select").value))));
  $("first").addEventListener("click", () => guarded(() => show(0)));
  $("back").addEventListener("click", () => guarded(() => show(replay.step - 1)));
  $("forward").addEventListener("click", () => guarded(() => show(replay.step + 1)));
  $("last").addEventListener("click", () => guarded(() => show(replay.moves.length - 1)));
  $("scrub").addEventListener("input", () => guarded(() => show(Number($("scrub").value))));
  $("auto").addEventListener("click", () => (replay.timer ? stopAuto() : startAuto()));
  $("speed").addEventListener("change", () => {
    if (replay.timer) (stopAuto(), startAuto());
  });
  $("round-select").addEventListener("change", () => jump(Number($("round-select").value), null));
  $("phase-select").addEventListener("change", () =>
    jump(Number($("round-select").value), Number($("phase-select").value)),
  );
  $("view-select").addEventListener("change", () =>
    guarded(async () => {
      replay.view = $("view-select").value === "" ? null : Number($("view-select").value);
      await loadView(++replay.token);
    }),
  );
  document.addEventListener("keydown", (e) => {
    if ($("replay-page").hidden || !replay.id || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") guarded(() => show(replay.step + 1));
    if (e.key === "ArrowLeft") guarded(() => show(replay.step - 1));
  });
}

// ------------------------------------------------------------------ playing against agents
const match = { id: null, busy: false, log: [], names: null, token: 0 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function receive(view, token) {
  if (token !== match.token) return; // a newer game was started meanwhile
  match.id = view.id;
  match.names = view.agents.map((a, p) => (p === view.seat ? "you" : a));
  const delay = Number($("opponent-speed").value);
  for (const frame of view.frames) {
    match.log.push({ lines: frame.lines, move: frame.move });
    if (delay > 0 && frame.player !== null && frame.player !== view.seat && token === match.token) {
      drawBoard($("play-board"), frame.table, cat, { names: match.names, viewer: view.seat });
      $("play-move").textContent = frame.move;
      $("play-move").style.borderColor = PLAYER_COLOURS[frame.player];
      logLines($("play-log"), match.log.map((m, i) => ({ lines: m.lines, current: i === match.log.length - 1 })));
      await sleep(delay);
    }
  }
  if (token !== match.token) return;
  drawBoard($("play-board"), view.table, cat, { names: match.names, viewer: view.seat });
  logLines($("play-log"), match.log.map((m, i) => ({ lines: m.lines, current: i === match.log.length - 1 })));
  const last = view.frames.length ? view.frames[view.frames.length - 1] : null;
  if (last && last.move) $("play-move").textContent = last.move;
  offer(view);
}

function offer(view) {
  const box = $("choices");
  box.replaceChildren();
  if (view.ending) {
    const e = view.ending;
    const won = e.winners.includes(view.seat);
    const text = won
      ? "You won!"
      : `You finished with ${e.scores[view.seat]} points, rank ${e.ranks[view.seat]} of ${e.scores.length}.`;
    const result = document.createElement("p");
    result.id = "result";
    result.textContent = `${text} ${view.warning ? `Not saved: ${view.warning}.` : `Saved to ${cat.records_path}.`}`;
    const watch = document.createElement("button");
    watch.textContent = "Watch the replay";
    watch.addEventListener("click", () =>
      guarded(async () => {
        const opened = await post(`/api/matches/${match.id}/replay`);
        selectTab("replay");
        await openRecords(opened);
      }),
    );
    box.append(result, watch);
    return;
  }
  const byTarget = new Map();
  for (const choice of view.legal) {
    const b = document.createElement("button");
    b.className = "choice";
    b.textContent = choice.label;
    b.dataset.action = String(choice.action);
    b.addEventListener("click", () => choose(choice.action));
    box.append(b);
    if (choice.target && !byTarget.has(choice.target)) byTarget.set(choice.target, choice.action);
  }
  for (const node of $("play-board").querySelectorAll("[data-target]")) {
    const action = byTarget.get(node.dataset.target);
    if (action === undefined) continue;
    node.classList.add("choosable");
    node.addEventListener("click", (e) => {
      e.stopPropagation();
      choose(action);
    });
  }
}

function busy(on) {
  match.busy = on;
  document.body.classList.toggle("busy", on);
}

function choose(action) {
  if (match.busy) return;
  busy(true);
  const token = match.token;
  guarded(async () => receive(await post(`/api/matches/${match.id}/actions`, { action }), token)).finally(() =>
    busy(false),
  );
}

function setUpPlay() {
  $("victory").replaceChildren(
    option("", "drawn at random"),
    option("point", "point variant"),
    ...cat.victory_cards.map((id) => option(id, id)),
  );
  const seats = () => {
    const n = Number($("players").value);
    const keep = Math.min(Number($("seat").value || 0), n - 1);
    $("seat").replaceChildren(...Array.from({ length: n }, (_, p) => option(p, `player_${p}`)));
    $("seat").value = String(keep);
  };
  $("players").addEventListener("change", seats);
  seats();
  $("new-game").addEventListener("submit", (e) => {
    e.preventDefault();
    const victory = $("victory").value;
    const seed = $("seed").value.trim();
    if (seed !== "" && !/^\d+$/.test(seed)) return showError(`the seed must be a whole number, not "${seed}"`);
    const token = ++match.token; // the game before is left: its choices are gone
    match.log = [];
    $("choices").replaceChildren();
    busy(true);
    guarded(async () =>
      receive(
        await post("/api/matches", {
          players: Number($("players").value),
          seat: Number($("seat").value),
          opponents: $("opponents")
            .value.split(/\s*;\s*/)
            .filter((s) => s),
          victory_card: victory && victory !== "point" ? victory : null,
          point_variant: victory === "point",
          seed: seed === "" ? null : Number(seed),
        }),
        token,
      ),
    ).finally(() => busy(false));
  });
}

// ------------------------------------------------------------------ tabs
function selectTab(name) {
  for (const tab of ["replay", "play"]) {
    $(`${tab}-page`).hidden = tab !== name;
    $(`tab-${tab}`).classList.toggle("active", tab === name);
  }
}

async function main() {
  cat = await api("/api/catalogue");
  $("open-path").hidden = !cat.local; // a server reachable from elsewhere opens uploads only
  $("tab-replay").addEventListener("click", () => selectTab("replay"));
  $("tab-play").addEventListener("click", () => selectTab("play"));
  setUpReplay();
  setUpPlay();
  document.body.dataset.ready = "true";
}

guarded(main);

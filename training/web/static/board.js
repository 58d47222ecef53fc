// Draws one table (tribune_env/table.py) as a board: regions, faction fields, players.
// Every text from the server goes in through textContent, never as HTML.

export const PLAYER_COLOURS = ["#d64541", "#2f6fd0", "#2e9d4a", "#e09a12", "#8e44ad"];
const FACTION_COLOURS = ["#b8352b", "#2471a3", "#5d6d7e", "#c0641a", "#7d3c98", "#e8c43a", "#1e8449"];
const LIGHT_FACTIONS = new Set([5]); // dark text on these

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function chip(text, cls) {
  return el("span", `chip ${cls || ""}`, text);
}

export function playerName(seat, names) {
  return names && names[seat] ? `player_${seat} · ${names[seat]}` : `player_${seat}`;
}

function dot(seat) {
  const d = el("span", "dot");
  d.style.background = seat === null || seat === undefined ? "transparent" : PLAYER_COLOURS[seat];
  if (seat === null || seat === undefined) d.classList.add("empty");
  return d;
}

// A card tile: faction colour, value, name on hover. code < 0: a face-down card.
export function card(code, cat, opts = {}) {
  const c = el("span", "card");
  if (code === cat.hidden || code === null) {
    c.classList.add("back");
    c.title = "face-down card";
    c.dataset.code = "hidden";
    return c;
  }
  const faction = Math.floor(code / cat.values);
  const value = code % cat.values;
  c.style.background = FACTION_COLOURS[faction];
  if (LIGHT_FACTIONS.has(faction)) c.classList.add("light");
  c.dataset.code = String(code);
  c.title = cat.cards[code];
  c.append(el("b", "value", value === 0 ? "L" : value));
  c.append(el("small", "fname", value === 0 ? cat.leaders[faction] : cat.factions[faction]));
  if (opts.faceDown) c.classList.add("face-down");
  if (opts.target) c.dataset.target = opts.target;
  return c;
}

function cards(list, cat, target) {
  const row = el("div", "cards");
  for (const code of list) row.append(card(code, cat, { target: target ? `${target}:${code}` : null }));
  if (!list.length) row.append(el("span", "none", "—"));
  return row;
}

function space(label, owner, target) {
  const s = el("span", "space");
  s.append(dot(owner));
  s.append(el("small", null, label));
  s.dataset.owner = owner === null ? "" : String(owner);
  if (target) s.dataset.target = target;
  return s;
}

function status(table, cat) {
  const bar = el("div", "status");
  const phase = cat.phases[table.phase];
  bar.append(el("span", "round", `Round ${table.round} of at most ${table.round_limit}`));
  bar.append(el("span", "phase", `Phase ${table.phase}: ${phase}`));
  const v = table.victory;
  bar.append(
    el(
      "span",
      "victory",
      v.point_variant
        ? `Point variant: ends at ${v.markers} faction markers`
        : `Victory card ${v.id}: ${v.need} of tribune, favor, ${v.laurels} laurels, ${v.legions} legions, ` +
            `${v.denarii} denarii, ${v.markers} markers${v.obligatory ? ` (${v.obligatory} obligatory)` : ""}`,
    ),
  );
  bar.append(el("span", "colosseum", `Colosseum ${table.colosseum} denarii`));
  bar.append(el("span", "draw", `Draw pile ${table.draw_pile}`));
  const faceUp = table.discards.face_up.length;
  bar.append(el("span", "discards", `Discards ${faceUp} face up, ${table.discards.face_down} face down`));
  return bar;
}

function region(r, index, table, cat) {
  const box = el("div", "region");
  box.dataset.region = String(index);
  box.dataset.target = `region:${index}`;
  box.append(el("h3", null, r.name));
  if (r.cards.length) {
    const row = el("div", "cards slots");
    for (const slot of r.cards) {
      if (slot === null) row.append(el("span", "card empty-slot", ""));
      else row.append(card(slot.card, cat, { faceDown: !slot.face_up }));
    }
    box.append(row);
  }
  if (r.stacks) {
    const stacks = el("div", "stacks");
    r.stacks.forEach((stack, k) => {
      const s = el("div", "stack");
      s.append(el("small", null, `stack ${k + 1}`));
      s.append(cards(stack, cat));
      stacks.append(s);
    });
    box.append(stacks);
  }
  if (r.pile) {
    const pile = el("div", "pile");
    pile.append(el("span", "pile-size", `${r.pile.size} face-down cards`));
    if (r.pile.seen.length) {
      pile.append(el("small", null, "seen:"));
      pile.append(cards(r.pile.seen, cat, "take"));
    }
    box.append(pile);
  }
  if (r.pairs_laid !== undefined) box.append(el("div", "pairs", `${r.pairs_laid} pair(s) laid face down`));
  let base = 0;
  for (let i = 0; i < index; i++) base += table.regions[i].spaces.length;
  const spaces = el("div", "spaces");
  r.spaces.forEach((s, i) => {
    const short = s.label.startsWith(r.name) ? s.label.slice(r.name.length).trim() || "•" : s.label.split(" ").pop();
    const node = space(short, s.owner, `space:${base + i}`);
    node.dataset.space = String(base + i);
    node.title = s.label;
    spaces.append(node);
  });
  box.append(spaces);
  return box;
}

function bowl(table) {
  const box = el("div", "region bowl");
  box.dataset.target = "bowl";
  box.append(el("h3", null, "Coin bowl"));
  const row = el("div", "spaces");
  table.coin_bowl.forEach((k, p) => {
    for (let i = 0; i < k; i++) row.append(dot(p));
  });
  if (!row.children.length) row.append(el("span", "none", "—"));
  box.append(row);
  return box;
}

function faction(f, index, table, cat) {
  const box = el("div", "faction");
  box.dataset.faction = String(index);
  box.dataset.target = `faction:${index}`;
  const head = el("div", "faction-head", f.name);
  head.style.background = FACTION_COLOURS[index];
  if (LIGHT_FACTIONS.has(index)) head.classList.add("light");
  box.append(head);
  box.append(el("small", "leader", f.leader));
  const ctl = el("div", "controller");
  ctl.append(dot(f.controller));
  ctl.append(el("span", null, f.controller === null ? "no controller" : `player_${f.controller}`));
  box.append(ctl);
  box.append(cards(f.set, cat));
  const field = el("div", "spaces field");
  [1, 0].forEach((i) => field.append(space(String(i + 1), f.field[i], null)));
  field.dataset.target = `field:${index}`;
  box.append(field);
  const badges = el("div", "badges");
  if (f.first_laurel) badges.append(chip("laurel waiting", "laurel"));
  if (f.chariot) badges.append(chip("chariot: blocked", "chariot"));
  box.append(badges);
  return box;
}

function player(p, table, cat, names, viewer) {
  const box = el("div", "player");
  box.dataset.player = String(p.seat);
  box.style.borderColor = PLAYER_COLOURS[p.seat];
  if (table.decision && table.decision.player === p.seat) box.classList.add("acting");
  const head = el("div", "player-head");
  head.append(dot(p.seat));
  head.append(el("b", "name", playerName(p.seat, names) + (viewer === p.seat ? " (this view)" : "")));
  for (const [on, text] of [
    [p.start, "start"],
    [p.proconsul, "proconsul"],
    [p.declared, "Veni, vidi, vici!"],
  ])
    if (on) head.append(chip(text, "tag"));
  box.append(head);
  const stats = el("div", "stats");
  for (const [cls, label, value] of [
    ["denarii", "denarii", p.denarii],
    ["laurels", "laurels", p.laurels],
    ["legions", "legions", p.legions],
    ["score", "score", p.score],
    ["followers", "followers to place", p.followers],
  ]) {
    const s = el("span", `stat ${cls}`);
    s.append(el("b", null, value));
    s.append(el("small", null, label));
    stats.append(s);
  }
  box.append(stats);
  const more = el("div", "badges");
  if (p.tile) more.append(chip(p.tile, "tile"));
  if (p.favor) more.append(chip(`${p.favor} favor`, "favor"));
  for (const f of p.markers) {
    const m = chip(`${cat.factions[f]} marker`, "marker");
    m.style.background = FACTION_COLOURS[f];
    if (LIGHT_FACTIONS.has(f)) m.classList.add("light");
    more.append(m);
  }
  if (p.bid !== null) more.append(chip(`bid ${p.bid}`, "bid"));
  if (p.committed) more.append(chip("bid committed", "bid"));
  box.append(more);
  const objectives = el("div", "objectives");
  for (const name of cat.objectives) {
    const o = chip(name, p.objectives.includes(name) ? "met" : "unmet");
    o.dataset.objective = name;
    objectives.append(o);
  }
  box.append(objectives);
  const hand = el("div", "hand");
  hand.append(el("small", "hand-size", `hand: ${p.hand_size} card(s)`));
  if (p.hand) hand.append(cards(p.hand, cat, "hand"));
  box.append(hand);
  if (!p.hand && p.known.length) {
    const known = el("div", "known");
    known.append(el("small", null, "known to hold:"));
    known.append(cards(p.known, cat, "known"));
    box.append(known);
  }
  if (p.pairs.length) {
    const pairs = el("div", "mars-pairs");
    pairs.append(el("small", null, "Field of Mars pairs:"));
    for (const pair of p.pairs) pairs.append(cards(pair, cat));
    box.append(pairs);
  }
  return box;
}

function decisionText(table, names) {
  if (table.over) {
    const o = table.over;
    return o.truncated
      ? `Game over: truncated at the round limit. Scores ${o.scores.join(", ")}`
      : `Game over: won by ${o.winners.map((w) => playerName(w, names)).join(", ")}. Scores ${o.scores.join(", ")}`;
  }
  const d = table.decision;
  const args = Object.entries(d)
    .filter(([k]) => k !== "kind" && k !== "player")
    .map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`);
  return `To act: ${playerName(d.player, names)} — ${d.kind.replaceAll("_", " ")}${args.length ? ` (${args.join(", ")})` : ""}`;
}

// Draw `table` into `root`. names: agent per seat; viewer: the seat whose view it is (or null).
export function drawBoard(root, table, cat, { names = null, viewer = null } = {}) {
  const board = el("div", "board-inner");
  board.append(status(table, cat));
  board.append(el("div", `decision${table.over ? " over" : ""}`, decisionText(table, names)));
  const regions = el("div", "regions");
  table.regions.forEach((r, i) => regions.append(region(r, i, table, cat)));
  regions.append(bowl(table));
  board.append(regions);
  if (table.build || table.challenger) {
    const extra = el("div", "in-play");
    if (table.build) {
      extra.append(el("small", null, `set being built by player_${table.build.player}:`));
      extra.append(cards(table.build.cards, cat));
    }
    if (table.challenger) {
      extra.append(el("small", null, `set played from space 2 by player_${table.challenger.player}:`));
      extra.append(cards(table.challenger.cards, cat, "challenger"));
    }
    board.append(extra);
  }
  const factions = el("div", "factions");
  table.factions.forEach((f, i) => factions.append(faction(f, i, table, cat)));
  board.append(factions);
  const players = el("div", "players");
  for (const p of table.players) players.append(player(p, table, cat, names, viewer));
  board.append(players);
  root.replaceChildren(board);
}

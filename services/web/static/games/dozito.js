// The Dozito board: every player's 4x3 grid of cards (face-down ones as backs), the draw pile,
// the two discard piles and the card in hand; the turn's moves are the piles and the slots.
import { Moves, board, h, resultPanel, turnLine, who } from "./kit.js";

// What the step of the turn asks: said to the player, and about them to everyone else.
const PHASES = {
  turn_start: ["Click a discard pile to take its top card, or the draw pile to draw.", "takes a discard pile's top card or draws a card."],
  must_place: ["Place the card taken from a discard pile: click a slot of your grid.", "must place the card taken from a discard pile."],
  place_or_discard: ["Click a slot of your grid to place the card in hand, or a discard pile to discard it.", "places the card in hand, or discards it."],
  must_discard: ["Click a discard pile to discard the card in hand.", "must discard the card in hand."],
};

const KIND_BADGE = { stop: "STOP", replay: "REPLAY", joker: "JOKER" };

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function cardName(c) {
  const number = c.number === null ? "" : ` ${c.number}`;
  const kind = c.kind === "normal" ? "" : ` ${KIND_BADGE[c.kind] || c.kind}`;
  return `${cap(c.colour)}${number}${kind}`.replace("JOKER", "Joker");
}

/** A face-up card (colour, number, kind, suns), or a card back. */
function card(c, { slot = null } = {}) {
  if (!c) {
    return h("div", { class: "dz back", role: "img", "aria-label": slot ? `slot ${slot}, face down` : "face-down card" },
      slot ? h("span", { class: "dz-slot" }, String(slot)) : null);
  }
  return h("div", { class: `dz c-${c.colour} k-${c.kind}`, "data-card": c.id, role: "img", "aria-label": cardName(c) },
    h("span", { class: "dz-num" }, c.number === null ? "★" : String(c.number)),
    c.kind !== "normal" ? h("span", { class: "dz-kind" }, KIND_BADGE[c.kind] || c.kind) : null,
    c.suns ? h("span", { class: "dz-suns", title: `${c.suns} sun${c.suns > 1 ? "s" : ""}` }, "☀".repeat(c.suns)) : null);
}

function describe(c) {
  switch (c.type) {
    case "take_discard": return `Take from discard pile ${c.pile + 1}`;
    case "draw_card": return "Draw a card";
    case "place_card": return `Place in slot ${c.slot}`;
    case "discard_card": return `Discard onto pile ${c.pile + 1}`;
    default: return JSON.stringify(c);
  }
}

function grid(view, ctx, moves, player) {
  const cells = view.grids[player];
  const columns = (view.grid_size || {}).columns || 4;
  const mine = player === view.you;
  const active = view.active_player === player;
  const total = (view.totals || {})[player];
  return h("section", { class: `panel grid${mine ? " mine" : ""}${active ? " active" : ""}`, "aria-label": `${player}'s grid` },
    h("h3", {}, mine ? "Your grid" : `${who(player, ctx)}'s grid`,
      active ? h("span", { class: "to-play" }, " · playing") : null,
      total !== undefined ? h("span", { class: "total" }, ` · total ${total}`) : null),
    h("div", { class: "dz-grid", style: `grid-template-columns: repeat(${columns}, minmax(0, 1fr))` },
      cells.map((c, i) => {
        const slot = i + 1;
        const place = mine ? moves.one("place_card", { slot }) : undefined;
        return moves.wrap(place, card(c, { slot }), { label: place ? describe(place) : null });
      })));
}

function piles(view, moves) {
  const draw = moves.one("draw_card");
  const drawPile = h("div", { class: "pile" },
    moves.wrap(draw, h("div", { class: "dz back deck" }, h("span", { class: "dz-slot" }, String(view.draw_size))),
      { label: draw ? "Draw a card" : null }),
    h("span", { class: "pile-name" }, `Draw pile · ${view.draw_size}`));
  const discards = view.discards.map((pile, i) => {
    const command = moves.one("take_discard", { pile: i }) || moves.one("discard_card", { pile: i });
    const face = pile.top ? card(pile.top) : h("div", { class: "dz empty" }, "empty");
    return h("div", { class: "pile" },
      moves.wrap(command, face, { label: command ? describe(command) : null }),
      h("span", { class: "pile-name" }, `Discard ${i + 1} · ${pile.size}`));
  });
  const hand = view.hand ? h("div", { class: "pile in-hand" }, card(view.hand),
    h("span", { class: "pile-name" }, `In hand${view.hand_from ? ` (from ${view.hand_from})` : ""}`)) : null;
  return h("section", { class: "panel table-centre", "aria-label": "Piles" },
    h("div", { class: "piles" }, drawPile, discards, hand));
}

function scores(view, ctx) {
  const players = Object.keys(view.round_scores || {});
  if (!players.length || !players.some((p) => view.round_scores[p].length)) return null;
  const rounds = Math.max(...players.map((p) => view.round_scores[p].length));
  return h("section", { class: "panel" }, h("h3", {}, "Scores"),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"),
        Array.from({ length: rounds }, (_, r) => h("th", {}, `Round ${r + 1}`)), h("th", {}, "Total"))),
      h("tbody", {}, players.map((p) => h("tr", {}, h("td", {}, who(p, ctx)),
        view.round_scores[p].map((s) => h("td", {}, String(s))), h("td", {}, h("strong", {}, String(view.totals[p] ?? ""))))))));
}

function notes(view, ctx) {
  const lines = [];
  if (view.extra_turn) lines.push("This is an extra turn (a Replay was discarded).");
  if (view.extra_turn_earned) lines.push(`${who(view.active_player, ctx)} plays again after this turn (Replay).`);
  if (view.round_end_triggered_by && view.active_player) {
    const last = (view.last_turns || []).map((p) => who(p, ctx));
    lines.push(`${who(view.round_end_triggered_by, ctx)} completed the grid: the round ends${
      last.length ? ` after the last turns of ${last.join(", ")}` : " with this turn"}.`);
  }
  if (view.one_colour_winner) lines.push(`${who(view.one_colour_winner, ctx)} completed a one-colour grid and wins!`);
  return lines.length ? h("ul", { class: "notes" }, lines.map((l) => h("li", {}, l))) : null;
}

export function renderBoard(view, ctx) {
  if (!view.grids) return board("dozito", turnLine(view, ctx), h("p", {}, "The game has not started."));
  const moves = new Moves(view, ctx);
  const players = Object.keys(view.grids);
  const me = players.includes(view.you) ? view.you : null;
  const others = players.filter((p) => p !== me);
  const step = PHASES[view.phase];
  const mine = view.active_player && view.active_player === view.you && ctx.interactive;
  const what = !step || !view.active_player ? "" : mine ? step[0] : `${view.active_player} ${step[1]}`;
  const main = [piles(view, moves), me ? grid(view, ctx, moves, me) : null];
  return board("dozito",
    turnLine(view, ctx, `Round ${view.round} of ${view.rounds}. ${what}`),
    resultPanel(view, ctx),
    notes(view, ctx),
    h("div", { class: "main" }, main),
    moves.rest(describe),
    h("div", { class: "others" }, others.map((p) => grid(view, ctx, moves, p))),
    scores(view, ctx));
}

/** A seat's standing in the players' panel: its total so far. */
export function standing(view, player) {
  const total = (view.totals || {})[player];
  return total === undefined ? null : `${total} point${total === 1 ? "" : "s"}`;
}

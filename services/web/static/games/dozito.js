// The Dozito board: every player's 4x3 grid of cards (face-down ones as backs), the draw pile,
// the two discard piles and the card in hand; the turn's moves are the piles and the slots.
import { addFrench, plural, t } from "../i18n.js";
import { Moves, board, h, resultPanel, turnLine, who } from "./kit.js";

// The French of the texts below, in the words of the French rules (pioche, défausse,
// emplacement, face cachée / face visible, carte Rejouer, manche).
addFrench({
  "Click a discard pile to take its top card, or the draw pile to draw.":
    "Cliquez sur une pile de défausse pour en prendre la première carte, ou sur la pioche pour piocher.",
  "{player} takes a discard pile's top card or draws a card.":
    "{player} prend la première carte d'une pile de défausse ou pioche une carte.",
  "Place the card taken from a discard pile: click a slot of your grid.":
    "Placez la carte prise sur une pile de défausse : cliquez sur un emplacement de votre grille.",
  "{player} must place the card taken from a discard pile.":
    "{player} doit placer la carte prise sur une pile de défausse.",
  "Click a slot of your grid to place the card in hand, or a discard pile to discard it.":
    "Cliquez sur un emplacement de votre grille pour y placer la carte en main, ou sur une pile de défausse pour la défausser.",
  "{player} places the card in hand, or discards it.": "{player} place la carte en main, ou la défausse.",
  "Click a discard pile to discard the card in hand.": "Cliquez sur une pile de défausse pour y défausser la carte en main.",
  "{player} must discard the card in hand.": "{player} doit défausser la carte en main.",
  STOP: "STOP",
  REPLAY: "REJOUER",
  JOKER: "JOKER",
  "Red {number}": "{number} rouge",
  "Blue {number}": "{number} bleu",
  "Green {number}": "{number} vert",
  "Yellow {number}": "{number} jaune",
  "Purple {number}": "{number} violet",
  "Red Joker": "Joker rouge",
  "Blue Joker": "Joker bleu",
  "Green Joker": "Joker vert",
  "Yellow Joker": "Joker jaune",
  "Purple Joker": "Joker violet",
  "slot {slot}, face down": "emplacement {slot}, face cachée",
  "face-down card": "carte face cachée",
  "{n} sun": "{n} soleil",
  "{n} suns": "{n} soleils",
  "Take from discard pile {pile}": "Prendre sur la défausse {pile}",
  "Draw a card": "Piocher une carte",
  "Place in slot {slot}": "Placer à l'emplacement {slot}",
  "Discard onto pile {pile}": "Défausser sur la pile {pile}",
  "{player}'s grid": "Grille de {player}",
  "Your grid": "Votre grille",
  " · playing": " · joue",
  " · total {total}": " · total {total}",
  "Draw pile · {n}": "Pioche · {n}",
  empty: "vide",
  "Discard {n} · {size}": "Défausse {n} · {size}",
  "In hand": "En main",
  "In hand (from discard)": "En main (de la défausse)",
  "In hand (from draw)": "En main (de la pioche)",
  "In hand (from grid)": "En main (de la grille)",
  Piles: "Pioche et défausses",
  Scores: "Scores",
  Player: "Joueur",
  "Round {n}": "Manche {n}",
  Total: "Total",
  "This is an extra turn (a Replay was discarded).": "C'est un tour supplémentaire (une carte Rejouer a été défaussée).",
  "{player} plays again after this turn (Replay).": "{player} rejoue après ce tour (carte Rejouer).",
  "{player} completed the grid: the round ends after the last turns of {players}.":
    "{player} a retourné toute sa grille : la manche se termine après le dernier tour de {players}.",
  "{player} completed the grid: the round ends with this turn.":
    "{player} a retourné toute sa grille : la manche se termine avec ce tour.",
  "{player} completed a one-colour grid and wins!": "{player} a complété une grille d'une seule couleur et gagne !",
  "The game has not started.": "La partie n'a pas commencé.",
  "Round {round} of {rounds}.": "Manche {round} sur {rounds}.",
  "{n} point": "{n} point",
  "{n} points": "{n} points",
});

// What the step of the turn asks: said to the player, and about them to everyone else.
const PHASES = {
  turn_start: ["Click a discard pile to take its top card, or the draw pile to draw.", "{player} takes a discard pile's top card or draws a card."],
  must_place: ["Place the card taken from a discard pile: click a slot of your grid.", "{player} must place the card taken from a discard pile."],
  place_or_discard: ["Click a slot of your grid to place the card in hand, or a discard pile to discard it.", "{player} places the card in hand, or discards it."],
  must_discard: ["Click a discard pile to discard the card in hand.", "{player} must discard the card in hand."],
};

const KIND_BADGE = { stop: "STOP", replay: "REPLAY", joker: "JOKER" };

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// A card's name: "Red 7", "Red 3 STOP", "Blue Joker", in the page's language.
function cardName(c) {
  if (c.number === null) return t(`${cap(c.colour)} Joker`);
  const name = t(`${cap(c.colour)} {number}`, { number: c.number });
  return c.kind === "normal" ? name : `${name} ${t(KIND_BADGE[c.kind] || c.kind)}`;
}

/** A face-up card (colour, number, kind, suns), or a card back. */
function card(c, { slot = null } = {}) {
  if (!c) {
    return h("div", { class: "dz back", role: "img", "aria-label": slot ? t("slot {slot}, face down", { slot }) : t("face-down card") },
      slot ? h("span", { class: "dz-slot" }, String(slot)) : null);
  }
  return h("div", { class: `dz c-${c.colour} k-${c.kind}`, "data-card": c.id, role: "img", "aria-label": cardName(c) },
    h("span", { class: "dz-num" }, c.number === null ? "★" : String(c.number)),
    c.kind !== "normal" ? h("span", { class: "dz-kind" }, t(KIND_BADGE[c.kind] || c.kind)) : null,
    c.suns ? h("span", { class: "dz-suns", title: plural("{n} sun", "{n} suns", c.suns) }, "☀".repeat(c.suns)) : null);
}

function describe(c) {
  switch (c.type) {
    case "take_discard": return t("Take from discard pile {pile}", { pile: c.pile + 1 });
    case "draw_card": return t("Draw a card");
    case "place_card": return t("Place in slot {slot}", { slot: c.slot });
    case "discard_card": return t("Discard onto pile {pile}", { pile: c.pile + 1 });
    default: return JSON.stringify(c);
  }
}

function grid(view, ctx, moves, player) {
  const cells = view.grids[player];
  const columns = (view.grid_size || {}).columns || 4;
  const mine = player === view.you;
  const active = view.active_player === player;
  const total = (view.totals || {})[player];
  return h("section", { class: `panel grid${mine ? " mine" : ""}${active ? " active" : ""}`, "aria-label": t("{player}'s grid", { player }) },
    h("h3", {}, mine ? t("Your grid") : t("{player}'s grid", { player: who(player, ctx) }),
      active ? h("span", { class: "to-play" }, t(" · playing")) : null,
      total !== undefined ? h("span", { class: "total" }, t(" · total {total}", { total })) : null),
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
      { label: draw ? t("Draw a card") : null }),
    h("span", { class: "pile-name" }, t("Draw pile · {n}", { n: view.draw_size })));
  const discards = view.discards.map((pile, i) => {
    const command = moves.one("take_discard", { pile: i }) || moves.one("discard_card", { pile: i });
    const face = pile.top ? card(pile.top) : h("div", { class: "dz empty" }, t("empty"));
    return h("div", { class: "pile" },
      moves.wrap(command, face, { label: command ? describe(command) : null }),
      h("span", { class: "pile-name" }, t("Discard {n} · {size}", { n: i + 1, size: pile.size })));
  });
  const hand = view.hand ? h("div", { class: "pile in-hand" }, card(view.hand),
    h("span", { class: "pile-name" }, t(view.hand_from ? `In hand (from ${view.hand_from})` : "In hand"))) : null;
  return h("section", { class: "panel table-centre", "aria-label": t("Piles") },
    h("div", { class: "piles" }, drawPile, discards, hand));
}

function scores(view, ctx) {
  const players = Object.keys(view.round_scores || {});
  if (!players.length || !players.some((p) => view.round_scores[p].length)) return null;
  const rounds = Math.max(...players.map((p) => view.round_scores[p].length));
  return h("section", { class: "panel" }, h("h3", {}, t("Scores")),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Player")),
        Array.from({ length: rounds }, (_, r) => h("th", {}, t("Round {n}", { n: r + 1 }))), h("th", {}, t("Total")))),
      h("tbody", {}, players.map((p) => h("tr", {}, h("td", {}, who(p, ctx)),
        view.round_scores[p].map((s) => h("td", {}, String(s))), h("td", {}, h("strong", {}, String(view.totals[p] ?? ""))))))));
}

function notes(view, ctx) {
  const lines = [];
  if (view.extra_turn) lines.push(t("This is an extra turn (a Replay was discarded)."));
  if (view.extra_turn_earned) lines.push(t("{player} plays again after this turn (Replay).", { player: who(view.active_player, ctx) }));
  if (view.round_end_triggered_by && view.active_player) {
    const last = (view.last_turns || []).map((p) => who(p, ctx));
    const player = who(view.round_end_triggered_by, ctx);
    lines.push(last.length
      ? t("{player} completed the grid: the round ends after the last turns of {players}.", { player, players: last.join(", ") })
      : t("{player} completed the grid: the round ends with this turn.", { player }));
  }
  if (view.one_colour_winner) lines.push(t("{player} completed a one-colour grid and wins!", { player: who(view.one_colour_winner, ctx) }));
  return lines.length ? h("ul", { class: "notes" }, lines.map((l) => h("li", {}, l))) : null;
}

export function renderBoard(view, ctx) {
  if (!view.grids) return board("dozito", turnLine(view, ctx), h("p", {}, t("The game has not started.")));
  const moves = new Moves(view, ctx);
  const players = Object.keys(view.grids);
  const me = players.includes(view.you) ? view.you : null;
  const others = players.filter((p) => p !== me);
  const step = PHASES[view.phase];
  const mine = view.active_player && view.active_player === view.you && ctx.interactive;
  const what = !step || !view.active_player ? "" : mine ? t(step[0]) : t(step[1], { player: view.active_player });
  const main = [piles(view, moves), me ? grid(view, ctx, moves, me) : null];
  return board("dozito",
    turnLine(view, ctx, `${t("Round {round} of {rounds}.", { round: view.round, rounds: view.rounds })} ${what}`),
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
  return total === undefined ? null : plural("{n} point", "{n} points", total);
}

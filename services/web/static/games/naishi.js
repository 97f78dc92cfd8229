// The Naishi board: both territories (Line over Hand), the River's five piles, the Imperial
// Court, and the actions of the turn as buttons on the cards they move.
import { Moves, board, h, resultPanel, turnLine, who } from "./kit.js";

const KINDS = {
  mountain: { name: "Mountain", family: "mountain" },
  naishi: { name: "Naishi", family: "character" },
  councillor: { name: "Councillor", family: "character" },
  fort: { name: "Fort", family: "province" },
  sentinel: { name: "Sentinel", family: "character" },
  torii: { name: "Torii", family: "province" },
  monk: { name: "Monk", family: "character" },
  rice: { name: "Rice field", family: "province" },
  banner: { name: "Banner", family: "province" },
  knight: { name: "Knight", family: "character" },
  ronin: { name: "Ronin", family: "character" },
  ninja: { name: "Ninja", family: "character" },
};
const ROW_NAMES = { line: "Line", hand: "Hand" };
const SPOTS = [
  ["swap_1", "Swap"], ["swap_2", "Swap"], ["swap_3", "Swap"],
  ["discard_1", "Discard"], ["discard_2", "Discard"], ["decree", "Decree"],
];

const kindOf = (card) => card.replace(/_\d+$/, "");
const kindName = (kind) => (KINDS[kind] || { name: kind }).name;
const cell = (row, position) => `${ROW_NAMES[row]} ${position}`;

/** A face-up card, or a card back for a hidden one (null). */
function card(id, { note = null } = {}) {
  if (!id) {
    return h("div", { class: "nc back", role: "img", "aria-label": "hidden card" },
      h("span", { class: "nc-back-mark" }, "?"));
  }
  const kind = kindOf(id);
  const family = (KINDS[kind] || {}).family || "character";
  return h("div", { class: `nc kind-${kind} fam-${family}`, "data-card": id },
    h("span", { class: "nc-icon", "aria-hidden": "true" }),
    h("span", { class: "nc-name" }, kindName(kind)),
    note ? h("span", { class: "nc-note" }, note) : null);
}

function emptySlot(text) {
  return h("div", { class: "nc empty" }, h("span", { class: "nc-name" }, text));
}

function describe(c) {
  switch (c.type) {
    case "give_card": return `Give ${kindName(kindOf(c.card))}`;
    case "develop": return `Develop ${cell(c.row, c.position)}`;
    case "impose_decree": return `Decree on ${cell(c.row, c.position)}`;
    case "swap_cards":
      if (c.kind === "hand_line") return `Swap Hand and Line ${c.first}`;
      return `Swap ${c.kind === "river" ? "River piles" : ROW_NAMES[c.kind]} ${c.first} and ${c.second}`;
    case "discard_river_cards": return `Discard River ${c.first} and ${c.second}`;
    case "recall_emissaries": return "Recall Emissaries";
    case "declare_end": return "Declare the end";
    case "end_turn": return "End turn (skip the bonus)";
    case "choose_ninja_copy": return `Ninja at ${cell(c.row, c.position)} copies ${kindName(c.copies)}`;
    default: return JSON.stringify(c);
  }
}

function territory(view, ctx, moves, player) {
  const t = view.territories[player];
  const mine = player === view.you;
  const scored = view.scores && view.scores[player] ? view.scores[player].by_cell || {} : {};
  const row = (rowName) => h("div", { class: "nc-row" },
    h("span", { class: "row-name" }, ROW_NAMES[rowName]),
    t[rowName].map((id, i) => {
      const position = i + 1;
      const points = scored[`${rowName}:${position}`];
      // A card of the opponent's hidden Hand that the seat saw go in (perfect memory).
      const seen = !mine && rowName === "hand" && id && view.phase !== "end";
      const drawn = card(id, { note: points !== undefined ? `${points} pts` : seen ? "seen" : null });
      const develop = mine ? moves.one("develop", { row: rowName, position }) : undefined;
      const labelled = develop ? `Develop ${cell(rowName, position)}: take River pile ${position}'s card` : null;
      return h("div", { class: "nc-slot" }, moves.wrap(develop, drawn, { label: labelled }),
        h("span", { class: "pos" }, String(position)));
    }));
  const unplaced = t.hand_known_unplaced || [];
  const copies = (view.ninja_copies || {})[player] || {};
  return h("section", { class: `panel territory${mine ? " mine" : ""}`, "aria-label": `${player}'s territory` },
    h("h3", {}, mine ? "Your territory" : `${who(player, ctx)}'s territory`,
      h("span", { class: "reserve" }, ` · Emissaries in reserve: ${t.reserve}`),
      view.active_player === player ? h("span", { class: "to-play" }, " · to play") : null),
    row("line"), row("hand"),
    unplaced.length ? h("p", { class: "note" }, "In this Hand, position unknown: ",
      unplaced.map((id) => h("span", { class: "known", "data-card": id }, kindName(kindOf(id)))), ".") : null,
    Object.keys(copies).length ? h("p", { class: "note" }, "Ninja copies: ",
      Object.entries(copies).map(([at, kind]) => `${at.replace(":", " ")} → ${kind ? kindName(kind) : "nothing"}`).join(", ")) : null,
    view.scores && view.scores[player] ? scoreLine(view.scores[player]) : null);
}

function scoreLine(score) {
  const parts = Object.entries(score.by_kind || {}).filter(([, p]) => p !== 0)
    .map(([kind, p]) => `${kindName(kind)} ${p > 0 ? "+" : ""}${p}`);
  return h("p", { class: "score-line" }, h("strong", {}, `${score.total} points`),
    ` (${parts.join(", ")}; ${score.colours} colours)`);
}

function river(view) {
  return h("section", { class: "panel river", "aria-label": "River" },
    h("h3", {}, "River"),
    h("div", { class: "nc-row" }, view.river.map((pile, i) => h("div", { class: "nc-slot" },
      pile.top ? card(pile.top) : emptySlot("empty"),
      h("span", { class: "pos" }, String(i + 1)),
      h("span", { class: "pile-size" }, `${pile.size} card${pile.size === 1 ? "" : "s"}`)))),
    view.discard.length ? h("p", { class: "note" }, `Discard (${view.discard.length}), newest first: `,
      view.discard.slice(-5).reverse().map((id) => h("span", { class: "known", "data-card": id }, kindName(kindOf(id)))),
      view.discard.length > 5 ? " …" : "") : null);
}

function court(view, ctx) {
  return h("section", { class: "panel court", "aria-label": "Imperial Court" },
    h("h3", {}, "Imperial Court"),
    h("div", { class: "spots" }, SPOTS.map(([spot, action]) => {
      const holder = view.court[spot];
      return h("div", { class: `spot${holder ? " taken" : ""}` },
        h("span", { class: "spot-name" }, action),
        h("span", { class: `emissary${holder === view.you && holder ? " own" : ""}` },
          holder ? who(holder, ctx) : "free"));
    })),
    view.end_triggered ? h("p", { class: "note" }, view.end_reason === "declared" ? "The end was declared" :
      "Two River piles are empty", view.final_player ? `: ${who(view.final_player, ctx)} plays the last turn.` : ".") : null);
}

function group(moves, title, commands, open = false) {
  if (!commands.length) return null;
  return h("details", { class: "more", open },
    h("summary", {}, `${title} (${commands.length})`),
    h("div", { class: "moves" }, commands.map((c) => moves.button(c, describe(c), { className: "cmd-text" }))));
}

function actions(view, moves) {
  const left = moves.legal.filter((c) => !moves.placed.has(c));
  const develops = moves.find("develop");
  if (!left.length && !develops.length) return null;
  const main = ["recall_emissaries", "declare_end", "end_turn"].flatMap((t) => moves.find(t));
  const ninja = moves.find("choose_ninja_copy");
  return h("section", { class: "panel actions", "aria-label": "Your actions" },
    h("h3", {}, view.phase === "end" ? "Choose what your Ninja copies" : "Your actions"),
    develops.length ? h("p", { class: "hint" },
      "Develop: click a card of your territory; the top card of the River pile at the same position takes its place.") : null,
    ninja.length ? h("div", { class: "moves" }, ninja.map((c) => moves.button(c, describe(c), { className: "cmd-text" }))) : null,
    main.length ? h("div", { class: "moves" }, main.map((c) => moves.button(c, describe(c), { className: "cmd-text" }))) : null,
    view.developed ? h("p", { class: "hint" }, "You developed: take a bonus action or end your turn.") : null,
    group(moves, "Bonus: swap two cards", moves.find("swap_cards"), view.developed),
    group(moves, "Bonus: discard two River cards", moves.find("discard_river_cards"), view.developed),
    group(moves, "Impose the Decree (once per game)", moves.find("impose_decree")),
    moves.rest(describe));
}

/** What the seat to act does now, in a few words, for the line above the board. */
function whatToDo(view, moves) {
  if (moves.find("give_card").length) return "click one of your 2 Development cards to give it.";
  if (moves.find("choose_ninja_copy").length) return "choose what your Ninja copies.";
  if (view.developed) return "take a bonus action below, or end your turn.";
  if (moves.find("develop").length) return "click a card of your territory (below) to develop it, or take another action.";
  return "choose an action below.";
}

function exchangeInfo(view, ctx, moves) {
  if (view.phase !== "exchange") return null;
  const given = view.exchange_given || [];
  const giving = moves.find("give_card").length > 0;
  return h("section", { class: `panel exchange${giving ? " mine" : ""}` },
    h("h3", {}, "Opening exchange"),
    view.my_cards ? h("div", {},
      h("h4", {}, giving ? "Your 5 cards: click one of your 2 Development cards to give it to your opponent"
        : "Your 5 cards (shuffled into your Hand once both have given)"),
      h("div", { class: "nc-row" }, view.my_cards.map((id) => {
        const give = moves.one("give_card", { card: id });
        return h("div", { class: "nc-slot" }, moves.wrap(give, card(id), { label: give ? describe(give) : null }));
      }))) : null,
    view.my_gift ? h("p", { class: "note" }, "You gave: ",
      h("span", { class: "known", "data-card": view.my_gift }, kindName(kindOf(view.my_gift)))) : null,
    h("p", { class: "note" }, given.length ? `Given so far: ${given.map((p) => who(p, ctx)).join(", ")}.` : "Nobody has given yet."));
}

/** Why the winner won when the scores were equal (Naishi 15: more colours, else shared). */
function tieNote(view) {
  const ranking = (view.result && view.result.ranking) || [];
  if (ranking.length < 2 || ranking[0].score !== ranking[1].score || !view.scores) return null;
  const colours = ranking.map((r) => `${r.player} ${view.scores[r.player]?.colours ?? "?"}`).join(", ");
  return h("p", { class: "note" }, `Equal scores: the number of colours decides (${colours}); still equal, the victory is shared.`);
}

export function renderBoard(view, ctx) {
  if (!view.territories) {
    return board("naishi", turnLine(view, ctx), h("p", {}, "The game has not started."));
  }
  const moves = new Moves(view, ctx);
  const me = view.players.includes(view.you) ? view.you : null;
  const others = view.players.filter((p) => p !== me);
  const phase = { exchange: "Opening exchange", turns: `Round ${view.round}, turn ${view.turn}`, end: "Final scoring" }[view.phase] || view.phase;
  const mineTerritory = me ? territory(view, ctx, moves, me) : null;
  const toDo = moves.legal.length ? whatToDo(view, moves) : "";
  return board("naishi",
    turnLine(view, ctx, toDo ? `${phase}: ${toDo}` : phase),
    resultPanel(view, ctx, tieNote(view)),
    // the opening exchange is all there is to do at first: its cards come first, in view
    view.phase === "exchange" ? exchangeInfo(view, ctx, moves) : null,
    others.map((p) => territory(view, ctx, moves, p)),
    h("div", { class: "middle" }, river(view), court(view, ctx)),
    mineTerritory,
    actions(view, moves));
}

/** A seat's standing in the players' panel: its score, once the territories are revealed. */
export function standing(view, player) {
  const score = (view.scores || {})[player];
  return score ? `${score.total} point${score.total === 1 ? "" : "s"}` : null;
}

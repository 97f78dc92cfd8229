// The Naishi board: both territories (Line over Hand), the River's five piles, the Imperial
// Court, and the actions of the turn as buttons on the cards they move.
import { t, addFrench, plural } from "../i18n.js";
import { Moves, board, h, resultPanel, turnLine, who } from "./kit.js";

// The French of the board's texts: the words of the French rules (BGA's help page).
addFrench({
  // cards, rows, Court spots
  "Mountain": "Montagne",
  "Naishi": "Naishi",
  "Councillor": "Conseiller",
  "Fort": "Fortin",
  "Sentinel": "Sentinelle",
  "Torii": "Torii",
  "Monk": "Moine",
  "Rice field": "Champ de riz",
  "Banner": "Bannière",
  "Knight": "Cavalier",
  "Ronin": "Ronin",
  "Ninja": "Ninja",
  "Line": "Ligne",
  "Hand": "Main",
  "line": "Ligne",
  "hand": "Main",
  "Swap": "Échange",
  "Discard": "Défausse",
  "Decree": "Décret",
  "hidden card": "carte cachée",
  // the moves
  "Give {card}": "Donner {card}",
  "Develop {cell}": "Développer {cell}",
  "Decree on {cell}": "Décret sur {cell}",
  "Swap Hand and Line {n}": "Échanger Main et Ligne {n}",
  "Swap River piles {a} and {b}": "Échanger les piles {a} et {b} de la Rivière",
  "Swap {row} {a} and {b}": "Échanger {row} {a} et {b}",
  "Discard River {a} and {b}": "Défausser les piles {a} et {b} de la Rivière",
  "Recall Emissaries": "Rappeler vos Émissaires",
  "Declare the end": "Déclarer la fin de partie",
  "End turn (skip the bonus)": "Terminer le tour (sans action bonus)",
  "Ninja at {cell} copies {kind}": "Ninja en {cell} : copier {kind}",
  // the territories
  "{points} pts": "{points} PV",
  "seen": "vue",
  "Develop {cell}: take River pile {position}'s card":
    "Développer {cell} : prendre la carte de la pile {position} de la Rivière",
  "{player}'s territory": "Territoire de {player}",
  "Your territory": "Votre territoire",
  "Emissaries in reserve: {n}": "Émissaires en réserve : {n}",
  "to play": "à jouer",
  "In this Hand, position unknown: ": "Dans cette Main, position inconnue : ",
  "Ninja copies: ": "Copies des Ninjas : ",
  "nothing": "rien",
  "{n} points": "{n} points",
  " ({parts}; {n} colours)": " ({parts} ; {n} couleurs)",
  // the River and the Court
  "River": "Rivière",
  "empty": "vide",
  "{n} card": "{n} carte",
  "{n} cards": "{n} cartes",
  "Discard ({n}), newest first: ": "Défausse ({n}), la plus récente d'abord : ",
  "Imperial Court": "Cour impériale",
  "free": "libre",
  "The end was declared": "La fin de partie a été déclarée",
  "Two River piles are empty": "Deux piles de la Rivière sont vides",
  ": {player} plays the last turn.": " : {player} joue le dernier tour.",
  // the actions
  "Your actions": "Vos actions",
  "Choose what your Ninja copies": "Choisissez ce que copie votre Ninja",
  "Develop: click a card of your territory; the top card of the River pile at the same position takes its place.":
    "Développer : cliquez sur une carte de votre territoire ; la carte visible de la pile de la Rivière à la même position prend sa place.",
  "You developed: take a bonus action or end your turn.":
    "Vous avez développé : effectuez une action bonus ou terminez votre tour.",
  "Bonus: swap two cards": "Bonus : échanger deux cartes",
  "Bonus: discard two River cards": "Bonus : défausser deux cartes de la Rivière",
  "Impose the Decree (once per game)": "Imposer le Décret impérial (une fois par partie)",
  "click one of your 2 Development cards to give it.":
    "cliquez sur l'une de vos 2 cartes Développement pour la donner.",
  "choose what your Ninja copies.": "choisissez ce que copie votre Ninja.",
  "take a bonus action below, or end your turn.": "effectuez une action bonus ci-dessous, ou terminez votre tour.",
  "click a card of your territory (below) to develop it, or take another action.":
    "cliquez sur une carte de votre territoire (ci-dessous) pour la développer, ou choisissez une autre action.",
  "choose an action below.": "choisissez une action ci-dessous.",
  // the opening exchange, the end
  "Opening exchange": "Échange de début de partie",
  "Your 5 cards: click one of your 2 Development cards to give it to your opponent":
    "Vos 5 cartes : cliquez sur l'une de vos 2 cartes Développement pour la donner à votre adversaire",
  "Your 5 cards (shuffled into your Hand once both have given)":
    "Vos 5 cartes (placées au hasard dans votre Main une fois que les deux joueurs ont donné)",
  "You gave: ": "Vous avez donné : ",
  "Given so far: {players}.": "Déjà donné : {players}.",
  "Nobody has given yet.": "Personne n'a encore donné.",
  "Equal scores: the number of colours decides ({colours}); still equal, the victory is shared.":
    "Égalité : le nombre de couleurs départage ({colours}) ; en cas de nouvelle égalité, la victoire est partagée.",
  "The game has not started.": "La partie n'a pas commencé.",
  "Round {round}, turn {turn}": "Tour de table {round}, tour {turn}",
  "Final scoring": "Décompte final",
  "{phase}: {todo}": "{phase} : {todo}",
  "{n} point": "{n} point",
});

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
const kindName = (kind) => (KINDS[kind] ? t(KINDS[kind].name) : kind);
const rowName = (row) => (ROW_NAMES[row] ? t(ROW_NAMES[row]) : ROW_NAMES[row]);
const cell = (row, position) => `${rowName(row)} ${position}`;

/** A face-up card, or a card back for a hidden one (null). */
function card(id, { note = null } = {}) {
  if (!id) {
    return h("div", { class: "nc back", role: "img", "aria-label": t("hidden card") },
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
    case "give_card": return t("Give {card}", { card: kindName(kindOf(c.card)) });
    case "develop": return t("Develop {cell}", { cell: cell(c.row, c.position) });
    case "impose_decree": return t("Decree on {cell}", { cell: cell(c.row, c.position) });
    case "swap_cards":
      if (c.kind === "hand_line") return t("Swap Hand and Line {n}", { n: c.first });
      if (c.kind === "river") return t("Swap River piles {a} and {b}", { a: c.first, b: c.second });
      return t("Swap {row} {a} and {b}", { row: rowName(c.kind), a: c.first, b: c.second });
    case "discard_river_cards": return t("Discard River {a} and {b}", { a: c.first, b: c.second });
    case "recall_emissaries": return t("Recall Emissaries");
    case "declare_end": return t("Declare the end");
    case "end_turn": return t("End turn (skip the bonus)");
    case "choose_ninja_copy":
      return t("Ninja at {cell} copies {kind}", { cell: cell(c.row, c.position), kind: kindName(c.copies) });
    default: return JSON.stringify(c);
  }
}

function territory(view, ctx, moves, player) {
  const land = view.territories[player];
  const mine = player === view.you;
  const scored = view.scores && view.scores[player] ? view.scores[player].by_cell || {} : {};
  const row = (name) => h("div", { class: "nc-row" },
    h("span", { class: "row-name" }, rowName(name)),
    land[name].map((id, i) => {
      const position = i + 1;
      const points = scored[`${name}:${position}`];
      // A card of the opponent's hidden Hand that the seat saw go in (perfect memory).
      const seen = !mine && name === "hand" && id && view.phase !== "end";
      const drawn = card(id, { note: points !== undefined ? t("{points} pts", { points }) : seen ? t("seen") : null });
      const develop = mine ? moves.one("develop", { row: name, position }) : undefined;
      const labelled = develop
        ? t("Develop {cell}: take River pile {position}'s card", { cell: cell(name, position), position }) : null;
      return h("div", { class: "nc-slot" }, moves.wrap(develop, drawn, { label: labelled }),
        h("span", { class: "pos" }, String(position)));
    }));
  const unplaced = land.hand_known_unplaced || [];
  const copies = (view.ninja_copies || {})[player] || {};
  return h("section", { class: `panel territory${mine ? " mine" : ""}`, "aria-label": t("{player}'s territory", { player }) },
    h("h3", {}, mine ? t("Your territory") : t("{player}'s territory", { player: who(player, ctx) }),
      h("span", { class: "reserve" }, ` · ${t("Emissaries in reserve: {n}", { n: land.reserve })}`),
      view.active_player === player ? h("span", { class: "to-play" }, ` · ${t("to play")}`) : null),
    row("line"), row("hand"),
    unplaced.length ? h("p", { class: "note" }, t("In this Hand, position unknown: "),
      unplaced.map((id) => h("span", { class: "known", "data-card": id }, kindName(kindOf(id)))), ".") : null,
    Object.keys(copies).length ? h("p", { class: "note" }, t("Ninja copies: "),
      Object.entries(copies).map(([at, kind]) => {
        const [where, position] = at.split(":");
        return `${t(where)} ${position} → ${kind ? kindName(kind) : t("nothing")}`;
      }).join(", ")) : null,
    view.scores && view.scores[player] ? scoreLine(view.scores[player]) : null);
}

function scoreLine(score) {
  const parts = Object.entries(score.by_kind || {}).filter(([, p]) => p !== 0)
    .map(([kind, p]) => `${kindName(kind)} ${p > 0 ? "+" : ""}${p}`);
  return h("p", { class: "score-line" }, h("strong", {}, t("{n} points", { n: score.total })),
    t(" ({parts}; {n} colours)", { parts: parts.join(", "), n: score.colours }));
}

function river(view) {
  return h("section", { class: "panel river", "aria-label": t("River") },
    h("h3", {}, t("River")),
    h("div", { class: "nc-row" }, view.river.map((pile, i) => h("div", { class: "nc-slot" },
      pile.top ? card(pile.top) : emptySlot(t("empty")),
      h("span", { class: "pos" }, String(i + 1)),
      h("span", { class: "pile-size" }, plural("{n} card", "{n} cards", pile.size))))),
    view.discard.length ? h("p", { class: "note" }, t("Discard ({n}), newest first: ", { n: view.discard.length }),
      view.discard.slice(-5).reverse().map((id) => h("span", { class: "known", "data-card": id }, kindName(kindOf(id)))),
      view.discard.length > 5 ? " …" : "") : null);
}

function court(view, ctx) {
  return h("section", { class: "panel court", "aria-label": t("Imperial Court") },
    h("h3", {}, t("Imperial Court")),
    h("div", { class: "spots" }, SPOTS.map(([spot, action]) => {
      const holder = view.court[spot];
      return h("div", { class: `spot${holder ? " taken" : ""}` },
        h("span", { class: "spot-name" }, t(action)),
        h("span", { class: `emissary${holder === view.you && holder ? " own" : ""}` },
          holder ? who(holder, ctx) : t("free")));
    })),
    view.end_triggered ? h("p", { class: "note" }, view.end_reason === "declared" ? t("The end was declared") :
      t("Two River piles are empty"),
    view.final_player ? t(": {player} plays the last turn.", { player: who(view.final_player, ctx) }) : ".") : null);
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
  const main = ["recall_emissaries", "declare_end", "end_turn"].flatMap((type) => moves.find(type));
  const ninja = moves.find("choose_ninja_copy");
  return h("section", { class: "panel actions", "aria-label": t("Your actions") },
    h("h3", {}, view.phase === "end" ? t("Choose what your Ninja copies") : t("Your actions")),
    develops.length ? h("p", { class: "hint" },
      t("Develop: click a card of your territory; the top card of the River pile at the same position takes its place.")) : null,
    ninja.length ? h("div", { class: "moves" }, ninja.map((c) => moves.button(c, describe(c), { className: "cmd-text" }))) : null,
    main.length ? h("div", { class: "moves" }, main.map((c) => moves.button(c, describe(c), { className: "cmd-text" }))) : null,
    view.developed ? h("p", { class: "hint" }, t("You developed: take a bonus action or end your turn.")) : null,
    group(moves, t("Bonus: swap two cards"), moves.find("swap_cards"), view.developed),
    group(moves, t("Bonus: discard two River cards"), moves.find("discard_river_cards"), view.developed),
    group(moves, t("Impose the Decree (once per game)"), moves.find("impose_decree")),
    moves.rest(describe));
}

/** What the seat to act does now, in a few words, for the line above the board. */
function whatToDo(view, moves) {
  if (moves.find("give_card").length) return t("click one of your 2 Development cards to give it.");
  if (moves.find("choose_ninja_copy").length) return t("choose what your Ninja copies.");
  if (view.developed) return t("take a bonus action below, or end your turn.");
  if (moves.find("develop").length) {
    return t("click a card of your territory (below) to develop it, or take another action.");
  }
  return t("choose an action below.");
}

function exchangeInfo(view, ctx, moves) {
  if (view.phase !== "exchange") return null;
  const given = view.exchange_given || [];
  const giving = moves.find("give_card").length > 0;
  return h("section", { class: `panel exchange${giving ? " mine" : ""}` },
    h("h3", {}, t("Opening exchange")),
    view.my_cards ? h("div", {},
      h("h4", {}, giving ? t("Your 5 cards: click one of your 2 Development cards to give it to your opponent")
        : t("Your 5 cards (shuffled into your Hand once both have given)")),
      h("div", { class: "nc-row" }, view.my_cards.map((id) => {
        const give = moves.one("give_card", { card: id });
        return h("div", { class: "nc-slot" }, moves.wrap(give, card(id), { label: give ? describe(give) : null }));
      }))) : null,
    view.my_gift ? h("p", { class: "note" }, t("You gave: "),
      h("span", { class: "known", "data-card": view.my_gift }, kindName(kindOf(view.my_gift)))) : null,
    h("p", { class: "note" }, given.length
      ? t("Given so far: {players}.", { players: given.map((p) => who(p, ctx)).join(", ") }) : t("Nobody has given yet.")));
}

/** Why the winner won when the scores were equal (Naishi 15: more colours, else shared). */
function tieNote(view) {
  const ranking = (view.result && view.result.ranking) || [];
  if (ranking.length < 2 || ranking[0].score !== ranking[1].score || !view.scores) return null;
  const colours = ranking.map((r) => `${r.player} ${view.scores[r.player]?.colours ?? "?"}`).join(", ");
  return h("p", { class: "note" },
    t("Equal scores: the number of colours decides ({colours}); still equal, the victory is shared.", { colours }));
}

export function renderBoard(view, ctx) {
  if (!view.territories) {
    return board("naishi", turnLine(view, ctx), h("p", {}, t("The game has not started.")));
  }
  const moves = new Moves(view, ctx);
  const me = view.players.includes(view.you) ? view.you : null;
  const others = view.players.filter((p) => p !== me);
  const phase = {
    exchange: t("Opening exchange"),
    turns: t("Round {round}, turn {turn}", { round: view.round, turn: view.turn }),
    end: t("Final scoring"),
  }[view.phase] || view.phase;
  const mineTerritory = me ? territory(view, ctx, moves, me) : null;
  const toDo = moves.legal.length ? whatToDo(view, moves) : "";
  return board("naishi",
    turnLine(view, ctx, toDo ? t("{phase}: {todo}", { phase, todo: toDo }) : phase),
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
  return score ? plural("{n} point", "{n} points", score.total) : null;
}

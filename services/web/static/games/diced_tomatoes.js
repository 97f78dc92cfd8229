// The Diced Tomatoes board: the bushel, the rolled dice with their karma tricks, and each
// gardener's three tomato tokens (plants of dice) and score track. A die that may go on a plant
// is a button on that plant.
import { t, addFrench, plural } from "../i18n.js";
import { Moves, board, h, resultPanel, turnLine, who } from "./kit.js";

addFrench({
  "a gardener filled a score track and the final round is over":
    "une piste de score a été remplie et le tour final est terminé",
  "the bushel is empty": "le panier est vide",
  "no die is left to play": "il ne reste plus aucun dé à jouer",
  "The game ended because {reason}.": "La partie s'est terminée car {reason}.",
  "red {face}": "{face} rouge",
  "black {face}": "{face} noir",
  "golden {face}": "{face} doré",
  "{colour} {face}": "{colour} {face}",
  "die {id}": "dé {id}",
  "1 red": "{n} rouge",
  "{n} red": "{n} rouges",
  "1 black": "{n} noir",
  "{n} black": "{n} noirs",
  "1 golden": "{n} doré",
  "{n} golden": "{n} dorés",
  "nothing": "rien",
  "Take {dice}": "Prendre {dice}",
  "Place {die} on {owner}'s token {n}": "Poser le {die} sur le jeton {n} de {owner}",
  "Re-roll {die}": "Relancer le {die}",
  "{by} on {die}": "{by} sur le {die}",
  "Turn {die} upside down": "Retourner le {die}",
  "Set {die} to {value}": "Changer le {die} en {value}",
  "Uproot {owner}'s plant {n}": "Arracher le plant {n} de {owner}",
  "Flip the seed of {owner}'s plant {n}": "Retourner le dé graine du plant {n} de {owner}",
  "End turn": "Terminer le tour",
  "Bushel": "Panier",
  "Take 1 dice and roll them:": "Prenez {n} dé et lancez-le :",
  "Take {n} dice and roll them:": "Prenez {n} dés et lancez-les :",
  "{move}, {cost}": "{move}, {cost}",
  "1 karma": "{n} karma",
  "{n} karma": "{n} karmas",
  "Re-roll ({cost})": "Relancer ({cost})",
  "{by} ({cost})": "{by} ({cost})",
  "Invert ({cost})": "Retourner ({cost})",
  "Set to ({cost}):": "Changer en ({cost}) :",
  "Rolled dice": "Dés lancés",
  "Your dice": "Vos dés",
  "{player}'s dice": "Dés de {player}",
  "Dice": "Dés",
  "Passed on (rolled with the next dice taken): ": "Transmis (lancés avec les prochains dés pris) : ",
  "Place a die: click it on a tomato token below.":
    "Posez un dé : cliquez dessus, sur le jeton tomate voulu ci-dessous.",
  "Karma tricks cost the number in brackets.": "Les effets de karma coûtent le nombre entre parenthèses.",
  "{player}'s garden": "Jardin de {player}",
  "Your garden": "Votre jardin",
  "playing": "en train de jouer",
  "last-player marker": "jeton de dernier joueur",
  "last player": "dernier joueur",
  "Karma {n}": "Karma {n}",
  "1 point": "{n} point",
  "{n} points": "{n} points",
  "Token {n}": "Jeton {n}",
  "value {value}": "valeur {value}",
  "empty": "vide",
  "Uproot ({cost})": "Arracher ({cost})",
  "Flip seed ({cost})": "Retourner la graine ({cost})",
  "score track": "piste de score",
  "1 harvest": "{n} récolte",
  "{n} harvests": "{n} récoltes",
  "1 match": "{n} correspondance",
  "{n} matches": "{n} correspondances",
  "won": "victoire",
  "Track {n}": "Piste {n}",
  "stars {n}": "étoiles {n}",
  "karma pairs {n}": "paires de karma {n}",
  "plant dice {n}": "dés sur les plants {n}",
  "first full track {n}": "premier 6e plant {n}",
  "The game has not started.": "La partie n'a pas commencé.",
  "Round {round}, turn {turn}.": "Manche {round}, tour {turn}.",
  "Round {round}, turn {turn}: you are choosing dice.": "Manche {round}, tour {turn} : vous choisissez vos dés.",
  "Round {round}, turn {turn}: you are placing dice.": "Manche {round}, tour {turn} : vous posez vos dés.",
  "Round {round}, turn {turn}: {player} is choosing dice.": "Manche {round}, tour {turn} : {player} choisit ses dés.",
  "Round {round}, turn {turn}: {player} is placing dice.": "Manche {round}, tour {turn} : {player} pose ses dés.",
  "Final round!": "Tour final !",
});

const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
const TRICKS = ["reroll_die", "adjust_die", "invert_die", "set_die"];
const END_REASONS = {
  final_round: "a gardener filled a score track and the final round is over",
  empty_bushel: "the bushel is empty",
  out_of_dice: "no die is left to play",
};

const DIE_NAMES = { red: "red {face}", black: "black {face}", golden: "golden {face}" };
const COLOUR_COUNTS = { red: ["1 red", "{n} red"], black: ["1 black", "{n} black"], golden: ["1 golden", "{n} golden"] };

/** A die in words: "red 4". */
const dieName = (d) => t(DIE_NAMES[d.colour] ?? "{colour} {face}", { colour: d.colour, face: d.face });

/** Some dice of one colour in words: "2 red" (in French the colour agrees with the number). */
const colourCount = (colour, n) => (COLOUR_COUNTS[colour] ? plural(...COLOUR_COUNTS[colour], n) : `${n} ${colour}`);

/** An amount of karma in words: "3 karma". */
const karmaText = (n) => plural("1 karma", "{n} karma", n);

/** A die showing `face` (pips), in its colour. */
function die(d, { small = false } = {}) {
  const cells = Array.from({ length: 9 }, (_, i) => h("span", { class: PIPS[d.face]?.includes(i + 1) ? "pip" : "" }));
  return h("span", {
    class: `die ${d.colour}${small ? " small" : ""}`, role: "img",
    "aria-label": dieName(d), "data-die": d.die,
  }, cells);
}

const dieText = (view, id) => {
  const d = [...view.hand, ...view.passed].find((x) => x.die === id);
  return d ? dieName(d) : t("die {id}", { id });
};

function describe(view, c) {
  switch (c.type) {
    case "take_dice": return t("Take {dice}", { dice: mix(c) });
    case "place_die": return t("Place {die} on {owner}'s token {n}", { die: dieText(view, c.die), owner: c.owner, n: c.token + 1 });
    case "reroll_die": return t("Re-roll {die}", { die: dieText(view, c.die) });
    case "adjust_die": return t("{by} on {die}", { by: c.by > 0 ? "+1" : "−1", die: dieText(view, c.die) });
    case "invert_die": return t("Turn {die} upside down", { die: dieText(view, c.die) });
    case "set_die": return t("Set {die} to {value}", { die: dieText(view, c.die), value: c.value });
    case "uproot_plant": return t("Uproot {owner}'s plant {n}", { owner: c.owner, n: c.token + 1 });
    case "flip_seed": return t("Flip the seed of {owner}'s plant {n}", { owner: c.owner, n: c.token + 1 });
    case "end_turn": return t("End turn");
    default: return JSON.stringify(c);
  }
}

function mix(c) {
  return ["red", "black", "golden"].filter((k) => c[k]).map((k) => colourCount(k, c[k])).join(" + ") || t("nothing");
}

function bushel(view, moves) {
  const takes = moves.find("take_dice");
  return h("section", { class: "panel bushel", "aria-label": t("Bushel") },
    h("h3", {}, t("Bushel")),
    h("p", { class: "counts" }, ["red", "black", "golden"].filter((k) => view.bushel[k] || (k === "golden" && view.options?.golden_sun)).map((k) =>
      h("span", { class: "count" }, die({ die: `bushel-${k}`, colour: k, face: 6 }, { small: true }), ` ${colourCount(k, view.bushel[k])}`))),
    takes.length ? h("div", {},
      h("p", { class: "hint" }, plural("Take 1 dice and roll them:", "Take {n} dice and roll them:", view.dice_to_take)),
      h("div", { class: "moves" }, takes.map((c) => moves.button(c,
        [h("span", { class: "mini-dice" }, ["red", "black", "golden"].flatMap((k) =>
          Array.from({ length: c[k] || 0 }, () => h("span", { class: `swatch ${k}` })))), ` ${mix(c)}`],
        { className: "cmd-text", label: describe(view, c) })))) : null);
}

function rolled(view, ctx, moves) {
  const dice = view.hand || [];
  const passed = view.passed || [];
  if (!dice.length && !passed.length) return null;
  const costs = view.karma_costs || {};
  const hasTricks = (d) => TRICKS.some((type) => moves.find(type, { die: d.die }).length);
  const trick = (c, text, cost) => moves.button(c, text,
    { className: "cmd-text small", label: t("{move}, {cost}", { move: describe(view, c), cost: karmaText(cost) }) });
  const tricks = (d) => {
    if (!hasTricks(d)) return null;
    const sets = moves.find("set_die", { die: d.die });
    return h("div", { class: "tricks" },
      moves.find("reroll_die", { die: d.die }).map((c) => trick(c, t("Re-roll ({cost})", { cost: costs.reroll }), costs.reroll)),
      moves.find("adjust_die", { die: d.die }).map((c) => trick(c, t("{by} ({cost})", { by: c.by > 0 ? "+1" : "−1", cost: costs.adjust }), costs.adjust)),
      moves.find("invert_die", { die: d.die }).map((c) => trick(c, t("Invert ({cost})", { cost: costs.invert }), costs.invert)),
      sets.length ? h("span", { class: "set-to" }, t("Set to ({cost}):", { cost: costs.set }),
        sets.map((c) => trick(c, die({ die: `set-${c.die}-${c.value}`, colour: d.colour, face: c.value }, { small: true }), costs.set))) : null);
  };
  return h("section", { class: "panel rolled", "aria-label": t("Rolled dice") },
    h("h3", {}, view.active_player === view.you && view.you ? t("Your dice")
      : view.active_player ? t("{player}'s dice", { player: view.active_player }) : t("Dice")),
    dice.length ? h("div", { class: "hand" }, dice.map((d) => h("div", { class: "hand-die" }, die(d), tricks(d)))) : null,
    passed.length ? h("p", { class: "note" }, t("Passed on (rolled with the next dice taken): "),
      passed.map((d) => die(d, { small: true }))) : null,
    dice.length && moves.find("place_die").length ? h("p", { class: "hint" },
      t("Place a die: click it on a tomato token below."),
      dice.some(hasTricks) ? ` ${t("Karma tricks cost the number in brackets.")}` : "") : null);
}

function gardener(view, ctx, moves, player) {
  const mine = player === view.you;
  const active = view.active_player === player;
  const score = (view.scores || {})[player];
  const track = (view.tracks || {})[player] || [];
  return h("section", { class: `panel gardener${mine ? " mine" : ""}${active ? " active" : ""}`, "aria-label": t("{player}'s garden", { player }) },
    h("h3", {}, mine ? t("Your garden") : t("{player}'s garden", { player: who(player, ctx) }),
      active ? h("span", { class: "to-play" }, ` · ${t("playing")}`) : null,
      player === view.last_player
        ? h("span", { class: "marker", title: t("last-player marker") }, ` · ${t("last player")}`) : null),
    h("p", { class: "stats" }, t("Karma {n}", { n: view.karma[player] }),
      view.karma_thirds && view.karma_thirds[player] ? ` (+${view.karma_thirds[player]}/3)` : "",
      score ? ` · ${plural("1 point", "{n} points", score.total)}` : ""),
    h("div", { class: "plants" }, view.plants[player].map((plant, token) => {
      const places = moves.find("place_die", { owner: player, token });
      const karma = [...moves.find("uproot_plant", { owner: player, token }), ...moves.find("flip_seed", { owner: player, token })];
      return h("div", { class: `plant${plant.dice.length ? "" : " empty"}` },
        h("div", { class: "token" }, h("span", { class: "token-name" }, t("Token {n}", { n: token + 1 })),
          plant.value !== null ? h("span", { class: "value" }, t("value {value}", { value: plant.value }))
            : h("span", { class: "value" }, t("empty"))),
        h("div", { class: "stack" }, plant.dice.map((d, i) => h("span", { class: i === 0 ? "seed" : "" }, die(d, { small: true })))),
        places.length ? h("div", { class: "drops" }, places.map((c) => moves.button(c,
          [h("span", { class: "plus" }, "+"), die(view.hand.find((d) => d.die === c.die) || { die: c.die, colour: "red", face: 1 }, { small: true })],
          { className: "cmd-text drop", label: describe(view, c) }))) : null,
        karma.length ? h("div", { class: "tricks" }, karma.map((c) => moves.button(c,
          c.type === "uproot_plant" ? t("Uproot ({cost})", { cost: view.karma_costs.uproot })
            : t("Flip seed ({cost})", { cost: view.karma_costs.flip_seed }),
          { className: "cmd-text small", label: describe(view, c) }))) : null);
    })),
    h("div", { class: "track", "aria-label": t("score track") }, Array.from({ length: 6 }, (_, i) => {
      const slot = track[i];
      return h("span", { class: `slot${slot ? " filled" : ""}` }, h("span", { class: "slot-no" }, String(i + 1)),
        slot ? h("strong", {}, String(slot.value)) : "", slot && slot.star ? h("span", { class: "star" }, ` ★${slot.star}`) : "");
    })),
    score ? h("p", { class: "breakdown" }, breakdown(score)) : null);
}

/** A score in words: the solo game counts harvests and matches, the others add up points. */
function breakdown(score) {
  if (isSoloScore(score)) {
    return `${plural("1 harvest", "{n} harvests", score.harvests)} · ` +
      `${plural("1 match", "{n} matches", score.matches)}${score.won ? ` · ${t("won")}` : ""}`;
  }
  return [t("Track {n}", { n: score.track }), score.stars ? t("stars {n}", { n: score.stars }) : "",
    t("karma pairs {n}", { n: score.karma_pairs }), t("plant dice {n}", { n: score.plant_dice }),
    score.first_full_track ? t("first full track {n}", { n: score.first_full_track }) : ""]
    .filter(Boolean).join(" · ");
}

function isSoloScore(score) {
  return score.harvests !== undefined;
}

export function renderBoard(view, ctx) {
  if (!view.plants) return board("diced_tomatoes", turnLine(view, ctx), h("p", {}, t("The game has not started.")));
  const moves = new Moves(view, ctx);
  const players = view.players;
  const me = players.includes(view.you) ? view.you : null;
  const order = me ? [me, ...players.filter((p) => p !== me)] : players;
  const mineToPlay = view.active_player === view.you;
  const round = { round: view.round, turn: view.turn, player: view.active_player };
  const doing = {
    take: mineToPlay ? t("Round {round}, turn {turn}: you are choosing dice.", round)
      : t("Round {round}, turn {turn}: {player} is choosing dice.", round),
    place: mineToPlay ? t("Round {round}, turn {turn}: you are placing dice.", round)
      : t("Round {round}, turn {turn}: {player} is placing dice.", round),
  }[view.phase] ?? t("Round {round}, turn {turn}.", round);
  const endTurn = moves.find("end_turn");
  const gardens = order.map((p) => gardener(view, ctx, moves, p));
  return board("diced_tomatoes",
    turnLine(view, ctx, `${doing}${view.final_round ? ` ${t("Final round!")}` : ""}`),
    resultPanel(view, ctx, view.end_reason ? h("p", { class: "note" }, t("The game ended because {reason}.",
      { reason: END_REASONS[view.end_reason] ? t(END_REASONS[view.end_reason]) : view.end_reason })) : null),
    h("div", { class: "top" }, bushel(view, moves), rolled(view, ctx, moves)),
    endTurn.length ? h("div", { class: "moves" }, endTurn.map((c) => moves.button(c, t("End turn"), { className: "cmd-text primary-cmd" }))) : null,
    h("div", { class: "gardens" }, gardens),
    moves.rest((c) => describe(view, c)));
}

/** A seat's standing in the players' panel: its points so far. */
export function standing(view, player) {
  const score = (view.scores || {})[player];
  return score ? plural("1 point", "{n} points", score.total) : null;
}

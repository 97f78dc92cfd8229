// The Diced Tomatoes board: the bushel, the rolled dice with their karma tricks, and each
// gardener's three tomato tokens (plants of dice) and score track. A die that may go on a plant
// is a button on that plant.
import { Moves, board, h, resultPanel, turnLine, who } from "./kit.js";

const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
const TRICKS = ["reroll_die", "adjust_die", "invert_die", "set_die"];
const END_REASONS = {
  final_round: "a gardener filled a score track and the final round is over",
  empty_bushel: "the bushel is empty",
  out_of_dice: "no die is left to play",
};

/** A die showing `face` (pips), in its colour. */
function die(d, { small = false } = {}) {
  const cells = Array.from({ length: 9 }, (_, i) => h("span", { class: PIPS[d.face]?.includes(i + 1) ? "pip" : "" }));
  return h("span", {
    class: `die ${d.colour}${small ? " small" : ""}`, role: "img",
    "aria-label": `${d.colour} ${d.face}`, "data-die": d.die,
  }, cells);
}

const dieText = (view, id) => {
  const d = [...view.hand, ...view.passed].find((x) => x.die === id);
  return d ? `${d.colour} ${d.face}` : `die ${id}`;
};

function describe(view, c) {
  switch (c.type) {
    case "take_dice": return `Take ${mix(c)}`;
    case "place_die": return `Place ${dieText(view, c.die)} on ${c.owner}'s token ${c.token + 1}`;
    case "reroll_die": return `Re-roll ${dieText(view, c.die)}`;
    case "adjust_die": return `${c.by > 0 ? "+1" : "−1"} on ${dieText(view, c.die)}`;
    case "invert_die": return `Turn ${dieText(view, c.die)} upside down`;
    case "set_die": return `Set ${dieText(view, c.die)} to ${c.value}`;
    case "uproot_plant": return `Uproot ${c.owner}'s plant ${c.token + 1}`;
    case "flip_seed": return `Flip the seed of ${c.owner}'s plant ${c.token + 1}`;
    case "end_turn": return "End turn";
    default: return JSON.stringify(c);
  }
}

function mix(c) {
  return ["red", "black", "golden"].filter((k) => c[k]).map((k) => `${c[k]} ${k}`).join(" + ") || "nothing";
}

function bushel(view, moves) {
  const takes = moves.find("take_dice");
  return h("section", { class: "panel bushel", "aria-label": "Bushel" },
    h("h3", {}, "Bushel"),
    h("p", { class: "counts" }, ["red", "black", "golden"].filter((k) => view.bushel[k] || (k === "golden" && view.options?.golden_sun)).map((k) =>
      h("span", { class: "count" }, die({ die: `bushel-${k}`, colour: k, face: 6 }, { small: true }), ` ${view.bushel[k]} ${k}`))),
    takes.length ? h("div", {},
      h("p", { class: "hint" }, `Take ${view.dice_to_take} dice and roll them:`),
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
    { className: "cmd-text small", label: `${describe(view, c)}, ${cost} karma` });
  const tricks = (d) => {
    if (!hasTricks(d)) return null;
    const sets = moves.find("set_die", { die: d.die });
    return h("div", { class: "tricks" },
      moves.find("reroll_die", { die: d.die }).map((c) => trick(c, `Re-roll (${costs.reroll})`, costs.reroll)),
      moves.find("adjust_die", { die: d.die }).map((c) => trick(c, `${c.by > 0 ? "+1" : "−1"} (${costs.adjust})`, costs.adjust)),
      moves.find("invert_die", { die: d.die }).map((c) => trick(c, `Invert (${costs.invert})`, costs.invert)),
      sets.length ? h("span", { class: "set-to" }, `Set to (${costs.set}):`,
        sets.map((c) => trick(c, die({ die: `set-${c.die}-${c.value}`, colour: d.colour, face: c.value }, { small: true }), costs.set))) : null);
  };
  return h("section", { class: "panel rolled", "aria-label": "Rolled dice" },
    h("h3", {}, view.active_player === view.you && view.you ? "Your dice" : view.active_player ? `${view.active_player}'s dice` : "Dice"),
    dice.length ? h("div", { class: "hand" }, dice.map((d) => h("div", { class: "hand-die" }, die(d), tricks(d)))) : null,
    passed.length ? h("p", { class: "note" }, "Passed on (rolled with the next dice taken): ",
      passed.map((d) => die(d, { small: true }))) : null,
    dice.length && moves.find("place_die").length ? h("p", { class: "hint" },
      "Place a die: click it on a tomato token below.",
      dice.some(hasTricks) ? " Karma tricks cost the number in brackets." : "") : null);
}

function gardener(view, ctx, moves, player) {
  const mine = player === view.you;
  const active = view.active_player === player;
  const score = (view.scores || {})[player];
  const track = (view.tracks || {})[player] || [];
  return h("section", { class: `panel gardener${mine ? " mine" : ""}${active ? " active" : ""}`, "aria-label": `${player}'s garden` },
    h("h3", {}, mine ? "Your garden" : `${who(player, ctx)}'s garden`,
      active ? h("span", { class: "to-play" }, " · playing") : null,
      player === view.last_player ? h("span", { class: "marker", title: "last-player marker" }, " · last player") : null),
    h("p", { class: "stats" }, `Karma ${view.karma[player]}`,
      view.karma_thirds && view.karma_thirds[player] ? ` (+${view.karma_thirds[player]}/3)` : "",
      score ? ` · ${score.total} point${score.total === 1 ? "" : "s"}` : ""),
    h("div", { class: "plants" }, view.plants[player].map((plant, token) => {
      const places = moves.find("place_die", { owner: player, token });
      const karma = [...moves.find("uproot_plant", { owner: player, token }), ...moves.find("flip_seed", { owner: player, token })];
      return h("div", { class: `plant${plant.dice.length ? "" : " empty"}` },
        h("div", { class: "token" }, h("span", { class: "token-name" }, `Token ${token + 1}`),
          plant.value !== null ? h("span", { class: "value" }, `value ${plant.value}`) : h("span", { class: "value" }, "empty")),
        h("div", { class: "stack" }, plant.dice.map((d, i) => h("span", { class: i === 0 ? "seed" : "" }, die(d, { small: true })))),
        places.length ? h("div", { class: "drops" }, places.map((c) => moves.button(c,
          [h("span", { class: "plus" }, "+"), die(view.hand.find((d) => d.die === c.die) || { die: c.die, colour: "red", face: 1 }, { small: true })],
          { className: "cmd-text drop", label: describe(view, c) }))) : null,
        karma.length ? h("div", { class: "tricks" }, karma.map((c) => moves.button(c,
          c.type === "uproot_plant" ? `Uproot (${view.karma_costs.uproot})` : `Flip seed (${view.karma_costs.flip_seed})`,
          { className: "cmd-text small", label: describe(view, c) }))) : null);
    })),
    h("div", { class: "track", "aria-label": "score track" }, Array.from({ length: 6 }, (_, i) => {
      const slot = track[i];
      return h("span", { class: `slot${slot ? " filled" : ""}` }, h("span", { class: "slot-no" }, String(i + 1)),
        slot ? h("strong", {}, String(slot.value)) : "", slot && slot.star ? h("span", { class: "star" }, ` ★${slot.star}`) : "");
    })),
    score ? h("p", { class: "breakdown" }, breakdown(score)) : null);
}

/** A score in words: the solo game counts harvests and matches, the others add up points. */
function breakdown(score) {
  if (isSoloScore(score)) {
    return `${score.harvests} harvest${score.harvests === 1 ? "" : "s"} · ${score.matches} ` +
      `match${score.matches === 1 ? "" : "es"}${score.won ? " · won" : ""}`;
  }
  return [`Track ${score.track}`, score.stars ? `stars ${score.stars}` : "",
    `karma pairs ${score.karma_pairs}`, `plant dice ${score.plant_dice}`,
    score.first_full_track ? `first full track ${score.first_full_track}` : ""]
    .filter(Boolean).join(" · ");
}

function isSoloScore(score) {
  return score.harvests !== undefined;
}

export function renderBoard(view, ctx) {
  if (!view.plants) return board("diced_tomatoes", turnLine(view, ctx), h("p", {}, "The game has not started."));
  const moves = new Moves(view, ctx);
  const players = view.players;
  const me = players.includes(view.you) ? view.you : null;
  const order = me ? [me, ...players.filter((p) => p !== me)] : players;
  const phase = view.phase === "take" ? "choosing dice" : view.phase === "place" ? "placing dice" : "";
  const endTurn = moves.find("end_turn");
  const gardens = order.map((p) => gardener(view, ctx, moves, p));
  return board("diced_tomatoes",
    turnLine(view, ctx, `Round ${view.round}, turn ${view.turn}${phase ? `: ${view.active_player === view.you ? "you are" : `${view.active_player} is`} ${phase}` : ""}.${view.final_round ? " Final round!" : ""}`),
    resultPanel(view, ctx, view.end_reason ? h("p", { class: "note" }, `The game ended because ${END_REASONS[view.end_reason] || view.end_reason}.`) : null),
    h("div", { class: "top" }, bushel(view, moves), rolled(view, ctx, moves)),
    endTurn.length ? h("div", { class: "moves" }, endTurn.map((c) => moves.button(c, "End turn", { className: "cmd-text primary-cmd" }))) : null,
    h("div", { class: "gardens" }, gardens),
    moves.rest((c) => describe(view, c)));
}

/** A seat's standing in the players' panel: its points so far. */
export function standing(view, player) {
  const score = (view.scores || {})[player];
  return score ? `${score.total} point${score.total === 1 ? "" : "s"}` : null;
}

// The Illustori board: the chain of illustrated cards with their texts, the text under vote,
// the letters the next text must use, the seat's own hand (the others' as counts), and the
// forms to name the starting card or chain a card with a text.
import { Moves, board, h, resultPanel, textForm, turnLine, who } from "./kit.js";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz".split("");
const PHASES = {
  naming: "The first player names the starting card.",
  voting: "A text is under vote.",
  turn: "Chain a card with a text, or swap cards with the stack.",
  over: "The game is over.",
};
const REASONS = {
  ends_with_xx: "ends with “xx”",
  starts_with_qxz: "starts with q, x or z",
  repeated_letter: "repeats a letter",
  used_letter: "uses a used letter",
};

/** A hue from a card id (c01..c60), so that neighbouring cards get far-apart colours. */
function hue(id) {
  let n = 0;
  for (const ch of id) n = n * 31 + ch.charCodeAt(0);
  return Math.round((n % 1000) * 137.508) % 360;
}

/** An illustrated card: its picture (in words), and the text it was given, if any. */
function card(c, { text = null, player = null, ctx = null, small = false } = {}) {
  return h("figure", { class: `il-card${small ? " small" : ""}`, "data-card": c.card, style: `--h: ${hue(c.card)}` },
    h("div", { class: "il-picture" }, h("span", {}, c.picture)),
    text !== null ? h("figcaption", {}, h("span", { class: "il-text" }, text),
      player ? h("span", { class: "il-by" }, ` by ${ctx ? who(player, ctx) : player}`) : null) : null);
}

function describe(view, c) {
  const picture = (id) => {
    const found = [...(view.hand || []), ...(view.chain || [])].find((x) => x.card === id);
    return found ? `“${found.picture}”` : id;
  };
  switch (c.type) {
    case "propose_start": return `Name it “${c.text}”`;
    case "play_card": return `Play ${picture(c.card)} as “${c.text}”`;
    case "swap_cards": return `Swap ${c.cards.map(picture).join(", ")}`;
    case "pass_turn": return "Pass";
    case "vote": return c.yes ? "Accept" : "Reject";
    default: return JSON.stringify(c);
  }
}

function mustChain(view) {
  const m = view.must_chain;
  if (!m) return null;
  const where = m.end === "start" ? "begin with" : "end with";
  return h("p", { class: "must" }, `The next text must ${where} `,
    m.letters.map((l, i) => [i ? (i === m.letters.length - 1 ? " or " : ", ") : "", h("strong", { class: "letter" }, l.toUpperCase())]), ".");
}

function usedLetters(view) {
  if (!view.rules || !view.rules.no_used_letters) return null;
  const used = new Set(view.used_letters || []);
  return h("div", { class: "used", "aria-label": "used letters" }, h("h4", {}, "Used letters"),
    h("div", { class: "alphabet" }, ALPHABET.map((l) => h("span", { class: used.has(l) ? "l used" : "l" }, l.toUpperCase()))));
}

function chain(view, ctx) {
  const placed = view.chain || [];
  const shown = placed.slice(-6);
  return h("section", { class: "panel chain", "aria-label": "The chain" },
    h("h3", {}, "The chain", placed.length ? h("span", { class: "count" }, ` · ${placed.length} card${placed.length > 1 ? "s" : ""}`) : null),
    placed.length > shown.length ? h("details", { class: "more" }, h("summary", {}, `${placed.length - shown.length} earlier cards`),
      h("p", { class: "earlier" }, placed.slice(0, -6).map((p) => p.text).join(" → "))) : null,
    h("div", { class: "row" },
      placed.length ? shown.map((p) => card(p, { text: p.text, player: p.player, ctx }))
        : view.pending ? null : card(view.start_card, { text: "waiting for its name" }),
      view.pending ? h("div", { class: "pending" }, h("span", { class: "pending-tag" }, "Under vote"),
        card(view.pending, { text: view.pending.text, player: view.pending.player, ctx })) : null),
    view.phase === "over" ? null : mustChain(view), usedLetters(view));
}

function vote(view, ctx, moves) {
  if (view.phase !== "voting" || !view.pending) return null;
  const votes = moves.find("vote");
  const waiting = view.turn_order.filter((p) => p !== view.pending.player && !view.voted.includes(p));
  return h("section", { class: "panel vote", "aria-label": "Vote" },
    h("h3", {}, `${who(view.pending.player, ctx)} says: “${view.pending.text}”`),
    h("p", { class: "hint" }, "Does the text fit the picture and follow the chain? ",
      waiting.length ? `Waiting for the votes of ${waiting.map((p) => who(p, ctx)).join(", ")}.` : ""),
    view.my_vote !== null && view.my_vote !== undefined ? h("p", {}, `You voted ${view.my_vote ? "yes" : "no"}.`) : null,
    votes.length ? h("div", { class: "moves" }, votes.map((c) => moves.button(c, c.yes ? "✔ Accept" : "✘ Reject",
      { className: `cmd-text vote-${c.yes ? "yes" : "no"}`, label: c.yes ? "Vote yes: accept the text" : "Vote no: reject the text" }))) : null);
}

function examples(view, moves, type) {
  const list = moves.find(type);
  if (!list.length) return null;
  return h("details", { class: "more" }, h("summary", {}, "Examples that chain (sent as they are)"),
    h("div", { class: "moves" }, list.map((c) => moves.button(c, describe(view, c), { className: "cmd-text small" }))));
}

function hand(view, ctx, moves) {
  if (!view.hand) return null;
  const plays = moves.find("play_card");
  const swaps = moves.find("swap_cards");
  const passes = moves.find("pass_turn");
  const example = plays[0];
  // Any held card may be chained with a text of one's own, whether `legal` has an example
  // for it or not: every card of the hand is a choice.
  const choice = plays.length ? h("fieldset", { class: "choose" }, h("legend", {}, "Choose a card of your hand"),
    h("div", { class: "row" }, view.hand.map((c) => h("label", { class: "pick" },
      h("input", { type: "radio", name: "play_card-card", value: c.card, required: true, checked: c.card === example.card, disabled: !ctx.interactive }),
      card(c, { small: true }))))) : null;
  return h("section", { class: "panel hand mine", "aria-label": "Your hand" },
    h("h3", {}, `Your hand · ${view.hand.length} card${view.hand.length === 1 ? "" : "s"}`),
    plays.length ? textForm(ctx, "play_card",
      [{ label: "Your text for it (it must fit the picture and follow the chain)", placeholder: example.text }],
      ([text], form) => ({ card: form.querySelector("input[name='play_card-card']:checked")?.value, text }),
      "Play the card", choice)
      : view.hand.length ? h("div", { class: "row" }, view.hand.map((c) => card(c, { small: true })))
        : h("p", { class: "note" }, "Your hand is empty."),
    examples(view, moves, "play_card"),
    swaps.length ? h("details", { class: "more" }, h("summary", {}, "Or swap cards with the stack"),
      h("div", { class: "moves" }, swaps.map((c) => moves.button(c, describe(view, c), { className: "cmd-text small" })))) : null,
    passes.length ? h("div", { class: "moves" }, passes.map((c) => moves.button(c, "Pass (the stack is empty)", { className: "cmd-text" }))) : null);
}

function naming(view, ctx, moves) {
  const example = moves.one("propose_start");
  if (!example) return null;
  return h("section", { class: "panel", "aria-label": "Name the starting card" },
    h("h3", {}, "Name the starting card"),
    h("p", { class: "hint" }, `A text for “${view.start_card.picture}”, beginning and ending with a letter; the others vote on it.`),
    textForm(ctx, "propose_start", [{ label: "Starting text", placeholder: example.text }], ([text]) => ({ text }), "Propose"),
    examples(view, moves, "propose_start"));
}

function table(view, ctx) {
  const outcome = view.last_outcome;
  let last = null;
  if (outcome) {
    const by = who(outcome.player, ctx);
    const votes = outcome.votes ? ` (${Object.entries(outcome.votes).map(([p, y]) => `${p} ${y ? "yes" : "no"}`).join(", ")})` : "";
    last = {
      accepted: `${by}'s “${outcome.text}” was accepted${votes}.`,
      rejected: `${by}'s “${outcome.text}” was rejected${votes}.`,
      penalised: `${by}'s “${outcome.text}” was penalised: it ${(outcome.reasons || []).map((r) => REASONS[r] || r).join(", ")}.`,
      swapped: `${by} swapped ${(outcome.cards || []).length} card${(outcome.cards || []).length === 1 ? "" : "s"}.`,
      passed: `${by} passed.`,
    }[outcome.kind] || `${by}: ${outcome.kind}.`;
  }
  return h("section", { class: "panel players", "aria-label": "Players" },
    h("ul", { class: "seats" }, view.turn_order.map((p) => h("li", { class: p === view.active_player ? "active" : "" },
      h("span", { class: "name" }, who(p, ctx)), h("span", { class: "cards" }, `${view.hand_sizes[p]} card${view.hand_sizes[p] === 1 ? "" : "s"}`),
      view.voted.includes(p) ? h("span", { class: "voted" }, "voted") : null))),
    h("p", { class: "note" }, `Stack ${view.stack_size} · discard pile ${view.discard.length}`,
      view.last_round ? " · last round!" : "", view.failed_turns ? ` · turns without a chain: ${view.failed_turns}` : ""),
    last ? h("p", { class: "note last" }, last) : null);
}

export function renderBoard(view, ctx) {
  if (!view.turn_order) return board("illustori", turnLine(view, ctx), h("p", {}, "The game has not started."));
  const moves = new Moves(view, ctx);
  return board("illustori",
    turnLine(view, ctx, PHASES[view.phase] || ""),
    resultPanel(view, ctx, view.result && view.result.winners && view.result.winners.length
      ? h("p", { class: "note" }, "Every player who emptied their hand wins; the others are ranked by the cards left.") : null),
    table(view, ctx),
    chain(view, ctx),
    vote(view, ctx, moves),
    naming(view, ctx, moves),
    hand(view, ctx, moves),
    moves.rest((c) => describe(view, c)));
}

/** A seat's standing in the players' panel: the cards left in its hand (fewer is better). */
export function standing(view, player) {
  const cards = (view.hand_sizes || {})[player];
  return cards === undefined ? null : `${cards} card${cards === 1 ? "" : "s"} in hand`;
}

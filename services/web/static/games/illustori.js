// The Illustori board: the chain of illustrated cards with their texts, the text under vote,
// the letters the next text must use, the seat's own hand (the others' as counts), and the
// forms to name the starting card or chain a card with a text.
import { Moves, board, h, resultPanel, textForm, turnLine, who } from "./kit.js";
import { addFrench, plural, t } from "../i18n.js";

// The pictures of the cards in French (shared/games/illustori/cards.json, `picture_fr`).
addFrench({
  "a lighthouse in a storm": "un phare dans la tempête",
  "a cat asleep on a piano": "un chat endormi sur un piano",
  "a paper boat on a puddle": "un bateau en papier sur une flaque",
  "an old key under a doormat": "une vieille clé sous un paillasson",
  "a whale swimming through clouds": "une baleine qui nage dans les nuages",
  "a lantern in a bamboo forest": "une lanterne dans une forêt de bambous",
  "a fox wearing a scarf": "un renard qui porte une écharpe",
  "a teapot pouring stars": "une théière qui verse des étoiles",
  "a bicycle leaning on a cherry tree": "un vélo appuyé contre un cerisier",
  "a snowman melting in the sun": "un bonhomme de neige qui fond au soleil",
  "an astronaut fishing on the moon": "un astronaute qui pêche sur la lune",
  "a staircase to nowhere": "un escalier qui ne mène nulle part",
  "a crow holding a ring": "un corbeau qui tient une bague",
  "a hot air balloon over mountains": "une montgolfière au-dessus des montagnes",
  "an umbrella upside down in the rain": "un parapluie à l'envers sous la pluie",
  "a clock with no hands": "une horloge sans aiguilles",
  "a girl reading under a blanket fort": "une fille qui lit sous une cabane de couvertures",
  "a robot watering flowers": "un robot qui arrose des fleurs",
  "a train crossing a bridge at night": "un train qui traverse un pont la nuit",
  "a cup of tea with a tiny whirlpool": "une tasse de thé avec un minuscule tourbillon",
  "a turtle carrying a house": "une tortue qui porte une maison",
  "an empty swing at sunset": "une balançoire vide au coucher du soleil",
  "a map with a red cross": "un plan marqué d'une croix rouge",
  "a mask on a festival stall": "un masque sur un stand de fête",
  "a giant strawberry in a field": "une fraise géante dans un champ",
  "a letter sealed with wax": "une lettre cachetée à la cire",
  "a bird cage with the door open": "une cage à oiseaux à la porte ouverte",
  "a campfire under the milky way": "un feu de camp sous la Voie lactée",
  "a frog on a lily pad": "une grenouille sur un nénuphar",
  "a broken mirror": "un miroir brisé",
  "a sushi plate on a conveyor belt": "une assiette de sushis sur un tapis roulant",
  "a dragon made of clouds": "un dragon fait de nuages",
  "a goldfish in a light bulb": "un poisson rouge dans une ampoule",
  "a pair of worn-out boots": "une paire de bottes usées",
  "a ladder leaning on the moon": "une échelle appuyée contre la lune",
  "an octopus playing drums": "une pieuvre qui joue de la batterie",
  "a sleeping dog by the fireplace": "un chien qui dort au coin du feu",
  "a door in the middle of a desert": "une porte au milieu du désert",
  "a kite stuck in a tree": "un cerf-volant coincé dans un arbre",
  "a bowl of steaming ramen": "un bol de ramen fumants",
  "a shadow that does not match": "une ombre qui ne correspond pas",
  "a jellyfish in the night sky": "une méduse dans le ciel nocturne",
  "a castle made of sand": "un château de sable",
  "a compass pointing down": "une boussole qui pointe vers le bas",
  "a bear eating honey": "un ours qui mange du miel",
  "a ticket to an unknown city": "un billet pour une ville inconnue",
  "a snail racing a car": "un escargot qui fait la course avec une voiture",
  "a forest in a glass bottle": "une forêt dans une bouteille de verre",
  "a violin left on a bench": "un violon oublié sur un banc",
  "a rabbit pulling a magician out of a hat": "un lapin qui sort un magicien d'un chapeau",
  "a rainbow over a rice field": "un arc-en-ciel au-dessus d'une rizière",
  "a tower of books": "une tour de livres",
  "a phone ringing in an empty room": "un téléphone qui sonne dans une pièce vide",
  "a crown on a pumpkin": "une couronne sur une citrouille",
  "a bridge of fireflies": "un pont de lucioles",
  "a penguin at the beach": "un manchot à la plage",
  "an owl wearing glasses": "un hibou qui porte des lunettes",
  "a candle in the snow": "une bougie dans la neige",
  "a volcano puffing smoke rings": "un volcan qui fait des ronds de fumée",
  "a boy flying with balloons": "un garçon qui s'envole avec des ballons",
});

addFrench({
  "The first player names the starting card.": "Le premier joueur associe un texte à la carte de démarrage.",
  "A text is under vote.": "Un texte est soumis au vote.",
  "Chain a card with a text, or swap cards with the stack.": "Enchaînez une carte avec un texte, ou échangez des cartes avec le paquet.",
  "The game is over.": "La partie est terminée.",
  "ends with “xx”": "finit par « xx »",
  "starts with q, x or z": "commence par q, x ou z",
  "repeats a letter": "commence et finit par la même lettre",
  "uses a used letter": "utilise une lettre ayant déjà servi",
  " by {player}": " par {player}",
  "“{picture}”": "« {picture} »",
  "Name it “{text}”": "Proposer « {text} »",
  "Play {card} as “{text}”": "Jouer {card} avec « {text} »",
  "Swap {cards}": "Échanger {cards}",
  "Pass": "Passer",
  "Accept": "Accepter",
  "Reject": "Rejeter",
  "The next text must begin with ": "Le texte suivant doit commencer par ",
  "The next text must end with ": "Le texte suivant doit finir par ",
  " or ": " ou ",
  "used letters": "lettres déjà utilisées",
  "Used letters": "Lettres déjà utilisées",
  "The chain": "La chaîne",
  "{n} card": "{n} carte",
  "{n} cards": "{n} cartes",
  "{n} earlier cards": "Cartes précédentes : {n}",
  "waiting for its name": "en attente de son texte",
  "Under vote": "Soumis au vote",
  "Vote": "Vote",
  "{player} says: “{text}”": "{player} propose : « {text} »",
  "Does the text fit the picture and follow the chain? ": "Le texte s'accorde-t-il avec l'illustration et suit-il la chaîne ? ",
  "Waiting for the votes of {players}.": "En attente des votes de {players}.",
  "You voted yes.": "Vous avez voté pour.",
  "You voted no.": "Vous avez voté contre.",
  "✔ Accept": "✔ Pour",
  "✘ Reject": "✘ Contre",
  "Vote yes: accept the text": "Voter pour : adopter le texte",
  "Vote no: reject the text": "Voter contre : rejeter le texte",
  "Examples that chain (sent as they are)": "Exemples qui s'enchaînent (envoyés tels quels)",
  "Choose a card of your hand": "Choisissez une carte de votre main",
  "Your hand": "Votre main",
  "Your hand · {n} card": "Votre main · {n} carte",
  "Your hand · {n} cards": "Votre main · {n} cartes",
  "Your text for it (it must fit the picture and follow the chain)": "Votre texte pour cette carte (il doit s'accorder avec l'illustration et suivre la chaîne)",
  "Play the card": "Jouer la carte",
  "Your hand is empty.": "Votre main est vide.",
  "Or swap cards with the stack": "Ou échangez des cartes avec le paquet",
  "Pass (the stack is empty)": "Passer (le paquet est vide)",
  "Name the starting card": "Un texte pour la carte de démarrage",
  "A text for {picture}, beginning and ending with a letter; the others vote on it.": "Un texte pour {picture}, qui commence et finit par une lettre ; les autres votent.",
  "Starting text": "Texte de démarrage",
  "Propose": "Proposer",
  "{player} yes": "{player} pour",
  "{player} no": "{player} contre",
  "{by}'s “{text}” was accepted{votes}.": "Le texte « {text} » de {by} a été adopté{votes}.",
  "{by}'s “{text}” was rejected{votes}.": "Le texte « {text} » de {by} a été rejeté{votes}.",
  "{by}'s “{text}” was penalised: it {reasons}.": "Le texte « {text} » de {by} a été pénalisé : il {reasons}.",
  "{by} swapped {n} card.": "{by} a échangé {n} carte.",
  "{by} swapped {n} cards.": "{by} a échangé {n} cartes.",
  "{by} passed.": "{by} a passé son tour.",
  "{by}: {kind}.": "{by} : {kind}.",
  // the other outcomes, by their ids (English shows the id)
  start_accepted: "texte de démarrage adopté",
  start_rejected: "texte de démarrage rejeté",
  start_penalised: "texte de démarrage pénalisé",
  "Players": "Joueurs",
  "voted": "a voté",
  "Stack {stack} · discard pile {discard}": "Paquet {stack} · défausse {discard}",
  " · last round!": " · dernier tour !",
  " · turns without a chain: {n}": " · tours sans enchaînement : {n}",
  "The game has not started.": "La partie n'a pas commencé.",
  "Every player who emptied their hand wins; the others are ranked by the cards left.": "Tous les joueurs qui ont vidé leur main gagnent ; les autres sont classés selon les cartes qui leur restent.",
  "{n} card in hand": "{n} carte en main",
  "{n} cards in hand": "{n} cartes en main",
});

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

/** A card's picture in words, in the page's language. */
function pictureOf(c) {
  return t(c.picture);
}

/** An illustrated card: its picture (in words), and the text it was given, if any. */
function card(c, { text = null, player = null, ctx = null, small = false } = {}) {
  return h("figure", { class: `il-card${small ? " small" : ""}`, "data-card": c.card, style: `--h: ${hue(c.card)}` },
    h("div", { class: "il-picture" }, h("span", {}, pictureOf(c))),
    text !== null ? h("figcaption", {}, h("span", { class: "il-text" }, text),
      player ? h("span", { class: "il-by" }, t(" by {player}", { player: ctx ? who(player, ctx) : player })) : null) : null);
}

function describe(view, c) {
  const picture = (id) => {
    const found = [...(view.hand || []), ...(view.chain || [])].find((x) => x.card === id);
    return found ? t("“{picture}”", { picture: pictureOf(found) }) : id;
  };
  switch (c.type) {
    case "propose_start": return t("Name it “{text}”", { text: c.text });
    case "play_card": return t("Play {card} as “{text}”", { card: picture(c.card), text: c.text });
    case "swap_cards": return t("Swap {cards}", { cards: c.cards.map(picture).join(", ") });
    case "pass_turn": return t("Pass");
    case "vote": return c.yes ? t("Accept") : t("Reject");
    default: return JSON.stringify(c);
  }
}

function mustChain(view) {
  const m = view.must_chain;
  if (!m) return null;
  const must = m.end === "start" ? t("The next text must begin with ") : t("The next text must end with ");
  return h("p", { class: "must" }, must,
    m.letters.map((l, i) => [i ? (i === m.letters.length - 1 ? t(" or ") : ", ") : "", h("strong", { class: "letter" }, l.toUpperCase())]), ".");
}

function usedLetters(view) {
  if (!view.rules || !view.rules.no_used_letters) return null;
  const used = new Set(view.used_letters || []);
  return h("div", { class: "used", "aria-label": t("used letters") }, h("h4", {}, t("Used letters")),
    h("div", { class: "alphabet" }, ALPHABET.map((l) => h("span", { class: used.has(l) ? "l used" : "l" }, l.toUpperCase()))));
}

function chain(view, ctx) {
  const placed = view.chain || [];
  const shown = placed.slice(-6);
  return h("section", { class: "panel chain", "aria-label": t("The chain") },
    h("h3", {}, t("The chain"), placed.length ? h("span", { class: "count" }, ` · ${plural("{n} card", "{n} cards", placed.length)}`) : null),
    placed.length > shown.length ? h("details", { class: "more" }, h("summary", {}, t("{n} earlier cards", { n: placed.length - shown.length })),
      h("p", { class: "earlier" }, placed.slice(0, -6).map((p) => p.text).join(" → "))) : null,
    h("div", { class: "row" },
      placed.length ? shown.map((p) => card(p, { text: p.text, player: p.player, ctx }))
        : view.pending ? null : card(view.start_card, { text: t("waiting for its name") }),
      view.pending ? h("div", { class: "pending" }, h("span", { class: "pending-tag" }, t("Under vote")),
        card(view.pending, { text: view.pending.text, player: view.pending.player, ctx })) : null),
    view.phase === "over" ? null : mustChain(view), usedLetters(view));
}

function vote(view, ctx, moves) {
  if (view.phase !== "voting" || !view.pending) return null;
  const votes = moves.find("vote");
  const waiting = view.turn_order.filter((p) => p !== view.pending.player && !view.voted.includes(p));
  return h("section", { class: "panel vote", "aria-label": t("Vote") },
    h("h3", {}, t("{player} says: “{text}”", { player: who(view.pending.player, ctx), text: view.pending.text })),
    h("p", { class: "hint" }, t("Does the text fit the picture and follow the chain? "),
      waiting.length ? t("Waiting for the votes of {players}.", { players: waiting.map((p) => who(p, ctx)).join(", ") }) : ""),
    view.my_vote !== null && view.my_vote !== undefined ? h("p", {}, view.my_vote ? t("You voted yes.") : t("You voted no.")) : null,
    votes.length ? h("div", { class: "moves" }, votes.map((c) => moves.button(c, c.yes ? t("✔ Accept") : t("✘ Reject"),
      { className: `cmd-text vote-${c.yes ? "yes" : "no"}`, label: c.yes ? t("Vote yes: accept the text") : t("Vote no: reject the text") }))) : null);
}

function examples(view, moves, type) {
  const list = moves.find(type);
  if (!list.length) return null;
  return h("details", { class: "more" }, h("summary", {}, t("Examples that chain (sent as they are)")),
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
  const choice = plays.length ? h("fieldset", { class: "choose" }, h("legend", {}, t("Choose a card of your hand")),
    h("div", { class: "row" }, view.hand.map((c) => h("label", { class: "pick" },
      h("input", { type: "radio", name: "play_card-card", value: c.card, required: true, checked: c.card === example.card, disabled: !ctx.interactive }),
      card(c, { small: true }))))) : null;
  return h("section", { class: "panel hand mine", "aria-label": t("Your hand") },
    h("h3", {}, plural("Your hand · {n} card", "Your hand · {n} cards", view.hand.length)),
    plays.length ? textForm(ctx, "play_card",
      [{ label: t("Your text for it (it must fit the picture and follow the chain)"), placeholder: example.text }],
      ([text], form) => ({ card: form.querySelector("input[name='play_card-card']:checked")?.value, text }),
      t("Play the card"), choice)
      : view.hand.length ? h("div", { class: "row" }, view.hand.map((c) => card(c, { small: true })))
        : h("p", { class: "note" }, t("Your hand is empty.")),
    examples(view, moves, "play_card"),
    swaps.length ? h("details", { class: "more" }, h("summary", {}, t("Or swap cards with the stack")),
      h("div", { class: "moves" }, swaps.map((c) => moves.button(c, describe(view, c), { className: "cmd-text small" })))) : null,
    passes.length ? h("div", { class: "moves" }, passes.map((c) => moves.button(c, t("Pass (the stack is empty)"), { className: "cmd-text" }))) : null);
}

function naming(view, ctx, moves) {
  const example = moves.one("propose_start");
  if (!example) return null;
  const picture = t("“{picture}”", { picture: pictureOf(view.start_card) });
  return h("section", { class: "panel", "aria-label": t("Name the starting card") },
    h("h3", {}, t("Name the starting card")),
    h("p", { class: "hint" }, t("A text for {picture}, beginning and ending with a letter; the others vote on it.", { picture })),
    textForm(ctx, "propose_start", [{ label: t("Starting text"), placeholder: example.text }], ([text]) => ({ text }), t("Propose")),
    examples(view, moves, "propose_start"));
}

function table(view, ctx) {
  const outcome = view.last_outcome;
  let last = null;
  if (outcome) {
    const by = who(outcome.player, ctx);
    const text = outcome.text;
    const votes = outcome.votes ? ` (${Object.entries(outcome.votes).map(([player, y]) => t(y ? "{player} yes" : "{player} no", { player })).join(", ")})` : "";
    const swapped = (outcome.cards || []).length;
    const said = {
      accepted: () => t("{by}'s “{text}” was accepted{votes}.", { by, text, votes }),
      rejected: () => t("{by}'s “{text}” was rejected{votes}.", { by, text, votes }),
      penalised: () => t("{by}'s “{text}” was penalised: it {reasons}.",
        { by, text, reasons: (outcome.reasons || []).map((r) => (REASONS[r] ? t(REASONS[r]) : r)).join(", ") }),
      swapped: () => t(swapped === 1 ? "{by} swapped {n} card." : "{by} swapped {n} cards.", { by, n: swapped }),
      passed: () => t("{by} passed.", { by }),
    }[outcome.kind];
    last = said ? said() : t("{by}: {kind}.", { by, kind: t(outcome.kind) });
  }
  return h("section", { class: "panel players", "aria-label": t("Players") },
    h("ul", { class: "seats" }, view.turn_order.map((p) => h("li", { class: p === view.active_player ? "active" : "" },
      h("span", { class: "name" }, who(p, ctx)), h("span", { class: "cards" }, plural("{n} card", "{n} cards", view.hand_sizes[p])),
      view.voted.includes(p) ? h("span", { class: "voted" }, t("voted")) : null))),
    h("p", { class: "note" }, t("Stack {stack} · discard pile {discard}", { stack: view.stack_size, discard: view.discard.length }),
      view.last_round ? t(" · last round!") : "", view.failed_turns ? t(" · turns without a chain: {n}", { n: view.failed_turns }) : ""),
    last ? h("p", { class: "note last" }, last) : null);
}

export function renderBoard(view, ctx) {
  if (!view.turn_order) return board("illustori", turnLine(view, ctx), h("p", {}, t("The game has not started.")));
  const moves = new Moves(view, ctx);
  return board("illustori",
    turnLine(view, ctx, PHASES[view.phase] ? t(PHASES[view.phase]) : ""),
    resultPanel(view, ctx, view.result && view.result.winners && view.result.winners.length
      ? h("p", { class: "note" }, t("Every player who emptied their hand wins; the others are ranked by the cards left.")) : null),
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
  return cards === undefined ? null : plural("{n} card in hand", "{n} cards in hand", cards);
}

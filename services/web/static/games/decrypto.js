// The Decrypto board: each team's screen (its four numbered keywords, the other team's hidden),
// this round's code and clues, the codes as buttons to guess with, the note sheet of every clue
// given so far under its keyword number, and the tokens. Clues and keyword guesses are forms.
import { t, addFrench, plural, language } from "../i18n.js";
import { Moves, board, h, resultPanel, textForm, turnLine, who } from "./kit.js";

// The French of the board's texts: the words of the French edition (Encrypteur, indices,
// jetons Interception / Mauvaise communication). A team's name is the plural of its colour,
// so that French sentences say "des {team}", "les {team}".
addFrench({
  // the teams and the tokens
  "White": "Blancs",
  "Black": "Noirs",
  "{team} team": "Équipe des {team}",
  "your team": "votre équipe",
  " (encryptor)": " (Encrypteur)",
  "hidden": "caché",
  "Interception": "Interception",
  "Miscommunication": "Mauvaise communication",
  " Interceptions {n}": " Interceptions {n}",
  " Miscommunications {n}": " Mauvaises communications {n}",
  "{n} interception": "{n} interception",
  "{n} interceptions": "{n} interceptions",
  "{n} miscommunication": "{n} mauvaise communication",
  "{n} miscommunications": "{n} mauvaises communications",
  "{team}: {interceptions}, {miscommunications}": "{team} : {interceptions}, {miscommunications}",
  // the moves
  "“{word}”": "« {word} »",
  "Guess {team}'s code {code}": "Proposer le code {code} pour les {team}",
  "Send the clues {clues}": "Envoyer les indices {clues}",
  "Guess the keywords {words}": "Proposer les mots-clés {words}",
  "Examples (sent as they are)": "Exemples (envoyés tels quels)",
  // the phases
  "The encryptors write their clues.": "Les Encrypteurs écrivent leurs indices.",
  "Decoding": "Décodage",
  "Decoding {team}'s code.": "Décodage du code des {team}.",
  "Tie-break: each team guesses the other team's keywords.":
    "Départage : chaque équipe devine les mots-clés de l'autre équipe.",
  "The game is over.": "La partie est terminée.",
  "The game has not started.": "La partie n'a pas commencé.",
  // the round
  "This round": "Cette manche",
  "Round {round}": "Manche {round}",
  "Round {round} of {max}": "Manche {round} sur {max}",
  "{team} clues": "Indices des {team}",
  " · being decoded": " · en cours de décodage",
  "Written, shown once both teams have written.": "Écrits, visibles quand les deux équipes auront écrit.",
  "Not written yet.": "Pas encore écrits.",
  "Your code: ": "Votre code : ",
  " — write one clue per digit, for the keyword with that number.":
    " — écrivez un indice par chiffre, pour le mot-clé qui porte ce numéro.",
  " — you are the encryptor: your team decodes without you.":
    " — vous avez encrypté ce code : votre équipe le décode sans vous.",
  "Your team's guess of {team}'s keywords: ": "Proposition de votre équipe pour les mots-clés des {team} : ",
  ". Waiting for the other team.": ". En attente de l'autre équipe.",
  "Your team answered ": "Votre équipe a répondu ",
  " for {team}'s code.": " pour le code des {team}.",
  "Decode your team's code: which keyword number did each clue point to?":
    "Décodez le code de votre équipe : quel numéro de mot-clé chaque indice désignait-il ?",
  "Intercept {team}'s code: which keyword number did each clue point to?":
    "Interceptez le code des {team} : quel numéro de mot-clé chaque indice désignait-il ?",
  // the forms
  "Clue {n}": "Indice {n}",
  "Clue {n}: for keyword {digit}": "Indice {n} : pour le mot-clé {digit}",
  "Clue {n}: for keyword {digit} ({word})": "Indice {n} : pour le mot-clé {digit} ({word})",
  "Write your clues": "Écrivez vos indices",
  "Write your 3 clues": "Écrivez vos 3 indices",
  "One word or phrase per digit of your code, never a keyword itself nor a clue already given.":
    "Un mot ou une expression par chiffre de votre code, jamais un mot-clé lui-même ni un indice déjà donné.",
  "Send the clues": "Envoyer les indices",
  "{team} keyword {n}": "Mot-clé {n} des {team}",
  "(blank to pass)": "(ne rien écrire pour passer)",
  "Guess the keywords": "Devinez les mots-clés",
  "Guess {team}'s keywords": "Devinez les mots-clés des {team}",
  "Each word found at its number counts; leave a field blank to pass.":
    "Chaque mot trouvé au bon numéro compte ; n'écrivez rien dans un champ pour passer.",
  "Send the guesses": "Envoyer les propositions",
  // the note sheets
  "{team} notes": "Notes des {team}",
  "{team}'s clues so far": "Indices des {team} jusqu'ici",
  "Round": "Manche",
  "Clues": "Indices",
  "Code": "Code",
  "Own guess": "Réponse de l'équipe",
  // the outcome
  "two Interception tokens": "deux jetons Interception",
  "the other team's two Miscommunication tokens": "les deux jetons Mauvaise communication de l'autre équipe",
  "a better token score": "un meilleur score de jetons",
  "more keywords guessed": "plus de mots-clés devinés",
  "nothing could split the teams": "rien n'a pu départager les équipes",
  "{team} team wins with {reason}.": "Les {team} gagnent avec {reason}.",
  "A draw: nothing could split the teams.": "Match nul : rien n'a pu départager les équipes.",
  "Keywords found: White {white}, Black {black}.": "Mots-clés trouvés : Blancs {white}, Noirs {black}.",
  "{team} guessed: {words}": "Les {team} ont proposé : {words}",
});

const TEAM_NAMES = { white: "White", black: "Black" };
const REASONS = {
  two_interceptions: "two Interception tokens",
  two_miscommunications: "the other team's two Miscommunication tokens",
  token_score: "a better token score",
  keywords: "more keywords guessed",
  draw: "nothing could split the teams",
};
const PHASES = {
  clues: "The encryptors write their clues.",
  decode: "Decoding",
  keywords: "Tie-break: each team guesses the other team's keywords.",
  over: "The game is over.",
};

const teamName = (team) => (TEAM_NAMES[team] ? t(TEAM_NAMES[team]) : String(team));
const codeText = (code) => (code ? code.join("·") : "?·?·?");
const other = (team) => (team === "white" ? "black" : "white");
const quoted = (words) => words.map((word) => t("“{word}”", { word })).join(", ");

function describe(c) {
  switch (c.type) {
    case "submit_guess": return t("Guess {team}'s code {code}", { team: teamName(c.team), code: codeText(c.code) });
    case "give_clues": return t("Send the clues {clues}", { clues: quoted(c.clues) });
    case "guess_keywords": return t("Guess the keywords {words}", { words: quoted(c.words) });
    default: return JSON.stringify(c);
  }
}

function screen(view, ctx, team) {
  const words = view.keywords[team];
  const mine = team === view.my_team;
  const title = t("{team} team", { team: teamName(team) });
  return h("section", { class: `panel screen team-${team}${mine ? " mine" : ""}`, "aria-label": title },
    h("h3", {}, title, mine ? h("span", { class: "you-tag" }, t("your team")) : null),
    h("p", { class: "members" }, view.teams[team].map((p) => h("span", { class: p === view.encryptors[team] ? "encryptor" : "" },
      who(p, ctx), p === view.encryptors[team] ? t(" (encryptor)") : "")).flatMap((n, i) => (i ? [", ", n] : [n]))),
    h("ol", { class: "keywords" }, [0, 1, 2, 3].map((i) => h("li", { class: words ? "word" : "word hidden" },
      h("span", { class: "kw-no" }, String(i + 1)), h("span", { class: "kw" }, words ? words[i] : t("hidden"))))),
    tokens(view, team));
}

function tokens(view, team) {
  const n = (view.tokens || {})[team] || { interceptions: 0, miscommunications: 0 };
  const marks = (got, cls, name) => Array.from({ length: 2 }, (_, i) =>
    h("span", { class: `token ${cls}${i < got ? " got" : ""}`, title: name }));
  return h("div", { class: "tokens" },
    h("span", { class: "token-row" }, marks(n.interceptions, "interception", t("Interception")),
      t(" Interceptions {n}", { n: n.interceptions })),
    h("span", { class: "token-row" }, marks(n.miscommunications, "miscommunication", t("Miscommunication")),
      t(" Miscommunications {n}", { n: n.miscommunications })));
}

function round(view, ctx, moves) {
  const decoding = view.decoding;
  const clueRow = (team) => {
    const clues = view.clues[team];
    return h("div", { class: `clue-set team-${team}` },
      h("h4", {}, t("{team} clues", { team: teamName(team) }), decoding === team ? t(" · being decoded") : ""),
      clues ? h("ol", { class: "clues" }, clues.map((c) => h("li", {}, c)))
        : h("p", { class: "muted" }, view.clues_written[team] ? t("Written, shown once both teams have written.") : t("Not written yet.")));
  };
  const guesses = moves.find("submit_guess");
  return h("section", { class: "panel round", "aria-label": t("This round") },
    h("h3", {}, view.max_rounds ? t("Round {round} of {max}", { round: view.round, max: view.max_rounds })
      : t("Round {round}", { round: view.round })),
    view.my_code && view.phase !== "keywords" ? h("p", { class: "code-card" }, t("Your code: "), h("strong", { class: "code" }, codeText(view.my_code)),
      view.phase === "clues" ? t(" — write one clue per digit, for the keyword with that number.")
        : t(" — you are the encryptor: your team decodes without you.")) : null,
    h("div", { class: "clue-sets" }, clueRow("white"), clueRow("black")),
    view.phase === "keywords" && view.my_team && (view.keyword_guesses || {})[view.my_team] ? h("p", {},
      t("Your team's guess of {team}'s keywords: ", { team: teamName(other(view.my_team)) }),
      h("strong", {}, view.keyword_guesses[view.my_team].map((w) => w || "—").join(", ")),
      view.answered[other(view.my_team)] ? "." : t(". Waiting for the other team.")) : null,
    view.team_answer ? h("p", {}, t("Your team answered "), h("strong", { class: "code" }, codeText(view.team_answer)),
      decoding ? t(" for {team}'s code.", { team: teamName(decoding) }) : ".") : null,
    guesses.length ? h("div", { class: "guess" },
      h("p", { class: "hint" }, guesses[0].team === view.my_team ? t("Decode your team's code: which keyword number did each clue point to?")
        : t("Intercept {team}'s code: which keyword number did each clue point to?", { team: teamName(guesses[0].team) })),
      h("div", { class: "codes" }, guesses.map((c) => moves.button(c, codeText(c.code), { className: "cmd-text code-btn", label: describe(c) })))) : null);
}

function examples(moves, type) {
  const list = moves.find(type);
  if (!list.length) return null;
  return h("details", { class: "more" }, h("summary", {}, t("Examples (sent as they are)")),
    h("div", { class: "moves" }, list.map((c) => moves.button(c, describe(c), { className: "cmd-text small" }))));
}

function clueForm(view, ctx, moves) {
  const example = moves.one("give_clues");
  if (!example) return null;
  const words = view.keywords[view.my_team] || [];
  const fields = [0, 1, 2].map((i) => {
    const digit = view.my_code ? view.my_code[i] : null;
    const word = digit ? words[digit - 1] : null;
    return {
      label: !digit ? t("Clue {n}", { n: i + 1 })
        : word ? t("Clue {n}: for keyword {digit} ({word})", { n: i + 1, digit, word })
          : t("Clue {n}: for keyword {digit}", { n: i + 1, digit }),
      placeholder: example.clues[i], maxlength: 60,
    };
  });
  return h("section", { class: "panel", "aria-label": t("Write your clues") },
    h("h3", {}, t("Write your 3 clues")),
    h("p", { class: "hint" }, t("One word or phrase per digit of your code, never a keyword itself nor a clue already given.")),
    textForm(ctx, "give_clues", fields, (values) => ({ clues: values }), t("Send the clues")),
    examples(moves, "give_clues"));
}

function keywordForm(view, ctx, moves) {
  const example = moves.one("guess_keywords");
  if (!example) return null;
  const target = teamName(other(view.my_team));
  const fields = [0, 1, 2, 3].map((i) => ({
    label: t("{team} keyword {n}", { team: target, n: i + 1 }), placeholder: example.words[i] || t("(blank to pass)"),
    required: false, maxlength: 60,
  }));
  return h("section", { class: "panel", "aria-label": t("Guess the keywords") },
    h("h3", {}, t("Guess {team}'s keywords", { team: target })),
    h("p", { class: "hint" }, t("Each word found at its number counts; leave a field blank to pass.")),
    textForm(ctx, "guess_keywords", fields, (values) => ({ words: values }), t("Send the guesses")),
    examples(moves, "guess_keywords"));
}

/** The note sheet: every revealed clue, under the number of the keyword it pointed to. */
function notes(view, team) {
  const columns = [[], [], [], []];
  for (const r of view.history.filter((x) => x.team === team)) {
    r.code.forEach((digit, i) => columns[digit - 1].push(r.clues[i]));
  }
  const rows = view.history.filter((x) => x.team === team);
  return h("section", { class: `panel notes team-${team}`, "aria-label": t("{team} notes", { team: teamName(team) }) },
    h("h3", {}, t("{team}'s clues so far", { team: teamName(team) })),
    h("div", { class: "sheet" }, columns.map((clues, i) => h("div", { class: "sheet-col" },
      h("span", { class: "kw-no" }, String(i + 1)), clues.length ? clues.map((c) => h("span", { class: "sheet-clue" }, c)) : h("span", { class: "muted" }, "—")))),
    rows.length ? h("table", { class: "rounds" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Round")), h("th", {}, t("Clues")), h("th", {}, t("Code")), h("th", {}, t("Own guess")), h("th", {}, t("Interception")))),
      h("tbody", {}, rows.map((r) => h("tr", {},
        h("td", {}, String(r.round)), h("td", {}, r.clues.join(", ")), h("td", { class: "code" }, codeText(r.code)),
        h("td", { class: `code ${sameCode(r.guess, r.code) ? "ok" : "miss"}` }, codeText(r.guess)),
        h("td", { class: `code ${r.interception && sameCode(r.interception, r.code) ? "ok" : ""}` }, r.interception ? codeText(r.interception) : "—"))))) : null);
}

const sameCode = (a, b) => a && b && a.join() === b.join();

function outcome(view) {
  if (!view.outcome) return null;
  const o = view.outcome;
  const guesses = view.keyword_guesses || {};
  return h("div", {},
    h("p", {}, o.winner ? t("{team} team wins with {reason}.", { team: teamName(o.winner), reason: REASONS[o.reason] ? t(REASONS[o.reason]) : o.reason })
      : t("A draw: nothing could split the teams.")),
    Object.keys(o.keywords_found || {}).length && o.tiebreak ? h("p", { class: "note" },
      t("Keywords found: White {white}, Black {black}.", { white: o.keywords_found.white ?? 0, black: o.keywords_found.black ?? 0 })) : null,
    Object.entries(guesses).filter(([, g]) => g).map(([team, g]) =>
      h("p", { class: "note" }, t("{team} guessed: {words}", { team: teamName(team), words: g.map((w) => w || "—").join(", ") }))));
}

export function renderBoard(view, ctx) {
  if (!view.teams) return board("decrypto", turnLine(view, ctx), h("p", {}, t("The game has not started.")));
  const moves = new Moves(view, ctx);
  const mine = view.my_team;
  const teams = mine ? [mine, other(mine)] : ["white", "black"];
  const phase = view.phase === "decode" && view.decoding ? t("Decoding {team}'s code.", { team: teamName(view.decoding) })
    : PHASES[view.phase] ? t(PHASES[view.phase]) : "";
  return board("decrypto",
    turnLine(view, ctx, phase),
    resultPanel(view, ctx, outcome(view)),
    h("div", { class: "screens" }, teams.map((team) => screen(view, ctx, team))),
    view.phase !== "over" ? round(view, ctx, moves) : null,
    clueForm(view, ctx, moves),
    keywordForm(view, ctx, moves),
    moves.rest(describe),
    h("div", { class: "sheets" }, teams.map((team) => notes(view, team))));
}

/** A seat's standing in the players' panel: its team and the team's tokens. */
export function standing(view, player) {
  const team = Object.keys(view.teams || {}).find((x) => view.teams[x].includes(player));
  if (!team) return null;
  const n = (view.tokens || {})[team] || { interceptions: 0, miscommunications: 0 };
  return t("{team}: {interceptions}, {miscommunications}", {
    team: language === "en" ? team : teamName(team), // English says the team's id
    interceptions: plural("{n} interception", "{n} interceptions", n.interceptions),
    miscommunications: plural("{n} miscommunication", "{n} miscommunications", n.miscommunications),
  });
}

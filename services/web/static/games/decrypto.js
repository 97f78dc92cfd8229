// The Decrypto board: each team's screen (its four numbered keywords, the other team's hidden),
// this round's code and clues, the codes as buttons to guess with, the note sheet of every clue
// given so far under its keyword number, and the tokens. Clues and keyword guesses are forms.
import { Moves, board, h, resultPanel, textForm, turnLine, who } from "./kit.js";

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

const codeText = (code) => (code ? code.join("·") : "?·?·?");
const other = (team) => (team === "white" ? "black" : "white");

function describe(c) {
  switch (c.type) {
    case "submit_guess": return `Guess ${TEAM_NAMES[c.team]}'s code ${codeText(c.code)}`;
    case "give_clues": return `Send the clues ${c.clues.map((x) => `“${x}”`).join(", ")}`;
    case "guess_keywords": return `Guess the keywords ${c.words.map((x) => `“${x}”`).join(", ")}`;
    default: return JSON.stringify(c);
  }
}

function screen(view, ctx, team) {
  const words = view.keywords[team];
  const mine = team === view.my_team;
  return h("section", { class: `panel screen team-${team}${mine ? " mine" : ""}`, "aria-label": `${TEAM_NAMES[team]} team` },
    h("h3", {}, `${TEAM_NAMES[team]} team`, mine ? h("span", { class: "you-tag" }, "your team") : null),
    h("p", { class: "members" }, view.teams[team].map((p) => h("span", { class: p === view.encryptors[team] ? "encryptor" : "" },
      who(p, ctx), p === view.encryptors[team] ? " (encryptor)" : "")).flatMap((n, i) => (i ? [", ", n] : [n]))),
    h("ol", { class: "keywords" }, [0, 1, 2, 3].map((i) => h("li", { class: words ? "word" : "word hidden" },
      h("span", { class: "kw-no" }, String(i + 1)), h("span", { class: "kw" }, words ? words[i] : "hidden")))),
    tokens(view, team));
}

function tokens(view, team) {
  const t = (view.tokens || {})[team] || { interceptions: 0, miscommunications: 0 };
  const marks = (n, cls, name) => Array.from({ length: 2 }, (_, i) =>
    h("span", { class: `token ${cls}${i < n ? " got" : ""}`, title: name }));
  return h("div", { class: "tokens" },
    h("span", { class: "token-row" }, marks(t.interceptions, "interception", "Interception"), ` Interceptions ${t.interceptions}`),
    h("span", { class: "token-row" }, marks(t.miscommunications, "miscommunication", "Miscommunication"), ` Miscommunications ${t.miscommunications}`));
}

function round(view, ctx, moves) {
  const decoding = view.decoding;
  const clueRow = (team) => {
    const clues = view.clues[team];
    return h("div", { class: `clue-set team-${team}` },
      h("h4", {}, `${TEAM_NAMES[team]} clues`, decoding === team ? " · being decoded" : ""),
      clues ? h("ol", { class: "clues" }, clues.map((c) => h("li", {}, c)))
        : h("p", { class: "muted" }, view.clues_written[team] ? "Written, shown once both teams have written." : "Not written yet."));
  };
  const guesses = moves.find("submit_guess");
  return h("section", { class: "panel round", "aria-label": "This round" },
    h("h3", {}, `Round ${view.round}${view.max_rounds ? ` of ${view.max_rounds}` : ""}`),
    view.my_code && view.phase !== "keywords" ? h("p", { class: "code-card" }, "Your code: ", h("strong", { class: "code" }, codeText(view.my_code)),
      view.phase === "clues" ? " — write one clue per digit, for the keyword with that number."
        : " — you are the encryptor: your team decodes without you.") : null,
    h("div", { class: "clue-sets" }, clueRow("white"), clueRow("black")),
    view.phase === "keywords" && view.my_team && (view.keyword_guesses || {})[view.my_team] ? h("p", {},
      `Your team's guess of ${TEAM_NAMES[other(view.my_team)]}'s keywords: `,
      h("strong", {}, view.keyword_guesses[view.my_team].map((w) => w || "—").join(", ")),
      view.answered[other(view.my_team)] ? "." : ". Waiting for the other team.") : null,
    view.team_answer ? h("p", {}, "Your team answered ", h("strong", { class: "code" }, codeText(view.team_answer)),
      decoding ? ` for ${TEAM_NAMES[decoding]}'s code.` : ".") : null,
    guesses.length ? h("div", { class: "guess" },
      h("p", { class: "hint" }, guesses[0].team === view.my_team ? `Decode your team's code: which keyword number did each clue point to?`
        : `Intercept ${TEAM_NAMES[guesses[0].team]}'s code: which keyword number did each clue point to?`),
      h("div", { class: "codes" }, guesses.map((c) => moves.button(c, codeText(c.code), { className: "cmd-text code-btn", label: describe(c) })))) : null);
}

function examples(moves, type) {
  const list = moves.find(type);
  if (!list.length) return null;
  return h("details", { class: "more" }, h("summary", {}, "Examples (sent as they are)"),
    h("div", { class: "moves" }, list.map((c) => moves.button(c, describe(c), { className: "cmd-text small" }))));
}

function clueForm(view, ctx, moves) {
  const example = moves.one("give_clues");
  if (!example) return null;
  const words = view.keywords[view.my_team] || [];
  const fields = [0, 1, 2].map((i) => {
    const digit = view.my_code ? view.my_code[i] : null;
    return {
      label: digit ? `Clue ${i + 1}: for keyword ${digit}${words[digit - 1] ? ` (${words[digit - 1]})` : ""}` : `Clue ${i + 1}`,
      placeholder: example.clues[i], maxlength: 60,
    };
  });
  return h("section", { class: "panel", "aria-label": "Write your clues" },
    h("h3", {}, "Write your 3 clues"),
    h("p", { class: "hint" }, "One word or phrase per digit of your code, never a keyword itself nor a clue already given."),
    textForm(ctx, "give_clues", fields, (values) => ({ clues: values }), "Send the clues"),
    examples(moves, "give_clues"));
}

function keywordForm(view, ctx, moves) {
  const example = moves.one("guess_keywords");
  if (!example) return null;
  const target = other(view.my_team);
  const fields = [0, 1, 2, 3].map((i) => ({
    label: `${TEAM_NAMES[target]} keyword ${i + 1}`, placeholder: example.words[i] || "(blank to pass)", required: false, maxlength: 60,
  }));
  return h("section", { class: "panel", "aria-label": "Guess the keywords" },
    h("h3", {}, `Guess ${TEAM_NAMES[target]}'s keywords`),
    h("p", { class: "hint" }, "Each word found at its number counts; leave a field blank to pass."),
    textForm(ctx, "guess_keywords", fields, (values) => ({ words: values }), "Send the guesses"),
    examples(moves, "guess_keywords"));
}

/** The note sheet: every revealed clue, under the number of the keyword it pointed to. */
function notes(view, team) {
  const columns = [[], [], [], []];
  for (const r of view.history.filter((x) => x.team === team)) {
    r.code.forEach((digit, i) => columns[digit - 1].push(r.clues[i]));
  }
  const rows = view.history.filter((x) => x.team === team);
  return h("section", { class: `panel notes team-${team}`, "aria-label": `${TEAM_NAMES[team]} notes` },
    h("h3", {}, `${TEAM_NAMES[team]}'s clues so far`),
    h("div", { class: "sheet" }, columns.map((clues, i) => h("div", { class: "sheet-col" },
      h("span", { class: "kw-no" }, String(i + 1)), clues.length ? clues.map((c) => h("span", { class: "sheet-clue" }, c)) : h("span", { class: "muted" }, "—")))),
    rows.length ? h("table", { class: "rounds" },
      h("thead", {}, h("tr", {}, h("th", {}, "Round"), h("th", {}, "Clues"), h("th", {}, "Code"), h("th", {}, "Own guess"), h("th", {}, "Interception"))),
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
    h("p", {}, o.winner ? `${TEAM_NAMES[o.winner]} team wins with ${REASONS[o.reason] || o.reason}.` : "A draw: nothing could split the teams."),
    Object.keys(o.keywords_found || {}).length && o.tiebreak ? h("p", { class: "note" },
      `Keywords found: White ${o.keywords_found.white ?? 0}, Black ${o.keywords_found.black ?? 0}.`) : null,
    Object.entries(guesses).filter(([, g]) => g).map(([team, g]) =>
      h("p", { class: "note" }, `${TEAM_NAMES[team]} guessed: ${g.map((w) => w || "—").join(", ")}`)));
}

export function renderBoard(view, ctx) {
  if (!view.teams) return board("decrypto", turnLine(view, ctx), h("p", {}, "The game has not started."));
  const moves = new Moves(view, ctx);
  const mine = view.my_team;
  const teams = mine ? [mine, other(mine)] : ["white", "black"];
  const phase = view.phase === "decode" && view.decoding ? `Decoding ${TEAM_NAMES[view.decoding]}'s code.` : PHASES[view.phase] || "";
  return board("decrypto",
    turnLine(view, ctx, phase),
    resultPanel(view, ctx, outcome(view)),
    h("div", { class: "screens" }, teams.map((t) => screen(view, ctx, t))),
    view.phase !== "over" ? round(view, ctx, moves) : null,
    clueForm(view, ctx, moves),
    keywordForm(view, ctx, moves),
    moves.rest(describe),
    h("div", { class: "sheets" }, teams.map((t) => notes(view, t))));
}

/** A seat's standing in the players' panel: its team and the team's tokens. */
export function standing(view, player) {
  const team = Object.keys(view.teams || {}).find((t) => view.teams[t].includes(player));
  if (!team) return null;
  const t = (view.tokens || {})[team] || { interceptions: 0, miscommunications: 0 };
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${team}: ${plural(t.interceptions, "interception")}, ${plural(t.miscommunications, "miscommunication")}`;
}

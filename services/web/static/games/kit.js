// What the five boards share: building DOM, the buttons and forms that send legal commands,
// the turn line and the result panel. Plain DOM, no framework.
import { addFrench, language, t } from "../i18n.js";

// The French of the texts below (the boards register their own).
addFrench({
  "{player} (you)": "{player} (vous)",
  "The game is over.": "La partie est terminée.",
  "Your move (also waiting for {players}).": "À vous de jouer (on attend aussi : {players}).",
  "Your move.": "À vous de jouer.",
  "Waiting for {players}.": "On attend : {players}.",
  "How the game ended": "Comment la partie s'est terminée",
  "Game abandoned": "Partie abandonnée",
  "This table ended before anyone won.": "Cette table s'est terminée sans gagnant.",
  "Result": "Résultat",
  "Winner: {players}": "Victoire : {players}",
  "Winners: {players}": "Victoire : {players}",
  "No winner": "Personne ne gagne",
});

/** An element: h("div", {class: "x", onclick: f, "aria-label": "y"}, child, "text", [more]). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** A player's id as shown, with "(you)" for the viewer's own seat. */
export function who(player, ctx) {
  return player === ctx.seat ? t("{player} (you)", { player }) : player;
}

/**
 * The legal commands of a view, handed out to the board's clickable things. Each command taken
 * becomes one <button data-command> that sends it; `rest()` gives buttons for those the board
 * did not place, so every legal move is always on the page.
 */
export class Moves {
  constructor(view, ctx) {
    this.ctx = ctx;
    this.legal = view.legal || [];
    this.placed = new Set();
  }

  /** The legal commands of `type` whose fields equal `fields` (a subset match). */
  find(type, fields = {}) {
    return this.legal.filter((c) => c.type === type &&
      Object.entries(fields).every(([k, v]) => JSON.stringify(c[k]) === JSON.stringify(v)));
  }

  /** The first legal command of `type` with `fields`, or undefined. */
  one(type, fields = {}) {
    return this.find(type, fields)[0];
  }

  /**
   * A button that sends `command` (taken from `legal`); `content` is what it shows, `label`
   * its accessible name when the content is a picture. Disabled when the page only shows.
   */
  button(command, content, { label = null, className = "" } = {}) {
    this.placed.add(command);
    const button = h("button", {
      type: "button",
      class: `cmd ${className}`.trim(),
      "data-command": JSON.stringify(command),
      "aria-label": label,
      title: label,
      disabled: !this.ctx.interactive,
    }, content);
    button.addEventListener("click", () => this.ctx.act(command));
    return button;
  }

  /** `element` as it is, or wrapped in a button when `command` is legal. */
  wrap(command, element, options = {}) {
    if (!command) return element;
    const button = this.button(command, element, options);
    button.classList.add("cmd-wrap");
    return button;
  }

  /** Buttons for the legal commands no part of the board took, labelled by `describe`
   * (null when the board placed them all). */
  rest(describe) {
    const left = this.legal.filter((c) => !this.placed.has(c));
    if (!left.length) return null;
    return h("div", { class: "moves" }, left.map((c) => this.button(c, describe(c), { className: "cmd-text" })));
  }
}

/**
 * A free-text form: `<form data-command-type=type>` with one labelled input per field; on
 * submit it sends `build(values, form)` (values in input order). `fields`: [{label,
 * placeholder, required, maxlength}]; `before`: other controls (such as a choice of card)
 * put ahead of the text fields, which `build` reads from the form.
 */
export function textForm(ctx, type, fields, build, submitText, before = null) {
  const inputs = fields.map((f, i) => h("input", {
    type: "text", name: `${type}-${i}`, placeholder: f.placeholder || "", maxlength: f.maxlength || 280,
    autocomplete: "off", required: f.required !== false, disabled: !ctx.interactive,
  }));
  const form = h("form", { class: "text-form", "data-command-type": type }, before,
    fields.map((f, i) => h("label", { class: "text-field" }, h("span", {}, f.label), inputs[i])),
    h("button", { type: "submit", class: "primary", disabled: !ctx.interactive }, submitText));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!ctx.interactive) return;
    ctx.act({ type, ...build(inputs.map((i) => i.value.trim()), form) });
  });
  return form;
}

/** The line above a board that says what is going on and who must act. */
export function turnLine(view, ctx, waitingFor) {
  if (view.status === "ended") return h("p", { class: "turn-line" }, t("The game is over."));
  const toAct = view.to_act || [];
  const mine = ctx.interactive && view.legal && view.legal.length > 0;
  const others = toAct.filter((p) => p !== ctx.seat);
  let text;
  if (mine) text = others.length ? t("Your move (also waiting for {players}).", { players: others.join(", ") }) : t("Your move.");
  else if (toAct.length) text = t("Waiting for {players}.", { players: toAct.map((p) => who(p, ctx)).join(", ") });
  else text = "";
  return h("p", { class: `turn-line${mine ? " mine" : ""}`, role: "status" }, text,
    waitingFor ? h("span", { class: "turn-detail" }, " ", waitingFor) : null);
}

/** The result of an ended table: ranking with scores, winners, and the game's own why. */
export function resultPanel(view, ctx, why = null) {
  const result = view.result;
  if (!result) return null;
  // the page around the board shows the ranking already: the board adds only the game's why
  if (ctx.resultShown) {
    return why ? h("section", { class: "result", "aria-label": t("How the game ended") }, why) : null;
  }
  if (result.details && result.details.abandoned) {
    return h("section", { class: "result" }, h("h3", {}, t("Game abandoned")),
      h("p", {}, t("This table ended before anyone won.")));
  }
  const winners = result.winners || [];
  const named = winners.map((p) => who(p, ctx)).join(", ");
  return h("section", { class: "result", "aria-label": t("Result") },
    h("h3", {}, winners.length > 1 ? t("Winners: {players}", { players: named })
      : winners.length ? t("Winner: {players}", { players: named }) : t("No winner")),
    h("ol", { class: "ranking" }, (result.ranking || []).map((r) =>
      h("li", { class: winners.includes(r.player) ? "winner" : "" },
        h("span", { class: "rank" }, `#${r.rank}`), " ", who(r.player, ctx),
        h("span", { class: "score" }, String(r.score))))),
    why);
}

/** The board's outer element, with the game's class, in the page's language (its words are
 * hyphenated as that language does). */
export function board(game, ...children) {
  return h("div", { class: `board board-${game}`, lang: language }, ...children);
}

// The tabletop web client: one page, hash routes, plain DOM. The browser talks to NATS over
// WebSocket with the official client, signed in as the player (or a guest): the broker applies
// the same permissions as to any other client, and this server only hands out files.
import { h } from "./games/kit.js";
import { LANGUAGES, chooseLanguage, helpOf, language, logOf, t } from "./i18n.js";
import { wsconnect } from "./vendor/nats.js";
import "./app.fr.js"; // the French of this module's texts

const main = document.getElementById("main");
const nav = document.getElementById("nav");
const statusLine = document.getElementById("status");
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const SESSION_KEY = "tabletop.session";
const RECENT_KEY = "tabletop.recent";
const SPECTATOR = "spectator";
const REQUEST_TIMEOUT_MS = 5000;

let config = null;
let nc = null; // the NATS connection
let me = null; // {name, guest, token}: a player's session token, never its password
let page = null; // the page shown: {stop(), resync()}
let afterSignIn = null; // the address asked for before signing in
let signInNotice = ""; // why the sign-in form is shown again, if it is

// --- small helpers ---------------------------------------------------------------------------

function randomHex(bytes) {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** "max_rounds" -> "Max rounds". */
function humanize(key) {
  const text = String(key).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

let labels = {}; // the shown game's ids in the page's language (its French help's `labels`)

/** The words of the game shown (its French help's `labels`), in French only. */
function useLabels(info) {
  labels = (language !== "en" && info && helpOf(info).labels) || {};
}

/** An id as words, capitalised: "max_rounds" -> "Max rounds"; in French the game's own
 * words for it (its `labels`), else the catalogue's. */
function named(id) {
  const english = humanize(id);
  if (language === "en" || !/[a-z]/i.test(english)) return english; // a number is no word
  return labels[id] ?? t(english);
}

/** `text` with a small first letter (a capitalised label in the middle of a line). */
function lowerFirst(text) {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A number with one decimal (a rating), written as the page's language writes it. */
function decimal(value) {
  return language === "en" ? value.toFixed(1)
    : value.toLocaleString(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

let players = new Set(); // the ids of the table shown: keys that are not humanized

/** A value as words: "final_round" -> "final round", "torii_1" -> "torii 1"; a player's
 * name as it is. */
function spoken(value) {
  const text = String(value);
  if (players.has(text) || !/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(text)) return text;
  return language === "en" ? text.replace(/_/g, " ") : lowerFirst(named(text));
}

/** Any JSON value as something a person reads: lists, and definition lists for objects. */
function readable(value) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, t("none"));
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (typeof value !== "object") return spoken(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "muted" }, t("none"));
    if (value.every((v) => v === null || typeof v !== "object")) {
      return value.map((v) => (v === null ? "?" : spoken(v))).join(", ");
    }
    return h("ol", { class: "readable" }, value.map((v) => h("li", {}, readable(v))));
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return h("span", { class: "muted" }, t("none"));
  return h("dl", { class: "readable" },
    keys.map((k) => [h("dt", {}, players.has(k) ? k : named(k)), h("dd", {}, readable(value[k]))]));
}

function gameInfo(game) {
  return config.games.find((g) => g.game === game) || null;
}

function gameOfTable(table) {
  const prefix = String(table).split("-")[0];
  return gameInfo(prefix) ? prefix : null;
}

function showStatus(text) {
  statusLine.textContent = text;
  statusLine.hidden = !text;
}

function remember(game, table) {
  const recent = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]")
    .filter((r) => !(r.game === game && r.table === table));
  recent.unshift({ game, table });
  localStorage.setItem(RECENT_KEY, JSON.stringify(recent.slice(0, 12)));
}

// --- NATS -------------------------------------------------------------------------------------

function isId(text) {
  return /^[A-Za-z0-9_-]{1,64}$/.test(text);
}

/** Connect as `session`: a player's session token (alone: the name is in it), a player's name
 * and password (only to ask for a token), or a guest's name. A reconnect presents the same. */
/** A player's name, linked to their profile; a bot's seat is no person: plain text. */
function playerLink(name) {
  if (String(name).startsWith(config.bot_seat_prefix)) return h("span", {}, name);
  return h("a", { class: "player", href: `#/player/${encodeURIComponent(name)}` }, name);
}

/** Nodes with `separator` between them ("ann, bob and cat" reads as "ann, bob, cat"). */
function joined(nodes, separator = ", ") {
  return nodes.flatMap((node, i) => (i ? [separator, node] : [node]));
}

/** A rating as shown: one decimal, and a question mark while it is provisional. */
function ratingText(record) {
  return `${decimal(record.rating)}${record.provisional ? "?" : ""}`;
}

/** A rating change: "+1.6" / "−0.8" (a signed number a screen reader reads as such). */
function changeText(before, after) {
  const change = after - before;
  return `${change >= 0 ? "+" : "−"}${decimal(Math.abs(change))}`;
}

// The refusals a person meets most, said in the page's language (the server says them in
// English); any other code shows the server's own message.
const REFUSALS = {
  not_your_turn: "It is not your turn.",
  not_seated: "You have no seat at this table.",
  already_seated: "You already have a seat at this table.",
  already_started: "The game has already started.",
  not_started: "The game has not started yet.",
  game_over: "The game at this table is over.",
  game_not_over: "A rematch is offered once the game is over.",
  table_full: "All the seats are taken.",
  table_exists: "A table with this id already exists.",
  not_creator: "Only the table's creator can start the game.",
  not_enough_players: "Not enough players are seated to start.",
  unknown_table: "There is no such table.",
  unknown_game: "There is no such game.",
  stale_version: "The table changed meanwhile: look again and decide.",
  seat_played_by_bot: "A bot plays this seat; its player can no longer act here.",
  out_of_time: "Your clock has run out; the move came too late.",
  nothing_to_undo: "There is no move of yours to take back now.",
  no_rematch: "Nobody has offered a rematch.",
  already_answered: "You have answered this rematch already.",
  bad_option: "An option is not valid: check the form's values.",
  bad_command: "This command is not valid.",
  bad_request: "This request is not valid.",
  not_allowed: "This is not allowed.",
  not_ready: "The table is being set up; try again.",
  conflict: "The table kept changing while this command was decided; send it again.",
  unavailable: "The server is unavailable for a moment; try again.",
  outcome_unknown: "Whether this was done is not known yet; try again.",
  internal_error: "The server failed on this; nothing was done.",
  storage_full: "The server's storage is full; nothing was done.",
  history_full: "This table holds the most moves a table may hold; play on at a new table.",
  id_reused: "This command's id was already used; nothing was done.",
  rate_limited: "You are saying a lot: wait {seconds} s before your next line.",
};

/** What a refusal (a reply's `error`) says to a person: the server's message; in French,
 * the French of its code when the client has one. */
function refusalText(error) {
  if (!error) return "";
  if (language === "en" || !(error.code in REFUSALS)) return error.message;
  return t(REFUSALS[error.code], { seconds: Math.ceil((error.retry_after_ms || 0) / 1000) });
}

async function connect(session) {
  const connection = await wsconnect({
    servers: config.websocket,
    user: session.token ? undefined : session.name,
    pass: session.token ? undefined : session.password || undefined,
    token: session.token || undefined,
    inboxPrefix: `_INBOX_${session.name}`,
    name: "tabletop-web",
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  });
  (async () => {
    for await (const s of connection.status()) {
      if (s.type === "disconnect") showStatus(t("Connection lost: reconnecting…"));
      if (s.type === "reconnect") {
        showStatus("");
        if (page && page.resync) page.resync();
      }
    }
  })();
  connection.closed().then((err) => {
    if (nc !== connection) return;
    if (session.token && /authoriz/i.test(String(err && err.message))) {
      // the token was refused on a reconnect: revoked or expired meanwhile
      localStorage.removeItem(SESSION_KEY);
      signedOut(t("Your session has expired or was signed out: sign in again."));
    } else {
      showStatus(t("Disconnected from the game server. Reload the page."));
    }
  });
  return connection;
}

// Answers after which the same request (a command with the same id) is sent again.
const SEND_AGAIN = new Set(["unavailable", "outcome_unknown"]);

/** A request, asked again (the same body: commands carry their id, so they apply once) when no
 * answer comes or the answer says to (the log was unavailable for a moment, or whether the
 * command was applied is not known yet), after a backoff drawn at random so that clients
 * that failed together do not all ask again at once. */
async function ask(subject, body) {
  const payload = encoder.encode(JSON.stringify(body));
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= 4;
    try {
      const message = await nc.request(subject, payload, { timeout: REQUEST_TIMEOUT_MS });
      const reply = JSON.parse(decoder.decode(message.data));
      if (last || !(reply.error && SEND_AGAIN.has(reply.error.code))) return reply;
    } catch (err) {
      if (last) throw err;
    }
    const backoff = Math.min(200 * 2 ** attempt, 2000) * (0.5 + Math.random() / 2);
    await new Promise((resolve) => setTimeout(resolve, backoff));
  }
}

/** Every message on `subject` from now on, read as JSON and handed to `take`; `what` names it
 * in the console if it cannot be taken. Returns the subscription. */
function follow(subject, take, what) {
  const sub = nc.subscribe(subject);
  (async () => {
    for await (const message of sub) {
      try {
        take(JSON.parse(decoder.decode(message.data)));
      } catch (err) {
        console.error(`${what} could not be taken:`, err);
      }
    }
  })();
  return sub;
}

function sendCommand(game, table, command) {
  // a seat taken adds this browser's own randomness to the table's seed (docs/fairness.md)
  const seated = command.type === "create" || command.type === "join" ? { entropy: randomHex(32) } : {};
  return ask(`tabletop.cmd.${game}.${table}.${me.name}`, { id: randomHex(16), ...seated, ...command });
}

let replayKnowsViews = true; // older services refuse the `views` field of a replay request

/** Every replay step of a table from `first` for `viewer`, following `next`. `views` is
 * "every" or "none" (a service without that option sends every step's view anyway). */
async function replaySteps(game, table, viewer, first, views) {
  const steps = [];
  let from = first;
  for (;;) {
    const body = { from, to: null };
    if (replayKnowsViews) body.views = views;
    const reply = await ask(`tabletop.replay.${game}.${table}.${viewer}`, body);
    if (reply.error) {
      if (reply.error.code === "bad_request" && replayKnowsViews) {
        replayKnowsViews = false;
        continue;
      }
      throw Object.assign(new Error(refusalText(reply.error)), { code: reply.error.code });
    }
    steps.push(...reply.steps);
    if (reply.next === undefined || reply.next === null) return steps;
    from = reply.next;
  }
}

/** A step's lines for the log: its `log` texts (in the page's language), else its events'
 * types. */
function stepTexts(step) {
  if (Array.isArray(step.log)) return logOf(step);
  return step.events.map((e) => named(e.type));
}

function logEntry(step, attrs = {}) {
  const texts = stepTexts(step);
  if (texts.length === 0) return null;
  return h("li", { "data-version": step.version, ...attrs },
    h("span", { class: "log-version" }, `#${step.version}`),
    h("span", { class: "log-texts" }, texts.map((text) => h("span", { class: "log-text" }, text))));
}

// --- the boards -------------------------------------------------------------------------------

const boards = {};

/** The game's board module, or null when it is missing or fails to load. */
function boardModule(game) {
  if (!(game in boards)) {
    const css = h("link", { rel: "stylesheet", href: `games/${game}.css` });
    document.head.append(css);
    boards[game] = import(`./games/${game}.js`).then(
      (module) => (typeof module.renderBoard === "function" ? module : null),
      (err) => {
        console.warn(`no board for ${game}:`, err);
        return null;
      });
  }
  return boards[game];
}

/** The game's own view fields as a readable list: the board of a game without one (the
 * table's keys are drawn by the table page; `free_text` only shapes the command forms). */
function genericBoard(view) {
  const skip = new Set([...config.reserved_view_keys, "free_text"]);
  const fields = Object.fromEntries(Object.entries(view).filter(([k]) => !skip.has(k)));
  return h("div", { class: "generic-board" }, readable(fields));
}

function drawBoard(module, view, ctx) {
  players = new Set(view.seats || []);
  if (module) {
    try {
      const node = module.renderBoard(view, ctx);
      if (node instanceof Node) return node;
    } catch (err) {
      console.error("the board failed to draw this view:", err);
    }
  }
  return genericBoard(view);
}

// --- motion: a card or die that moved glides from where it was, a new one fades in ------------

const MOVE_MS = 320;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Where each card and die of `root` is on screen, by its id (an id shown twice is left out:
 * which of the two moved cannot be told). */
function placesOf(root) {
  const found = new Map();
  const twice = new Set();
  for (const node of root.querySelectorAll("[data-card], [data-die]")) {
    const key = node.dataset.card !== undefined ? `card:${node.dataset.card}` : `die:${node.dataset.die}`;
    if (found.has(key)) twice.add(key);
    else found.set(key, node);
  }
  for (const key of twice) found.delete(key);
  return found;
}

/** Replace `box`'s board by `board`, animating what moved (FLIP: the new place is drawn, then
 * each piece starts from its former place and glides in). Nothing moves for a player who asked
 * their system for reduced motion. */
function showBoard(box, board) {
  const shown = box.firstElementChild;
  if (!shown || reducedMotion.matches) {
    box.replaceChildren(board);
    return;
  }
  const before = new Map([...placesOf(shown)].map(([key, node]) => [key, node.getBoundingClientRect()]));
  box.replaceChildren(board);
  for (const [key, node] of placesOf(board)) {
    const was = before.get(key);
    const now = node.getBoundingClientRect();
    if (!was) {
      node.animate([{ opacity: 0, transform: "scale(0.85)" }, { opacity: 1, transform: "none" }],
        { duration: MOVE_MS, easing: "ease-out" });
    } else if (Math.abs(was.left - now.left) > 2 || Math.abs(was.top - now.top) > 2) {
      node.animate([{ transform: `translate(${was.left - now.left}px, ${was.top - now.top}px)` },
        { transform: "none" }], { duration: MOVE_MS, easing: "ease-out" });
    }
  }
}

function commandLabel(command) {
  const fields = Object.entries(command).filter(([k]) => k !== "type")
    .map(([k, v]) => t("{name}: {value}", { name: named(k).toLowerCase(), value: Array.isArray(v) ? v.join(" ") : v }));
  return fields.length ? `${named(command.type)} (${fields.join(", ")})` : named(command.type);
}

/** A form for a free-text command: one labelled input per free field (one per item of a
 * list), the legal example as placeholder; an empty input sends the example. */
function freeTextForm(example, freeFields, act, interactive) {
  const inputs = [];
  const fixed = Object.fromEntries(Object.entries(example).filter(([k]) => !freeFields.includes(k)));
  const fixedText = Object.entries(fixed).filter(([k]) => k !== "type")
    .map(([k, v]) => `${named(k).toLowerCase()} ${v}`).join(", ");
  const rows = [];
  for (const field of freeFields) {
    const values = Array.isArray(example[field]) ? example[field] : [example[field]];
    values.forEach((placeholder, i) => {
      const id = `f-${randomHex(6)}`;
      const label = Array.isArray(example[field]) ? `${named(field)} ${i + 1}` : named(field);
      const input = h("input", { id, type: "text", name: field, placeholder: placeholder ?? "",
        autocomplete: "off", maxlength: 60, disabled: !interactive });
      inputs.push({ field, list: Array.isArray(example[field]), input });
      rows.push(h("div", { class: "field" }, h("label", { for: id }, t("{label} (free text)", { label })), input));
    });
  }
  const form = h("form", { class: "free-form", "data-command-type": example.type },
    h("p", { class: "form-title" }, named(example.type), fixedText ? ` — ${fixedText}` : ""),
    rows, h("button", { type: "submit", disabled: !interactive }, t("Send")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const command = { ...fixed };
    for (const { field, list, input } of inputs) {
      const value = input.value.trim() || input.placeholder;
      if (list) (command[field] ||= []).push(value);
      else command[field] = value;
    }
    act(command);
  });
  return form;
}

/** Buttons and forms for the legal commands the board did not render itself. */
function otherMoves(view, boardNode, act, interactive) {
  const legal = view.legal || [];
  const rendered = new Set(Array.from(boardNode.querySelectorAll("[data-command]"),
    (n) => n.getAttribute("data-command")));
  const formTypes = new Set(Array.from(boardNode.querySelectorAll("form[data-command-type]"),
    (n) => n.getAttribute("data-command-type")));
  const freeText = view.free_text || {};
  const items = [];
  for (const command of legal) {
    const json = JSON.stringify(command);
    if (rendered.has(json) || formTypes.has(command.type) || command.type === "undo") continue; // undo: above
    if (freeText[command.type]) {
      items.push(freeTextForm(command, freeText[command.type], act, interactive));
    } else {
      items.push(h("button", { type: "button", class: "move", "data-command": json,
        disabled: !interactive, onclick: () => act(command) }, commandLabel(command)));
    }
  }
  if (items.length === 0) return null;
  return h("section", { class: "other-moves", "aria-label": t("Moves") },
    h("h2", {}, t("Moves")), h("div", { class: "move-list" }, items));
}

/** The result of a table; `ratings` ({player: their entry of this table in their history},
 * null until asked for) adds each player's rating change. */
function resultPanel(result, ratings = null) {
  if (!result) return null;
  const rated = Boolean(ratings && Object.keys(ratings).length);
  const winners = result.winners || [];
  const details = result.details || {};
  const forfeited = details.forfeited || [];
  return h("section", { id: "result", class: "result", "aria-label": t("Result"),
    "data-ratings": ratings ? "loaded" : null },
    h("h2", {}, t("Result")),
    h("p", { class: "winners" }, winners.length === 0 ? t("No winner.")
      : winners.length === 1 ? t("{player} wins.", { player: winners[0] })
        : t("Winners: {players}.", { players: winners.join(", ") })),
    details.idle ? h("p", { class: "idle" }, t("Nobody moved for a long time: the game was closed.")) : null,
    forfeited.length ? h("p", { class: "forfeited" }, forfeited.length === 1
      ? t("{players} left the game: ranked last, whatever the bot scored.", { players: forfeited.join(", ") })
      : t("{players} left the game: all ranked last, whatever the bot scored.", { players: forfeited.join(", ") }))
      : null,
    (result.ranking || []).length ? h("table", { class: "ranking" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rank")), h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col" }, t("Score")),
        rated ? h("th", { scope: "col" }, t("Rating")) : null)),
      h("tbody", {}, result.ranking.map((r) => h("tr", {}, h("td", {}, r.rank),
        h("th", { scope: "row" }, playerLink(r.player)), h("td", {}, r.score),
        rated ? h("td", { class: "rating-change" }, ratingCell(ratings[r.player])) : null)))) : null,
    result.details && Object.keys(result.details).length
      ? h("details", { open: true }, h("summary", {}, t("Why")), readable(result.details)) : null);
}

function ratingCell(entry) {
  if (!entry) return "";
  if (!entry.rated) return h("span", { class: "muted" }, t("unrated"));
  const change = entry.rating_after - entry.rating_before;
  return h("span", {}, decimal(entry.rating_after), " ",
    h("span", { class: change >= 0 ? "up" : "down" }, `(${changeText(entry.rating_before, entry.rating_after)})`));
}

/** Each person's entry of `table` in their history, asked until the results projector has
 * folded the table's end (it follows the log a moment behind the views). */
async function ratingsOf(game, table, ranking, isStopped) {
  const people = ranking.map((r) => r.player).filter((p) => !p.startsWith(config.bot_seat_prefix));
  const found = {};
  for (let attempt = 0; attempt < 20 && !isStopped(); attempt++) {
    for (const player of people.filter((p) => !(p in found))) {
      const reply = await ask(`tabletop.history.${player}`, { game, limit: 20 });
      const entry = reply.tables && reply.tables.find((row) => row.table === table);
      if (entry) found[player] = entry;
    }
    if (Object.keys(found).length === people.length) return found;
    await new Promise((resolve) => setTimeout(resolve, 250 * Math.min(attempt + 1, 4)));
  }
  return found;
}

// --- your turn: the tab's title and icon, a sound, a notification ---------------------------

const ALERTS_KEY = "tabletop.alerts"; // {"sound", "notify"}: the player's choices, in this browser
let audio = null;

function alertSettings() {
  return { sound: true, notify: true, ...JSON.parse(localStorage.getItem(ALERTS_KEY) || "{}") };
}

function keepAlertSetting(key, value) {
  localStorage.setItem(ALERTS_KEY, JSON.stringify({ ...alertSettings(), [key]: value }));
}

/** The tab says whose turn it is: its title starts with "Your turn" and its icon has a dot, so
 * a player in another tab sees it at a glance. */
function showTurnInTab(mine, title) {
  document.title = mine ? t("Your turn · {title} · tabletop", { title }) : `${title} · tabletop`;
  document.getElementById("icon")?.setAttribute("href", mine ? "icon-turn.svg" : "icon.svg");
}

/** The turn just became this player's: a chime (unless turned off) and, while the tab is
 * hidden, a notification if the player allowed them. */
function callToTurn(title, table) {
  if (alertSettings().sound) {
    try {
      audio = audio || new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch (err) {
      console.warn("no sound:", err);
    }
  }
  if (document.visibilityState === "hidden" && alertSettings().notify && "Notification" in window &&
    Notification.permission === "granted") {
    const note = new Notification(t("Your turn at {title}", { title }), { body: table, tag: table, icon: "icon-turn.svg" });
    note.onclick = () => { window.focus(); note.close(); };
  }
}

/** The player's choices of alerts, each switchable off: the chime, and notifications (the
 * browser's permission asked once, when they are first switched on). */
function alertControls() {
  const settings = alertSettings();
  const sound = h("input", { type: "checkbox", id: "alert-sound", checked: settings.sound });
  sound.addEventListener("change", () => keepAlertSetting("sound", sound.checked));
  const supported = "Notification" in window && Notification.permission !== "denied";
  const notify = h("input", { type: "checkbox", id: "alert-notify",
    checked: supported && settings.notify && Notification.permission === "granted" });
  notify.addEventListener("change", async () => {
    if (notify.checked && Notification.permission === "default") {
      notify.checked = (await Notification.requestPermission()) === "granted";
    }
    keepAlertSetting("notify", notify.checked);
  });
  return h("p", { class: "alerts muted" },
    h("label", { for: "alert-sound" }, sound, " ", t("A chime when it is my turn")),
    supported ? [" · ", h("label", { for: "alert-notify" }, notify, " ",
      t("A notification when it is my turn and this tab is hidden"))] : null);
}

/** What shows a table's result in a box: the result panel, then, once the results projector
 * gives them (asked once), each player's rating change in it. */
function ratedResults(game, table, isStopped) {
  let ratings = null;
  let asked = false;
  return (box, result) => {
    box.replaceChildren(...[resultPanel(result, ratings)].filter(Boolean));
    if (asked || !(result?.ranking || []).length) return;
    asked = true;
    ratingsOf(game, table, result.ranking, isStopped).catch((err) => {
      console.warn("the ratings did not load:", err);
      return {};
    }).then((found) => {
      ratings = found;
      if (!isStopped() && box.firstElementChild) box.replaceChildren(resultPanel(result, ratings));
    });
  };
}

function turnText(view, seat) {
  if (view.status === "open") {
    return `${t("Waiting for players: {taken} of {count} seats taken.", { taken: view.seats.length, count: view.seat_count })} ${
      view.creator === seat ? t("You start the game.") : t("{player} starts the game.", { player: view.creator })}`;
  }
  if (view.status === "ended") return t("The game is over.");
  const acting = view.to_act || [];
  const others = acting.filter((p) => p !== seat);
  if (seat && acting.includes(seat)) {
    return others.length ? t("Your turn (with {players}).", { players: others.join(", ") }) : t("Your turn.");
  }
  return acting.length ? t("Waiting for {players}.", { players: acting.join(", ") }) : "";
}

// --- pages ------------------------------------------------------------------------------------

function signInPage() {
  const nameId = "signin-name";
  const passId = "signin-password";
  const error = h("p", { class: "error", role: "alert" }, signInNotice);
  signInNotice = "";
  const name = h("input", { id: nameId, name: "name", required: true, autocomplete: "username",
    pattern: "[A-Za-z0-9_\\-]{1,64}", maxlength: 64 });
  const password = h("input", { id: passId, name: "password", type: "password", required: true,
    minlength: 8, maxlength: 1024, autocomplete: "current-password" });
  const submit = h("button", { type: "submit" }, t("Sign in"));
  const form = h("form", { class: "signin", id: "signin" },
    h("div", { class: "field" }, h("label", { for: nameId }, t("Name")), name,
      h("small", {}, t("Letters, digits, - and _."))),
    h("div", { class: "field" }, h("label", { for: passId }, t("Password")), password,
      h("small", {}, t("At least 8 characters. The first sign-in with a new name registers it."))),
    submit, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (!isId(name.value) || /^guest/i.test(name.value)) {
      error.textContent = t("Choose a name of letters, digits, - and _ that does not start with 'guest'.");
      return;
    }
    submit.disabled = true;
    await signIn({ name: name.value, password: password.value, guest: false }, error);
    submit.disabled = false;
  });
  const guest = h("button", { type: "button", id: "watch-as-guest", class: "secondary",
    onclick: () => signIn({ name: `guest-${randomHex(4)}`, password: null, guest: true }, error) },
  t("Watch as a guest"));
  main.replaceChildren(
    h("h1", {}, t("Sign in")),
    h("p", {}, t("Play Naishi, Dozito, Decrypto, Illustori and Diced Tomatoes with others.")),
    form,
    h("p", {}, t("Or look without an account: guests watch tables and replays.")), guest);
  name.focus();
  return {};
}

/** The session kept in this browser (every tab of it shares it), or null. */
function savedSession() {
  try {
    return JSON.parse(localStorage.getItem(SESSION_KEY) || "null");
  } catch (err) {
    return null;
  }
}

/** A player signs in with its password once, to ask for a session token; the connection
 * kept (and every later one, in any tab) signs in with the token. Guests need none. */
async function signIn(form, errorNode) {
  if (nc) {
    const previous = nc;
    nc = null;
    await previous.close();
  }
  let session = { name: form.name, guest: form.guest };
  try {
    nc = await connect(form);
    if (!form.guest) {
      const reply = await ask(`tabletop.session.${form.name}`, {});
      if (!reply.ok) throw new Error(refusalText(reply.error));
      session = { ...session, token: reply.token, expires: reply.expires };
      const withPassword = nc;
      nc = await connect(session);
      await withPassword.close();
    }
  } catch (err) {
    if (nc) await nc.close();
    nc = null;
    // the server says the same for a wrong password, too many attempts, and a sign-in it
    // could not check in time (a crowd signing in): the message names all three
    const refused = /authoriz/i.test(String(err && err.message));
    errorNode.textContent = refused
      ? t("Sign-in refused: a wrong password for this name, too many attempts, or the server " +
        "too busy to check it. Wait a moment and try again.")
      : t("Cannot sign in ({message}).", { message: err && err.message });
    return;
  }
  me = session;
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  drawNav();
  const next = afterSignIn && afterSignIn !== "#/signin" ? afterSignIn : "#/";
  afterSignIn = null;
  if (location.hash === next) route();
  else location.hash = next;
}

/** Sign out: the token is revoked on the server and forgotten in every tab. */
async function signOut() {
  const leaving = me;
  localStorage.removeItem(SESSION_KEY);
  if (leaving && leaving.token && nc) {
    try {
      await nc.request(`tabletop.session.${leaving.name}`,
        encoder.encode(JSON.stringify({ revoke: leaving.token })), { timeout: REQUEST_TIMEOUT_MS });
    } catch (err) {
      // not told: the token expires on its own
    }
  }
  signedOut();
}

function signedOut(notice = "") {
  const closing = nc;
  nc = null;
  me = null;
  if (closing) closing.close();
  drawNav();
  signInNotice = notice;
  if (location.hash === "#/signin") route();
  else location.hash = "#/signin";
}

/** The choice of the page's language, signed in or not: each language by its own name. */
function languageControl() {
  const select = h("select", { id: "language", name: "language", "aria-label": t("Language"),
    title: t("Language") },
  Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, lang: code, selected: code === language }, name)));
  select.addEventListener("change", () => chooseLanguage(select.value));
  return select;
}

function drawNav() {
  nav.setAttribute("aria-label", t("Account"));
  if (!me) {
    nav.replaceChildren(languageControl());
    return;
  }
  nav.replaceChildren(
    h("a", { href: "#/" }, t("Games")),
    h("span", { class: "who", id: "who" }, me.guest ? t("Watching as a guest")
      : [t("Signed in as "), h("a", { href: `#/player/${encodeURIComponent(me.name)}` }, me.name)]),
    h("button", { type: "button", class: "link", onclick: signOut }, me.guest ? t("Sign in") : t("Sign out")),
    languageControl());
}

function homePage() {
  const recent = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
  const tableInput = h("input", { id: "find-table", name: "table", required: true,
    placeholder: "naishi-1a2b3c4d5e6f" });
  const findError = h("p", { class: "error", role: "alert" });
  const find = h("form", { class: "inline-form" },
    h("label", { for: "find-table" }, t("Table id")), tableInput,
    h("button", { type: "submit" }, t("Open")));
  find.addEventListener("submit", (event) => {
    event.preventDefault();
    const table = tableInput.value.trim();
    const game = gameOfTable(table);
    if (!game || !isId(table)) {
      findError.textContent = t("A table id starts with its game, e.g. naishi-1a2b3c4d5e6f.");
      return;
    }
    location.hash = `#/table/${game}/${table}`;
  });
  main.replaceChildren(
    h("h1", {}, t("Games")),
    h("ul", { class: "games" }, config.games.map((g) => h("li", { class: "game-card" },
      h("h2", {}, h("a", { href: `#/lobby/${g.game}` }, g.title)),
      h("p", {}, helpOf(g).description || g.description || ""),
      h("p", { class: "muted" }, g.min_players === g.max_players ? t("{n} players", { n: g.min_players })
        : t("{min} to {max} players", { min: g.min_players, max: g.max_players })),
      h("p", { class: "actions" }, h("a", { class: "button", href: `#/lobby/${g.game}` }, t("{title} tables", { title: g.title })),
        " ", h("a", { class: "button secondary", href: `#/rankings/${g.game}` }, t("Rankings")))))),
    h("section", {}, h("h2", {}, t("Find a table")),
      h("p", {}, t("Open a table or its replay by its id (ended tables are not in the lobbies).")),
      find, findError),
    // replaceChildren writes a null as the text "null": leave the section out instead
    ...(recent.length ? [h("section", {}, h("h2", {}, t("Tables you opened")),
      h("ul", { class: "recent" }, recent.filter((r) => gameInfo(r.game)).map((r) => h("li", {},
        h("a", { href: `#/table/${r.game}/${r.table}` }, r.table), " · ",
        h("a", { href: `#/replay/${r.game}/${r.table}` }, t("replay"))))))] : []));
  return {};
}

/** The game's rules, briefly, folded away; written into the page only once opened (so the
 * page holds no words of them until a player asks). */
function rulesPanel(info) {
  const rules = helpOf(info).rules || [];
  if (!rules.length) return null;
  const panel = h("details", { id: "rules", class: "rules" }, h("summary", {}, t("The rules of {title}", { title: info.title })));
  panel.addEventListener("toggle", () => {
    if (panel.open && panel.childElementCount === 1) panel.append(...rules.map((text) => h("p", {}, text)));
  });
  return panel;
}

/** While the pointer is on a move, or the keyboard's focus, `hint` says what it does. Watched
 * over the whole document, not the table alone: a board drawn again under the pointer takes
 * away the move it was over, and the browser may then tell the table nothing as the pointer
 * leaves; the next element it enters still says. Returns what stops the watch. */
function explainMoves(root, info, hint) {
  const moves = helpOf(info).moves || {};
  const typeOf = (node) => {
    if (!node || !node.closest || !root.contains(node)) return null;
    const move = node.closest("[data-command], form[data-command-type]");
    if (!move) return null;
    if (move.dataset.commandType) return move.dataset.commandType;
    try {
      return JSON.parse(move.dataset.command).type;
    } catch (err) {
      return null;
    }
  };
  const say = (type) => { hint.textContent = (type && moves[type]) || ""; };
  // the pointer on a move says it; elsewhere, the move the keyboard's focus is on, if any
  const pointed = (event) => say(typeOf(event.target) || typeOf(document.activeElement));
  const left = (event) => { if (!event.relatedTarget) say(typeOf(document.activeElement)); }; // the window
  const focused = (event) => say(typeOf(event.target));
  const unfocused = (event) => say(typeOf(event.relatedTarget));
  const watched = [["mouseover", pointed], ["mouseout", left], ["focusin", focused], ["focusout", unfocused]];
  for (const [type, handler] of watched) document.addEventListener(type, handler);
  return () => { for (const [type, handler] of watched) document.removeEventListener(type, handler); };
}

/** The create form of a game, built from its options' JSON schema. */
/** Form rows for the options of a JSON schema: [[name, read value], ...] and the rows;
 * `sentence(key, schema)` is an option's sentence in the page's language. */
function optionRows(properties, fields, rows, sentence) {
  for (const [key, schema] of Object.entries(properties || {})) {
    const id = `opt-${key}`;
    const types = schema.anyOf ? schema.anyOf.map((s) => s.type) : [schema.type];
    const nullable = types.includes("null");
    const type = types.find((kind) => kind !== "null");
    // an option with named values (a Literal in the game's options): one of them, typed as declared
    const listed = schema.enum ?? (schema.anyOf || []).find((s) => s.enum)?.enum;
    // a schema lists named values sorted; the names keep the order they were declared in
    const declared = Object.keys(schema["x-choice-names"] || {});
    const rank = (c) => (declared.includes(String(c)) ? declared.indexOf(String(c)) : declared.length);
    const choices = listed && [...listed].sort((a, b) => rank(a) - rank(b));
    let input;
    let read;
    if (choices) {
      input = h("select", { id, name: key },
        nullable ? h("option", { value: "", selected: schema.default == null }, t("none")) : null,
        choices.map((c) => h("option", { value: String(c), selected: c === schema.default },
          schema["x-choice-names"]?.[c] ?? named(String(c)))));
      read = () => (input.value === "" ? null : choices.find((c) => String(c) === input.value));
    } else if (type === "boolean") {
      input = h("input", { id, type: "checkbox", name: key, checked: Boolean(schema.default) });
      read = () => input.checked;
    } else if (type === "integer" || type === "number") {
      input = h("input", { id, type: "number", name: key, value: schema.default ?? "",
        placeholder: nullable ? t("none") : "", step: type === "integer" ? 1 : "any" });
      read = () => (input.value === "" ? (nullable ? null : schema.default) : Number(input.value));
    } else if (type === "array") {
      input = h("input", { id, type: "text", name: key, value: (schema.default || []).join(", "),
        placeholder: t("comma-separated") });
      read = () => input.value.split(",").map((s) => s.trim()).filter(Boolean);
    } else {
      input = h("input", { id, type: "text", name: key, value: schema.default ?? "" });
      read = () => input.value;
    }
    fields.push([key, read]);
    // the option's sentence from the game (its schema's description), then how to type it
    const typing = type === "array" ? t("Comma-separated.") : nullable ? t("Empty: none.") : null;
    const said = sentence(key, schema);
    const saysEmpty = /empty/i.test(schema.description || "") || (language === "fr" && /\bvide\b/i.test(said || ""));
    const hint = [said, saysEmpty ? null : typing]
      .filter(Boolean).join(" ");
    rows.push(h("div", { class: type === "boolean" ? "field check" : "field" },
      h("label", { for: id }, named(key)), input, hint ? h("small", {}, hint) : null));
  }
}

/** The create form of a game: the game's own options, then the options every table takes
 * (clocks, what happens when one runs out, bots in seats), each built from its JSON schema. */
function createForm(info, onCreated) {
  const fields = [];
  const rows = [];
  const help = helpOf(info);
  optionRows(info.options.properties, fields, rows,
    (key, schema) => help.options?.[key] || schema.description);
  const tableRows = [];
  optionRows(config.table_options.properties, fields, tableRows,
    (key, schema) => (schema.description ? t(schema.description) : ""));
  const seats = h("select", { id: "opt-seats", name: "seats" });
  for (let n = info.min_players; n <= info.max_players; n++) {
    seats.append(h("option", { value: n, selected: n === info.max_players }, String(n)));
  }
  const error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit" }, t("Create the table"));
  const form = h("form", { class: "create", id: "create-table" },
    h("div", { class: "field" }, h("label", { for: "opt-seats" }, t("Seats")), seats,
      h("small", {}, t("the most players; the game can start with fewer"))),
    rows,
    h("fieldset", { class: "table-options" }, h("legend", {}, t("Clocks and bots")), tableRows),
    submit, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const options = Object.fromEntries(fields.map(([k, read]) => [k, read()]));
    const table = `${info.game}-${randomHex(6)}`;
    submit.disabled = true;
    try {
      const reply = await sendCommand(info.game, table,
        { type: "create", options, seats: Number(seats.value) });
      if (reply.ok) onCreated(table);
      else error.textContent = refusalText(reply.error);
    } catch (err) {
      error.textContent = t("No answer from the game server ({message}).", { message: err.message });
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/** Milliseconds as a clock shows them: m:ss, or 0:00 once run out. */
function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function optionsText(options, info) {
  const entries = Object.entries(options || {});
  if (entries.length === 0) return t("default options");
  if (language === "en") {
    return entries.map(([k, v]) => `${humanize(k).toLowerCase()}: ${
      Array.isArray(v) ? (v.length ? v.map(spoken).join(" ") : "none") : v === null ? "none" : spoken(v)}`)
      .join(" · ");
  }
  // in another language, each value in its words: a named value by its name, yes and no
  const schemaOf = (k) => info.options.properties?.[k] || config.table_options.properties?.[k] || {};
  const valueText = (k, v) => {
    if (v === null || (Array.isArray(v) && !v.length)) return t("none");
    if (Array.isArray(v)) return v.join(" "); // names (a team's players)
    if (typeof v === "boolean") return v ? t("yes") : t("no");
    if (typeof v === "number") return v.toLocaleString(language);
    const schema = schemaOf(k);
    const listed = schema.enum ?? (schema.anyOf || []).find((s) => s.enum)?.enum;
    // a schema lists named values sorted; the names keep the order they were declared in
    const declared = Object.keys(schema["x-choice-names"] || {});
    const rank = (c) => (declared.includes(String(c)) ? declared.indexOf(String(c)) : declared.length);
    const choices = listed && [...listed].sort((a, b) => rank(a) - rank(b));
    if (!choices || !choices.includes(v)) return spoken(v);
    return schema["x-choice-names"]?.[v] ?? lowerFirst(named(String(v)));
  };
  return entries.map(([k, v]) => t("{name}: {value}", { name: lowerFirst(named(k)), value: valueText(k, v) }))
    .join(" · ");
}

function lobbyPage(game) {
  const info = gameInfo(game);
  if (!info) return notFound(t("There is no game called {game}.", { game }));
  useLabels(info);
  let stopped = false;
  let timer = null;
  const alert = h("p", { class: "error", role: "alert" });
  const list = h("div", { id: "tables", "aria-live": "polite" }, h("p", {}, t("Loading tables…")));

  async function act(table, command) {
    alert.textContent = "";
    try {
      const reply = await sendCommand(game, table, command);
      if (!reply.ok) {
        alert.textContent = refusalText(reply.error);
        return;
      }
      if (command.type === "join" || command.type === "start") {
        location.hash = `#/table/${game}/${table}`;
        return;
      }
      refresh();
    } catch (err) {
      alert.textContent = t("No answer from the game server ({message}).", { message: err.message });
    }
  }

  function row(listed) {
    const seated = !me.guest && listed.seats.includes(me.name);
    const actions = [];
    if (listed.status === "open" && !me.guest && !seated && listed.seats.length < listed.seat_count) {
      actions.push(h("button", { type: "button", "data-action": "join",
        onclick: () => act(listed.table, { type: "join" }) }, t("Join")));
    }
    if (listed.status === "open" && seated) {
      actions.push(h("button", { type: "button", class: "secondary", "data-action": "leave",
        onclick: () => act(listed.table, { type: "leave" }) }, t("Leave")));
    }
    if (listed.status === "open" && listed.creator === me.name && listed.seats.length >= info.min_players) {
      actions.push(h("button", { type: "button", "data-action": "start",
        onclick: () => act(listed.table, { type: "start" }) }, t("Start")));
    }
    actions.push(h("a", { class: "button secondary", href: `#/table/${game}/${listed.table}` },
      seated ? t("Open") : t("Watch")));
    return h("li", { class: "table-row", "data-table": listed.table, "data-status": listed.status },
      h("div", { class: "table-head" }, h("a", { href: `#/table/${game}/${listed.table}` }, listed.table),
        h("span", { class: `badge ${listed.status}` }, t(listed.status))),
      h("p", {}, ...joined(listed.seats.map(playerLink)),
        ` · ${t("{taken} of {count} seats", { taken: listed.seats.length, count: listed.seat_count })}`,
        listed.creator ? ` · ${t("created by {player}", { player: listed.creator })}` : ""),
      h("p", { class: "muted" }, optionsText(listed.options, info)),
      h("div", { class: "actions" }, actions));
  }

  async function refresh() {
    clearTimeout(timer);
    try {
      const reply = await ask(`tabletop.lobby.${game}`, { limit: 100 });
      if (stopped) return;
      if (reply.error) throw new Error(refusalText(reply.error));
      const open = reply.tables.filter((listed) => listed.status === "open");
      const running = reply.tables.filter((listed) => listed.status === "running");
      list.replaceChildren(
        h("h2", {}, t("Open tables ({n})", { n: open.length })),
        open.length ? h("ul", { class: "tables" }, open.map(row))
          : h("p", { class: "muted" }, t("No open table: create one.")),
        h("h2", {}, t("Running tables ({n})", { n: running.length })),
        running.length ? h("ul", { class: "tables" }, running.map(row))
          : h("p", { class: "muted" }, t("No table is being played.")));
    } catch (err) {
      if (!stopped) alert.textContent = t("The lobby did not answer ({message}); trying again.", { message: err.message });
    }
    if (!stopped) timer = setTimeout(refresh, 2000);
  }

  const chat = chatPanel(game, null);
  main.replaceChildren(
    h("h1", {}, t("{title} lobby", { title: info.title })),
    h("p", {}, helpOf(info).description || info.description || ""),
    h("p", {}, h("a", { href: `#/rankings/${game}` }, t("{title} rankings", { title: info.title }))),
    alert, list,
    h("section", { class: "new-table" }, h("h2", {}, t("New table")),
      me.guest ? h("p", {}, t("Guests watch: sign in to create or join a table."))
        : createForm(info, (table) => { location.hash = `#/table/${game}/${table}`; })),
    chat.node);
  refresh();
  return {
    stop() { stopped = true; clearTimeout(timer); chat.stop(); },
    resync() { refresh(); chat.resync(); },
  };
}

// --- chat -------------------------------------------------------------------------------------

const CHAT_LINES_SHOWN = 100;

/** The chat of a game's lobby (`table` null) or of a table: the room's last lines, the new ones
 * as they are said, and a line to say (players only: guests read). Every text goes in as text,
 * never as markup. Returns {node, stop(), resync()}. */
function chatPanel(game, table) {
  const room = table ? `${game}.table.${table}` : `${game}.lobby`;
  const shown = new Set(); // the ids of the lines shown: a line arrives once, however it comes
  const list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": t("Chat lines") });
  const alert = h("p", { class: "error chat-alert", role: "alert" });
  let stopped = false;
  let sub = null;

  function lineNode(line) {
    const at = new Date(line.at);
    const time = Number.isNaN(at.getTime()) ? ""
      : at.toLocaleTimeString(language === "en" ? [] : language, { hour: "2-digit", minute: "2-digit" });
    return h("li", { class: `chat-line${line.spectator ? " spectator" : ""}`, "data-player": line.player },
      h("span", { class: "chat-time muted" }, time), " ",
      playerLink(line.player),
      line.spectator ? h("span", { class: "chat-mark", title: t("not seated at this table") },
        ` ${t("(spectator)")}`) : null,
      t(": "), h("span", { class: "chat-text" }, line.text));
  }

  function show(lines) {
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    for (const line of lines) {
      if (!line || typeof line.id !== "string" || shown.has(line.id)) continue;
      shown.add(line.id);
      list.append(lineNode(line));
    }
    while (list.children.length > CHAT_LINES_SHOWN) list.firstElementChild.remove();
    if (atEnd) list.scrollTop = list.scrollHeight;
  }

  async function resync() {
    try {
      const reply = await ask(`tabletop.chatlog.${room}`, {});
      if (stopped) return;
      if (reply.error) throw new Error(refusalText(reply.error));
      show(reply.lines);
    } catch (err) {
      if (!stopped) alert.textContent = t("The chat did not answer ({message}).", { message: err.message });
    }
  }

  const input = h("input", { type: "text", name: "text", maxlength: 500, autocomplete: "off",
    "aria-label": table ? t("Say something to the table") : t("Say something to the lobby"),
    placeholder: table ? t("Say something to the table") : t("Say something to the lobby") });
  async function say(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    alert.textContent = "";
    const id = randomHex(12); // the same id if the line is sent again: said once
    try {
      const reply = await ask(`tabletop.say.${room}.${me.name}`, { id, text });
      if (reply.error) {
        alert.textContent = refusalText(reply.error);
        alert.setAttribute("data-code", reply.error.code);
        return;
      }
      input.value = "";
    } catch (err) {
      alert.textContent = t("No answer from the chat ({message}).", { message: err.message });
    }
  }
  const form = me.guest
    ? h("p", { class: "muted" }, t("Sign in to chat."))
    : h("form", { class: "chat-form", onsubmit: say }, input, h("button", { type: "submit" }, t("Send")));
  const node = h("section", { class: "chat", id: table ? "table-chat" : "lobby-chat", "aria-label": t("Chat") },
    h("h2", {}, t("Chat")), list, alert, form);

  (async () => {
    sub = follow(`tabletop.chat.${room}`, (line) => show([line]), "a chat line");
    await nc.flush(); // following before the last lines are read: none falls in between
    await resync();
  })();

  return {
    node,
    resync,
    stop() { stopped = true; if (sub) sub.unsubscribe(); },
  };
}

/** A small line chart of a game's rating after each rated table (drawn, no library). */
function ratingChart(points, label) {
  const NS = "http://www.w3.org/2000/svg";
  const width = 240;
  const height = 64;
  const pad = 6;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const values = points.map((point) => point[1]);
  const low = Math.min(0, ...values);
  const high = Math.max(low + 1, ...values);
  const x = (i) => pad + (points.length < 2 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const zero = document.createElementNS(NS, "line");
  for (const [k, v] of Object.entries({ x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "axis" })) {
    zero.setAttribute(k, v);
  }
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("class", "line");
  svg.append(zero, line);
  for (const [i, v] of values.entries()) {
    const dot = document.createElementNS(NS, "circle");
    for (const [k, value] of Object.entries({ cx: x(i), cy: y(v), r: 2.5 })) dot.setAttribute(k, value);
    svg.append(dot);
  }
  return svg;
}

/** One table of a player's history as a list item: when, which game, the place, the change. */
function historyItem(entry) {
  const info = gameInfo(entry.game);
  const place = entry.rank === null ? t("abandoned") : entry.won ? t("won") : t("rank {rank}", { rank: entry.rank });
  return h("li", { class: "history-entry", "data-table": entry.table },
    h("time", { datetime: entry.ended_at }, dateText(entry.ended_at, true)), " · ",
    info ? info.title : entry.game, " · ", place, " · ",
    entry.rated ? h("span", { class: entry.rating_after >= entry.rating_before ? "up" : "down" },
      t("rating {rating} ({change})", { rating: decimal(entry.rating_after),
        change: changeText(entry.rating_before, entry.rating_after) }))
      : h("span", { class: "muted" }, t("unrated")), " · ",
    `${t("with")} `, ...joined(entry.seats.map(playerLink)), " · ",
    h("a", { href: `#/replay/${entry.game}/${entry.table}` }, t("replay")));
}

/** An ISO time as a person reads it: its date (and, with `time`, the minute), in English as
 * written ("2026-12-01 13:05"), in French as French writes dates. */
function dateText(iso, time = false) {
  const at = new Date(iso);
  if (language === "en" || Number.isNaN(at.getTime())) return time ? iso.slice(0, 16).replace("T", " ") : iso.slice(0, 10);
  return at.toLocaleString(language, time ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "long" });
}

function profilePage(name) {
  if (!isId(name)) return notFound(t("There is no player called {name}.", { name }));
  let stopped = false;
  const alert = h("p", { class: "error", role: "alert" });
  const body = h("div", { id: "profile", "data-player": name }, h("p", {}, t("Loading…")));
  const tables = h("ol", { class: "history", id: "history" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, t("More tables"));
  let next = null;

  async function page() {
    const reply = await ask(`tabletop.history.${name}`, next === null ? { limit: 20 } : { limit: 20, after: next });
    if (stopped) return;
    if (reply.error) throw new Error(refusalText(reply.error));
    tables.append(...reply.tables.map(historyItem));
    next = reply.next;
    more.hidden = next === null;
  }
  more.addEventListener("click", () => page().catch((err) => { alert.textContent = err.message; }));

  (async () => {
    const profile = await ask(`tabletop.profile.${name}`, {});
    if (stopped) return;
    if (profile.error) throw new Error(refusalText(profile.error));
    const games = Object.entries(profile.games);
    body.replaceChildren(
      h("p", {}, profile.since ? t("Playing since {date}.", { date: dateText(profile.since) }) : t("No table played yet.")),
      // replaceChildren writes a null as the text "null": leave the table out instead
      ...(games.length ? [h("table", { class: "records" },
        h("thead", {}, h("tr", {}, ...["Game", "Rating", "Played", "Won", "Over time"].map((heading) =>
          h("th", { scope: "col" }, t(heading))))),
        h("tbody", {}, games.map(([game, record]) => h("tr", { "data-game": game },
          h("th", { scope: "row" }, h("a", { href: `#/rankings/${game}` }, gameInfo(game)?.title || game)),
          h("td", { title: record.provisional ? t("provisional: fewer than 5 rated tables") : "" }, ratingText(record)),
          h("td", {}, record.played), h("td", {}, record.won),
          h("td", {}, (profile.chart[game] || []).length
            ? ratingChart(profile.chart[game], t("{name}'s {title} rating over time", { name, title: gameInfo(game)?.title || game }))
            : h("span", { class: "muted" }, t("no rated table")))))))] : []),
      h("h2", {}, t("Tables")), tables, more);
    await page();
  })().catch((err) => { if (!stopped) alert.textContent = t("The profile did not load ({message}).", { message: err.message }); });

  main.replaceChildren(h("h1", {}, name), alert, body);
  return { stop() { stopped = true; } };
}

function rankingsPage(game) {
  const info = gameInfo(game);
  if (!info) return notFound(t("There is no game called {game}.", { game }));
  let stopped = false;
  let next = null;
  const alert = h("p", { class: "error", role: "alert" });
  const rows = h("tbody", {});
  const more = h("button", { type: "button", class: "secondary", hidden: true }, t("More players"));
  const empty = h("p", { class: "muted", hidden: true }, t("Nobody is rated yet: rated tables are those played by people only."));

  async function page() {
    const reply = await ask(`tabletop.rankings.${game}`, next === null ? { limit: 50 } : { limit: 50, after: next });
    if (stopped) return;
    if (reply.error) throw new Error(refusalText(reply.error));
    rows.append(...reply.players.map((p) => h("tr", { "data-player": p.player },
      h("td", {}, p.rank), h("th", { scope: "row" }, playerLink(p.player)),
      h("td", { title: p.provisional ? t("provisional: fewer than 5 rated tables") : "" }, ratingText(p)),
      h("td", {}, p.played), h("td", {}, p.won))));
    empty.hidden = rows.children.length > 0;
    next = reply.next;
    more.hidden = next === null;
  }
  more.addEventListener("click", () => page().catch((err) => { alert.textContent = err.message; }));
  page().catch((err) => { if (!stopped) alert.textContent = t("The rankings did not load ({message}).", { message: err.message }); });

  main.replaceChildren(h("h1", {}, t("{title} rankings", { title: info.title })),
    h("p", { class: "muted" }, t("By rating: a cautious estimate of skill that rises as a player wins and " +
      "as their record grows (a question mark: fewer than 5 rated tables).")),
    alert,
    h("table", { class: "records", id: "rankings" },
      h("thead", {}, h("tr", {}, ...["Rank", "Player", "Rating", "Played", "Won"].map((heading) =>
        h("th", { scope: "col" }, t(heading))))),
      rows),
    empty, more,
    h("p", {}, h("a", { href: `#/lobby/${game}` }, t("{title} lobby", { title: info.title }))));
  return { stop() { stopped = true; } };
}

function notFound(text) {
  main.replaceChildren(h("h1", {}, t("Not found")), h("p", {}, text), h("a", { href: "#/" }, t("Games")));
  return {};
}

function tablePage(game, table) {
  const info = gameInfo(game);
  if (!info || !isId(table)) return notFound(t("There is no {title} table {table}.", { title: game, table }));
  useLabels(info);
  remember(game, table);
  let stopped = false;
  let version = 0;
  let view = null;
  let busy = false;
  let logged = 0; // the last version in the log
  let module = null;
  let logChain = Promise.resolve();
  const showResult = ratedResults(game, table, () => stopped);
  const subscriptions = [];

  const alert = h("p", { class: "error", role: "alert", id: "alert" });
  const seatLine = h("p", { id: "seats" });
  const turn = h("p", { id: "turn", class: "turn", "aria-live": "polite" });
  const seatsPanel = h("ul", { id: "players", class: "players", "aria-label": t("Players") });
  const controls = h("div", { id: "table-controls", class: "actions" });
  const boardBox = h("div", { id: "board", class: "board" });
  const moves = h("div", { id: "moves" });
  const result = h("div", { id: "result-box" });
  const logList = h("ol", { id: "log", class: "log" });
  const invitation = h("div", { id: "invitation", class: "invitation" });
  const rulesBox = rulesPanel(info);
  const moveHint = h("p", { id: "move-hint", class: "move-hint muted", "aria-live": "polite" });
  const next = h("div", { id: "rematch", class: "rematch" });
  const chat = chatPanel(game, table);
  const root = h("div", { id: "table", class: "table-page", "data-game": game, "data-table": table },
    h("h1", {}, `${info.title} `, h("span", { class: "table-id" }, table)),
    seatLine, seatsPanel, turn, alert, controls, invitation, next, result,
    h("div", { class: "table-layout" },
      h("div", { class: "play-area" }, boardBox, moveHint, moves),
      h("div", { class: "side" },
        h("aside", { class: "log-box", "aria-label": t("Game log") }, h("h2", {}, t("Game log")), logList),
        chat.node)),
    h("p", {}, h("a", { href: `#/lobby/${game}` }, t("Back to the {title} lobby", { title: info.title })), " · ",
      h("a", { href: `#/replay/${game}/${table}`, id: "replay-link" }, t("Replay"))),
    rulesBox,
    me.guest ? null : alertControls());
  main.replaceChildren(root);
  const stopExplaining = explainMoves(root, info, moveHint);
  let wasMyTurn = null; // null until the first view: no chime for a turn already there

  const seated = () => Boolean(view && !me.guest && view.seats.includes(me.name));
  const viewer = () => (seated() ? me.name : SPECTATOR);

  async function act(command) {
    if (busy || stopped) return;
    busy = true;
    root.dataset.busy = ""; // a move on its way: the next click waits for its answer
    alert.textContent = "";
    const body = { ...command };
    // `expect` only when this seat alone acts: a simultaneous step moves on under others' feet
    if (view && view.status === "running" && (view.to_act || []).length === 1) body.expect = version;
    try {
      const reply = await sendCommand(game, table, body);
      if (!reply.ok) {
        alert.textContent = refusalText(reply.error);
        alert.setAttribute("data-code", reply.error.code);
        if (reply.error.code === "stale_version") resync();
      } else if (reply.version > version) {
        setTimeout(() => { if (!stopped && version < reply.version) resync(); }, 3000);
      }
    } catch (err) {
      alert.textContent = t("No answer from the game server ({message}).", { message: err.message });
    } finally {
      busy = false;
      delete root.dataset.busy;
    }
  }

  function tableAction(type, label, cls = "") {
    return h("button", { type: "button", class: cls, "data-action": type,
      onclick: () => act({ type }) }, label);
  }

  function render() {
    const seat = seated() ? me.name : null;
    root.setAttribute("data-version", version);
    root.setAttribute("data-status", view.status);
    seatLine.replaceChildren(`${view.status === "open" ? t("Open · seats:") : view.status === "running"
      ? t("Playing · seats:") : t("Ended · seats:")} `, ...(view.seats.length ? joined(view.seats.map(playerLink)) : [t("none")]),
      ` (${t("{taken} of {count}", { taken: view.seats.length, count: view.seat_count })})` +
      (seat ? ` · ${t("you play as {seat}", { seat })}` : ` · ${t("you are watching")}`));
    turn.textContent = turnText(view, seat);
    const myTurn = Boolean(seat && view.status === "running" && (view.to_act || []).includes(seat) &&
      !(view.zombies || []).includes(seat));
    turn.classList.toggle("mine", myTurn);
    showTurnInTab(myTurn, info.title);
    if (myTurn && wasMyTurn === false) callToTurn(info.title, table);
    wasMyTurn = myTurn;
    showInvitation(seat);
    showRematch(seat);
    const buttons = [];
    if (view.status === "open" && !me.guest) {
      if (!seat && view.seats.length < view.seat_count) buttons.push(tableAction("join", t("Join")));
      if (seat && view.creator === seat) buttons.push(tableAction("start", t("Start the game")));
      if (seat) buttons.push(tableAction("leave", t("Leave"), "secondary"));
    }
    if ((view.legal || []).some((c) => c.type === "undo")) { // the last move revealed nothing
      buttons.push(h("button", { type: "button", "data-action": "undo", "data-command": '{"type":"undo"}',
        title: t("Take back your last move: nothing it did was shown to anyone, and nobody has moved since."),
        onclick: () => act({ type: "undo" }) }, t("Undo")));
    }
    if (view.status === "running" && seat && !(view.zombies || []).includes(seat)) {
      buttons.push(h("button", { type: "button", class: "secondary", "data-action": "quit",
        onclick: () => {
          if (confirm(t("Quit this game? A bot plays your seat from now on."))) act({ type: "quit" });
        } }, t("Quit the game")));
    }
    controls.replaceChildren(...buttons);
    showPlayers();
    const ctx = { seat, act, interactive: Boolean(seat), resultShown: true };
    const board = drawBoard(module, view, ctx);
    showBoard(boardBox, board);
    // a game's board says whose turn it is itself, in the game's words: not twice
    turn.hidden = view.status !== "open" && Boolean(board.querySelector(".turn-line"));
    moves.replaceChildren(...[otherMoves(view, board, act, Boolean(seat))].filter(Boolean));
    showResult(result, view.result);
  }

  /** While the table is open and has a free seat, its players can hand out its address: the
   * invited open it, sign in if they must, and land here with the Join button. */
  function showInvitation(seat) {
    if (!(seat && view.status === "open" && view.seats.length < view.seat_count)) {
      invitation.replaceChildren();
      return;
    }
    if (invitation.childElementCount) return; // shown already: keep what the player selected
    const link = `${location.origin}${location.pathname}#/table/${game}/${table}`;
    const field = h("input", { id: "invitation-link", readonly: true, value: link, "aria-label": t("Invitation link") });
    const copied = h("span", { class: "muted", role: "status" });
    invitation.replaceChildren(h("p", {}, `${t("Invite players: send them this link.")} `, field, " ",
      h("button", { type: "button", class: "secondary", id: "copy-invitation", onclick: async () => {
        field.select();
        try {
          await navigator.clipboard.writeText(link);
          copied.textContent = t("Copied.");
        } catch (err) {
          copied.textContent = t("Select the link and copy it.");
        }
      } }, t("Copy")), " ", copied));
  }

  /** After the end: a player offers the next table (a new table of the same game and options,
   * which the others join from here); once offered, everyone sees where it is. */
  function showRematch(seat) {
    if (view.status !== "ended") {
      next.replaceChildren();
      return;
    }
    const offered = view.rematch;
    const person = seat && !(view.bots || []).includes(seat);
    if (!offered) {
      next.replaceChildren(...(person ? [h("button", { type: "button", "data-action": "rematch",
        onclick: offerRematch }, t("Rematch"))] : []));
      return;
    }
    const there = `#/table/${game}/${offered.table}`;
    const declined = offered.declined || [];
    const answered = offered.by === me.name || declined.includes(me.name);
    const joinIt = h("button", { type: "button", "data-action": "join-rematch", onclick: async () => {
      const reply = await sendCommand(game, offered.table, { type: "join" });
      if (reply.ok || reply.error.code === "already_seated") location.hash = there;
      else alert.textContent = refusalText(reply.error);
    } }, t("Join the rematch"));
    const declineIt = h("button", { type: "button", class: "secondary", "data-action": "decline-rematch",
      onclick: () => act({ type: "decline_rematch" }) }, t("Decline"));
    next.replaceChildren(h("p", { class: "offer" },
      `${offered.by === me.name ? t("You offer a rematch: it starts when everyone has joined.")
        : t("{player} offers a rematch: it starts when everyone has joined.", { player: offered.by })} `,
      person && !answered ? [joinIt, " ", declineIt]
        : h("a", { href: there }, offered.by === me.name ? t("Go to it") : t("Watch it"))),
    declined.length ? h("p", { class: "muted", id: "rematch-declined" },
      t("Declined: {players}.", { players: declined.join(", ") })) : null);
  }

  async function offerRematch(event) {
    event.target.disabled = true;
    alert.textContent = "";
    const nextTable = `${game}-${randomHex(6)}`;
    try {
      const made = await sendCommand(game, nextTable,
        { type: "create", options: { ...view.options, start_when_full: true }, seats: view.seat_count });
      if (!made.ok) throw new Error(refusalText(made.error));
      const offered = await sendCommand(game, table, { type: "rematch", table: nextTable });
      if (offered.ok) {
        location.hash = `#/table/${game}/${nextTable}`;
        return;
      }
      await sendCommand(game, nextTable, { type: "leave" }); // another player offered first: theirs
      alert.textContent = refusalText(offered.error);
      resync();
    } catch (err) {
      alert.textContent = t("The rematch could not be made ({message}).", { message: err.message });
      event.target.disabled = false;
    }
  }

  /** A panel per seat, always in sight: the name (to the profile),
   * "you", whose turn, bot and zombie marks, the time left on its clock (counted down from the
   * view's `since` for the clocks that run) and its standing as the game shows it (the board's
   * `standing`: a score, tokens, cards in hand; nothing where the rules keep it hidden). */
  function showPlayers() {
    if (!view) return;
    const clock = view.clock;
    const bots = new Set(view.bots || []);
    const zombies = new Set(view.zombies || []);
    const acting = new Set(view.status === "running" ? view.to_act || [] : []);
    const gone = view.status === "ended" ? new Set() : away;
    seatsPanel.replaceChildren(...view.seats.map((p) => {
      const isAway = gone.has(p) && !zombies.has(p); // a bot plays a zombie's seat: it is there
      const tags = [bots.has(p) ? t("bot") : null, zombies.has(p) ? t("played by a bot") : null,
        isAway ? t("away") : null].filter(Boolean);
      let running = false;
      let time = null;
      if (clock && clock.remaining_ms && p in clock.remaining_ms) {
        let left = clock.remaining_ms[p];
        running = (clock.running || []).includes(p) && view.status === "running";
        if (running && clock.since) left -= Date.now() - Date.parse(clock.since);
        time = clockText(left);
      }
      let standing = null;
      try {
        standing = module && module.standing ? module.standing(view, p) : null;
      } catch (err) {
        console.warn("the board could not say a standing:", err);
      }
      // a running clock is marked by a drawn dot, not a glyph a font may lack
      return h("li", { class: `player-panel${acting.has(p) ? " acting" : ""}${p === me.name ? " mine" : ""}`,
        "data-player": p, "data-away": isAway ? "" : null },
        h("span", { class: "name" }, playerLink(p), p === me.name ? ` ${t("(you)")}` : "",
          tags.length ? ` (${tags.join(", ")})` : ""),
        acting.has(p) ? h("span", { class: "to-act" }, t("to play")) : null,
        time === null ? null : h("span", { class: running ? "clock running" : "clock" },
          running ? h("span", { class: "tick", role: "img", "aria-label": t("running") }) : null, time),
        standing ? h("span", { class: "standing" }, standing) : null);
    }));
  }
  const ticking = setInterval(() => { if (stopped) clearInterval(ticking); else showPlayers(); }, 1000);

  /** Saying "here" every few seconds (as the answer asks) while the page is open; the answer
   * names the seated players whose pages have not said so lately: away. */
  let away = new Set();
  let hereTimer = null;
  async function sayHere() {
    clearTimeout(hereTimer);
    let every = 15000;
    try {
      const reply = await ask(`tabletop.here.${game}.${table}.${me.name}`, {});
      if (stopped) return;
      if (!reply.error) {
        away = new Set(reply.away);
        every = reply.every_ms || every;
        showPlayers();
      }
    } catch (err) {
      console.warn("who is here could not be asked:", err);
    }
    if (!stopped) hereTimer = setTimeout(sayHere, every);
  }

  function apply(newVersion, newView) {
    if (newVersion < version) return;
    const wasSeated = seated();
    version = newVersion;
    view = newView;
    render();
    if (seated() !== wasSeated && subscriptions.length) resync(); // now (or no more) a seat
  }

  function addLog(steps) {
    for (const step of steps) {
      if (step.version <= logged) continue;
      logged = step.version;
      const entry = logEntry(step);
      if (entry) logList.append(entry);
    }
    logList.parentElement.scrollTop = logList.parentElement.scrollHeight;
  }

  function fetchLog() {
    logChain = logChain.then(async () => {
      if (stopped || logged >= version) return;
      try {
        addLog(await replaySteps(game, table, viewer(), logged + 1, "none"));
      } catch (err) {
        console.warn("the log did not load:", err);
      }
    });
    return logChain;
  }

  function onPush(from, data) {
    if (stopped || from !== viewer() || data.version <= version) return;
    const steps = data.steps || [];
    const gap = version > 0 && data.version > version + 1 &&
      !(steps.length && steps[0].version <= version + 1);
    apply(data.version, data.view);
    if (steps.length && !gap) addLog(steps);
    else fetchLog();
  }

  async function resync() {
    if (stopped) return;
    try {
      const reply = await ask(`tabletop.view.${game}.${table}.${me.guest ? SPECTATOR : me.name}`, {});
      if (stopped) return;
      if (reply.error) {
        if (reply.error.code === "not_ready") { // the views are being stored: ask again
          setTimeout(resync, reply.error.retry_after_ms || 250);
          return;
        }
        alert.textContent = reply.error.code === "unknown_table"
          ? t("There is no {title} table {table}.", { title: info.title, table }) : refusalText(reply.error);
        return;
      }
      if (reply.version > version || viewer() !== (seated() ? me.name : SPECTATOR)) {
        apply(reply.version, reply.view);
      }
      fetchLog();
    } catch (err) {
      alert.textContent = t("No answer from the game server ({message}).", { message: err.message });
    }
  }

  function subscribe(who) {
    subscriptions.push(follow(`tabletop.update.${game}.${table}.${who}`, (data) => onPush(who, data), "a push"));
  }

  (async () => {
    module = await boardModule(game);
    if (stopped) return;
    subscribe(SPECTATOR);
    if (!me.guest) subscribe(me.name);
    await nc.flush(); // subscribed before the view is read: no push falls in between
    await resync();
    sayHere();
  })();

  return {
    stop() {
      stopped = true;
      document.title = "tabletop";
      document.getElementById("icon")?.setAttribute("href", "icon.svg");
      for (const sub of subscriptions) sub.unsubscribe();
      clearTimeout(hereTimer);
      chat.stop();
      stopExplaining();
    },
    resync() { resync(); chat.resync(); },
  };
}

function replayPage(game, table, stepVersion, asViewer) {
  const info = gameInfo(game);
  if (!info || !isId(table)) return notFound(t("There is no {title} table {table}.", { title: game, table }));
  useLabels(info);
  let stopped = false;
  let steps = [];
  let index = 0;
  let timer = null;
  let module = null;
  const alert = h("p", { class: "error", role: "alert" });
  const slider = h("input", { id: "step", type: "range", min: 0, max: 0, value: 0, step: 1,
    disabled: true });
  const where = h("output", { id: "step-label", for: "step" });
  const play = h("button", { type: "button", id: "play", "aria-pressed": "false" }, t("Play"));
  const boardBox = h("div", { id: "replay-board", class: "board" });
  const stepLog = h("div", { id: "step-log", class: "step-log", "aria-live": "polite" });
  const result = h("div", { id: "result-box" });
  const showResult = ratedResults(game, table, () => stopped);
  const logList = h("ol", { id: "replay-log", class: "log" });
  const viewerLine = h("p", { id: "replay-viewer" });
  const fairnessBox = h("section", { id: "fairness", class: "step-log", "aria-labelledby": "fairness-title",
    hidden: true });
  const button = (label, onclick, attrs = {}) => h("button", { type: "button", onclick, ...attrs }, label);

  main.replaceChildren(h("div", { id: "replay", class: "replay-page", "data-game": game,
    "data-table": table },
  h("h1", {}, `${t("Replay: {title}", { title: info.title })} `, h("span", { class: "table-id" }, table)),
  viewerLine, alert,
  h("div", { class: "replay-controls" },
    button(t("First"), () => go(0), { id: "first", "aria-label": t("First step") }),
    button(t("Back"), () => go(index - 1), { id: "prev", "aria-label": t("Previous step") }),
    play,
    button(t("Next"), () => go(index + 1), { id: "next", "aria-label": t("Next step") }),
    button(t("Last"), () => go(steps.length - 1), { id: "last", "aria-label": t("Last step") })),
  h("div", { class: "slider" }, h("label", { for: "step" }, t("Step")), slider, where),
  stepLog, result,
  h("div", { class: "table-layout" },
    h("div", { class: "play-area" }, boardBox),
    h("aside", { class: "log-box", "aria-label": t("Game log") }, h("h2", {}, t("Game log")), logList)),
  fairnessBox,
  h("p", {}, h("a", { href: `#/table/${game}/${table}` }, t("The table")))));

  function go(i) {
    if (!steps.length) return;
    index = Math.max(0, Math.min(steps.length - 1, i));
    if (index === steps.length - 1) pause();
    show();
  }

  function show() {
    const step = steps[index];
    const view = step.view;
    slider.value = index;
    slider.setAttribute("aria-valuetext", t("step {n} of {count}, version {version}",
      { n: index + 1, count: steps.length, version: step.version }));
    where.textContent = t("Step {n} of {count} · version {version} · {player} · {at}", {
      n: index + 1, count: steps.length, version: step.version, player: step.player,
      at: language === "en" ? new Date(step.at).toLocaleString() : new Date(step.at).toLocaleString(language) });
    const root = document.getElementById("replay");
    root.setAttribute("data-version", step.version);
    root.setAttribute("data-index", index);
    const texts = stepTexts(step);
    stepLog.replaceChildren(h("h2", {}, t("This step ({player})", { player: step.player })),
      texts.length ? h("ul", {}, texts.map((text) => h("li", {}, text))) : h("p", { class: "muted" }, t("Nothing to show.")));
    for (const li of logList.children) {
      const current = Number(li.getAttribute("data-version")) === step.version;
      li.classList.toggle("current", current);
      if (current) {
        li.setAttribute("aria-current", "step");
        const box = logList.parentElement;
        box.scrollTop = Math.max(0, li.offsetTop - box.clientHeight / 2);
      } else li.removeAttribute("aria-current");
    }
    const seat = view && view.seats && view.seats.includes(viewerName) ? viewerName : null;
    showBoard(boardBox, view ? drawBoard(module, view, { seat, act: () => {}, interactive: false, resultShown: true })
      : h("p", { class: "muted" }, t("No board for this step.")));
    showResult(result, view && view.result);
    history.replaceState(null, "", `#/replay/${game}/${table}/${step.version}${
      viewerName === SPECTATOR && !me.guest ? `/${SPECTATOR}` : ""}`);
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    play.textContent = t("Play");
    play.setAttribute("aria-pressed", "false");
  }

  play.addEventListener("click", () => {
    if (timer) return pause();
    if (index >= steps.length - 1) index = -1;
    play.textContent = t("Pause");
    play.setAttribute("aria-pressed", "true");
    go(index + 1);
    timer = setInterval(() => go(index + 1), 900);
  });
  slider.addEventListener("input", () => go(Number(slider.value)));

  // a seat replays with its own cards, or as a spectator sees it (`.../<version>/spectator`)
  const viewerName = me.guest || asViewer === SPECTATOR ? SPECTATOR : me.name;
  (async () => {
    module = await boardModule(game);
    try {
      steps = await replaySteps(game, table, viewerName, 1, "every");
    } catch (err) {
      alert.textContent = err.code === "unknown_table" ? t("There is no {title} table {table}.", { title: info.title, table })
        : t("The replay did not load ({message}).", { message: err.message });
      return;
    }
    if (stopped || !steps.length) return;
    const last = steps[steps.length - 1].view;
    const seat = last && last.seats.includes(viewerName);
    viewerLine.replaceChildren(`${seat ? t("As {player}, with your own cards", { player: viewerName }) : t("As a spectator")} · ${
      last && last.status === "ended" ? t("the table has ended") : t("the table is still being played")}`);
    if (!me.guest && (seat || last.seats.includes(me.name))) {
      const other = seat ? `/${SPECTATOR}` : "";
      viewerLine.append(" · ", h("button", { type: "button", class: "link", id: "replay-as",
        onclick: () => { location.hash = `#/replay/${game}/${table}/${steps[index].version}${other}`; } },
      seat ? t("see it as a spectator") : t("see it with your cards")));
    }
    logList.replaceChildren(...steps.map((step, i) => {
      const entry = logEntry(step) || h("li", { "data-version": step.version },
        h("span", { class: "log-version" }, `#${step.version}`), " ", step.player);
      entry.prepend(h("button", { type: "button", class: "link", "aria-label": t("Go to step {n}", { n: i + 1 }),
        onclick: () => go(i) }, "▸"));
      return entry;
    }));
    slider.max = steps.length - 1;
    slider.disabled = false;
    const wanted = steps.findIndex((s) => s.version === Number(stepVersion));
    go(wanted >= 0 ? wanted : 0);
    await showFairness(fairnessBox, table, steps);
  })();
  return { stop() { stopped = true; pause(); } };
}

/** The replay's "Check the dice" panel: this browser draws the table's dice and cards again
 * from the secret revealed at its end (fairness.js, a second implementation of
 * shared/games/draws.py), or says in one line why they cannot be checked. Its `data-verdict`:
 * "passed", "failed" or "unverifiable". */
async function showFairness(box, table, steps) {
  const title = h("h2", { id: "fairness-title" }, t("Check the dice"));
  const say = (verdict, ...children) => {
    box.dataset.verdict = verdict;
    box.replaceChildren(title, ...children);
    box.hidden = false;
  };
  let fairness = null;
  try {
    fairness = await import("./fairness.js");
  } catch (err) {
    console.warn("no fairness check:", err);
    return;
  }
  if (!fairness.available()) {
    say("unverifiable", h("p", { class: "muted" },
      t("This page has no WebCrypto here (it needs HTTPS): check the table with the command line, tabletop verify-fairness {table}.",
        { table })));
    return;
  }
  let report;
  try {
    report = await fairness.checkReplay(steps);
  } catch (err) {
    say("failed", h("p", { class: "error" }, t("The check could not run: {message}", { message: err.message })));
    return;
  }
  if (report.status === "unverifiable") {
    say("unverifiable", h("p", { class: "muted" }, report.reason === "no_seed"
      ? t("This table was created before tables committed to their draws: there is nothing to check.")
      : t("The table has not ended: its secret is kept until it does, and its draws can be checked then.")));
    return;
  }
  const passed = report.status === "passed";
  say(report.status,
    h("p", {}, t("Your browser draws this table's dice and cards again from the secret revealed at its end, without the server:")),
    h("ul", { class: "fairness-checks" }, report.checks.map((check) => h("li", { "data-ok": String(check.ok) },
      h("span", { class: check.ok ? "up" : "down" }, check.ok ? "✓ " : "✗ "), t(check.text, check.params)))),
    h("p", { class: passed ? "up verdict" : "error verdict" }, passed
      ? t("Verdict: every check passed. The draws came from the secret committed when the table was created and from the players' entropy.")
      : t("Verdict: a check failed (✗ above): these draws are not shown to come from the committed secret.")),
    h("p", { class: "muted" }, t("Whether the draws equal what the game's events show is checked by the command line:"), " ",
      h("code", { style: "white-space: nowrap" }, `tabletop verify-fairness ${table}`)));
}

// --- routing ----------------------------------------------------------------------------------

function route() {
  if (page && page.stop) page.stop();
  page = null;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (!nc) {
    if (parts[0] !== "signin") afterSignIn = location.hash;
    page = signInPage();
    return;
  }
  main.focus({ preventScroll: true });
  switch (parts[0]) {
    case "lobby": page = lobbyPage(parts[1]); break;
    case "table": page = tablePage(parts[1], parts[2]); break;
    case "replay": page = replayPage(parts[1], parts[2], parts[3], parts[4]); break;
    case "player": page = profilePage(parts[1]); break;
    case "rankings": page = rankingsPage(parts[1]); break;
    case "signin": page = signInPage(); break;
    default: page = homePage();
  }
}

async function start() {
  config = await (await fetch("config.json", { cache: "no-store" })).json();
  const saved = savedSession();
  if (saved && (saved.token || saved.guest)) {
    try {
      nc = await connect(saved);
      me = saved;
    } catch (err) {
      if (/authoriz/i.test(String(err && err.message))) {
        localStorage.removeItem(SESSION_KEY);
        signInNotice = t("Your session has expired or was signed out: sign in again.");
      }
    }
  }
  drawNav();
  window.addEventListener("hashchange", route);
  // another tab of this browser signed out: so does this one
  window.addEventListener("storage", (event) => {
    if (event.key === SESSION_KEY && !event.newValue && me) signedOut(t("Signed out in another tab."));
  });
  route();
}

// the page's fixed texts, in its language, while the rest loads
document.querySelector("a.skip")?.replaceChildren(t("Skip to content"));
main.replaceChildren(h("p", {}, t("Loading…")));
drawNav();

start().catch((err) => {
  main.replaceChildren(h("h1", {}, "tabletop"), h("p", { class: "error" },
    t("The page could not start: {message}", { message: err.message })));
});

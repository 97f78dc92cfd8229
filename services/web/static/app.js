// The tabletop web client: one page, hash routes, plain DOM. The browser talks to NATS over
// WebSocket with the official client, signed in as the player (or a guest): the broker applies
// the same permissions as to any other client, and this server only hands out files.
import { h } from "./games/kit.js";
import { wsconnect } from "./vendor/nats.js";

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

let players = new Set(); // the ids of the table shown: keys that are not humanized

/** A value as words: "final_round" -> "final round", "torii_1" -> "torii 1"; a player's
 * name as it is. */
function spoken(value) {
  const text = String(value);
  return !players.has(text) && /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(text) ? text.replace(/_/g, " ") : text;
}

/** Any JSON value as something a person reads: lists, and definition lists for objects. */
function readable(value) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "none");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value !== "object") return spoken(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "muted" }, "none");
    if (value.every((v) => v === null || typeof v !== "object")) {
      return value.map((v) => (v === null ? "?" : spoken(v))).join(", ");
    }
    return h("ol", { class: "readable" }, value.map((v) => h("li", {}, readable(v))));
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return h("span", { class: "muted" }, "none");
  return h("dl", { class: "readable" },
    keys.map((k) => [h("dt", {}, players.has(k) ? k : humanize(k)), h("dd", {}, readable(value[k]))]));
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
  return `${record.rating.toFixed(1)}${record.provisional ? "?" : ""}`;
}

/** A rating change: "+1.6" / "−0.8" (a signed number a screen reader reads as such). */
function changeText(before, after) {
  const change = after - before;
  return `${change >= 0 ? "+" : "−"}${Math.abs(change).toFixed(1)}`;
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
      if (s.type === "disconnect") showStatus("Connection lost: reconnecting…");
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
      signedOut("Your session has expired or was signed out: sign in again.");
    } else {
      showStatus("Disconnected from the game server. Reload the page.");
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
  return ask(`tabletop.cmd.${game}.${table}.${me.name}`, { id: randomHex(16), ...command });
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
      throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    }
    steps.push(...reply.steps);
    if (reply.next === undefined || reply.next === null) return steps;
    from = reply.next;
  }
}

/** A step's lines for the log: its `log` texts, else its events' types. */
function stepTexts(step) {
  if (Array.isArray(step.log)) return step.log;
  return step.events.map((e) => humanize(e.type));
}

function logEntry(step, attrs = {}) {
  const texts = stepTexts(step);
  if (texts.length === 0) return null;
  return h("li", { "data-version": step.version, ...attrs },
    h("span", { class: "log-version" }, `#${step.version}`),
    h("span", { class: "log-texts" }, texts.map((t) => h("span", { class: "log-text" }, t))));
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
    .map(([k, v]) => `${humanize(k).toLowerCase()}: ${Array.isArray(v) ? v.join(" ") : v}`);
  return fields.length ? `${humanize(command.type)} (${fields.join(", ")})` : humanize(command.type);
}

/** A form for a free-text command: one labelled input per free field (one per item of a
 * list), the legal example as placeholder; an empty input sends the example. */
function freeTextForm(example, freeFields, act, interactive) {
  const inputs = [];
  const fixed = Object.fromEntries(Object.entries(example).filter(([k]) => !freeFields.includes(k)));
  const fixedText = Object.entries(fixed).filter(([k]) => k !== "type")
    .map(([k, v]) => `${humanize(k).toLowerCase()} ${v}`).join(", ");
  const rows = [];
  for (const field of freeFields) {
    const values = Array.isArray(example[field]) ? example[field] : [example[field]];
    values.forEach((placeholder, i) => {
      const id = `f-${randomHex(6)}`;
      const label = Array.isArray(example[field]) ? `${humanize(field)} ${i + 1}` : humanize(field);
      const input = h("input", { id, type: "text", name: field, placeholder: placeholder ?? "",
        autocomplete: "off", maxlength: 60, disabled: !interactive });
      inputs.push({ field, list: Array.isArray(example[field]), input });
      rows.push(h("div", { class: "field" }, h("label", { for: id }, `${label} (free text)`), input));
    });
  }
  const form = h("form", { class: "free-form", "data-command-type": example.type },
    h("p", { class: "form-title" }, humanize(example.type), fixedText ? ` — ${fixedText}` : ""),
    rows, h("button", { type: "submit", disabled: !interactive }, "Send"));
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
    if (rendered.has(json) || formTypes.has(command.type)) continue;
    if (freeText[command.type]) {
      items.push(freeTextForm(command, freeText[command.type], act, interactive));
    } else {
      items.push(h("button", { type: "button", class: "move", "data-command": json,
        disabled: !interactive, onclick: () => act(command) }, commandLabel(command)));
    }
  }
  if (items.length === 0) return null;
  return h("section", { class: "other-moves", "aria-label": "Moves" },
    h("h2", {}, "Moves"), h("div", { class: "move-list" }, items));
}

/** The result of a table; `ratings` ({player: their entry of this table in their history},
 * null until asked for) adds each player's rating change. */
function resultPanel(result, ratings = null) {
  if (!result) return null;
  const rated = Boolean(ratings && Object.keys(ratings).length);
  const winners = result.winners || [];
  const details = result.details || {};
  const forfeited = details.forfeited || [];
  return h("section", { id: "result", class: "result", "aria-label": "Result",
    "data-ratings": ratings ? "loaded" : null },
    h("h2", {}, "Result"),
    h("p", { class: "winners" }, winners.length === 0 ? "No winner."
      : winners.length === 1 ? `${winners[0]} wins.` : `Winners: ${winners.join(", ")}.`),
    details.idle ? h("p", { class: "idle" }, "Nobody moved for a long time: the game was closed.") : null,
    forfeited.length ? h("p", { class: "forfeited" }, `${forfeited.join(", ")} left the game: ` +
      `${forfeited.length === 1 ? "ranked" : "all ranked"} last, whatever the bot scored.`) : null,
    (result.ranking || []).length ? h("table", { class: "ranking" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col" }, "Score"),
        rated ? h("th", { scope: "col" }, "Rating") : null)),
      h("tbody", {}, result.ranking.map((r) => h("tr", {}, h("td", {}, r.rank),
        h("th", { scope: "row" }, playerLink(r.player)), h("td", {}, r.score),
        rated ? h("td", { class: "rating-change" }, ratingCell(ratings[r.player])) : null)))) : null,
    result.details && Object.keys(result.details).length
      ? h("details", { open: true }, h("summary", {}, "Why"), readable(result.details)) : null);
}

function ratingCell(entry) {
  if (!entry) return "";
  if (!entry.rated) return h("span", { class: "muted" }, "unrated");
  const change = entry.rating_after - entry.rating_before;
  return h("span", {}, entry.rating_after.toFixed(1), " ",
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
      const entry = reply.tables && reply.tables.find((t) => t.table === table);
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
  document.title = mine ? `Your turn · ${title} · tabletop` : `${title} · tabletop`;
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
    const note = new Notification(`Your turn at ${title}`, { body: table, tag: table, icon: "icon-turn.svg" });
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
    h("label", { for: "alert-sound" }, sound, " A chime when it is my turn"),
    supported ? [" · ", h("label", { for: "alert-notify" }, notify, " A notification when it is my turn and this tab is hidden")] : null);
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
    return `Waiting for players: ${view.seats.length} of ${view.seat_count} seats taken. ` +
      `${view.creator === seat ? "You start" : `${view.creator} starts`} the game.`;
  }
  if (view.status === "ended") return "The game is over.";
  const acting = view.to_act || [];
  const others = acting.filter((p) => p !== seat);
  if (seat && acting.includes(seat)) {
    return others.length ? `Your turn (with ${others.join(", ")}).` : "Your turn.";
  }
  return acting.length ? `Waiting for ${acting.join(", ")}.` : "";
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
  const submit = h("button", { type: "submit" }, "Sign in");
  const form = h("form", { class: "signin", id: "signin" },
    h("div", { class: "field" }, h("label", { for: nameId }, "Name"), name,
      h("small", {}, "Letters, digits, - and _.")),
    h("div", { class: "field" }, h("label", { for: passId }, "Password"), password,
      h("small", {}, "At least 8 characters. The first sign-in with a new name registers it.")),
    submit, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (!isId(name.value) || /^guest/i.test(name.value)) {
      error.textContent = "Choose a name of letters, digits, - and _ that does not start with 'guest'.";
      return;
    }
    submit.disabled = true;
    await signIn({ name: name.value, password: password.value, guest: false }, error);
    submit.disabled = false;
  });
  const guest = h("button", { type: "button", id: "watch-as-guest", class: "secondary",
    onclick: () => signIn({ name: `guest-${randomHex(4)}`, password: null, guest: true }, error) },
  "Watch as a guest");
  main.replaceChildren(
    h("h1", {}, "Sign in"),
    h("p", {}, "Play Naishi, Dozito, Decrypto, Illustori and Diced Tomatoes with others."),
    form,
    h("p", {}, "Or look without an account: guests watch tables and replays."), guest);
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
      if (!reply.ok) throw new Error(reply.error.message);
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
      ? "Sign-in refused: a wrong password for this name, too many attempts, or the server " +
        "too busy to check it. Wait a moment and try again."
      : `Cannot sign in (${err && err.message}).`;
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

function drawNav() {
  if (!me) {
    nav.replaceChildren();
    return;
  }
  nav.replaceChildren(
    h("a", { href: "#/" }, "Games"),
    h("span", { class: "who", id: "who" }, me.guest ? "Watching as a guest"
      : ["Signed in as ", h("a", { href: `#/player/${encodeURIComponent(me.name)}` }, me.name)]),
    h("button", { type: "button", class: "link", onclick: signOut }, me.guest ? "Sign in" : "Sign out"));
}

function homePage() {
  const recent = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
  const tableInput = h("input", { id: "find-table", name: "table", required: true,
    placeholder: "naishi-1a2b3c4d5e6f" });
  const findError = h("p", { class: "error", role: "alert" });
  const find = h("form", { class: "inline-form" },
    h("label", { for: "find-table" }, "Table id"), tableInput,
    h("button", { type: "submit" }, "Open"));
  find.addEventListener("submit", (event) => {
    event.preventDefault();
    const table = tableInput.value.trim();
    const game = gameOfTable(table);
    if (!game || !isId(table)) {
      findError.textContent = "A table id starts with its game, e.g. naishi-1a2b3c4d5e6f.";
      return;
    }
    location.hash = `#/table/${game}/${table}`;
  });
  main.replaceChildren(
    h("h1", {}, "Games"),
    h("ul", { class: "games" }, config.games.map((g) => h("li", { class: "game-card" },
      h("h2", {}, h("a", { href: `#/lobby/${g.game}` }, g.title)),
      h("p", {}, g.description || ""),
      h("p", { class: "muted" }, g.min_players === g.max_players ? `${g.min_players} players`
        : `${g.min_players} to ${g.max_players} players`),
      h("p", { class: "actions" }, h("a", { class: "button", href: `#/lobby/${g.game}` }, `${g.title} tables`),
        " ", h("a", { class: "button secondary", href: `#/rankings/${g.game}` }, "Rankings"))))),
    h("section", {}, h("h2", {}, "Find a table"),
      h("p", {}, "Open a table or its replay by its id (ended tables are not in the lobbies)."),
      find, findError),
    // replaceChildren writes a null as the text "null": leave the section out instead
    ...(recent.length ? [h("section", {}, h("h2", {}, "Tables you opened"),
      h("ul", { class: "recent" }, recent.filter((r) => gameInfo(r.game)).map((r) => h("li", {},
        h("a", { href: `#/table/${r.game}/${r.table}` }, r.table), " · ",
        h("a", { href: `#/replay/${r.game}/${r.table}` }, "replay")))))] : []));
  return {};
}

/** The game's rules, briefly, folded away; written into the page only once opened (so the
 * page holds no words of them until a player asks). */
function rulesPanel(info) {
  const rules = (info.help && info.help.rules) || [];
  if (!rules.length) return null;
  const panel = h("details", { id: "rules", class: "rules" }, h("summary", {}, `The rules of ${info.title}`));
  panel.addEventListener("toggle", () => {
    if (panel.open && panel.childElementCount === 1) panel.append(...rules.map((text) => h("p", {}, text)));
  });
  return panel;
}

/** While the pointer is on a move, or the keyboard's focus, `hint` says what it does. */
function explainMoves(root, info, hint) {
  const moves = (info.help && info.help.moves) || {};
  const typeOf = (node) => {
    const move = node && node.closest && node.closest("[data-command], form[data-command-type]");
    if (!move) return null;
    if (move.dataset.commandType) return move.dataset.commandType;
    try {
      return JSON.parse(move.dataset.command).type;
    } catch (err) {
      return null;
    }
  };
  const show = (event) => {
    const type = typeOf(event.target);
    if (type && moves[type]) hint.textContent = moves[type];
  };
  const clear = (event) => {
    if (typeOf(event.target) && !typeOf(event.relatedTarget)) hint.textContent = "";
  };
  root.addEventListener("mouseover", show);
  root.addEventListener("focusin", show);
  root.addEventListener("mouseout", clear);
  root.addEventListener("focusout", clear);
}

/** The create form of a game, built from its options' JSON schema. */
/** Form rows for the options of a JSON schema: [[name, read value], ...] and the rows. */
function optionRows(properties, fields, rows) {
  for (const [key, schema] of Object.entries(properties || {})) {
    const id = `opt-${key}`;
    const types = schema.anyOf ? schema.anyOf.map((s) => s.type) : [schema.type];
    const nullable = types.includes("null");
    const type = types.find((t) => t !== "null");
    // an option with named values (a Literal in the game's options): one of them, typed as declared
    const choices = schema.enum ?? (schema.anyOf || []).find((s) => s.enum)?.enum;
    let input;
    let read;
    if (choices) {
      input = h("select", { id, name: key },
        nullable ? h("option", { value: "", selected: schema.default == null }, "none") : null,
        choices.map((c) => h("option", { value: String(c), selected: c === schema.default },
          schema["x-choice-names"]?.[c] ?? humanize(String(c)))));
      read = () => (input.value === "" ? null : choices.find((c) => String(c) === input.value));
    } else if (type === "boolean") {
      input = h("input", { id, type: "checkbox", name: key, checked: Boolean(schema.default) });
      read = () => input.checked;
    } else if (type === "integer" || type === "number") {
      input = h("input", { id, type: "number", name: key, value: schema.default ?? "",
        placeholder: nullable ? "none" : "", step: type === "integer" ? 1 : "any" });
      read = () => (input.value === "" ? (nullable ? null : schema.default) : Number(input.value));
    } else if (type === "array") {
      input = h("input", { id, type: "text", name: key, value: (schema.default || []).join(", "),
        placeholder: "comma-separated" });
      read = () => input.value.split(",").map((s) => s.trim()).filter(Boolean);
    } else {
      input = h("input", { id, type: "text", name: key, value: schema.default ?? "" });
      read = () => input.value;
    }
    fields.push([key, read]);
    // the option's sentence from the game (its schema's description), then how to type it
    const typing = type === "array" ? "Comma-separated." : nullable ? "Empty: none." : null;
    const hint = [schema.description, /empty/i.test(schema.description || "") ? null : typing]
      .filter(Boolean).join(" ");
    rows.push(h("div", { class: type === "boolean" ? "field check" : "field" },
      h("label", { for: id }, humanize(key)), input, hint ? h("small", {}, hint) : null));
  }
}

/** The create form of a game: the game's own options, then the options every table takes
 * (clocks, what happens when one runs out, bots in seats), each built from its JSON schema. */
function createForm(info, onCreated) {
  const fields = [];
  const rows = [];
  optionRows(info.options.properties, fields, rows);
  const tableRows = [];
  optionRows(config.table_options.properties, fields, tableRows);
  const seats = h("select", { id: "opt-seats", name: "seats" });
  for (let n = info.min_players; n <= info.max_players; n++) {
    seats.append(h("option", { value: n, selected: n === info.max_players }, String(n)));
  }
  const error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit" }, "Create the table");
  const form = h("form", { class: "create", id: "create-table" },
    h("div", { class: "field" }, h("label", { for: "opt-seats" }, "Seats"), seats,
      h("small", {}, "the most players; the game can start with fewer")),
    rows,
    h("fieldset", { class: "table-options" }, h("legend", {}, "Clocks and bots"), tableRows),
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
      else error.textContent = reply.error.message;
    } catch (err) {
      error.textContent = `No answer from the game server (${err.message}).`;
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

function optionsText(options) {
  const entries = Object.entries(options || {});
  if (entries.length === 0) return "default options";
  return entries.map(([k, v]) => `${humanize(k).toLowerCase()}: ${
    Array.isArray(v) ? (v.length ? v.map(spoken).join(" ") : "none") : v === null ? "none" : spoken(v)}`)
    .join(" · ");
}

function lobbyPage(game) {
  const info = gameInfo(game);
  if (!info) return notFound(`There is no game called ${game}.`);
  let stopped = false;
  let timer = null;
  const alert = h("p", { class: "error", role: "alert" });
  const list = h("div", { id: "tables", "aria-live": "polite" }, h("p", {}, "Loading tables…"));

  async function act(table, command) {
    alert.textContent = "";
    try {
      const reply = await sendCommand(game, table, command);
      if (!reply.ok) {
        alert.textContent = reply.error.message;
        return;
      }
      if (command.type === "join" || command.type === "start") {
        location.hash = `#/table/${game}/${table}`;
        return;
      }
      refresh();
    } catch (err) {
      alert.textContent = `No answer from the game server (${err.message}).`;
    }
  }

  function row(t) {
    const seated = !me.guest && t.seats.includes(me.name);
    const actions = [];
    if (t.status === "open" && !me.guest && !seated && t.seats.length < t.seat_count) {
      actions.push(h("button", { type: "button", "data-action": "join",
        onclick: () => act(t.table, { type: "join" }) }, "Join"));
    }
    if (t.status === "open" && seated) {
      actions.push(h("button", { type: "button", class: "secondary", "data-action": "leave",
        onclick: () => act(t.table, { type: "leave" }) }, "Leave"));
    }
    if (t.status === "open" && t.creator === me.name && t.seats.length >= info.min_players) {
      actions.push(h("button", { type: "button", "data-action": "start",
        onclick: () => act(t.table, { type: "start" }) }, "Start"));
    }
    actions.push(h("a", { class: "button secondary", href: `#/table/${game}/${t.table}` },
      seated ? "Open" : "Watch"));
    return h("li", { class: "table-row", "data-table": t.table, "data-status": t.status },
      h("div", { class: "table-head" }, h("a", { href: `#/table/${game}/${t.table}` }, t.table),
        h("span", { class: `badge ${t.status}` }, t.status)),
      h("p", {}, ...joined(t.seats.map(playerLink)), ` · ${t.seats.length} of ${t.seat_count} seats`,
        t.creator ? ` · created by ${t.creator}` : ""),
      h("p", { class: "muted" }, optionsText(t.options)),
      h("div", { class: "actions" }, actions));
  }

  async function refresh() {
    clearTimeout(timer);
    try {
      const reply = await ask(`tabletop.lobby.${game}`, { limit: 100 });
      if (stopped) return;
      if (reply.error) throw new Error(reply.error.message);
      const open = reply.tables.filter((t) => t.status === "open");
      const running = reply.tables.filter((t) => t.status === "running");
      list.replaceChildren(
        h("h2", {}, `Open tables (${open.length})`),
        open.length ? h("ul", { class: "tables" }, open.map(row))
          : h("p", { class: "muted" }, "No open table: create one."),
        h("h2", {}, `Running tables (${running.length})`),
        running.length ? h("ul", { class: "tables" }, running.map(row))
          : h("p", { class: "muted" }, "No table is being played."));
    } catch (err) {
      if (!stopped) alert.textContent = `The lobby did not answer (${err.message}); trying again.`;
    }
    if (!stopped) timer = setTimeout(refresh, 2000);
  }

  const chat = chatPanel(game, null);
  main.replaceChildren(
    h("h1", {}, `${info.title} lobby`),
    h("p", {}, info.description || ""),
    h("p", {}, h("a", { href: `#/rankings/${game}` }, `${info.title} rankings`)),
    alert, list,
    h("section", { class: "new-table" }, h("h2", {}, "New table"),
      me.guest ? h("p", {}, "Guests watch: sign in to create or join a table.")
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
  const list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": "Chat lines" });
  const alert = h("p", { class: "error chat-alert", role: "alert" });
  let stopped = false;
  let sub = null;

  function lineNode(line) {
    const at = new Date(line.at);
    const time = Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return h("li", { class: `chat-line${line.spectator ? " spectator" : ""}`, "data-player": line.player },
      h("span", { class: "chat-time muted" }, time), " ",
      playerLink(line.player),
      line.spectator ? h("span", { class: "chat-mark", title: "not seated at this table" }, " (spectator)") : null,
      ": ", h("span", { class: "chat-text" }, line.text));
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
      if (reply.error) throw new Error(reply.error.message);
      show(reply.lines);
    } catch (err) {
      if (!stopped) alert.textContent = `The chat did not answer (${err.message}).`;
    }
  }

  const input = h("input", { type: "text", name: "text", maxlength: 500, autocomplete: "off",
    "aria-label": table ? "Say something to the table" : "Say something to the lobby",
    placeholder: table ? "Say something to the table" : "Say something to the lobby" });
  async function say(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    alert.textContent = "";
    const id = randomHex(12); // the same id if the line is sent again: said once
    try {
      const reply = await ask(`tabletop.say.${room}.${me.name}`, { id, text });
      if (reply.error) {
        alert.textContent = reply.error.message;
        alert.setAttribute("data-code", reply.error.code);
        return;
      }
      input.value = "";
    } catch (err) {
      alert.textContent = `No answer from the chat (${err.message}).`;
    }
  }
  const form = me.guest
    ? h("p", { class: "muted" }, "Sign in to chat.")
    : h("form", { class: "chat-form", onsubmit: say }, input, h("button", { type: "submit" }, "Send"));
  const node = h("section", { class: "chat", id: table ? "table-chat" : "lobby-chat", "aria-label": "Chat" },
    h("h2", {}, "Chat"), list, alert, form);

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
  const place = entry.rank === null ? "abandoned" : entry.won ? "won" : `rank ${entry.rank}`;
  return h("li", { class: "history-entry", "data-table": entry.table },
    h("time", { datetime: entry.ended_at }, entry.ended_at.slice(0, 16).replace("T", " ")), " · ",
    info ? info.title : entry.game, " · ", place, " · ",
    entry.rated ? h("span", { class: entry.rating_after >= entry.rating_before ? "up" : "down" },
      `rating ${entry.rating_after.toFixed(1)} (${changeText(entry.rating_before, entry.rating_after)})`)
      : h("span", { class: "muted" }, "unrated"), " · ",
    "with ", ...joined(entry.seats.map(playerLink)), " · ",
    h("a", { href: `#/replay/${entry.game}/${entry.table}` }, "replay"));
}

function profilePage(name) {
  if (!isId(name)) return notFound(`There is no player called ${name}.`);
  let stopped = false;
  const alert = h("p", { class: "error", role: "alert" });
  const body = h("div", { id: "profile", "data-player": name }, h("p", {}, "Loading…"));
  const tables = h("ol", { class: "history", id: "history" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "More tables");
  let next = null;

  async function page() {
    const reply = await ask(`tabletop.history.${name}`, next === null ? { limit: 20 } : { limit: 20, after: next });
    if (stopped) return;
    if (reply.error) throw new Error(reply.error.message);
    tables.append(...reply.tables.map(historyItem));
    next = reply.next;
    more.hidden = next === null;
  }
  more.addEventListener("click", () => page().catch((err) => { alert.textContent = err.message; }));

  (async () => {
    const profile = await ask(`tabletop.profile.${name}`, {});
    if (stopped) return;
    if (profile.error) throw new Error(profile.error.message);
    const games = Object.entries(profile.games);
    body.replaceChildren(
      h("p", {}, profile.since ? `Playing since ${profile.since.slice(0, 10)}.` : "No table played yet."),
      games.length ? h("table", { class: "records" },
        h("thead", {}, h("tr", {}, ...["Game", "Rating", "Played", "Won", "Over time"].map((t) =>
          h("th", { scope: "col" }, t)))),
        h("tbody", {}, games.map(([game, record]) => h("tr", { "data-game": game },
          h("th", { scope: "row" }, h("a", { href: `#/rankings/${game}` }, gameInfo(game)?.title || game)),
          h("td", { title: record.provisional ? "provisional: fewer than 5 rated tables" : "" }, ratingText(record)),
          h("td", {}, record.played), h("td", {}, record.won),
          h("td", {}, (profile.chart[game] || []).length
            ? ratingChart(profile.chart[game], `${name}'s ${gameInfo(game)?.title || game} rating over time`)
            : h("span", { class: "muted" }, "no rated table")))))) : null,
      h("h2", {}, "Tables"), tables, more);
    await page();
  })().catch((err) => { if (!stopped) alert.textContent = `The profile did not load (${err.message}).`; });

  main.replaceChildren(h("h1", {}, name), alert, body);
  return { stop() { stopped = true; } };
}

function rankingsPage(game) {
  const info = gameInfo(game);
  if (!info) return notFound(`There is no game called ${game}.`);
  let stopped = false;
  let next = null;
  const alert = h("p", { class: "error", role: "alert" });
  const rows = h("tbody", {});
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "More players");
  const empty = h("p", { class: "muted", hidden: true }, "Nobody is rated yet: rated tables are those played by people only.");

  async function page() {
    const reply = await ask(`tabletop.rankings.${game}`, next === null ? { limit: 50 } : { limit: 50, after: next });
    if (stopped) return;
    if (reply.error) throw new Error(reply.error.message);
    rows.append(...reply.players.map((p) => h("tr", { "data-player": p.player },
      h("td", {}, p.rank), h("th", { scope: "row" }, playerLink(p.player)),
      h("td", { title: p.provisional ? "provisional: fewer than 5 rated tables" : "" }, ratingText(p)),
      h("td", {}, p.played), h("td", {}, p.won))));
    empty.hidden = rows.children.length > 0;
    next = reply.next;
    more.hidden = next === null;
  }
  more.addEventListener("click", () => page().catch((err) => { alert.textContent = err.message; }));
  page().catch((err) => { if (!stopped) alert.textContent = `The rankings did not load (${err.message}).`; });

  main.replaceChildren(h("h1", {}, `${info.title} rankings`),
    h("p", { class: "muted" }, "By rating: a cautious estimate of skill that rises as a player wins and " +
      "as their record grows (a question mark: fewer than 5 rated tables)."),
    alert,
    h("table", { class: "records", id: "rankings" },
      h("thead", {}, h("tr", {}, ...["Rank", "Player", "Rating", "Played", "Won"].map((t) => h("th", { scope: "col" }, t)))),
      rows),
    empty, more,
    h("p", {}, h("a", { href: `#/lobby/${game}` }, `${info.title} lobby`)));
  return { stop() { stopped = true; } };
}

function notFound(text) {
  main.replaceChildren(h("h1", {}, "Not found"), h("p", {}, text), h("a", { href: "#/" }, "Games"));
  return {};
}

function tablePage(game, table) {
  const info = gameInfo(game);
  if (!info || !isId(table)) return notFound(`There is no ${game} table ${table}.`);
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
  const seatsPanel = h("ul", { id: "players", class: "players", "aria-label": "Players" });
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
        h("aside", { class: "log-box", "aria-label": "Game log" }, h("h2", {}, "Game log"), logList),
        chat.node)),
    h("p", {}, h("a", { href: `#/lobby/${game}` }, `Back to the ${info.title} lobby`), " · ",
      h("a", { href: `#/replay/${game}/${table}`, id: "replay-link" }, "Replay")),
    rulesBox,
    me.guest ? null : alertControls());
  main.replaceChildren(root);
  explainMoves(root, info, moveHint);
  let wasMyTurn = null; // null until the first view: no chime for a turn already there

  const seated = () => Boolean(view && !me.guest && view.seats.includes(me.name));
  const viewer = () => (seated() ? me.name : SPECTATOR);

  async function act(command) {
    if (busy || stopped) return;
    busy = true;
    alert.textContent = "";
    const body = { ...command };
    // `expect` only when this seat alone acts: a simultaneous step moves on under others' feet
    if (view && view.status === "running" && (view.to_act || []).length === 1) body.expect = version;
    try {
      const reply = await sendCommand(game, table, body);
      if (!reply.ok) {
        alert.textContent = reply.error.message;
        alert.setAttribute("data-code", reply.error.code);
        if (reply.error.code === "stale_version") resync();
      } else if (reply.version > version) {
        setTimeout(() => { if (!stopped && version < reply.version) resync(); }, 3000);
      }
    } catch (err) {
      alert.textContent = `No answer from the game server (${err.message}).`;
    } finally {
      busy = false;
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
    seatLine.replaceChildren(`${view.status === "open" ? "Open" : view.status === "running" ? "Playing"
      : "Ended"} · seats: `, ...(view.seats.length ? joined(view.seats.map(playerLink)) : ["none"]),
      ` (${view.seats.length} of ${view.seat_count})` +
      (seat ? ` · you play as ${seat}` : " · you are watching"));
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
      if (!seat && view.seats.length < view.seat_count) buttons.push(tableAction("join", "Join"));
      if (seat && view.creator === seat) buttons.push(tableAction("start", "Start the game"));
      if (seat) buttons.push(tableAction("leave", "Leave", "secondary"));
    }
    if (view.status === "running" && seat && !(view.zombies || []).includes(seat)) {
      buttons.push(h("button", { type: "button", class: "secondary", "data-action": "quit",
        onclick: () => {
          if (confirm("Quit this game? A bot plays your seat from now on.")) act({ type: "quit" });
        } }, "Quit the game"));
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
    const field = h("input", { id: "invitation-link", readonly: true, value: link, "aria-label": "Invitation link" });
    const copied = h("span", { class: "muted", role: "status" });
    invitation.replaceChildren(h("p", {}, "Invite players: send them this link. ", field, " ",
      h("button", { type: "button", class: "secondary", id: "copy-invitation", onclick: async () => {
        field.select();
        try {
          await navigator.clipboard.writeText(link);
          copied.textContent = "Copied.";
        } catch (err) {
          copied.textContent = "Select the link and copy it.";
        }
      } }, "Copy"), " ", copied));
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
        onclick: offerRematch }, "Rematch")] : []));
      return;
    }
    const there = `#/table/${game}/${offered.table}`;
    const declined = offered.declined || [];
    const answered = offered.by === me.name || declined.includes(me.name);
    const joinIt = h("button", { type: "button", "data-action": "join-rematch", onclick: async () => {
      const reply = await sendCommand(game, offered.table, { type: "join" });
      if (reply.ok || reply.error.code === "already_seated") location.hash = there;
      else alert.textContent = reply.error.message;
    } }, "Join the rematch");
    const declineIt = h("button", { type: "button", class: "secondary", "data-action": "decline-rematch",
      onclick: () => act({ type: "decline_rematch" }) }, "Decline");
    next.replaceChildren(h("p", { class: "offer" },
      `${offered.by === me.name ? "You offer" : `${offered.by} offers`} a rematch: it starts when everyone has joined. `,
      person && !answered ? [joinIt, " ", declineIt] : h("a", { href: there }, offered.by === me.name ? "Go to it" : "Watch it")),
    declined.length ? h("p", { class: "muted", id: "rematch-declined" }, `Declined: ${declined.join(", ")}.`) : null);
  }

  async function offerRematch(event) {
    event.target.disabled = true;
    alert.textContent = "";
    const nextTable = `${game}-${randomHex(6)}`;
    try {
      const made = await sendCommand(game, nextTable,
        { type: "create", options: { ...view.options, start_when_full: true }, seats: view.seat_count });
      if (!made.ok) throw new Error(made.error.message);
      const offered = await sendCommand(game, table, { type: "rematch", table: nextTable });
      if (offered.ok) {
        location.hash = `#/table/${game}/${nextTable}`;
        return;
      }
      await sendCommand(game, nextTable, { type: "leave" }); // another player offered first: theirs
      alert.textContent = offered.error.message;
      resync();
    } catch (err) {
      alert.textContent = `The rematch could not be made (${err.message}).`;
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
      const tags = [bots.has(p) ? "bot" : null, zombies.has(p) ? "played by a bot" : null,
        isAway ? "away" : null].filter(Boolean);
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
        h("span", { class: "name" }, playerLink(p), p === me.name ? " (you)" : "",
          tags.length ? ` (${tags.join(", ")})` : ""),
        acting.has(p) ? h("span", { class: "to-act" }, "to play") : null,
        time === null ? null : h("span", { class: running ? "clock running" : "clock" },
          running ? h("span", { class: "tick", role: "img", "aria-label": "running" }) : null, time),
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
          ? `There is no ${info.title} table ${table}.` : reply.error.message;
        return;
      }
      if (reply.version > version || viewer() !== (seated() ? me.name : SPECTATOR)) {
        apply(reply.version, reply.view);
      }
      fetchLog();
    } catch (err) {
      alert.textContent = `No answer from the game server (${err.message}).`;
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
    },
    resync() { resync(); chat.resync(); },
  };
}

function replayPage(game, table, stepVersion, asViewer) {
  const info = gameInfo(game);
  if (!info || !isId(table)) return notFound(`There is no ${game} table ${table}.`);
  let stopped = false;
  let steps = [];
  let index = 0;
  let timer = null;
  let module = null;
  const alert = h("p", { class: "error", role: "alert" });
  const slider = h("input", { id: "step", type: "range", min: 0, max: 0, value: 0, step: 1,
    disabled: true });
  const where = h("output", { id: "step-label", for: "step" });
  const play = h("button", { type: "button", id: "play", "aria-pressed": "false" }, "Play");
  const boardBox = h("div", { id: "replay-board", class: "board" });
  const stepLog = h("div", { id: "step-log", class: "step-log", "aria-live": "polite" });
  const result = h("div", { id: "result-box" });
  const showResult = ratedResults(game, table, () => stopped);
  const logList = h("ol", { id: "replay-log", class: "log" });
  const viewerLine = h("p", { id: "replay-viewer" });
  const button = (label, onclick, attrs = {}) => h("button", { type: "button", onclick, ...attrs }, label);

  main.replaceChildren(h("div", { id: "replay", class: "replay-page", "data-game": game,
    "data-table": table },
  h("h1", {}, `Replay: ${info.title} `, h("span", { class: "table-id" }, table)),
  viewerLine, alert,
  h("div", { class: "replay-controls" },
    button("First", () => go(0), { id: "first", "aria-label": "First step" }),
    button("Back", () => go(index - 1), { id: "prev", "aria-label": "Previous step" }),
    play,
    button("Next", () => go(index + 1), { id: "next", "aria-label": "Next step" }),
    button("Last", () => go(steps.length - 1), { id: "last", "aria-label": "Last step" })),
  h("div", { class: "slider" }, h("label", { for: "step" }, "Step"), slider, where),
  stepLog, result,
  h("div", { class: "table-layout" },
    h("div", { class: "play-area" }, boardBox),
    h("aside", { class: "log-box", "aria-label": "Game log" }, h("h2", {}, "Game log"), logList)),
  h("p", {}, h("a", { href: `#/table/${game}/${table}` }, "The table"))));

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
    slider.setAttribute("aria-valuetext", `step ${index + 1} of ${steps.length}, version ${step.version}`);
    where.textContent = `Step ${index + 1} of ${steps.length} · version ${step.version} · ${step.player} · ${
      new Date(step.at).toLocaleString()}`;
    const root = document.getElementById("replay");
    root.setAttribute("data-version", step.version);
    root.setAttribute("data-index", index);
    const texts = stepTexts(step);
    stepLog.replaceChildren(h("h2", {}, `This step (${step.player})`),
      texts.length ? h("ul", {}, texts.map((t) => h("li", {}, t))) : h("p", { class: "muted" }, "Nothing to show."));
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
      : h("p", { class: "muted" }, "No board for this step."));
    showResult(result, view && view.result);
    history.replaceState(null, "", `#/replay/${game}/${table}/${step.version}${
      viewerName === SPECTATOR && !me.guest ? `/${SPECTATOR}` : ""}`);
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
  }

  play.addEventListener("click", () => {
    if (timer) return pause();
    if (index >= steps.length - 1) index = -1;
    play.textContent = "Pause";
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
      alert.textContent = err.code === "unknown_table" ? `There is no ${info.title} table ${table}.`
        : `The replay did not load (${err.message}).`;
      return;
    }
    if (stopped || !steps.length) return;
    const last = steps[steps.length - 1].view;
    const seat = last && last.seats.includes(viewerName);
    viewerLine.replaceChildren(`${seat ? `As ${viewerName}, with your own cards` : "As a spectator"} · ${
      last && last.status === "ended" ? "the table has ended" : "the table is still being played"}`);
    if (!me.guest && (seat || last.seats.includes(me.name))) {
      const other = seat ? `/${SPECTATOR}` : "";
      viewerLine.append(" · ", h("button", { type: "button", class: "link", id: "replay-as",
        onclick: () => { location.hash = `#/replay/${game}/${table}/${steps[index].version}${other}`; } },
      seat ? "see it as a spectator" : "see it with your cards"));
    }
    logList.replaceChildren(...steps.map((step, i) => {
      const entry = logEntry(step) || h("li", { "data-version": step.version },
        h("span", { class: "log-version" }, `#${step.version}`), " ", step.player);
      entry.prepend(h("button", { type: "button", class: "link", "aria-label": `Go to step ${i + 1}`,
        onclick: () => go(i) }, "▸"));
      return entry;
    }));
    slider.max = steps.length - 1;
    slider.disabled = false;
    const wanted = steps.findIndex((s) => s.version === Number(stepVersion));
    go(wanted >= 0 ? wanted : 0);
  })();
  return { stop() { stopped = true; pause(); } };
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
        signInNotice = "Your session has expired or was signed out: sign in again.";
      }
    }
  }
  drawNav();
  window.addEventListener("hashchange", route);
  // another tab of this browser signed out: so does this one
  window.addEventListener("storage", (event) => {
    if (event.key === SESSION_KEY && !event.newValue && me) signedOut("Signed out in another tab.");
  });
  route();
}

start().catch((err) => {
  main.replaceChildren(h("h1", {}, "tabletop"), h("p", { class: "error" },
    `The page could not start: ${err.message}`));
});

// The client's two languages. Every text a person reads goes through `t(english, params)`:
// English is the key, and each module registers the French of its own texts with
// `addFrench({...})` beside them. The language follows the browser until a player picks one
// (kept in localStorage); texts the server writes (game logs, rules, option sentences) come
// in both languages and `inLanguage` picks.

const LANGUAGE_KEY = "tabletop.language";
export const LANGUAGES = { en: "English", fr: "Français" };

function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

function chosenLanguage() {
  try {
    const kept = localStorage.getItem(LANGUAGE_KEY);
    if (kept in LANGUAGES) return kept;
  } catch {
    // storage refused (private mode): the browser's language
  }
  return browserLanguage();
}

/** "en" or "fr": the language of every text on the page. */
export const language = chosenLanguage();
document.documentElement.lang = language;

const french = new Map();

/** Register the French of some English texts: {"Sign in": "Se connecter", ...}. */
export function addFrench(texts) {
  for (const [english, translated] of Object.entries(texts)) french.set(english, translated);
}

// The English texts asked for in French that have none (shown in English meanwhile): the
// browser tests read it and fail on any.
const untranslated = new Set();
window.__untranslated = untranslated;

/** `english` in the page's language, each `{name}` replaced by `params[name]`. */
export function t(english, params = {}) {
  let text = english;
  if (language === "fr") {
    text = french.get(english);
    if (text === undefined) {
      untranslated.add(english);
      text = english;
    }
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Keep `choice` ("en" or "fr") for this browser and show the page again in it. */
export function chooseLanguage(choice) {
  try {
    localStorage.setItem(LANGUAGE_KEY, choice);
  } catch {
    return;
  }
  location.reload();
}

/** A step's log lines in the page's language (`log_fr` beside the English `log`). */
export function logOf(step) {
  return (language !== "en" && step[`log_${language}`]) || step.log || [];
}

/** A game's help (rules, moves, description, option sentences) in the page's language. */
export function helpOf(info) {
  const translated = language !== "en" ? info[`help_${language}`] : null;
  return translated && Object.keys(translated).length ? translated : info.help || {};
}

/** A number of things in words: plural("{n} card", "{n} cards", 2) -> "2 cards", in French
 * through the catalogue (French counts 0 and 1 as singular). */
export function plural(one, many, n) {
  const singular = language === "fr" ? Math.abs(n) < 2 : n === 1;
  return t(singular ? one : many, { n });
}

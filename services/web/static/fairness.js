// "Check the dice": a second implementation, in the browser, of the table's generator
// (shared/games/draws.py) and of the checks a finished table's replay allows without the game's
// rules. WebCrypto does the hashing (SHA-256, HMAC-SHA256), BigInt the 64-bit arithmetic.
//
// The seed is SHA-256(secret || for each seat: 1 length byte + its entropy bytes); block i is
// HMAC-SHA256(key = seed, message = i as 8 bytes big-endian); below(n) takes a block's first 8
// bytes as a big-endian number x, kept if x < 2**64 - (2**64 mod n) (then x mod n), else the
// next block. No DOM here: the replay page shows what `checkReplay` says, in its language
// (each line is an English text with `{name}` parameters, a key of the French catalogue).
//
// Everything is exported, and on `window.tabletopFairness` for the tests.

const SPAN = 1n << 64n;

/** Whether this browser gives the page WebCrypto (only a secure context has it: HTTPS or
 * the machine's own address). */
export function available() {
  return Boolean(globalThis.crypto && globalThis.crypto.subtle);
}

/** "00ff" -> Uint8Array [0, 255]; an Error for anything but whole bytes of hex. */
export function hexToBytes(hex) {
  const text = String(hex);
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw new Error(`not hex: ${text.slice(0, 16)}`);
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of some bytes, in hex. */
export async function sha256Hex(bytes) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** The table's seed (bytes): SHA-256 of the secret (hex), then for each seat in seat order one
 * byte, the length of its entropy in bytes, and that entropy (hex, "" for none). */
export async function tableSeed(secretHex, entropies) {
  const parts = [hexToBytes(secretHex)];
  for (const entropy of entropies) {
    const raw = hexToBytes(entropy || "");
    if (raw.length > 255) throw new Error("an entropy longer than 255 bytes");
    parts.push(Uint8Array.of(raw.length), raw);
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", all));
}

/** The table's generator from block `first` on (`next`: the block the next draw starts at).
 * Every draw is async: WebCrypto is. */
export class Draws {
  constructor(seed, first = 0) {
    this.seed = seed instanceof Uint8Array ? seed : hexToBytes(seed);
    this.first = first;
    this.next = first;
    this.key = null;
  }

  /** Block `i`: HMAC-SHA256(seed, i as 8 bytes big-endian). */
  async block(i) {
    if (!this.key) {
      this.key = await crypto.subtle.importKey("raw", this.seed, { name: "HMAC", hash: "SHA-256" },
        false, ["sign"]);
    }
    const message = new DataView(new ArrayBuffer(8));
    message.setBigUint64(0, BigInt(i), false);
    return new Uint8Array(await crypto.subtle.sign("HMAC", this.key, message.buffer));
  }

  /** A uniform number in [0, n): a number for a number `n`, a BigInt for a BigInt. */
  async below(n) {
    const big = BigInt(n);
    if (big < 1n) throw new Error("nothing to draw from");
    const limit = SPAN - (SPAN % big);
    for (;;) {
      const block = await this.block(this.next);
      this.next += 1;
      const x = new DataView(block.buffer).getBigUint64(0, false);
      if (x < limit) return typeof n === "bigint" ? x % big : Number(x % big);
    }
  }

  async choice(items) {
    return items[await this.below(items.length)];
  }

  /** Fisher-Yates from the last place down, in place: place i takes the item at a place
   * drawn below i + 1. */
  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** k distinct items: Fisher-Yates from the first place up, stopped after k places. */
  async sample(items, k) {
    if (!Number.isInteger(k) || k < 0 || k > items.length) throw new Error("sample larger than its population");
    const pool = items.slice();
    for (let i = 0; i < k; i += 1) {
      const j = i + (await this.below(pool.length - i));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    return pool.slice(0, k);
  }
}

/** Each receipt ({op, items, k}) drawn again from block `first` of `seed`: {results, next},
 * `next` the block after the last one taken. */
export async function redraw(seed, first, receipts) {
  const draws = new Draws(seed, first);
  const results = [];
  for (const receipt of receipts) {
    const items = receipt.items;
    if (!Array.isArray(items)) throw new Error(`a ${receipt.op} draw from no list`);
    if (receipt.op === "choice") results.push(await draws.choice(items));
    else if (receipt.op === "shuffle") results.push(await draws.shuffle(items.slice()));
    else if (receipt.op === "sample") results.push(await draws.sample(items, receipt.k ?? 0));
    else throw new Error(`unknown draw operation ${JSON.stringify(receipt.op)}`);
  }
  return { results, next: draws.next };
}

/** What the replay's events say of the seed (the latest of each, as the table keeps them). */
function readLog(steps) {
  const log = { commitment: null, secret: null, revealed: null, entropy: new Map(), players: null,
    draws: [] };
  for (const step of steps) {
    for (const event of step.events || []) {
      switch (event && event.type) {
        case "seed_committed": log.commitment = event.commitment; break;
        case "player_joined": log.entropy.set(event.player, event.entropy || ""); break;
        case "table_started": log.players = event.players; break;
        case "draws_made": log.draws.push({ first: event.first, blocks: event.blocks }); break;
        case "seed_revealed": log.secret = event.secret; log.revealed = event.draws || {}; break;
        default: break;
      }
    }
  }
  return log;
}

const ENTROPY = /^(?:[0-9a-f]{2}){0,32}$/;

/** Check a table from its replay steps ({events}, as the replay request brings them, for any
 * viewer). Returns {status, checks, seed}: `status` "passed", "failed", or "unverifiable"
 * (`reason` then says why: "no_seed", a table created before seeds, or "not_ended");
 * `checks`: [{ok, text, params}] in the order made, `text` an English sentence with `{name}`
 * parameters. A check that fails stops those that build on it. */
export async function checkReplay(steps) {
  const checks = [];
  const pass = (text, params = {}) => checks.push({ ok: true, text, params });
  const fail = (text, params = {}) => checks.push({ ok: false, text, params });
  const done = (extra = {}) => ({ status: checks.every((c) => c.ok) ? "passed" : "failed", checks, ...extra });
  const log = readLog(steps);
  if (!log.commitment) return { status: "unverifiable", reason: "no_seed", checks };
  if (log.secret === null || log.secret === undefined) return { status: "unverifiable", reason: "not_ended", checks };

  // (1) the secret against the commitment
  let secret;
  try {
    secret = hexToBytes(log.secret);
  } catch {
    fail("The revealed secret is not hex.");
    return done();
  }
  const hashed = await sha256Hex(secret);
  if (hashed !== String(log.commitment).toLowerCase()) {
    fail("The revealed secret does not match the commitment: its SHA-256 is {hashed}…, the commitment {commitment}…",
      { hashed: hashed.slice(0, 16), commitment: String(log.commitment).slice(0, 16) });
    return done();
  }
  pass("The revealed secret matches the commitment made at the table's creation ({commitment}…).",
    { commitment: hashed.slice(0, 16) });
  if (!Array.isArray(log.players)) {
    pass("The game never started: nothing was drawn.");
    return done();
  }

  // (2) the seed: the secret, then every seat's entropy
  const entropies = log.players.map((p) => log.entropy.get(p) || "");
  const bad = log.players.filter((p, i) => !ENTROPY.test(entropies[i]));
  if (bad.length) {
    fail("The entropy of {players} is not up to 64 hex characters.", { players: bad.join(", ") });
    return done();
  }
  const seed = await tableSeed(log.secret, entropies);
  pass("The seed is the SHA-256 of the secret and of each seat's entropy (seats: {seats}; with entropy of their own: {given}): {seed}…",
    { seats: log.players.length, given: entropies.filter(Boolean).length, seed: bytesToHex(seed).slice(0, 16) });

  // (3) the commands' draws follow one another, and the revealed receipts are exactly theirs
  const revealed = log.revealed && typeof log.revealed === "object" ? log.revealed : {};
  let expected = 0;
  let chained = true;
  for (const made of log.draws) {
    if (made.first !== expected) {
      fail("A command's draws start at block {first}, where block {expected} was next.", { first: made.first, expected });
      chained = false;
    }
    expected = made.first + made.blocks;
  }
  const firsts = new Set(log.draws.map((d) => String(d.first)));
  const keys = new Set(Object.keys(revealed));
  const missing = [...firsts].filter((f) => !keys.has(f));
  const extra = [...keys].filter((k) => !firsts.has(k));
  if (missing.length) fail("The draws from block {blocks} are not among the revealed ones.", { blocks: missing.join(", ") });
  if (extra.length) fail("The revealed draws from block {blocks} belong to no command.", { blocks: extra.join(", ") });
  if (chained && !missing.length && !extra.length) {
    pass("The commands' draws follow one another from block 0 up to block {end} (commands that drew: {commands}), and they are exactly the revealed ones.",
      { commands: log.draws.length, end: expected });
  }

  // (4) every command's draws made again from the seed, in exactly its blocks
  let count = 0;
  let again = true;
  for (const made of log.draws) {
    const receipts = revealed[String(made.first)];
    if (!Array.isArray(receipts)) continue; // reported above
    try {
      const { next } = await redraw(seed, made.first, receipts);
      if (next - made.first !== made.blocks) {
        fail("The draws from block {first}, made again, stop before block {next}; the log says before block {logged}.",
          { first: made.first, next, logged: made.first + made.blocks });
        again = false;
      }
    } catch (err) {
      fail("The draws from block {first} cannot be made again: {message}.", { first: made.first, message: err.message });
      again = false;
    }
    count += receipts.length;
  }
  if (again) {
    pass("Every draw made again from the seed (draws: {draws}): each command takes exactly the blocks it logged.", { draws: count });
  }
  return done({ seed: bytesToHex(seed) });
}

globalThis.tabletopFairness = { // window.tabletopFairness in a page
  available, hexToBytes, bytesToHex, sha256Hex, tableSeed, Draws, redraw, checkReplay,
};

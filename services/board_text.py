"""A table as a person reads it in a terminal: the header, the game's board, and every kind of
command the seat may send, grouped one line per command type with its choices (never cut).

`render(reply)` returns the lines; `tabletop view`, `watch` and `replay` print them. Each game
has its board function below; a game without one gets its view's keys, one a line.
`step_lines(step)` is one step of the game log (a replay's or a push's), in the game's words.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from shared.games.table import RESERVED_VIEW_KEYS
from shared.games.view_terms import COMMON_VIEW_KEYS

SHARED_KEYS = (*COMMON_VIEW_KEYS, "turn")  # `turn` only in games that count turns


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# --- the whole screen ------------------------------------------------------------------------


def render(reply: dict[str, Any]) -> list[str]:
    view = reply["view"]
    lines = [f"{view['game']} · version {reply['version']} · {view['status']}"]
    lines.append(
        f"  seats   : {', '.join(view['seats']) or '-'} ({view['seat_count']} max; creator {view['creator']})"
    )
    if view.get("options"):
        lines.append(f"  options : {compact(view['options'])}")
    shared = [f"{k} {view[k]}" for k in SHARED_KEYS if view.get(k) not in (None, "")]
    if shared:
        lines.append(f"  now     : {' · '.join(shared)}")
    if view["to_act"]:
        lines.append(f"  to act  : {', '.join(view['to_act'])}")
    if view["status"] in ("running", "ended"):
        board = BOARDS.get(view["game"], generic_board) if "phase" in view else generic_board
        lines += [f"  {line}".rstrip() for line in board(view)]
    if view.get("legal"):
        lines += command_lines(view["legal"], view.get("free_text", {}))
    if "result" in view:
        lines += result_lines(view["result"])
    if "rematch" in view:
        offered = view["rematch"]
        lines.append(
            f"  rematch : {offered['by']} offers table {offered['table']} (tabletop join {offered['table']})"
        )
    return lines


def step_lines(step: dict[str, Any]) -> list[str]:
    """A step as the game log says it: the version, when and who, then each text. A step
    without texts (from a server before the log) shows its event types."""
    said = step.get("log") or [event["type"] for event in step["events"]]
    return [f"v{step['version']:<4} {step['at']}  {step['player']}", *(f"        {text}" for text in said)]


def result_lines(result: dict[str, Any]) -> list[str]:
    if result.get("details", {}).get("abandoned"):
        return ["  abandoned: every player left before the start"]
    lines = ["  result  :"]
    lines += [f"    {s['rank']}. {s['player']} ({s['score']})" for s in result["ranking"]]
    lines.append(f"  winners : {', '.join(result['winners']) or 'none'}")
    return lines


# --- the commands ------------------------------------------------------------------------------


def command_lines(legal: list[dict[str, Any]], free_text: dict[str, list[str]]) -> list[str]:
    """One line per command type: the fields every choice shares as `name=value`, then the
    choices of the others, each a JSON value (a list when several fields vary), joined by
    ` | `. Send one as {"type": TYPE, shared fields..., varying fields...}."""
    lines = ["  you may send (`tabletop act TABLE '{\"type\": TYPE, FIELD: VALUE, ...}'`):"]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for command in legal:
        by_type.setdefault(command["type"], []).append({k: v for k, v in command.items() if k != "type"})
    for kind, choices in by_type.items():
        lines.append(f"    {kind}{command_choices(choices, free_text.get(kind, []))}")
    return lines


def command_choices(choices: list[dict[str, Any]], free: list[str]) -> str:
    fields = list(choices[0])
    varying = [f for f in fields if any(c.get(f) != choices[0].get(f) for c in choices)]
    fixed = [f for f in fields if f not in varying]
    if len(choices) > 1 and not varying:  # the same command listed twice: say it once
        choices = choices[:1]
    parts = [f"{f}={compact(choices[0][f])}" for f in fixed if f not in free]
    shown = varying + [f for f in fixed if f in free]
    if shown:
        names = ", ".join(f + (" (free text; these are examples)" if f in free else "") for f in shown)
        values = [c[shown[0]] if len(shown) == 1 else [c[f] for f in shown] for c in choices]
        parts.append(f"{names}: {' | '.join(compact(v) for v in values)}")
    return ("  " + "  ".join(parts)) if parts else ""


# --- the games' boards ---------------------------------------------------------------------------


def generic_board(view: dict[str, Any]) -> list[str]:
    return [
        f"{key:<8}: {compact(value)}"
        for key, value in view.items()
        if key not in RESERVED_VIEW_KEYS and key not in SHARED_KEYS
    ]


def _name(card: str | None) -> str:
    """`fort_2` -> `Fort`; None (a card not seen) -> `?`."""
    return "?" if card is None else card.rsplit("_", 1)[0].replace("_", " ").title()


def _you(view: dict[str, Any], player: str) -> str:
    marks = [
        m
        for m, on in (("you", player == view.get("you")), ("to play", player == view.get("active_player")))
        if on
    ]
    return f"{player} ({', '.join(marks)})" if marks else player


def naishi_board(view: dict[str, Any]) -> list[str]:
    if view["phase"] == "setup":
        return []
    width = 15  # "Councillor (6)" and a space
    cols = "".join(f"{p:<{width}}" for p in range(1, 6))
    lines = [f"{'':9}{cols}"]
    river = [f"{_name(p['top']) if p['top'] else '-'} ({p['size']})" for p in view["river"]]
    lines.append(f"{'River':9}" + "".join(f"{r:<{width}}" for r in river))
    for player, land in view["territories"].items():
        lines.append(f"{_you(view, player)}: {land['reserve']} Emissaries in reserve")
        for row in ("line", "hand"):
            cells = "".join(f"{_name(c):<{width}}" for c in land[row])
            lines.append(f"  {row.title():7}{cells}".rstrip())
        if land.get("hand_known_unplaced"):
            known = ", ".join(_name(c) for c in land["hand_known_unplaced"])
            lines.append(f"  also in this Hand, place unknown: {known}")
    court = "  ".join(f"{spot}: {who or '-'}" for spot, who in view["court"].items())
    lines.append(f"Court    {court}")
    discard = view["discard"]
    lines.append(f"Discard  {len(discard)} cards" + (f", top {_name(discard[-1])}" if discard else ""))
    if view["phase"] == "turns":
        lines.append(
            f"This turn: developed {'yes' if view['developed'] else 'no'}, bonus "
            f"{'used' if view['bonus_used'] else 'open'}"
        )
    if view.get("end_triggered"):
        lines.append(f"End triggered ({view['end_reason']}); last turn: {view['final_player'] or '-'}")
    if view["phase"] == "exchange" and view.get("my_cards"):
        lines.append(f"Your cards: {', '.join(view['my_cards'])}; given: {view.get('my_gift') or '-'}")
    copies = {p: c for p, c in view.get("ninja_copies", {}).items() if c}
    if copies:
        lines.append(
            "Ninjas   "
            + "  ".join(
                f"{p}: " + ", ".join(f"{cell} as {kind or 'nothing'}" for cell, kind in c.items())
                for p, c in copies.items()
            )
        )
    if view.get("scores"):
        lines.append(
            "Scores   "
            + "  ".join(
                f"{p}: {s.get('total', s) if isinstance(s, dict) else s}" for p, s in view["scores"].items()
            )
        )
    return lines


def _dozito_card(card: dict[str, Any] | None) -> str:
    if card is None:
        return "[face down]"
    number = "J" if card["number"] is None else str(card["number"])
    special = {"stop": " STOP", "replay": " REPLAY"}.get(card["kind"], "")
    return f"{card['colour']} {number}{special}" + ("*" * int(card["suns"]))


def dozito_board(view: dict[str, Any]) -> list[str]:
    columns = view["grid_size"]["columns"]
    lines = []
    for player, grid in view["grids"].items():
        total = view["totals"].get(player, 0)
        lines.append(f"{_you(view, player)}: total {total}")
        for start in range(0, len(grid), columns):
            cells = [f"{s + 1:>2} {_dozito_card(grid[s]):<15}" for s in range(start, start + columns)]
            lines.append("  " + " ".join(cells).rstrip())
    piles = "   ".join(
        f"pile {i}: {_dozito_card(p['top']) if p['top'] else 'empty'} ({p['size']})"
        for i, p in enumerate(view["discards"])
    )
    lines.append(f"Discards  {piles}")
    lines.append(f"Draw pile {view['draw_size']} cards   (* = a sun)")
    if view.get("hand"):
        lines.append(f"In hand   {_dozito_card(view['hand'])} (from the {view['hand_from']})")
    if view.get("extra_turn"):
        lines.append("This is an extra turn (Replay).")
    if view.get("extra_turn_earned"):
        lines.append("A Replay was discarded: the same player plays again next.")
    if view.get("round_end_triggered_by"):
        lines.append(
            f"Round end triggered by {view['round_end_triggered_by']}; last turns: "
            f"{', '.join(view['last_turns']) or 'none left'}"
        )
    lines.append(f"Round {view['round']} of {view['rounds']}")
    return lines


def _dice(dice: Iterable[dict[str, Any]]) -> str:
    return " ".join(f"{d['face']}{d['colour'][0].upper()}#{d['die']}" for d in dice) or "-"


def diced_tomatoes_board(view: dict[str, Any]) -> list[str]:
    lines = [f"Bushel   {compact(view['bushel'])}   (a die: face, R/B/G colour, #id)"]
    for player in view["players"]:
        track = (
            " ".join(
                f"{s['slot']}:{s['value']}" + (f"+{s['star']}" if s["star"] else "")
                for s in view["tracks"][player]
            )
            or "-"
        )
        score = view["scores"][player].get("total")
        lines.append(f"{_you(view, player)}: karma {view['karma'][player]}, track {track}, score {score}")
        for token, plant in enumerate(view["plants"][player]):
            value = "" if plant["value"] is None else f" (value {plant['value']})"
            lines.append(f"  tomato {token}: {_dice(plant['dice']) if plant['dice'] else 'empty'}{value}")
    if view["phase"] == "take":
        lines.append(
            f"To take   {view['dice_to_take']} dice from the bushel; passed to you: {_dice(view['passed'])}"
        )
    elif view["phase"] == "place":
        lines.append(f"Rolled    {_dice(view['hand'])}")
    if view.get("final_round"):
        lines.append(f"Final round: the game ends after {view['last_player']}'s turn")
    return lines


def decrypto_board(view: dict[str, Any]) -> list[str]:
    lines = []
    team = view.get("my_team")
    for t, members in view["teams"].items():
        tokens = view["tokens"].get(t, {})
        mine = " (your team)" if t == team else ""
        lines.append(
            f"{t}{mine}: {', '.join(members)} · interceptions {tokens.get('interceptions', 0)}"
            f", miscommunications {tokens.get('miscommunications', 0)}"
            f" · encryptor {view['encryptors'].get(t, '-')}"
        )
    for t, words in view["keywords"].items():
        if words:
            label = "your keywords" if t == team else f"{t} keywords"
            lines.append(f"{label}: " + "  ".join(f"{i}. {w}" for i, w in enumerate(words, 1)))
    if view.get("my_code"):
        lines.append(f"your code to encrypt: {compact(view['my_code'])}")
    lines.append("clue sheet:")
    for reveal in view["history"]:
        intercept = "-" if reveal["interception"] is None else compact(reveal["interception"])
        lines.append(
            f"  round {reveal['round']} {reveal['team']}: {' / '.join(reveal['clues'])}"
            f" -> code {compact(reveal['code'])} (guess {compact(reveal['guess'])},"
            f" interception {intercept})"
        )
    for t, clues in view["clues"].items():
        if clues:
            lines.append(f"  round {view['round']} {t}: {' / '.join(clues)}")
        elif view["phase"] == "clues" or view["phase"] == "decode":
            written = view.get("clues_written", {}).get(t)
            lines.append(
                f"  round {view['round']} {t}: "
                + ("written, hidden until both are in" if written else "not written yet")
            )
    if view.get("decoding"):
        lines.append(
            f"decoding the {view['decoding']} code; your team's answer: "
            f"{compact(view['team_answer']) if view.get('team_answer') else '-'}"
        )
    if view.get("outcome"):
        o = view["outcome"]
        lines.append(f"outcome: {o['winner'] or 'draw'} ({o['reason']})")
    return lines


def illustori_board(view: dict[str, Any]) -> list[str]:
    lines = ["chain:"]
    for placed in view.get("chain", []):
        lines.append(f'  {placed["player"]}: "{placed["text"]}" ({placed["picture"]})')
    if view.get("current_text") is None and view.get("start_card"):
        lines.append(f"  starting card: {view['start_card']['picture']} (to be named)")
    rule = view.get("must_chain")
    if rule:
        lines.append(
            f"next text must {'begin' if rule['end'] == 'start' else 'end'} with "
            f"{' or '.join(x.upper() for x in rule['letters'])}"
        )
    if view.get("used_letters"):
        lines.append(f"used letters: {' '.join(view['used_letters'])}")
    pending = view.get("pending")
    if pending:
        lines.append(
            f'vote on {pending["player"]}\'s "{pending["text"]}" ({pending["picture"]});'
            f" voted: {', '.join(view['voted']) or 'nobody yet'}"
        )
    if view.get("hand") is not None:
        lines.append("your hand: " + "; ".join(f"{c['card']} {c['picture']}" for c in view["hand"]))
    sizes = ", ".join(f"{p} {n}" for p, n in view.get("hand_sizes", {}).items())
    lines.append(f"cards in hand: {sizes} · stack {view.get('stack_size', 0)}")
    if view.get("last_round"):
        lines.append("last round: the game ends after the first player's turn")
    return lines


BOARDS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "naishi": naishi_board,
    "dozito": dozito_board,
    "diced_tomatoes": diced_tomatoes_board,
    "decrypto": decrypto_board,
    "illustori": illustori_board,
}

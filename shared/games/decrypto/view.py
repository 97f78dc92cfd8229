"""What each viewer sees of Decrypto: the live view and the replay's redacted events.

Hidden: a team's clues from the other team until both teams' clues of the round are in; a
team's keywords from the other team (until the game is decided); a code from everyone
but its encryptor until it is revealed; a team's answer from the other team until the reveal
(and its keyword guesses until the game is decided). Spectators see only what is public.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import msgspec

from shared.games.decider import Event, Language, PlayerId, View, describe_with, spoken_list
from shared.games.decrypto.messages import (
    EVENTS,
    CluesGiven,
    CluesRevealed,
    CodeRevealed,
    GameDecided,
    GameSetUp,
    GuessSubmitted,
    KeywordGuessingStarted,
    KeywordsGuessed,
    RoundStarted,
)
from shared.games.decrypto.state import TEAMS, Reveal, State
from shared.games.view_terms import common_terms

# The fields whose values in `legal` are only examples: any text may be sent (issue 12).
FREE_TEXT = {"give_clues": ["clues"], "guess_keywords": ["words"]}


def player_view(state: State, viewer: PlayerId | None) -> View:
    team = state.team_of(viewer)
    over = state.phase == "over"
    encryptor_of = {p: t for t, p in state.encryptors.items()}
    revealed = all(t in state.clues for t in TEAMS)
    my_code = None
    if viewer in encryptor_of and state.phase != "setup":
        my_code = list(state.codes[encryptor_of[viewer]])
    if state.phase == "keywords":
        answered = {t: t in state.keyword_guesses for t in TEAMS}
    else:
        answered = {t: t in state.answers for t in TEAMS}
    return {
        # Encryptors, then teams, act at the same time: no single active player (`to_act`).
        **common_terms(active_player=None, phase=state.phase, round=state.round),
        "max_rounds": state.max_rounds,
        "language": state.language,
        "clue_uniqueness": state.clue_uniqueness,
        "code_draw": state.code_draw,
        "timer_seconds": state.timer_seconds,
        "last_round_tiebreak": state.last_round_tiebreak,
        "teams": {t: list(m) for t, m in state.teams.items()},
        "my_team": team,
        "encryptors": dict(state.encryptors),
        "keywords": {t: list(k) if (over or t == team) else None for t, k in state.keywords.items()},
        "my_code": my_code,
        # Decrypto 7 (ruling 2026-11-30): the other team's clues once both teams' are in.
        "clues": {
            t: list(state.clues[t]) if t in state.clues and (t == team or revealed) else None for t in TEAMS
        },
        "clues_written": {t: t in state.clues for t in TEAMS},
        "decoding": state.decoding,
        "answered": answered,
        "team_answer": list(state.answers[team]) if team in state.answers else None,
        "tokens": {t: msgspec.to_builtins(k) for t, k in state.tokens.items()},
        "token_scores": state.scores() if state.tokens else {},
        "history": [_reveal(r) for r in state.reveals],
        "keyword_guesses": {
            t: list(g) if (over or t == team) else None for t, g in state.keyword_guesses.items()
        },
        "free_text": FREE_TEXT,
        "outcome": None
        if not over
        else {
            "winner": state.winner,
            "reason": state.reason,
            "tiebreak": state.tiebreak,
            "keywords_found": dict(state.keywords_found),
        },
    }


def _reveal(reveal: Reveal) -> dict[str, Any]:
    return {
        "round": reveal.round,
        "team": reveal.team,
        "encryptor": reveal.encryptor,
        "clues": list(reveal.clues),
        "code": list(reveal.code),
        "guess": list(reveal.guess),
        "interception": None if reveal.interception is None else list(reveal.interception),
    }


def redact(event: Event, viewer: PlayerId | None) -> Event | None:
    replace = msgspec.structs.replace
    match event:
        case GameSetUp():
            keywords = {
                t: (k if viewer in event.teams.get(t, ()) else None) for t, k in event.keywords.items()
            }
            return replace(event, keywords=keywords)
        case RoundStarted():
            codes = {t: (c if event.encryptors.get(t) == viewer else None) for t, c in event.codes.items()}
            return replace(event, codes=codes)
        case CluesGiven() if event.visible_to is not None and viewer not in event.visible_to:
            return replace(event, clues=None)
        case GuessSubmitted() if viewer not in event.visible_to:
            return replace(event, code=None)
        case KeywordsGuessed() if viewer not in event.visible_to:
            return replace(event, words=None)
    return event


# All but the events that show a team its own keywords, code, clues or guesses (`redact`).
SEEN_ALIKE: frozenset[type[Event]] = frozenset(EVENTS) - {
    GameSetUp,
    RoundStarted,
    CluesGiven,
    GuessSubmitted,
    KeywordsGuessed,
}


def drawn(event: Event) -> list[Any]:
    """A round's codes, one drawn per team (Decrypto 5); the setup's draws are run again."""
    match event:
        case RoundStarted(codes=codes):
            return [codes.get(t) for t in TEAMS]
    return []


# --- the game log ---------------------------------------------------------------------------
# One piece of code per sentence; the words of each language beside it (`_WORDS`). English
# names a team by its id ("white"); French by its name, in the form the sentence needs.

_TEAM_FR = {
    # team -> {form: words}: alone ("Blancs 1"), as a subject ("les Blancs"), starting a
    # sentence, and after "de" ("le code des Blancs")
    "white": {"team": "Blancs", "the_team": "les Blancs", "The_team": "Les Blancs", "of_team": "des Blancs"},
    "black": {"team": "Noirs", "the_team": "les Noirs", "The_team": "Les Noirs", "of_team": "des Noirs"},
}

_WORDS: dict[Language, dict[str, Any]] = {
    "en": {
        "and": "and",
        "sep": "; ",
        "quotes": ("“", "”"),
        "capitalize": False,
        "set_up": "Teams, in encryptor order: {teams}",
        "members": "{team}: {members}",
        "keywords": "{of_team}'s keywords: {words}",
        "round_started": "Round {round}: the encryptors are {who}",
        "encryptor": "{player} for {the_team}",
        "own_code": "{player}'s code: {code}",
        "clues_written": "{player} wrote {of_team}'s clues",
        "clues_given": "{player} gave {of_team}'s clues: {clues}",
        "clues_revealed": "Round {round} clues: {clues}",
        "answered": "{player} answered {of_team}'s code",
        "intercepted": "{player} tried to intercept {of_team}'s code",
        "guess_code": ": {code}",
        "code_revealed": "{of_team}'s code was {code} (answers: {answers})",
        "interception": "{the_team} takes an Interception token",
        "miscommunication": "{the_team} takes a Miscommunication token",
        "tiebreak": "Tie-break: {why}{scores}; each team guesses the other's keywords",
        "equal_scores": " with equal scores ({scores})",
        "unequal_scores": " ({scores})",
        "both_flags": "both teams reached two tokens",
        "last_round": "the last round is over",
        "guesses_written": "{player} wrote {of_team}'s keyword guesses",
        "guesses_given": "{player} guessed for {the_team}: {words}",
        "draw": "A draw",
        "winner": "{the_team} wins by {how}",
        "decided": "{outcome} (token scores {scores}{hits}). {keywords}",
        "found": ("{the_team} found {n}", "{the_team} found {n}"),
        "reasons": {
            "two_interceptions": "two Interception tokens",
            "two_miscommunications": "the other team's two Miscommunication tokens",
            "token_score": "the token score",
            "keywords": "the keywords found",
            "draw": "a draw",
        },
    },
    "fr": {
        "and": "et",
        "sep": " ; ",
        "quotes": ("« ", " »"),
        "capitalize": True,
        "set_up": "Équipes, dans l'ordre des Encrypteurs : {teams}",
        "members": "{team} : {members}",
        "keywords": "mots-clés {of_team} : {words}",
        "round_started": "Manche {round}, Encrypteurs : {who}",
        "encryptor": "{player} pour {the_team}",
        "own_code": "{player} reçoit le code {code}",
        "clues_written": "{player} a écrit les indices {of_team}",
        "clues_given": "{player} a donné les indices {of_team} : {clues}",
        "clues_revealed": "Indices de la manche {round} : {clues}",
        "answered": "{player} a répondu pour le code {of_team}",
        "intercepted": "{player} a tenté d'intercepter le code {of_team}",
        "guess_code": " : {code}",
        "code_revealed": "Le code {of_team} était {code} (réponses : {answers})",
        "interception": "{the_team} prennent un jeton Interception",
        "miscommunication": "{the_team} prennent un jeton Mauvaise communication",
        "tiebreak": "Départage : {why}{scores} ; chaque équipe devine les mots-clés de l'autre",
        "equal_scores": " à égalité de score ({scores})",
        "unequal_scores": " ({scores})",
        "both_flags": "les deux équipes ont atteint deux jetons",
        "last_round": "la dernière manche est terminée",
        "guesses_written": "{player} a écrit les propositions de mots-clés {of_team}",
        "guesses_given": "{player} a proposé pour {the_team} : {words}",
        "draw": "Match nul",
        "winner": "{The_team} gagnent {how}",
        "decided": "{outcome} (scores des jetons : {scores}{hits}). {keywords}",
        "found": ("{the_team} ont trouvé {n} mot-clé", "{the_team} ont trouvé {n} mots-clés"),
        "reasons": {
            "two_interceptions": "grâce à deux jetons Interception",
            "two_miscommunications": "grâce aux deux jetons Mauvaise communication de l'autre équipe",
            "token_score": "au score des jetons",
            "keywords": "aux mots-clés trouvés",
            "draw": "sur une égalité",
        },
    },
}


def _team(team: str, language: Language) -> dict[str, str]:
    """A team's names in `language`, by form (English: its id in every form)."""
    if language == "fr" and team in _TEAM_FR:
        return _TEAM_FR[team]
    return dict.fromkeys(("team", "the_team", "The_team", "of_team"), team)


def _say(language: Language, key: str, team: str | None = None, **fields: Any) -> str:
    """The sentence `key` of `language`, with the team's names and `fields` filled in."""
    names = _team(team, language) if team is not None else {}
    text: str = _WORDS[language][key]
    return text.format(**names, **fields)


def _sentence(language: Language, text: str) -> str:
    """`text` starting a sentence: capitalized in French (English starts with a team id)."""
    return text[:1].upper() + text[1:] if _WORDS[language]["capitalize"] else text


def _code(code: list[int]) -> str:
    return "-".join(map(str, code))


def _quoted(words: list[str], language: Language) -> str:
    left, right = _WORDS[language]["quotes"]
    return ", ".join(f"{left}{w}{right}" for w in words)


def _scores(scores: dict[str, int], language: Language) -> str:
    return ", ".join(f"{_team(t, language)['team']} {s}" for t, s in scores.items())


def _set_up(event: GameSetUp, language: Language) -> str:
    words = _WORDS[language]
    said = words["sep"].join(
        _say(language, "members", t, members=spoken_list(m, words["and"])) for t, m in event.teams.items()
    )
    known = words["sep"].join(
        _say(language, "keywords", t, words=", ".join(f"{i} {w}" for i, w in enumerate(k, start=1)))
        for t, k in event.keywords.items()
        if k is not None
    )
    return _say(language, "set_up", teams=said) + (f". {_sentence(language, known)}" if known else "")


def _round_started(event: RoundStarted, language: Language) -> str:
    encryptors, sep = event.encryptors, _WORDS[language]["sep"]
    who = ", ".join(_say(language, "encryptor", t, player=p) for t, p in encryptors.items())
    own = sep.join(
        _say(language, "own_code", player=encryptors[t], code=_code(c))
        for t, c in event.codes.items()
        if c is not None
    )
    return _say(language, "round_started", round=event.round, who=who) + (f"{sep}{own}" if own else "")


def _clues_given(event: CluesGiven, language: Language) -> str:
    if event.clues is None:
        return _say(language, "clues_written", event.team, player=event.player)
    return _say(
        language, "clues_given", event.team, player=event.player, clues=_quoted(event.clues, language)
    )


def _clues_revealed(event: CluesRevealed, language: Language) -> str:
    clues = _WORDS[language]["sep"].join(
        f"{_team(t, language)['team']} {_quoted(c, language)}" for t, c in event.clues.items()
    )
    return _say(language, "clues_revealed", round=event.round, clues=clues)


def _guess_submitted(event: GuessSubmitted, language: Language) -> str:
    what = "answered" if event.guessing_team == event.team else "intercepted"
    code = "" if event.code is None else _say(language, "guess_code", code=_code(event.code))
    return _say(language, what, event.team, player=event.player) + code


def _code_revealed(event: CodeRevealed, language: Language) -> str:
    team, guesses = event.team, event.guesses
    said = ", ".join(f"{_team(t, language)['team']} {_code(g)}" for t, g in guesses.items())
    tokens = [_say(language, "interception", t) for t in guesses if t != team and event.interception]
    if event.miscommunication:
        tokens.append(_say(language, "miscommunication", team))
    sep = _WORDS[language]["sep"]
    return _say(language, "code_revealed", team, code=_code(event.code), answers=said) + "".join(
        f"{sep}{t}" for t in tokens
    )


def _keyword_guessing_started(event: KeywordGuessingStarted, language: Language) -> str:
    why = _say(language, "both_flags" if event.cause == "both_flags" else "last_round")
    # equal, unless the last round went straight to the keywords (last_round_tiebreak)
    equal = len(set(event.scores.values())) <= 1
    scores = _say(
        language, "equal_scores" if equal else "unequal_scores", scores=_scores(event.scores, language)
    )
    return _say(language, "tiebreak", why=why, scores=scores)


def _keywords_guessed(event: KeywordsGuessed, language: Language) -> str:
    if event.words is None:
        return _say(language, "guesses_written", event.team, player=event.player)
    return _say(
        language, "guesses_given", event.team, player=event.player, words=_quoted(event.words, language)
    )


def _game_decided(event: GameDecided, language: Language) -> str:
    words = _WORDS[language]
    if event.winner is None:
        outcome = words["draw"]
    else:
        how = words["reasons"].get(event.reason, event.reason)
        outcome = _say(language, "winner", event.winner, how=how)
    hits = "".join(words["sep"] + _found(t, n, language) for t, n in event.keywords_found.items())
    keywords = words["sep"].join(
        _say(language, "keywords", t, words=", ".join(k)) for t, k in event.keywords.items()
    )
    scores = _scores(event.scores, language)
    return _say(
        language, "decided", outcome=outcome, scores=scores, hits=hits, keywords=_sentence(language, keywords)
    )


def _found(team: str, n: int, language: Language) -> str:
    one, many = _WORDS[language]["found"]
    # French counts 0 and 1 as singular
    singular = abs(n) < 2 if language == "fr" else n == 1
    text: str = one if singular else many
    return text.format(**_team(team, language), n=n)


def _describe(language: Language) -> Callable[[Event, PlayerId | None], str | None]:
    """One event in words in `language`, as a player at the table would say it
    (docs/games/decrypto.md)."""
    phrases: dict[type[Event], Callable[[Any, Language], str]] = {
        GameSetUp: _set_up,
        RoundStarted: _round_started,
        CluesGiven: _clues_given,
        CluesRevealed: _clues_revealed,
        GuessSubmitted: _guess_submitted,
        CodeRevealed: _code_revealed,
        KeywordGuessingStarted: _keyword_guessing_started,
        KeywordsGuessed: _keywords_guessed,
        GameDecided: _game_decided,
    }
    return describe_with({kind: partial(_bound, phrase, language) for kind, phrase in phrases.items()})


def _bound(
    phrase: Callable[[Any, Language], str], language: Language, event: Event, viewer: PlayerId | None
) -> str:
    return phrase(event, language)


describe = _describe("en")
describe_fr = _describe("fr")


def secrets(state: State, viewer: PlayerId | None) -> set[str]:
    """The keywords of the team `viewer` is not in (both, for a spectator) until the game is
    over. A keyword somebody wrote as a clue or the viewer's team guessed is no secret (the
    examples in `legal` never hold a keyword: words.py)."""
    if state.phase in ("setup", "over"):
        return set()
    team = state.team_of(viewer)
    hidden = {w for t, words in state.keywords.items() if t != team for w in words}
    written = {c for clues in state.clues.values() for c in clues}
    written |= {c for reveal in state.reveals for c in reveal.clues}
    written |= set(state.keyword_guesses.get(team, ())) if team else set()
    return hidden - written

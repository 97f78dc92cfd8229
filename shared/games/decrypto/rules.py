"""Decrypto's rules (RULES.md section 4): setup, decide, evolve, turn queries, result, bot.

Rule numbers in comments ("Decrypto 8") are those of RULES.md 4.1.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import msgspec

from shared.games.decider import (
    Batch,
    Command,
    Context,
    Event,
    PlayerId,
    Randomness,
    Rejection,
    Result,
    rank_players,
)
from shared.games.decrypto.messages import (
    CluesGiven,
    CluesRevealed,
    CodeRevealed,
    DecryptoOptions,
    GameDecided,
    GameSetUp,
    GiveClues,
    GuessKeywords,
    GuessSubmitted,
    KeywordGuessingStarted,
    KeywordsGuessed,
    RoundStarted,
    SubmitGuess,
)
from shared.games.decrypto.state import (
    CLUE_MAX_CHARS,
    CODE_LENGTH,
    CODES,
    FIRST_INTERCEPTION_ROUND,
    KEYWORD_COUNT,
    KEYWORD_GUESS_MAX_CHARS,
    TEAM_SIZE,
    TEAMS,
    WIN_INTERCEPTIONS,
    State,
    encryptor_for,
    end_flags,
    evolve,
    keyword_key,
    normalize,
    other,
)
from shared.games.decrypto.words import EXAMPLES, WORDS
from shared.games.turns import DecideByTurns

CLUE_EXAMPLES = 4  # example GiveClues commands offered in `legal`
KEYWORD_EXAMPLES = 3  # example GuessKeywords commands offered in `legal`

PHASE_NAMES = {
    "setup": "the game has not started",
    "clues": "the encryptors are writing their clues",
    "decode": "the teams are decoding a code",
    "keywords": "the teams are guessing each other's keywords",
    "over": "the game is over",
}


# --- options and setup ----------------------------------------------------------------------


def check_options(options: DecryptoOptions, seats: int) -> str | None:
    """The options' problems (a message for a person), else None. The platform calls it at
    `create` with the table's seats and again at the start with the seated count; it cannot
    tell who is seated, so whether the named teams can be completed (players named but not
    seated are ignored) is checked by `setup`, which refuses with `bad_teams`."""
    named = [*options.white, *options.black]
    if len(set(named)) != len(named):
        return "A player is named twice in the teams (white, black)."
    for team in TEAMS:
        members = getattr(options, team)
        if len(members) > TEAM_SIZE[1]:
            return f"A team has at most {TEAM_SIZE[1]} players; {team} names {len(members)}."
    return None


def setup(
    options: DecryptoOptions,
    players: tuple[PlayerId, ...],
    rng: Randomness,
) -> list[Event] | Rejection:
    """Decrypto 1-4: teams, 4 keywords each, then round 1's encryptors and codes."""
    teams = _deal_teams(options, players, rng)
    low, high = TEAM_SIZE
    for team, members in teams.items():
        if not low <= len(members) <= high:
            return Rejection(
                "bad_teams",
                f"Each team needs {low} to {high} players; {team} would have {len(members)} "
                f"({', '.join(members) or 'nobody'}). Seat more players or change the teams.",
            )
    chosen = rng.sample(WORDS[options.language], KEYWORD_COUNT * len(TEAMS))
    keywords: dict[str, list[str] | None] = {
        t: chosen[i * KEYWORD_COUNT : (i + 1) * KEYWORD_COUNT] for i, t in enumerate(TEAMS)
    }
    set_up = GameSetUp(
        players=list(players),
        teams=teams,
        keywords=keywords,
        language=options.language,
        max_rounds=options.max_rounds,
        clue_uniqueness=options.clue_uniqueness,
        code_draw=options.code_draw,
        timer_seconds=options.timer_seconds,
        last_round_tiebreak=options.last_round_tiebreak,
    )
    state = evolve(State(), set_up)
    return [set_up, _start_round(state, 1, rng)]


def _deal_teams(
    options: DecryptoOptions,
    players: tuple[PlayerId, ...],
    rng: Randomness,
) -> dict[str, list[PlayerId]]:
    """Named players where the creator put them (if seated); the others dealt at random,
    each to the smaller team (a coin decides between equal teams)."""
    teams = {t: [p for p in getattr(options, t) if p in players] for t in TEAMS}
    rest = [p for p in players if not any(p in m for m in teams.values())]
    rng.shuffle(rest)
    for p in rest:
        white, black = (len(teams[t]) for t in TEAMS)
        team = TEAMS[0] if white < black else TEAMS[1] if black < white else rng.choice(TEAMS)
        teams[team].append(p)
    return teams


def _start_round(state: State, round_: int, rng: Randomness) -> RoundStarted:
    """Decrypto 5-6: the next encryptor of each team and a code drawn for each."""
    codes: dict[str, list[int] | None] = {}
    for t in TEAMS:
        pool = state.code_pools.get(t) or CODES
        codes[t] = list(rng.choice(pool if state.code_draw == "without_replacement" else CODES))
    return RoundStarted(
        round=round_,
        encryptors={t: encryptor_for(state.teams[t], round_) for t in TEAMS},
        codes=codes,
    )


# --- the moves (decided after the platform's turn guard: `decide`, at the end) -------------


def _wrong_phase(state: State, wanted: str) -> Rejection:
    return Rejection("wrong_phase", f"Not now: {PHASE_NAMES[state.phase]} ({wanted}).")


def used_clues(state: State, team: str) -> set[str]:
    """Decrypto 15: the normalized clues `team` may not give again (scope: an option). Only
    clues `team` has seen count (Decrypto 7, ruling 2026-11-30): its own, and the other team's
    once revealed; the other team's clues of this round, still hidden, do not."""
    if state.clue_uniqueness == "team":
        return set(state.used_clues.get(team, ()))
    return {c for t in TEAMS for c in state.used_clues.get(t, ())}


def clue_problem(state: State, team: str, clues: Sequence[str]) -> Rejection | None:
    """Decrypto 13 and 15: three non-empty, new clues, none of them one of the own keywords."""
    if len(clues) != CODE_LENGTH:
        return Rejection(
            "wrong_clue_count",
            f"Give exactly {CODE_LENGTH} clues, one per digit of the code.",
        )
    texts = [c.strip() for c in clues]
    long = [c for c in texts if len(c) > CLUE_MAX_CHARS]
    if long:
        return Rejection(
            "clue_too_long",
            f"A clue is at most {CLUE_MAX_CHARS} characters: {long[0]!r}.",
        )
    norms = [normalize(c) for c in texts]
    if any(not n for n in norms):  # blank, or only invisible characters and lone accents
        return Rejection("empty_clue", "Every clue must have some text.")
    if len(set(norms)) != len(norms):
        return Rejection("duplicate_clue", "Your three clues must all be different.")
    used = used_clues(state, team)
    for text, norm in zip(texts, norms):
        if norm in used:
            scope = "by your team" if state.clue_uniqueness == "team" else "in this game"
            return Rejection(
                "clue_already_used",
                f"{text!r} was already given as a clue {scope}.",
            )
    own = {keyword_key(k) for k in state.keywords[team]}
    for text in texts:
        if keyword_key(text) in own:
            return Rejection("clue_is_keyword", f"{text!r} is one of your own keywords.")
    return None


def _give_clues(state: State, command: GiveClues, ctx: Context) -> list[Event] | Rejection:
    """Decrypto 7: each encryptor writes 3 clues; both encryptors write at the same time."""
    if state.phase != "clues":
        return _wrong_phase(state, "clues are given at the start of a round")
    actor = ctx.actor
    team = state.team_of(actor)
    assert team is not None  # to act: this round's encryptor of a team yet to give clues
    problem = clue_problem(state, team, command.clues)
    if problem:
        return problem
    clues = [c.strip() for c in command.clues]
    events: list[Event] = [
        CluesGiven(
            team=team,
            player=actor,
            clues=clues,
            visible_to=list(state.teams[team]),
        )
    ]
    # Decrypto 7 (ruling 2026-11-30): written at the same time, so shown once both are in.
    if all(t in state.clues for t in TEAMS if t != team):
        written = {**{t: list(c) for t, c in state.clues.items()}, team: clues}
        events.append(CluesRevealed(round=state.round, clues={t: written[t] for t in TEAMS}))
    return events


def guess_role(state: State, player: PlayerId) -> str | None:
    """Why `player` may answer for the code being decoded now ("decode", "intercept"), if so."""
    target = state.decoding
    team = state.team_of(player)
    if state.phase != "decode" or target is None or team is None or team in state.answers:
        return None
    if team == target:
        return None if player == state.encryptors[target] else "decode"
    return "intercept" if state.round >= FIRST_INTERCEPTION_ROUND else None


def _submit_guess(state: State, command: SubmitGuess, ctx: Context) -> list[Event] | Rejection:
    """Decrypto 8-9: the team decodes its code without its encryptor; the other team intercepts
    from round 2; the code is revealed once the answers are in."""
    actor = ctx.actor
    if state.phase != "decode":
        return _wrong_phase(state, "codes are guessed once both encryptors gave their clues")
    target = state.decoding
    assert target is not None
    if command.team != target:
        return Rejection(
            "wrong_team",
            f"The {target} code is being decoded now, not the {command.team} one.",
        )
    team = state.team_of(actor)
    assert team is not None  # to act: a player who may answer this code (`guess_role`)
    if tuple(command.code) not in CODES:
        return Rejection(
            "invalid_code",
            "A code is 3 different digits from 1 to 4, such as [3, 1, 4].",
        )
    events: list[Event] = [
        GuessSubmitted(
            team=target,
            guessing_team=team,
            player=actor,
            code=list(command.code),
            visible_to=list(state.teams[team]),
        )
    ]
    answers = {**state.answers, team: tuple(command.code)}
    needed = {target} | ({other(target)} if state.round >= FIRST_INTERCEPTION_ROUND else set())
    if needed - set(answers):
        return events
    code = state.codes[target]
    intercepted = answers.get(other(target))
    events.append(
        CodeRevealed(
            team=target,
            code=list(code),
            guesses={t: list(a) for t, a in answers.items()},
            interception=intercepted == code,
            miscommunication=answers[target] != code,
        )
    )
    if target == TEAMS[-1]:
        batch = Batch(evolve, state)
        batch.add(*events)
        batch.add(_end_of_round(batch.state, ctx.rng))
        return batch.events
    return events


def _end_of_round(state: State, rng: Randomness) -> Event:
    """Decrypto 11: one flag wins; both flags, or the last round, go to the tie-break (12)."""
    flags = end_flags(state.tokens)
    raised = [t for t in TEAMS if flags[t]]
    if len(raised) == 1:
        winner = raised[0]
        reason = (
            "two_interceptions"
            if state.tokens[winner].interceptions >= WIN_INTERCEPTIONS
            else "two_miscommunications"
        )
        return _decided(state, winner, reason, None)
    if raised:
        return _tiebreak(state, "both_flags")
    if state.max_rounds is not None and state.round >= state.max_rounds:
        # 4.3-2 (ASSUMED): by default the same chain as both flags; the option may skip the
        # token score and go straight to the keywords, as BGA's description reads.
        return _tiebreak(state, "last_round", by_score=state.last_round_tiebreak == "score")
    return _start_round(state, state.round + 1, rng)


def _tiebreak(state: State, cause: str, by_score: bool = True) -> Event:
    """Decrypto 12: the token score first; equal scores -> the keywords are guessed."""
    scores = state.scores()
    white, black = (scores[t] for t in TEAMS)
    if by_score and white != black:
        return _decided(state, TEAMS[0] if white > black else TEAMS[1], "token_score", cause)
    return KeywordGuessingStarted(cause=cause, scores=scores)


def _decided(
    state: State,
    winner: str | None,
    reason: str,
    tiebreak: str | None,
    guesses: dict[str, tuple[str, ...]] | None = None,
) -> GameDecided:
    guesses = guesses or {}
    return GameDecided(
        winner=winner,
        reason=reason,
        tiebreak=tiebreak,
        scores=state.scores(),
        keywords={t: list(state.keywords[t]) for t in TEAMS},
        keyword_guesses={t: list(g) for t, g in guesses.items()},
        keywords_found={t: keywords_found(state, t, guesses[t]) for t in TEAMS if t in guesses},
    )


def keywords_found(state: State, team: str, guesses: Sequence[str]) -> int:
    """Decrypto 12: how many of the other team's keywords `team` named at the right position:
    the same letters in the same order (ruling 2026-11-30: case, accents, spaces, hyphens and
    apostrophes aside)."""
    return sum(
        1
        for guess, word in zip(guesses, state.keywords[other(team)])
        if keyword_key(guess) == keyword_key(word)
    )


def _guess_keywords(state: State, command: GuessKeywords, ctx: Context) -> list[Event] | Rejection:
    """Decrypto 12: equal scores -> each team names the other's 4 keywords, by position."""
    if state.phase != "keywords":
        return _wrong_phase(state, "keywords are guessed only in a tie-break")
    actor = ctx.actor
    team = state.team_of(actor)
    assert team is not None  # to act: a player of a team yet to guess
    if len(command.words) != KEYWORD_COUNT:
        return Rejection(
            "wrong_word_count",
            f'Name {KEYWORD_COUNT} words, one per position 1-{KEYWORD_COUNT} ("" to pass).',
        )
    words = [w.strip() for w in command.words]
    if any(len(w) > KEYWORD_GUESS_MAX_CHARS for w in words):
        return Rejection(
            "word_too_long",
            f"A keyword guess is at most {KEYWORD_GUESS_MAX_CHARS} characters.",
        )
    events: list[Event] = [
        KeywordsGuessed(
            team=team,
            player=actor,
            words=words,
            visible_to=list(state.teams[team]),
        )
    ]
    guesses = {**state.keyword_guesses, team: tuple(words)}
    if len(guesses) < len(TEAMS):
        return events
    found = {t: keywords_found(state, t, guesses[t]) for t in TEAMS}
    white, black = (found[t] for t in TEAMS)
    if white == black:
        events.append(_decided(state, None, "draw", state.tiebreak, guesses))
    else:
        winner = TEAMS[0] if white > black else TEAMS[1]
        events.append(_decided(state, winner, "keywords", state.tiebreak, guesses))
    return events


# --- queries --------------------------------------------------------------------------------


def is_terminal(state: State) -> bool:
    return state.phase == "over"


def players_to_act(state: State) -> list[PlayerId]:
    """Simultaneous steps: both encryptors; then every player who may answer the code being
    decoded; then, in a keyword tie-break, every player of a team that has not guessed."""
    if state.phase == "clues":
        acting = {state.encryptors[t] for t in TEAMS if t not in state.clues}
    elif state.phase == "decode":
        acting = {p for p in state.players if guess_role(state, p)}
    elif state.phase == "keywords":
        acting = {p for t in TEAMS if t not in state.keyword_guesses for p in state.teams[t]}
    else:
        acting = set()
    return [p for p in state.players if p in acting]


def legal_commands(state: State, player: PlayerId) -> list[Command]:
    """Every guess; for free text (clues, keyword guesses), examples from the example list."""
    if player not in players_to_act(state):
        return []
    team = state.team_of(player)
    assert team is not None
    if state.phase == "clues":
        words = _example_words(state, team, used_clues(state, team), CLUE_EXAMPLES * CODE_LENGTH)
        return [GiveClues(clues=words[i : i + CODE_LENGTH]) for i in range(0, len(words), CODE_LENGTH)]
    if state.phase == "decode":
        return [SubmitGuess(team=state.decoding or "", code=list(c)) for c in CODES]
    words = _example_words(state, team, set(), KEYWORD_EXAMPLES * KEYWORD_COUNT)
    return [GuessKeywords(words=words[i : i + KEYWORD_COUNT]) for i in range(0, len(words), KEYWORD_COUNT)]


def _example_words(state: State, team: str, used: set[str], count: int) -> list[str]:
    """`count` distinct example words, none in `used` (the clues already given, which are
    public). Examples are never keywords and are chosen from public data only (language, round,
    team, revealed clues), never from any team's keywords: an opponent who sees one sent as a
    clue learns nothing about the writer's keywords."""
    words: list[str] = []
    for word in _candidates(state, team):
        if normalize(word) not in used:
            words.append(word)
            if len(words) == count:
                break
    return words


def _candidates(state: State, team: str) -> Iterator[str]:
    """The example list from a point that moves with the round and team; then numbered phrases
    (so that examples never run out, however long a game without a round cap lasts)."""
    words = EXAMPLES[state.language]
    start = (state.round * 37 + TEAMS.index(team) * 71) % len(words)
    ordered = words[start:] + words[:start]
    yield from ordered
    n = 2
    while True:
        for word in ordered:
            yield f"{word} {n}"
        n += 1


# --- result ---------------------------------------------------------------------------------


def result(state: State) -> Result:
    """The winning team's players rank first (score 1), the others second (score 0); in a draw
    everyone shares rank 1 and nobody wins. Token scores and keyword counts are in details."""

    def points(p: PlayerId) -> int:
        return 1 if state.winner is not None and state.team_of(p) == state.winner else 0

    ranked = rank_players(
        state.players,
        points,
        dense=True,
        details={
            "outcome": "draw" if state.winner is None else f"{state.winner}_wins",
            "winning_team": state.winner,
            "reason": state.reason,
            "tiebreak": state.tiebreak,
            "rounds": state.round,
            "teams": {t: list(state.teams[t]) for t in TEAMS},
            "tokens": {t: msgspec.to_builtins(state.tokens[t]) for t in TEAMS},
            "token_scores": state.scores(),
            "keywords_found": dict(state.keywords_found),
            "players": {p: {"team": state.team_of(p), "won": bool(points(p))} for p in state.players},
        },
    )
    # a draw: everyone shares rank 1, and nobody wins
    return ranked if state.winner is not None else msgspec.structs.replace(ranked, winners=[])


# --- decide ---------------------------------------------------------------------------------

decide = DecideByTurns(
    "Decrypto",
    {GiveClues: _give_clues, SubmitGuess: _submit_guess, GuessKeywords: _guess_keywords},
    players_to_act=players_to_act,
    is_terminal=is_terminal,
)

"""What a viewer sees of a Diced Tomatoes game, replays, and the bot.

Nothing is hidden: every die is on the table for all to see. Only the future is unknown, and
it lives in no state or event before it is rolled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from shared.games.decider import Event, Language, Phrase, PlayerId, View, describe_with, spoken_list
from shared.games.diced_tomatoes import data
from shared.games.diced_tomatoes.messages import (
    EVENTS,
    DiceRolled,
    DieChanged,
    DiePlaced,
    FinalRoundTriggered,
    GameSetUp,
    KarmaGained,
    PlantHarvested,
    PlantUprooted,
    PlayEnded,
    SeedFlipped,
    TurnEnded,
)
from shared.games.diced_tomatoes.state import (
    Die,
    State,
    plant_value,
    score_breakdown,
)
from shared.games.view_terms import common_terms, round_of_turn


def player_view(state: State, viewer: PlayerId | None) -> View:
    """The whole table (all dice are public), with `you` naming the viewer's seat."""
    if not state.players:
        return {"you": viewer}
    colours = state.colours

    def dice(group: tuple[Die, ...]) -> list[dict[str, Any]]:
        return [{"die": d.id, "colour": colours[d.id], "face": d.face} for d in group]

    return {
        "you": viewer if viewer in state.players else None,
        "players": list(state.players),
        "solo": state.solo,
        **common_terms(
            active_player=None if state.phase in ("setup", "over") else state.active,
            phase=state.phase,
            round=round_of_turn(state.turn, len(state.players)),
            turn=state.turn,
        ),
        "first_player": state.first_player,
        "last_player": state.last_player,
        "start_rolls": [dict(r) for r in state.start_rolls],
        "bushel": state.bushel_counts(),
        "dice_to_take": min(data.DICE_TAKEN_PER_TURN, len(state.bushel)),
        "hand": dice(state.hand),
        "passed": dice(state.passed),
        "plants": {
            p: [
                {"dice": dice(plant), "value": plant_value(plant, colours) if plant else None}
                for plant in state.plants[p]
            ]
            for p in state.players
        },
        "tracks": {
            p: [
                {"slot": i, "die": s.die, "value": s.value, "star": s.star}
                for i, s in enumerate(state.tracks[p], start=1)
            ]
            for p in state.players
        },
        "karma": dict(state.karma),
        "karma_thirds": dict(state.thirds),
        "karma_costs": dict(data.KARMA_COSTS),
        "final_round": state.final_round,
        "first_full_track": state.first_full,
        "scores": {p: score_breakdown(state, p) for p in state.players},
        "end_reason": state.end_reason,
    }


def player_views(state: State, viewers: Sequence[PlayerId | None]) -> list[View]:
    """Every viewer's `player_view` at once: the table is made once, as all dice are public,
    and only `you` differs."""
    if not state.players:
        return [player_view(state, viewer) for viewer in viewers]
    public = player_view(state, None)
    return [{**public, "you": viewer} if viewer in state.players else public for viewer in viewers]


def redact(event: Event, viewer: PlayerId | None) -> Event | None:
    """Every event is public."""
    return event


# Every event: all of them are public, and the log names no viewer.
SEEN_ALIKE: frozenset[type[Event]] = frozenset(EVENTS)


def drawn(event: Event) -> list[Any]:
    """Every die rolled: a roll's faces, a re-rolled die's new face."""
    match event:
        case DiceRolled(faces=faces):
            return list(faces)
        case DieChanged(effect="reroll", face=face):
            return [face]
    return []


# --- the game log ---------------------------------------------------------------------------
# One event in words, as a player at the table would say it (docs/games/diced_tomatoes.md): each
# phrase below holds its English and its French side by side, said from the same fields.

Said = Mapping[Language, str]  # one text per language, with `{field}` placeholders

_COUNTED: Mapping[str, tuple[Said, Said]] = {  # a noun with a number: (singular, plural)
    "die": ({"en": "1 die", "fr": "{n} dé"}, {"en": "{n} dice", "fr": "{n} dés"}),
    "karma": ({"en": "{n} karma", "fr": "{n} karma"}, {"en": "{n} karma", "fr": "{n} karmas"}),
}
_CHANGES: Mapping[str, Said] = {  # effect -> what was done to the die
    "reroll": {"en": "re-roll a die", "fr": "relancer un dé"},
    "adjust": {"en": "move a die by one", "fr": "modifier un dé de 1"},
    "invert": {"en": "turn a die over", "fr": "retourner un dé"},
    "set": {"en": "set a die", "fr": "choisir la valeur d'un dé"},
}
_OTHER_CHANGE: Said = {"en": "{effect} a die", "fr": "appliquer « {effect} » à un dé"}
_UPROOTED: Mapping[str, Said] = {  # cause -> the sentence (any other cause: overripe)
    "karma": {
        "en": "{player} spent {cost} to uproot {tomato}",
        "fr": "{player} a dépensé {cost} pour arracher le plant du {tomato}",
    },
    "rotten": {
        "en": "{tomato} was rotten (value 0 or less) and uprooted",
        "fr": "Le plant du {tomato}, pourri (valeur 0 ou moins), a été arraché",
    },
    "overripe": {
        "en": "{tomato} was overripe (value 7 or more) and uprooted",
        "fr": "Le plant du {tomato}, trop mûr (valeur 7 ou plus), a été arraché",
    },
}
_KARMA_FROM: Mapping[str, Said] = {  # reason -> where the karma comes from
    "harvest": {"en": "for a harvest", "fr": "pour une récolte"},
    "thirds": {"en": "from karma thirds", "fr": "grâce à ses tiers de karma"},
}
_ENDS: Mapping[str, Said] = {
    "final_round": {"en": "the final round is over", "fr": "le tour final est terminé"},
    "empty_bushel": {"en": "the bushel is empty", "fr": "le panier est vide"},
    "out_of_dice": {"en": "no die left to play", "fr": "plus aucun dé à jouer"},
}
_AND: Said = {"en": "and", "fr": "et"}


def _count(n: int, noun: str, language: Language) -> str:
    """`n` of a noun of `_COUNTED` in words (French counts 0 and 1 as singular)."""
    one, many = _COUNTED[noun]
    singular = abs(n) < 2 if language == "fr" else n == 1
    return (one if singular else many)[language].format(n=n)


def _tomato(owner: PlayerId, token: int, language: Language) -> str:
    """A tomato token as the board numbers it, from 1 (the events count from 0)."""
    said: Said = {"en": "{owner}'s tomato {n}", "fr": "jeton tomate {n} de {owner}"}
    return said[language].format(owner=owner, n=token + 1)


def _set_up(event: GameSetUp, viewer: PlayerId | None, language: Language) -> str:
    then: Said = {"en": "; then ", "fr": " ; puis "}
    rolls = then[language].join(", ".join(f"{p} {f}" for p, f in r.items()) for r in event.start_rolls)
    said: Said = {
        "en": "Starting rolls: {rolls}. {first} plays first; {last} holds the last-player marker",
        "fr": (
            "Lancers de départ : {rolls}. {first} joue en premier ; {last} détient le jeton de dernier joueur"
        ),
    }
    return said[language].format(rolls=rolls, first=event.first_player, last=event.last_player)


def _dice_rolled(event: DiceRolled, viewer: PlayerId | None, language: Language) -> str:
    took: Said = {"en": "took {count} from the bushel and ", "fr": "a pris {count} dans le panier et "}
    said: Said = {"en": "{player} {took}rolled {faces}", "fr": "{player} {took}a lancé {the_dice} : {faces}"}
    return said[language].format(
        player=event.player,
        took=took[language].format(count=_count(len(event.taken), "die", language)) if event.taken else "",
        the_dice="le dé" if len(event.faces) == 1 else "les dés",
        faces=spoken_list((str(face) for face in event.faces), _AND[language]),  # ids are bookkeeping
    )


def _die_placed(event: DiePlaced, viewer: PlayerId | None, language: Language) -> str:
    said: Said = {
        "en": "{player} placed a {face} on {tomato}",
        "fr": "{player} a posé un {face} sur le {tomato}",
    }
    tomato = _tomato(event.owner, event.token, language)
    return said[language].format(player=event.player, face=event.face, tomato=tomato)


def _plant_harvested(event: PlantHarvested, viewer: PlayerId | None, language: Language) -> str:
    star: Said = {"en": ", with a golden star worth {star}", "fr": ", avec une étoile dorée valant {star}"}
    said: Said = {
        "en": "{completer} harvested {tomato}: value {value} in slot {slot} of {owner}'s score track{bonus}",
        "fr": (
            "{completer} a récolté le plant du {tomato} : valeur {value} dans l'emplacement {slot} "
            "de la piste de score de {owner}{bonus}"
        ),
    }
    return said[language].format(
        completer=event.completer,
        tomato=_tomato(event.owner, event.token, language),
        value=event.value,
        slot=event.slot,
        owner=event.owner,
        bonus=star[language].format(star=event.star) if event.star else "",
    )


def _plant_uprooted(event: PlantUprooted, viewer: PlayerId | None, language: Language) -> str:
    said = _UPROOTED.get(event.cause, _UPROOTED["overripe"])
    return said[language].format(
        player=event.player,
        cost=_count(event.cost, "karma", language),
        tomato=_tomato(event.owner, event.token, language),
    )


def _die_changed(event: DieChanged, viewer: PlayerId | None, language: Language) -> str:
    said: Said = {
        "en": "{player} spent {cost} to {done}: now a {face}",
        "fr": "{player} a dépensé {cost} pour {done} : c'est maintenant un {face}",
    }
    return said[language].format(
        player=event.player,
        cost=_count(event.cost, "karma", language),
        done=_CHANGES.get(event.effect, _OTHER_CHANGE)[language].format(effect=event.effect),
        face=event.face,
    )


def _seed_flipped(event: SeedFlipped, viewer: PlayerId | None, language: Language) -> str:
    said: Said = {
        "en": "{player} spent {cost} to flip the seed of {tomato}: now a {face}",
        "fr": (
            "{player} a dépensé {cost} pour retourner le dé graine du {tomato} : c'est maintenant un {face}"
        ),
    }
    return said[language].format(
        player=event.player,
        cost=_count(event.cost, "karma", language),
        tomato=_tomato(event.owner, event.token, language),
        face=event.face,
    )


def _karma_gained(event: KarmaGained, viewer: PlayerId | None, language: Language) -> str:
    said: Said = {
        "en": "{player} gained {amount} {why} (now {karma})",
        "fr": "{player} a gagné {amount} {why} (total : {karma})",
    }
    why = _KARMA_FROM["harvest" if event.reason == "harvest" else "thirds"][language]
    amount = _count(event.amount, "karma", language)
    return said[language].format(player=event.player, amount=amount, why=why, karma=event.karma)


def _final_round_triggered(event: FinalRoundTriggered, viewer: PlayerId | None, language: Language) -> str:
    said: Said = {
        "en": "{player} harvested a 6th plant first (+2 points): this is the final round",
        "fr": "{player} a récolté un 6e plant avant tout le monde (+2 points) : c'est le tour final",
    }
    return said[language].format(player=event.player)


def _turn_ended(event: TurnEnded, viewer: PlayerId | None, language: Language) -> str:
    passing: Said = {"en": ", passing {count} to {next}", "fr": " en passant {count} à {next}"}
    said: Said = {
        "en": "{player} ended the turn{passing} (karma {karma}); {next} to play",
        "fr": "{player} a terminé son tour{passing} (karma : {karma}) ; à {next} de jouer",
    }
    count = _count(len(event.passed), "die", language)
    return said[language].format(
        player=event.player,
        passing=passing[language].format(count=count, next=event.next_player) if event.passed else "",
        karma=event.karma,
        next=event.next_player,
    )


def _play_ended(event: PlayEnded, viewer: PlayerId | None, language: Language) -> str:
    said: Said = {"en": "Play is over: {why}", "fr": "La partie s'arrête : {why}"}
    why = _ENDS[event.reason][language] if event.reason in _ENDS else event.reason
    return said[language].format(why=why)


_PHRASES: Mapping[type[Event], Callable[[Any, PlayerId | None, Language], str]] = {
    GameSetUp: _set_up,
    DiceRolled: _dice_rolled,
    DiePlaced: _die_placed,
    PlantHarvested: _plant_harvested,
    PlantUprooted: _plant_uprooted,
    DieChanged: _die_changed,
    SeedFlipped: _seed_flipped,
    KarmaGained: _karma_gained,
    FinalRoundTriggered: _final_round_triggered,
    TurnEnded: _turn_ended,
    PlayEnded: _play_ended,
}


def _describe_in(language: Language) -> Callable[[Event, PlayerId | None], str | None]:
    """The game's `describe` in `language`."""

    def in_language(phrase: Callable[[Any, PlayerId | None, Language], str]) -> Phrase:
        return lambda event, viewer: phrase(event, viewer, language)

    return describe_with({kind: in_language(phrase) for kind, phrase in _PHRASES.items()})


describe = _describe_in("en")
describe_fr = _describe_in("fr")


def secrets(state: State, viewer: PlayerId | None) -> frozenset[str]:
    """Nothing: every die is public, and the next roll is in no state."""
    return frozenset()

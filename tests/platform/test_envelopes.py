"""The wire contract: commands decoded strictly, ids checked, events decoded leniently."""

import msgspec
import pytest

from services.registry import get
from shared.games.table import Create, Join, PlayerJoined, TableCreated
from shared.messages import subjects
from shared.messages.envelopes import (
    MAX_COMMAND_BYTES,
    BadCommand,
    EventBatch,
    Reply,
    decode_command,
    encoder,
)
from shared.messages.folding import decode_batch
from tests.highcard import CardChosen, PlayCard

COMMANDS = get("highcard").command_type


def test_a_well_formed_command_decodes_with_its_id_and_expectation():
    envelope = decode_command(b'{"id": "c-1", "type": "play_card", "card": 4, "expect": 7}', COMMANDS)
    assert envelope.id == "c-1" and envelope.expect == 7
    assert envelope.command == PlayCard(card=4)


def test_table_commands_share_the_union_with_the_games():
    assert decode_command(b'{"id": "a", "type": "join"}', COMMANDS).command == Join()
    create = decode_command(b'{"id": "a", "type": "create", "options": {"hand_size": 2}}', COMMANDS)
    assert create.command == Create(options={"hand_size": 2})


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"not json", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"type": "join"}', '"id"'),
        (b'{"id": "has space", "type": "join"}', '"id"'),
        (b'{"id": "' + b"x" * 65 + b'", "type": "join"}', '"id"'),
        (b'{"id": 5, "type": "join"}', '"id"'),
        (b'{"id": "a"}', '"type"'),
        (b'{"id": "a", "type": "fly"}', "Invalid value 'fly'"),
        (b'{"id": "a", "type": "play_card"}', "missing required field `card`"),
        (b'{"id": "a", "type": "play_card", "card": "4"}', "Expected `int`"),
        (b'{"id": "a", "type": "play_card", "card": 4, "extra": 1}', "unknown field `extra`"),
        (b'{"id": "a", "type": "join", "expect": -1}', '"expect"'),
        (b'{"id": "a", "type": "join", "expect": "3"}', '"expect"'),
        (
            b'{"id": "a", "type": "create", "options": {}, "pad": "' + b"x" * MAX_COMMAND_BYTES + b'"}',
            "at most",
        ),
    ],
)
def test_malformed_commands_are_refused_with_a_reason(body, says):
    with pytest.raises(BadCommand) as caught:
        decode_command(body, COMMANDS)
    assert says in str(caught.value)


def test_events_decode_leniently_so_old_services_read_new_logs():
    body = (
        b'{"game": "highcard", "table": "t", "version": 3, "command_id": "c", "player": "a",'
        b' "at": "2026-01-01T00:00:00Z", "added_later": 1,'
        b' "events": [{"type": "card_chosen", "player": "a", "card": 3, "new_field": [1]}]}'
    )
    batch = decode_batch(get("highcard"), body)
    assert batch.version == 3 and batch.events[0].card == 3


def test_a_batch_round_trips_through_json():
    decider = get("highcard")
    batch = EventBatch(
        game="highcard",
        table="t",
        version=1,
        command_id="c",
        player="a",
        at="2026-01-01T00:00:00Z",
        events=[
            TableCreated(creator="a", options={"hand_size": 2}, seats=3),
            PlayerJoined(player="a"),
            CardChosen(player="a", card=None),
        ],
    )
    assert decode_batch(decider, encoder.encode(batch)) == batch


def test_replies_follow_the_contract():
    assert msgspec.json.decode(encoder.encode(Reply.accepted(4))) == {"ok": True, "version": 4}
    assert msgspec.json.decode(encoder.encode(Reply.rejected("game_over", "Over."))) == {
        "ok": False,
        "error": {"code": "game_over", "message": "Over."},
    }


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("abc", True),
        ("A-b_9", True),
        ("x" * 64, True),
        ("x" * 65, False),
        ("", False),
        ("a.b", False),
        ("a b", False),
        ("a*", False),
        ("a>", False),
        ("é", False),
        (3, False),
    ],
)
def test_ids_match_the_contract_pattern(value, ok):
    assert subjects.is_id(value) is ok


def test_subjects_parse_only_valid_ids():
    assert subjects.parse("tabletop.cmd.highcard.t1.ann", "cmd") == ("highcard", "t1", "ann")
    assert subjects.parse("tabletop.cmd.highcard.t 1.ann", "cmd") is None
    assert subjects.parse("tabletop.view.highcard.t1.ann", "cmd") is None

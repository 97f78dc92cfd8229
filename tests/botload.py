"""A bot load: lanes of bots each playing one table after another through the bus, as clients
do (`play_with_bots`: commands, then their own views to choose the next move), each finished
table then asked for its replay. Every acknowledged command is recorded."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import Counter
from typing import Any

from services.client import RequestFailed, play_with_bots
from services.registry import get
from shared.bus.errors import Unavailable
from shared.messages.envelopes import STORAGE_FULL
from tests.consistency import RecordingClient

# Small tables, so a lane finishes its table soon after the load is asked to stop.
OPTIONS: dict[str, dict[str, Any]] = {"highcard": {"hand_size": 3, "deck_size": 20}}


class BotLoad:
    def __init__(self, client: RecordingClient, games: list[str], *, lanes: int, seed: int = 1) -> None:
        self.client = client
        self.games = games
        self.lanes = lanes
        self.rng = random.Random(seed)
        self.tables_ended = 0
        self.failures: Counter[str] = Counter()  # why a table or a replay was given up
        self._stopping = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._stopping.clear()
        self._tasks = [asyncio.create_task(self._lane(i)) for i in range(self.lanes)]

    async def stop(self) -> None:
        """Let every lane finish the table it plays, then return."""
        self._stopping.set()
        await asyncio.gather(*self._tasks)
        self._tasks = []

    async def _lane(self, lane: int) -> None:
        rng = random.Random(self.rng.random())
        while not self._stopping.is_set():
            game = self.games[lane % len(self.games)]
            g = get(game).game
            bots = [f"bot{i}" for i in range(rng.randint(g.min_players, min(g.max_players, 4)))]
            table = f"{game}-{uuid.uuid4().hex[:12]}"
            try:
                final = await play_with_bots(self.client, game, table, bots, rng, options=OPTIONS.get(game))
            except RequestFailed as err:
                self.failures[f"play: {err.code}"] += 1
                if err.code == STORAGE_FULL:  # as a person would, not again at once
                    await asyncio.sleep(rng.uniform(0.5, 1.0))
                continue
            except Unavailable:
                self.failures["play: no answer after every retry"] += 1
                continue
            except TimeoutError:  # wait_view: the view never reached the version acknowledged
                self.failures["play: view stuck behind the log"] += 1
                continue
            self.tables_ended += 1
            try:
                steps = await self.client.replay(game, table)
            except RequestFailed as err:
                self.failures[f"replay: {err.code}"] += 1
                continue
            except Unavailable:
                self.failures["replay: no answer after every retry"] += 1
                continue
            if steps[-1]["version"] != final["version"]:
                self.failures["replay: behind the table"] += 1

"""Record tosses of the simulated tower into a store, exactly as played tosses are recorded.

The tosses follow a real table: a game is 3 seasons x 4 rounds = 12 tosses; each toss is 2-4 players
throwing 3 keshis each (3 different colours per player, as each player picks from one keshi of every
colour behind their screen), so 6-12 keshis go in. The tower starts a game empty and nothing empties
it during the game (rules digest section 7), so pieces stuck in one round can fall out in a later one.
"""

from __future__ import annotations

import random
import time
import uuid

from companion import COLOURS
from companion.store import Store
from companion.tower.model import SimulatedTower, TowerParams
from companion.tower.record import ColourCounts, TossRecord, save_tosses
from firmware.simulated import drop_times_ms

SEASONS = 3
ROUNDS_PER_SEASON = 4
KESHIS_PER_PLAYER = 3
PLAYER_COUNTS = (2, 3, 4)
#: Seconds between simulated tosses, so ``--since`` filters simulated logs like played ones.
TOSS_INTERVAL_S = 90.0
#: Tosses written per transaction: a 100,000-toss simulation commits 100 times, not 100,000.
SAVE_BATCH = 1000


def table_toss(rng: random.Random, players: int) -> ColourCounts:
    """The keshis one round throws in: each player reveals 3 different colours."""
    counts = dict.fromkeys(COLOURS, 0)
    for _ in range(players):
        for colour in rng.sample(COLOURS, KESHIS_PER_PLAYER):
            counts[colour] += 1
    return counts


def simulate_into_store(
    store: Store, tosses: int, params: TowerParams, seed: int | None = None, tower: str = "simulated"
) -> str:
    """Play ``tosses`` simulated tosses game by game, saved as played ones are (``save_tosses``, in
    batches of ``SAVE_BATCH``); return a summary."""
    rng = random.Random(seed)
    session_id = f"sim-{uuid.uuid4().hex[:12]}"
    start = time.time()
    played = 0
    games = 0
    batch: list[TossRecord] = []
    while played < tosses:
        games += 1
        game_id = f"{session_id}-g{games}"
        sim = SimulatedTower(params, rng)
        players = rng.choice(PLAYER_COUNTS)
        for index in range(min(SEASONS * ROUNDS_PER_SEASON, tosses - played)):
            pieces_in = table_toss(rng, players)
            outcome = sim.toss(pieces_in)
            released = sum(outcome.released.values())
            batch.append(
                TossRecord(
                    toss_id=f"{session_id}-{played + 1}",
                    tower=tower,
                    layer=params.layer,
                    mode="simulated",
                    started_at=start + played * TOSS_INTERVAL_S,
                    pieces_in=pieces_in,
                    pieces_out=outcome.released,
                    contents_before=outcome.held_before,
                    contents_after=outcome.held_after,
                    drop_times_ms=drop_times_ms(released, rng),
                    beam_count=released,
                    camera_count=None,  # as the tower service records simulated tosses: no camera,
                    counts_source="simulator-truth",  # the counts are the simulator's own truth
                    game_id=game_id,
                    season=index // ROUNDS_PER_SEASON + 1,
                    round=index % ROUNDS_PER_SEASON + 1,
                    session_id=session_id,
                )
            )
            played += 1
            if len(batch) >= SAVE_BATCH:
                save_tosses(store, batch)
                batch.clear()
    save_tosses(store, batch)
    bias = ", ".join(f"{c}={d:+.2f}" for c, d in params.bias.items()) or "none"
    return (
        f"recorded {played} simulated tosses ({games} games, layer {params.layer}, bias {bias}) "
        f"as session {session_id} of tower {tower!r}"
    )

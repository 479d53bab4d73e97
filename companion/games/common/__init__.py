"""What the three game engines share: the replayable game, the game log and actions, pending decisions, errors."""

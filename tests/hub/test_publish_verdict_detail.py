"""The published state tells Home Assistant each fairness question's answer as soon as it arrives."""

from __future__ import annotations

import json
from pathlib import Path

import jinja2

from companion.fairness.simulate import simulate_into_store
from companion.publish.discovery import ENTITIES
from companion.publish.state import TowerState
from companion.store import Store
from companion.tower.model import TowerParams


def test_after_6000_fair_tosses_the_verdict_sensor_carries_the_first_answer_and_the_headline(tmp_path: Path) -> None:
    store = Store(tmp_path / "pi.sqlite3")
    try:
        simulate_into_store(store, 6000, TowerParams(), seed=3, tower="Table 7")
        state = TowerState(store, "Table 7")
        state._compute_verdict()  # what the background refresh runs
        message = state.message()
    finally:
        store.close()
    entity = next(e for e in ENTITIES if e.object_id == "verdict")
    assert entity.attributes_template is not None
    env = jinja2.Environment()  # as tests/hub/test_discovery.py renders Home Assistant's templates
    value = env.from_string(entity.value_template).render(value_json=message)
    attributes = json.loads(env.from_string(entity.attributes_template).render(value_json=message))

    # The overall verdict still waits for both questions; the first question's answer is already out.
    assert value == "not enough data yet"
    assert attributes["new_pieces"] == "no colour bias detected"
    assert attributes["held_pieces"] == "not enough data yet"
    assert attributes["headline"].startswith("No colour bias detected in how often tossed-in keshis stay inside")

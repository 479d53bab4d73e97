"""The published state tells Home Assistant each fairness question's answer as soon as it arrives, and
the hub a fault in words each reader's language can show."""

from __future__ import annotations

import json
from pathlib import Path

import jinja2

from companion.fairness.simulate import simulate_into_store
from companion.hub.dashboard import said
from companion.i18n import Msg, use_locale
from companion.publish.discovery import ENTITIES
from companion.publish.state import TowerState
from companion.store import Store
from companion.tower.model import TowerParams
from tests.web.test_i18n import untranslated


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


def test_a_towers_fault_reaches_the_hub_in_its_readers_language(tmp_path: Path) -> None:
    fault = Msg("the receiver reads blocked with the emitter on: the beam is obstructed or misaligned")
    store = Store(tmp_path / "pi.sqlite3")
    try:
        state = TowerState(store, "Table 7")
        assert state.note_event("tower.fault", {"kind": "beam_obstructed", "message": fault.english(),
                                                "say": fault.to_json()})
        published = state.message()
    finally:
        store.close()
    tower = {"online": True, "state": json.loads(json.dumps(published))}  # as the hub stores it from MQTT
    older = {"online": True, "state": {**tower["state"], "fault": {"kind": "beam_obstructed",
                                                                 "message": fault.english()}}}
    broken = {"online": True, "state": {**tower["state"], "fault": {**tower["state"]["fault"],
                                                                  "say": {"text": "{missing}", "params": {}}}}}
    with use_locale("de"):
        german = said(tower)["fault"]
        assert german == fault.render("de") and untranslated(german) == []
        assert said(older)["fault"] == fault.english()  # a tower that sends no message: its English as sent
        assert said(broken)["fault"] == fault.english()  # one the hub cannot read: likewise
    assert said(tower)["fault"] == fault.english()

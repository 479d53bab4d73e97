"""Issue 25: what a phone shows carries no rulebook references (they are for developers and the CLI).

``without_rule_refs`` leaves out each form the engines cite; a web request renders every message for a
player (so any screen or error shows it without them) while the CLI and English logs keep them.
"""

from __future__ import annotations

import pytest
from flask import Flask

from companion.i18n import Msg
from companion.i18n.player_words import without_rule_refs


@pytest.mark.parametrize(("said", "shown"), [
    ("Ana has already placed a worker (or passed) this turn (MOR:L77)",
     "Ana has already placed a worker (or passed) this turn"),
    ("at least one action (L480-481): Ana could carry out neither", "at least one action: Ana could carry out neither"),
    ("Ana must rest (L489-494; M5).", "Ana must rest."),
    ("Ana has no bodyguard left to play (bodyguards are won by 2nd and 3rd places, MOR:L127)",
     "Ana has no bodyguard left to play (bodyguards are won by 2nd and 3rd places)"),
    ("Jan ist nicht am Zug: Sarah ist jetzt dran (Phase Holz-Keshis nehmen; EN:L625)",
     "Jan ist nicht am Zug: Sarah ist jetzt dran (Phase Holz-Keshis nehmen)"),
    ("Ana must take 2 green keshis: 2 are available (digest A1); legal: 2 green",
     "Ana must take 2 green keshis: 2 are available; legal: 2 green"),
    ("the bonus (RULES_DIGEST §17) is taken once, as rule 4.2 says", "the bonus is taken once, as says"),
    ("Anna: jetzt nicht „einen Arbeiter einsetzen“ – erst den Marktwürfel werfen",
     "Anna: jetzt nicht „einen Arbeiter einsetzen“ – erst den Marktwürfel werfen"),
    ("Row 2 (of 5) is full", "Row 2 (of 5) is full"),
    ("Major Poem F1 on layer B1 , kept", "Major Poem F1 on layer B1 , kept"),  # no reference: left as it is
])
def test_rule_references_are_left_out_and_nothing_else(said: str, shown: str) -> None:
    assert without_rule_refs(said) == shown


def test_a_web_request_renders_messages_without_references_and_the_cli_keeps_them(app: Flask) -> None:
    refusal = Msg("{player} is able to place a worker and must place one (MOR:L102)", player="Ana")
    assert str(refusal) == "Ana is able to place a worker and must place one (MOR:L102)"  # the CLI, a log
    with app.test_request_context("/", headers={"Accept-Language": "de-DE"}):
        app.preprocess_request()
        assert str(refusal) == "Ana kann einen Arbeiter einsetzen und muss das auch tun"
        assert refusal.english() == "Ana is able to place a worker and must place one (MOR:L102)"  # stored data
    assert str(refusal) == "Ana is able to place a worker and must place one (MOR:L102)"

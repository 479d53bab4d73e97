"""Issue 25: a refusal on a phone carries no rulebook line numbers (they are for developers and the CLI)."""

from __future__ import annotations

import pytest

from companion.web.player_words import without_rule_refs


@pytest.mark.parametrize(("said", "shown"), [
    ("Ana has already placed a worker (or passed) this turn (MOR:L77)",
     "Ana has already placed a worker (or passed) this turn"),
    ("at least one action (L480-481): Ana could carry out neither", "at least one action: Ana could carry out neither"),
    ("Ana must rest (L489-494; M5).", "Ana must rest."),
    ("Anna: jetzt nicht „einen Arbeiter einsetzen“ – erst den Marktwürfel werfen",
     "Anna: jetzt nicht „einen Arbeiter einsetzen“ – erst den Marktwürfel werfen"),
    ("Row 2 (of 5) is full", "Row 2 (of 5) is full"),
])
def test_rule_references_are_left_out_and_nothing_else(said: str, shown: str) -> None:
    assert without_rule_refs(said) == shown

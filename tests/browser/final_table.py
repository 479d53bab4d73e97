"""Reading a table game's final scoring screen (issue 25): the per-category table and the winner, compared
with the engine's own breakdown of the replayed game (never with numbers written into a test)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from playwright.sync_api import Page, expect


def read_final_table(page: Page) -> tuple[list[str], dict[str, list[int]], list[int]]:
    """The final table as shown: its category rows in order, each row's points per player, the totals."""
    table = page.locator("#final-table")
    expect(table).to_be_visible()  # on the screen, not folded away
    rows = table.locator("tbody tr[data-category]")
    order = [str(r.get_attribute("data-category")) for r in rows.all()]
    points = {name: [int(c) for c in row.locator("td.n").all_inner_texts()] for name, row in zip(order, rows.all(),
                                                                                                   strict=True)}
    totals = [int(c) for c in table.locator("tr.total td.n").all_inner_texts()]
    return order, points, totals


def assert_final_table(page: Page, breakdowns: Sequence[Mapping[str, int]], labels: Mapping[str, str],
                       scores: Sequence[int], winners: Sequence[str]) -> None:
    """``breakdowns``: each player's engine breakdown (category key -> points); ``labels``: the category keys in
    the rulebook's order with their English words. The table has one row per category anyone scored in, in that
    order, each player's points in it, the engine's totals, and the winners named above it and starred."""
    order, points, totals = read_final_table(page)
    scored = [key for key in labels if any(b.get(key) for b in breakdowns)]
    assert order == [labels[key] for key in scored]
    for key in scored:
        assert points[labels[key]] == [b.get(key, 0) for b in breakdowns], key
    assert totals == list(scores)
    for name in winners:
        expect(page.locator("#winner")).to_contain_text(name)
        expect(page.locator("#final-table thead th", has_text=name)).to_contain_text("★")

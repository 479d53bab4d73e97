"""Reading a table game's final scoring screen (issue 25): the per-category table and the winner, compared
with the engine's own breakdown of the replayed game (never with numbers written into a test)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from playwright.sync_api import Page, expect

#: The table's category rows (their ``data-category``), each row's points cells and the totals' cells, as the
#: phone shows them (``innerText``), read in one round trip to the browser rather than one per row and cell.
READ_TABLE = """(table) => {
  const texts = (cells) => Array.from(cells, (cell) => cell.innerText);
  const rows = Array.from(table.querySelectorAll("tbody tr[data-category]"));
  return {order: rows.map((row) => row.getAttribute("data-category")),
          points: rows.map((row) => texts(row.querySelectorAll("td.n"))),
          totals: texts(table.querySelectorAll("tr.total td.n"))};
}"""


def read_final_table(page: Page) -> tuple[list[str], dict[str, list[int]], list[int]]:
    """The final table as shown: its category rows in order, each row's points per player, the totals."""
    table = page.locator("#final-table")
    expect(table).to_be_visible()  # on the screen, not folded away
    shown = table.evaluate(READ_TABLE)
    order = [str(name) for name in shown["order"]]
    points = {name: [int(c) for c in cells] for name, cells in zip(order, shown["points"], strict=True)}
    totals = [int(c) for c in shown["totals"]]
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

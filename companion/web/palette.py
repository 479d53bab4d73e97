"""How each keshi colour is shown: a swatch, its name and a symbol, so no one needs colour vision."""

from __future__ import annotations

from companion import COLOURS

#: colour -> (swatch hex, symbol). Symbols differ in shape, not only in hue.
PALETTE: dict[str, tuple[str, str]] = {
    "yellow": ("#f2c318", "☀"),
    "orange": ("#ef7d16", "◆"),
    "purple": ("#7b3fa0", "♛"),
    "pink": ("#ec6fa9", "♥"),
    "beige": ("#d9c29a", "♜"),
    "red": ("#c8262c", "✚"),
    "brown": ("#7a4a26", "▲"),
    "green": ("#2f9a45", "♣"),
    "gray": ("#8c8c8c", "✎"),
    "white": ("#f4f4f0", "♔"),
    "black": ("#1d1d1d", "☾"),
    "turquoise": ("#17b2b5", "≈"),
}

assert tuple(PALETTE) == COLOURS, "the palette must list the 12 colours in canonical order"


def palette_for_templates() -> list[dict[str, str]]:
    """The palette as a list of ``{name, hex, symbol}`` dicts, in canonical order."""
    return [{"name": name, "hex": hex_, "symbol": symbol} for name, (hex_, symbol) in PALETTE.items()]

"""Morocco's game words as messages (``companion.i18n.Msg``), for rule errors, prompts and the dashboard.

Each word renders in English exactly as the engine always wrote it (``"green"``, ``"an assistant"``,
``"row 2"``) and in German on a German phone. Places on the market are whole sentences with
``{row}``/``{column}`` values (German cases differ by sentence), so this module gives the pieces that
stay the same: cube colours, workers, corners of a stall, market lines, phases and actions.
"""

from __future__ import annotations

from companion.games.morocco import board
from companion.i18n import Msg, word

#: The cube colours and the market die's wild face, as the page names them (``"green"`` / Grün).
CUBE_NAMES: dict[str, Msg] = {"green": Msg("green"), "orange": Msg("orange"), "brown": Msg("brown"),
                              "blue": Msg("blue"), "white": Msg("white"), "wild": Msg("wild")}
#: The same, capitalised: a button or a tap step (``"Green"``).
CUBE_BUTTONS: dict[str, Msg] = {"green": Msg("Green"), "orange": Msg("Orange"), "brown": Msg("Brown"),
                                "blue": Msg("Blue"), "white": Msg("White")}
#: A worker's name (``"assistant"``), for "has no assistant left", "Ana's assistant".
WORKER_NAMES: dict[str, Msg] = {"assistant": Msg("assistant"), "bodyguard": Msg("bodyguard"),
                                "tourist": Msg("tourist"), "cousins": Msg("cousins")}
#: A worker with its article as an object (``"an assistant"`` / einen Assistenten): "places an assistant".
A_WORKER: dict[str, Msg] = {"assistant": Msg("an assistant"), "bodyguard": Msg("a bodyguard"),
                            "tourist": Msg("a tourist"), "cousins": Msg("a cousins token"),
                            "cousins' second assistant": Msg("a cousins' second assistant")}
#: A worker with its article as the subject of a sentence (``"an assistant"`` / ein Assistent).
A_WORKER_SUBJECT: dict[str, Msg] = {"assistant": word("morocco subject", "an assistant"),
                                    "bodyguard": word("morocco subject", "a bodyguard")}
#: "the {what}" a space is named for (``"assistant"`` / den Assistenten).
THE_WORKER: dict[str, Msg] = {"assistant": word("morocco the", "assistant"),
                              "bodyguard": word("morocco the", "bodyguard"),
                              "tourist": word("morocco the", "tourist"), "cousins": word("morocco the", "cousins"),
                              "cousins' second assistant": word("morocco the", "cousins' second assistant")}
#: The corners of a stall, in ``board.stall_spaces`` order (``"top-left"`` / oben links) and capitalised.
CORNERS: tuple[Msg, ...] = (Msg("top-left"), Msg("top-right"), Msg("bottom-left"), Msg("bottom-right"))
CORNER_BUTTONS: tuple[Msg, ...] = (Msg("Top-left"), Msg("Top-right"), Msg("Bottom-left"), Msg("Bottom-right"))
#: Where a market tile's overflow arrow points (``board.DIRECTIONS``): "up" / nach oben.
DIRECTIONS: dict[str, Msg] = {"up": Msg("up"), "down": Msg("down"), "left": Msg("left"), "right": Msg("right")}
#: The round's phases as the engine names them (``GameState.phase``): the English keeps the key.
PHASES: dict[str, Msg] = {"roll": word("morocco phase", "roll"), "scout": word("morocco phase", "scout"),
                          "assign": word("morocco phase", "assign"),
                          "finished": word("morocco phase", "finished")}
#: What a player tried to do, for "cannot ... now" and "not your turn to ..." (infinitive phrases).
DOING: dict[str, Msg] = {"roll": word("morocco doing", "roll the market die"),
                         "scout": word("morocco doing", "move the rooftop pawn"),
                         "place": word("morocco doing", "place a worker"), "pass": word("morocco doing", "pass"),
                         "swap": word("morocco doing", "spend a gold coin"),
                         "end_turn": word("morocco doing", "end the turn")}
#: Why the game ended (``GameState.end_reason`` keeps the English text, ``END_REASONS`` its message).
FINAL_ROUND_OVER = Msg("the final round is over")
NONE_CAN_MOVE = Msg("every worker is in the market and none can move")
LAST_STALL_CLOSED = Msg("the last stall was closed")
END_REASONS: dict[str, Msg] = {m.text: m for m in (FINAL_ROUND_OVER, NONE_CAN_MOVE, LAST_STALL_CLOSED)}


def cube_name(colour: str) -> Msg | str:
    """A cube colour (or the die's wild face) in words; an unknown value as it is."""
    return CUBE_NAMES.get(colour, colour)


def phase_word(phase: str) -> Msg | str:
    """A phase of the round in words (the English is the engine's key)."""
    return PHASES.get(phase, phase)


def due_now(phase: str) -> Msg:
    """What the round's ``phase`` asks for now, as a refusal ends with it ("first roll the market die", "the game
    is over"): player words, never the engine's phase key."""
    doing = {"roll": "roll", "scout": "scout", "assign": "place"}.get(phase)
    return Msg("first {doing}", doing=DOING[doing]) if doing else Msg("the game is over")


def line_name(line: str) -> Msg:
    """``"row2"`` -> ``"row 2"`` / Reihe 2, ``"column4"`` -> ``"column 4"`` / Spalte 4."""
    n = int(line[-1])
    return Msg("row {n}", n=n) if line.startswith("row") else Msg("column {n}", n=n)


def place(space: int) -> dict[str, Msg | int]:
    """``space``'s corner (as a word) and its stall's row and column counted from 1: a sentence's values."""
    y, x = divmod(space, board.SPACES_PER_SIDE)
    r, c = board.stall_row_col(board.stall_of(space))
    return {"corner": CORNERS[(y % 2) * 2 + x % 2], "row": r + 1, "column": c + 1}


def space_name(space: int) -> Msg:
    """``"the top-left space of the stall in row 2, column 3"`` (German: das Feld oben links des Stands ...)."""
    return Msg("the {corner} space of the stall in row {row}, column {column}", **place(space))


def end_reason(reason: str | None) -> Msg | str:
    """The game's end reason in words."""
    return END_REASONS.get(reason or "", reason or "")

"""What the three engines' ``Game`` classes (Marrakesh, Morocco, Sabika) share: the log discipline.

Each game is a state ``s`` (the engine's ``GameState`` dataclass) plus the list of accepted actions
``log``. A game is built from its resolved setup by ``_initial_state`` and then runs its automatic
steps (``_run``) until someone must act; ``replay`` applies a log to a fresh game and ``undo`` is that
replay without the last action, so the state is always the replay of its log (python-chess's
``push``/``pop``, boardgame.io's reducer). The read-only views that only pass the state's fields on
(setup, profile, phase, finished, pending, players, names) are written here once; everything about
the rules stays in each engine.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from companion.games.common.log_and_actions import AnswerAction, ChooseAction
from companion.i18n import Msg


class Named(Protocol):
    """A player's state: at least a name."""

    name: str


P = TypeVar("P", bound=Named)
"""An engine's ``PlayerState``."""


class EngineState(Protocol[P]):
    """The fields every engine's ``GameState`` has."""

    setup: dict[str, Any]
    profile: dict[str, Any]
    players: list[P]
    phase: str
    pending: dict[str, Any] | None
    finished: bool
    stack: list[Any]
    """The effects still to run, last on top; one waiting for input collects it under ``"_in"``."""


S = TypeVar("S", bound=EngineState[Any])
"""An engine's ``GameState``."""

TABLE = "table"
"""``to_move`` when the table (not one player) must answer: a question about a printed value."""


class EngineGame(ABC, Generic[S, P]):
    """Base of each engine's ``Game``: construction, replay, undo and the plain views of ``s``."""

    rule_error: ClassVar[type[Exception]]
    """The engine's ``RuleError``: raised by ``undo`` at the start of a game and for a foreign action."""
    wrong_phase: ClassVar[type[Exception]]
    """The engine's ``WrongPhase``: an action after the end, or a move while a decision waits."""
    illegal_choice: ClassVar[type[Exception]]
    """The engine's ``IllegalChoice``: a choice that is not an option of the pending decision."""
    not_your_turn: ClassVar[type[Exception]]
    """The engine's ``NotYourTurn``: a player answering someone else's decision."""
    moves: ClassVar[Mapping[type, str]]
    """For ``apply``: each action type and the name of the method that checks and applies it."""

    def __init__(self, setup: dict[str, Any]) -> None:
        """Start from a resolved setup (``Game.new`` makes one; a log header holds one)."""
        self.s: S = self._initial_state(setup)
        self.log: list[Any] = []
        self._cursor = 0
        self._run()

    @abstractmethod
    def _initial_state(self, setup: dict[str, Any]) -> S:
        """The state right after setup (checked by the engine)."""

    @abstractmethod
    def _run(self) -> None:
        """Run automatic steps until a player, the table or the tower must act."""

    def apply(self, action: Any) -> None:
        """Validate ``action`` completely, then apply it; a rule violation raises and changes nothing.

        Each action type goes to the method ``moves`` names. While a decision or question waits, only
        its answer (a ``Choose`` or an ``Answer``) is taken. Then the game runs on.
        """
        if self.s.finished:
            raise self.wrong_phase(Msg("the game is over: no more actions"))
        method = self.moves.get(type(action))
        if method is None:
            raise self.rule_error(Msg("not an action of this game: {action}", action=repr(action)))
        if self.s.pending is not None and not isinstance(action, (AnswerAction, ChooseAction)):
            raise self.wrong_phase(Msg("{actor} must first answer: {prompt}", actor=self._actor_text(),
                                       prompt=self._prompt()))
        getattr(self, method)(action)
        self.log.append(action)
        self._run()

    def _choose(self, a: ChooseAction) -> None:
        """Check ``a`` against the pending decision, then hand the option to the effect that asked."""
        pending = self.s.pending
        if pending is None or pending["kind"] != "choice":
            raise self.illegal_choice(Msg("{player} has nothing to choose now", player=self._player_name(a.player)))
        if a.player != pending["player"]:
            raise self.not_your_turn(Msg("it is not {player}'s choice: {actor} must answer: {prompt}",
                                         player=self._player_name(a.player), actor=self._actor_text(),
                                         prompt=self._prompt()))
        if a.option not in pending["options"]:
            raise self.illegal_choice(Msg("{player} chose {option}, which is not an option for '{prompt}'; "
                                          "options: {options}", player=self.name(a.player), option=repr(a.option),
                                          prompt=self._prompt(), options=str(pending["options"])))
        self._resume_with(a.option)
        self.s.pending = None

    def _resume_with(self, value: Any) -> None:
        """Give ``value`` (a choice or a drawn tile) to the effect waiting for it, atop the stack."""
        self.s.stack[-1].setdefault("_in", []).append(value)

    def _player_name(self, seat: Any) -> str:
        """Player ``seat``'s name, or "player <seat>" when no such seat exists (for refusals)."""
        ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.s.players)
        return self.name(seat) if ok else str(Msg("player {seat}", seat=repr(seat)))

    @property
    def to_move(self) -> int | str | None:
        """The seat that must act now, ``"table"`` (a question, Marrakesh's tower), None when nobody can."""
        pending = self.s.pending
        if pending is not None:
            return TABLE if pending["player"] is None else int(pending["player"])
        return self._phase_mover()

    @abstractmethod
    def _phase_mover(self) -> int | str | None:
        """Whose move the phase waits for when no decision is pending (None when finished)."""

    @classmethod
    def replay(cls, setup: dict[str, Any], actions: Sequence[Any]) -> Self:
        """Rebuild a game from its resolved setup and action log."""
        game = cls(setup)
        for action in actions:
            game.apply(action)
        return game

    def undo(self) -> Any:
        """Take back the last action (exactly: the replay of the log without it); returns it."""
        if not self.log:
            raise self.rule_error(Msg("nothing to undo: the game is at its start"))
        last = self.log[-1]
        rebuilt = self.replay(self.s.setup, self.log[:-1])
        self.__dict__.update(rebuilt.__dict__)
        return last

    # --- views ----------------------------------------------------------------------------------

    @property
    def setup(self) -> dict[str, Any]:
        """The resolved setup (first line of the log)."""
        return self.s.setup

    @property
    def profile(self) -> dict[str, Any]:
        """The board profile: printed values shipped or answered so far."""
        return self.s.profile

    @property
    def phase(self) -> str:
        """The phase of the round (each engine's docs list its phases)."""
        return self.s.phase

    @property
    def finished(self) -> bool:
        """True after final scoring."""
        return self.s.finished

    @property
    def pending(self) -> dict[str, Any] | None:
        """The decision or question the game waits for, if any."""
        return self.s.pending

    @property
    def players(self) -> list[P]:
        """The players' states in seat order."""
        return self.s.players

    def name(self, seat: int) -> str:
        """Player ``seat``'s name."""
        return self.s.players[seat].name

    def _actor_text(self) -> Msg | str:
        """Who must act now, in words: a player's name, "the table" or "nobody"."""
        actor = self.to_move
        return Msg("the table") if actor == TABLE else self.name(int(actor)) if actor is not None else Msg("nobody")

    def _prompt(self) -> Msg | str:
        """The pending decision's prompt, in the reader's language when the engine sent it as a message."""
        pending = self.s.pending or {}
        say = pending.get("say")
        return Msg.from_json(say) if isinstance(say, Mapping) else str(pending.get("prompt", ""))

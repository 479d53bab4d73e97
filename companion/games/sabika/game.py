"""``Game``: applies Sabika actions, runs the rounds, lists legal actions, undoes.

Same design as the Marrakesh engine (``companion.games.marrakesh.game``): every action is validated
completely before anything changes, then appended to ``log``; the state always equals
``Game.replay(setup, log)`` and ``undo`` is that replay without the last action. Between actions the
engine runs effects (``handlers.HANDLERS``) from a stack until a player must decide something
(a pending ``choice``) or the table must answer a question about a printed value. A new game asks a
printed value when play first reads it (``questions.lazy``): an effect that reads a value the
profile lacks pauses on its question (``KeyError`` from the profile or the Rondel) and runs again
after the answer, which is an action in the log like any other, so replay still equals state. Each
effect reads its printed values before it changes anything (as it makes its decisions first), so a
pause leaves the state as it was (``tests/games/sabika/test_ask_before_writing.py`` watches this).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from companion.games.common.decisions import NeedInput
from companion.games.common.game_base import EngineGame

# Effect handlers register themselves in handlers.HANDLERS when their module is imported.
from companion.games.sabika import handlers, inner, middle, outer, reveals, round_end, rules, scoring, solo, yusuf  # noqa: F401
from companion.games.sabika.actions import Action, Answer, Choose, Rest, Work
from companion.games.sabika.components import WORKERS
from companion.games.sabika.errors import IllegalAnswer, IllegalChoice, IllegalWork, NotYourTurn, RuleError
from companion.games.sabika.questions import (
    Spec,
    answer_ok,
    answered,
    ask,
    board_questions,
    component_specs,
    lazy,
    printed_question,
    question,
)
from companion.games.sabika.rondel import Layout
from companion.games.sabika.say import PHASE_KEY_SAY, WORKER_SAY, comma_list, prompt_fields
from companion.games.sabika.setup import SetupOptions, initial_state, resolve_setup
from companion.games.sabika.state import GameState, PlayerState
from companion.i18n import Msg


class Game(EngineGame[GameState, PlayerState]):
    """One Sabika game for 2-4 players, or 1 against the automa Yusuf. Create with ``Game.new(SetupOptions(...))``."""

    game = "sabika"
    rule_error = RuleError

    def __init__(self, setup: dict[str, Any]) -> None:
        self._layout: Layout | None = None
        self.scan = True
        self._known: set[str] = set()
        self._questions: Iterator[Spec] | None = None
        self._current: dict[str, Any] | None = None
        super().__init__(setup)

    def _initial_state(self, setup: dict[str, Any]) -> GameState:
        """The state after setup."""
        return initial_state(setup)

    @classmethod
    def new(cls, options: SetupOptions) -> Game:
        """A new game from setup options (random draws from ``options.seed``)."""
        return cls(resolve_setup(options))

    # --- views --------------------------------------------------------------------------------------

    @property
    def layout(self) -> Layout:
        """The Rondel as the profile describes it (rebuilt after answers)."""
        if self._layout is None:
            self._layout = Layout.from_profile(self.s.profile, len(self.s.players))
        return self._layout

    def _phase_mover(self) -> int | None:
        """The seat taking its turn in the actions phase."""
        return self.s.turn if self.s.phase == "actions" else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view of the whole state (equal for equal games)."""
        out = self.s.to_dict()
        out["game"] = self.game
        out["era"] = self.s.era()
        out["to_move"] = self.to_move
        return out

    def winners(self) -> list[int]:
        """Winning seats (most PP, then most Constructions, else shared, L1057-1061)."""
        return scoring.winners(self.s)

    # --- decisions (used by handlers) -------------------------------------------------------------

    def pick(self, eff: dict[str, Any], player: int, prompt: Msg, options: list[Any]) -> Any:
        """The player's answer to this effect's next decision, or pause for it.

        A handler runs again from the start after each answer, so answers are kept on the effect
        (``_in``) and handed out in order; a handler changes nothing before its last ``pick``.
        A single option is taken at once. The pending decision holds the prompt in English and as a
        message (``say``); an option made as ``say.Said`` carries its own message (docs/i18n.md).
        """
        index = self._cursor
        self._cursor += 1
        answers: list[Any] = eff.setdefault("_in", [])
        if index < len(answers):
            return answers[index]
        if not options:
            raise AssertionError(f"no options for {prompt.english()!r} ({eff['k']})")
        if len(options) == 1:
            answers.append(options[0])
            return options[0]
        raise NeedInput({"kind": "choice", "player": player, **prompt_fields(prompt), "options": list(options)})

    def draw(self, eff: dict[str, Any], key: str, prompt: Msg, options: list[Any]) -> Any:
        """What the table turned up (table draws), or pause and ask: a ``draw`` question, not kept in the profile."""
        index = self._cursor
        self._cursor += 1
        answers: list[Any] = eff.setdefault("_in", [])
        if index < len(answers):
            return answers[index]
        if len(options) == 1:
            answers.append(options[0])
            return options[0]
        raise NeedInput({**question(key, prompt, options), "kind": "draw"})

    def push(self, *effects: dict[str, Any]) -> None:
        """Schedule ``effects`` to run next, in the given order.

        Each effect remembers the kinds of the effects that caused it (``chain``): a printed Bonus
        never repeats an action it came from (docs/sabika.md), so Bonuses cannot loop.
        """
        cause = self._current
        chain = [*cause.get("chain", []), cause["k"]] if cause is not None else []
        for eff in effects:
            eff.setdefault("chain", chain)
        self.s.stack.extend(reversed(effects))

    def rescan(self) -> None:
        """Components were revealed: look for printed values to ask before anything else happens."""
        self.scan = True
        self._questions = None

    def _ask_missing(self) -> bool:
        """Pause on the first printed value needed now and not in the profile (True if asked)."""
        s = self.s
        if self._questions is None:
            if s.phase != "setup" and lazy(s):  # components are asked when an effect reads them
                return False
            self._questions = board_questions(s) if s.phase == "setup" else component_specs(s, self._known)
        for spec in self._questions:
            if spec[0] not in s.profile:
                s.pending = ask(s, spec)  # with the values read in the same look, in a game asking by component
                return True
        self._questions = None
        return False

    def event(self) -> int:
        """The Active Event (advanced mode, L1128-1182), 0 without Events."""
        s = self.s
        return s.events[s.event_at] if s.events else 0

    def rng(self) -> random.Random:
        """The next in-play random draw (bag, reshuffles): seed and a counter, so replay repeats it."""
        self.s.draws += 1
        return random.Random(f"{self.s.setup['seed']}/{self.s.draws}")

    # --- applying -------------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Validate ``action`` completely, then apply it and run until someone must act."""
        checks: dict[type, Callable[[Any], None]] = {Work: self._check_work, Rest: self._check_rest,
                                                     Choose: self._check_choose, Answer: self._check_answer}
        check = checks.get(type(action))
        if check is None:
            raise RuleError(Msg("not a Sabika action: {action}", action=repr(action)))
        check(action)
        s = self.s
        if isinstance(action, Answer) and s.pending is not None and s.pending["kind"] == "draw":
            s.pending = None
            self._resume_with(action.value)
        elif isinstance(action, Answer):
            values = answered(s.pending or {}, action.value)  # a group's answer: each of its values
            s.profile.update(values)
            s.pending = None
            if any(key.startswith("rondel.") for key in values):  # the only values the Rondel's layout is built from
                self._layout = None
            self.scan = True
        elif isinstance(action, Choose):
            s.pending = None
            self._resume_with(action.option)
        elif isinstance(action, Work):
            self.push(*rules.work_effects(self, action.player, action.worker, action.square))
        else:
            self.push(*rules.rest_effects(self, action.player, action.worker))
        self.log.append(action)
        self._run()

    def _turn_owner(self, player: int, what: Msg) -> None:
        s = self.s
        if not 0 <= player < len(s.players):
            raise NotYourTurn(Msg("there is no player {player} at this table", player=player))
        if s.pending is not None:
            who = Msg("the table") if s.pending["player"] is None else self.name(s.pending["player"])
            raise NotYourTurn(Msg("{player} may not {what} now: {who} must first answer \u201c{prompt}\u201d",
                                  player=self.name(player), what=what, who=who, prompt=self._prompt()))
        if s.phase != "actions":
            raise NotYourTurn(Msg("{player} may not {what}: it is not the Actions Phase (phase {phase})",
                                  player=self.name(player), what=what, phase=PHASE_KEY_SAY.get(s.phase, s.phase)))
        if solo.is_yusuf(s, player):
            raise NotYourTurn(Msg("solo mode (L1233-1238): {player} is the automa and plays by himself",
                                  player=self.name(player)))
        if s.turn != player:
            raise NotYourTurn(Msg("turn order (L440-452): it is {current}'s turn, not {player}'s",
                                  current=self.name(s.turn), player=self.name(player)))

    def _worker(self, player: int, worker: str) -> None:
        if worker not in WORKERS:
            raise IllegalWork(Msg("{player} has no Worker called {worker} (Workers: {workers})",
                                  player=self.name(player), worker=repr(worker), workers=", ".join(WORKERS)))
        if not self.s.players[player].workers[worker].active:
            raise IllegalWork(Msg("active Workers (L444-446): {player}'s {worker} is lying down and cannot be "
                                  "chosen again this round", player=self.name(player), worker=WORKER_SAY[worker]))

    def _check_rest(self, action: Rest) -> None:
        self._turn_owner(action.player, Msg("rest a Worker"))
        self._worker(action.player, action.worker)

    def _check_work(self, action: Work) -> None:
        self._turn_owner(action.player, Msg("work"))
        self._worker(action.player, action.worker)
        problem = rules.work_problem(self, action.player, action.worker, action.square)
        if problem:
            raise IllegalWork(problem)

    def _check_choose(self, action: Choose) -> None:
        pending = self.s.pending
        if pending is None or pending["kind"] != "choice":
            raise IllegalChoice(Msg("there is no decision waiting for {player}", player=self._who(action.player)))
        if pending["player"] != action.player:
            raise NotYourTurn(Msg("{player} must decide \u201c{prompt}\u201d, not {other}",
                                  player=self.name(pending["player"]), prompt=self._prompt(),
                                  other=self._who(action.player)))
        if action.option not in pending["options"]:
            raise IllegalChoice(Msg("{player}: {option} is not an option of \u201c{prompt}\u201d (options: {options})",
                                    player=self.name(action.player), option=repr(action.option),
                                    prompt=self._prompt(), options=str(pending["options"])))

    def _check_answer(self, action: Answer) -> None:
        pending = self.s.pending
        if pending is None or pending["kind"] not in ("question", "draw"):
            raise IllegalAnswer(Msg("no question about a printed value is waiting (answer for {key})",
                                    key=repr(action.key)))
        if action.key != pending["key"]:
            raise IllegalAnswer(Msg("the table must answer {key} first, not {other}", key=repr(pending["key"]),
                                    other=repr(action.key)))
        if pending.get("parts"):
            self._check_parts(pending, action.value)
        elif not answer_ok(pending, action.value):
            if not pending["multi"]:
                shape: Msg = Msg("one of the options")
            elif pending["count"]:
                shape = Msg("a list of {count} distinct options", count=pending["count"])
            else:
                shape = Msg("a list of 1 or more distinct options")
            raise IllegalAnswer(Msg("{value} does not answer \u201c{prompt}\u201d: expected {shape}",
                                    value=repr(action.value), prompt=self._prompt(), shape=shape))

    def _check_parts(self, pending: dict[str, Any], value: Any) -> None:
        """A group's answer (``questions.group_question``) must give each part one of its possible values; the
        refusal names the part and what it may be."""
        parts = pending["parts"]
        names = [Msg.from_json(part["name_say"]) for part in parts]
        if not isinstance(value, dict) or set(value) != {part["key"] for part in parts}:
            raise IllegalAnswer(Msg("{value} does not answer \u201c{prompt}\u201d: expected {n} values, one each for "
                                    "{parts}", value=repr(value), prompt=self._prompt(), n=len(parts),
                                    parts=comma_list(names)))
        for part, name in zip(parts, names, strict=True):
            item, options = value[part["key"]], part["options"]
            if isinstance(item, bool) or item not in options:
                raise IllegalAnswer(Msg("\u201c{prompt}\u201d: {value} is not possible for {part} (possible: {low} to "
                                        "{high})", prompt=self._prompt(), value=repr(item), part=name,
                                        low=min(options), high=max(options)))

    def _who(self, player: int) -> Msg | str:
        return self.name(player) if 0 <= player < len(self.s.players) else Msg("player {seat}", seat=player)

    # --- running ------------------------------------------------------------------------------------

    def _run(self) -> None:
        """Ask missing printed values, run effects and automatic steps until someone must act."""
        s = self.s
        while s.pending is None:
            if self.scan:
                if self._ask_missing():
                    return
                self.scan = False
                if s.phase == "setup":
                    rules.finish_board_setup(self)
                    self.rescan()
                continue
            if s.stack:
                eff = s.stack.pop()
                self._cursor = 0
                self._current = eff
                try:
                    handlers.HANDLERS[eff["k"]](self, eff)
                except NeedInput as wait:
                    s.stack.append(eff)
                    s.pending = wait.decision
                    return
                except KeyError as missing:
                    s.stack.append(eff)
                    s.pending = self._unknown(missing)
                    return
                finally:
                    self._current = None
                continue
            if s.phase == "start_tiles":
                try:
                    rules.start_tiles_step(self)
                except KeyError as missing:
                    s.pending = self._unknown(missing)
                    return
                continue
            if s.phase == "actions" and solo.is_yusuf(s, s.turn):  # the automa plays by itself (L1233)
                self.push({"k": "yusuf_turn"})
                continue
            return

    def _unknown(self, missing: KeyError) -> dict[str, Any]:
        """The question for the printed value an effect read before the table gave it (lazy games); any other
        missing key is a bug and is raised again."""
        asked = printed_question(self.s, missing.args[0] if missing.args else None)
        if asked is None:
            raise missing
        return asked

    # --- legal actions --------------------------------------------------------------------------------

    def legal_actions(self) -> Iterator[Action]:
        """Every action the actor to move may apply now (lazy; each is accepted by ``apply``)."""
        s = self.s
        if s.pending is not None:
            if s.pending["kind"] in ("question", "draw"):
                key, options, count = s.pending["key"], s.pending["options"], s.pending.get("count")
                if not s.pending.get("multi"):
                    yield from (Answer(key, option) for option in options)
                elif count:  # exactly ``count`` options: the consecutive runs stand for the many answers
                    yield from (Answer(key, options[i:i + count]) for i in range(len(options) - count + 1))
                else:  # any non-empty list: the single options stand for the many answers
                    yield from (Answer(key, [option]) for option in options)
            else:
                for option in s.pending["options"]:
                    yield Choose(s.pending["player"], option)
            return
        if s.phase != "actions":
            return
        seat = s.turn
        shared: tuple[dict[tuple[str, int], int], dict[tuple[str, int | None], list[int]]] = (
            rules.occupancy(self, seat), {})
        for worker in s.players[seat].active_workers():
            for square in rules.legal_squares(self, seat, worker, shared):
                yield Work(seat, worker, square)
            yield Rest(seat, worker)

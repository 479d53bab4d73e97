"""``Game``: Morocco's rounds, legal actions, validation before change, undo by replay.

Same design as ``companion.games.marrakesh.game``: every action is checked completely before anything changes
(an error leaves the state as it was), then appended to ``log``; the state always equals
``Game.replay(setup, log)`` and ``undo`` is that replay without the last action. Between actions the
engine runs the automatic parts (die results, stall closing, round end, final scoring) until it needs
a player or the table.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from companion.games.common.decisions import NeedInput, choice, prompt_of, question
from companion.games.common.game_base import EngineGame
from companion.games.morocco import board, effects, scoring, words
from companion.games.morocco.actions import Action, Answer, Choose, EndTurn, Pass, Place, Roll, Scout, Swap
from companion.games.morocco.errors import (
    IllegalAnswer,
    IllegalChoice,
    IllegalEndTurn,
    IllegalPass,
    IllegalPlacement,
    IllegalRoll,
    IllegalScout,
    IllegalSwap,
    NotYourTurn,
    RuleError,
    WrongPhase,
)
from companion.games.morocco.setup import OVERFLOW_KEY, SetupOptions, resolve_setup, validate_setup
from companion.games.morocco.state import GameState, PlayerState, initial_state
from companion.i18n import Msg

LINES: tuple[str, ...] = tuple(f"row{i}" for i in range(1, 6)) + tuple(f"column{i}" for i in range(1, 6))
"""Names of the ten cube places a gold coin can swap (MOR:L161)."""


class Game(EngineGame[GameState, PlayerState]):
    """One game of Morocco. Create with ``Game.new(SetupOptions(...))``."""

    game_name = "morocco"
    rule_error = RuleError
    wrong_phase = WrongPhase
    illegal_choice = IllegalChoice
    not_your_turn = NotYourTurn
    moves: ClassVar[Mapping[type, str]] = {
        Answer: "_answer",
        Choose: "_choose",
        Roll: "_roll",
        Scout: "_scout",
        Place: "_place",
        Pass: "_pass",
        Swap: "_swap",
        EndTurn: "_end_turn",
    }

    def _initial_state(self, setup: dict[str, Any]) -> GameState:
        """The state after setup, once the setup is checked."""
        return initial_state(validate_setup(setup))

    @classmethod
    def new(cls, options: SetupOptions) -> Game:
        """A new game from setup options (draws the table did not enter come from ``options.seed``)."""
        return cls(resolve_setup(options))

    # --- views ------------------------------------------------------------------------------------

    @property
    def round(self) -> int:
        """Round number from 1."""
        return self.s.round

    def _phase_mover(self) -> int | str | None:
        """The seat to roll, scout or assign a worker in turn order."""
        s = self.s
        if s.phase == "roll":
            return s.order()[s.rolls]
        if s.phase == "scout":
            return s.order()[s.turn]
        if s.phase == "assign":
            return s.order()[s.turn % len(s.players)]
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view of the whole state (equal for equal games)."""
        out = self.s.to_dict()
        out["game"] = self.game_name
        out["to_move"] = self.to_move
        out["open_stalls"] = self.s.open_stalls()
        return out

    def winners(self) -> list[int]:
        """Winning seats (most claimed stalls break a tie); meaningful once finished."""
        return scoring.winners(self.s)

    def cost(self, stall: int) -> tuple[str, str]:
        """The row and column cube colours an assistant or bodyguard costs in ``stall`` (MOR:L90)."""
        r, c = board.stall_row_col(stall)
        return self.s.rows[r], self.s.columns[c]

    def count(self, stall: int) -> int:
        """Worker count plus overflow of ``stall`` (full at 4, MOR:L117)."""
        s = self.s
        total = 0
        for space in board.stall_spaces(stall):
            occupant = s.spaces[space]
            if occupant is not None:
                total += board.WEIGHT[occupant[1]]
        if s.overflow[stall]:
            total += s.overflow[stall] * int(s.profile[OVERFLOW_KEY])
        return total

    # --- effect machinery -------------------------------------------------------------------------------

    def push(self, *items: effects.Effect) -> None:
        """Schedule effects to run next, in the given order."""
        self.s.stack.extend(reversed(items))

    def pick(self, eff: effects.Effect, player: int, prompt: Msg, options: list[Any]) -> Any:
        """The player's answer to this effect's next decision, or pause for it (one option: taken at once)."""
        index = self._cursor
        self._cursor += 1
        answers: list[Any] = eff.setdefault("_in", [])
        if index < len(answers):
            return answers[index]
        if len(options) == 1:
            answers.append(options[0])
            return options[0]
        raise NeedInput(choice(player, prompt, options))

    def value(self, key: str, prompt: Msg, options: list[Any]) -> Any:
        """A printed value from the board profile, or pause and ask the table."""
        if key in self.s.profile:
            return self.s.profile[key]
        raise NeedInput(question(key, prompt, options))

    def enqueue(self, stall: int) -> None:
        """Queue ``stall`` for scoring if it just became full (stalls score in the order they fill)."""
        s = self.s
        if s.tiles[stall] is None and stall not in s.to_close and self.count(stall) >= board.FULL_AT:
            s.to_close.append(stall)

    def _run(self) -> None:
        s = self.s
        while s.pending is None and not s.finished:
            if s.stack:
                eff = s.stack.pop()
                self._cursor = 0
                try:
                    effects.HANDLERS[eff["k"]](self, eff)
                except NeedInput as wait:
                    s.stack.append(eff)
                    s.pending = wait.decision
                    return
            elif s.to_close:
                self.push({"k": "close", "stall": s.to_close.pop(0), "active": self.to_move})
            elif not self._step():
                return

    def _step(self) -> bool:
        """One automatic transition; False when the game waits for an action."""
        s = self.s
        n = len(s.players)
        if s.phase == "roll":
            if s.rolls < (2 if n == 2 else 1):  # 3 players: one roll; 2 players: each rolls (MOR:L69-71)
                return False
            s.phase, s.turn = "scout", 0
            return True
        if s.phase == "scout":
            if s.turn < n:
                return False
            s.phase, s.turn, s.placed = "assign", 0, False
            return True
        if s.phase != "assign":
            return False
        if s.turn == 2 * n:
            self._end_round()
            return True
        seat = s.order()[s.turn % n]
        p = s.players[seat]
        if not s.placed and p.gold == 0 and not self.can_place(seat):
            p.passes += 1  # unable and nothing to spend: the pass is automatic (MOR:L102)
            s.placed = True
        if s.placed and p.gold == 0:
            s.turn, s.placed = s.turn + 1, False
            return True
        return False

    def _end_round(self) -> None:
        """After two turns each: the final round ends the game, else cubes are stored (MOR:L169-181)."""
        s = self.s
        if s.final_round:
            self.push({"k": "final", "reason": words.FINAL_ROUND_OVER.text})
        elif not s.placed_this_round and not any(p.assistants or p.bodyguards or p.tourists for p in s.players):
            self.push({"k": "final", "reason": words.NONE_CAN_MOVE.text})  # M10
        else:
            self.push(*({"k": "keep", "p": seat} for seat in s.order()), {"k": "new_round"})

    # --- legal actions -----------------------------------------------------------------------------------

    def free_spaces(self, stall: int) -> list[int]:
        """Open spaces of an open stall (none in a closed one)."""
        s = self.s
        if s.tiles[stall] is not None:
            return []
        return [sp for sp in board.stall_spaces(stall) if s.spaces[sp] is None]

    def affordable_stalls(self, seat: int, extra: int = 0) -> list[int]:
        """Open stalls with a free space whose row and column cubes (plus ``extra`` any) ``seat`` holds."""
        s = self.s
        cubes = s.players[seat].cubes
        if s.players[seat].cube_total() < 2 + extra:
            return []
        rows = [r for r in range(board.SIZE) if cubes[s.rows[r]]]
        columns = [c for c in range(board.SIZE) if cubes[s.columns[c]]]
        out = []  # a stall whose row and column cubes share a colour costs two of it (M2)
        for r in rows:
            for c in columns:
                stall = r * board.SIZE + c
                if s.tiles[stall] is not None or (s.rows[r] == s.columns[c] and cubes[s.rows[r]] < 2):
                    continue
                if any(s.spaces[sp] is None for sp in board.stall_spaces(stall)):
                    out.append(stall)
        return sorted(out)

    def can_place(self, seat: int) -> bool:
        """Whether ``seat`` is able to place any worker now (else it must pass, MOR:L102)."""
        p = self.s.players[seat]
        if p.assistants > 0 or p.bodyguards > 0:
            return bool(self.affordable_stalls(seat))
        return p.tourists > 0 and bool(self.affordable_stalls(seat, 1))

    def legal_placements(self, seat: int) -> Iterator[Place]:
        """Every legal worker placement of ``seat`` (lazy)."""
        p = self.s.players[seat]
        for stall in self.affordable_stalls(seat):
            free = self.free_spaces(stall)
            extras = self.extra_colours(seat, stall) if p.tourists or p.cousins else []
            for space in free:
                at = divmod(space, board.SPACES_PER_SIDE)
                if p.assistants:
                    yield Place(seat, "assistant", at)
                if p.bodyguards:
                    yield Place(seat, "bodyguard", at)
                for extra in extras if p.tourists else ():
                    yield Place(seat, "tourist", at, extra)
                if p.cousins and p.assistants >= 2:
                    seconds = [divmod(sp, board.SPACES_PER_SIDE) for sp in self.cousin_targets(space)]
                    for extra, second in itertools.product(extras, seconds):
                        yield Place(seat, "cousins", at, extra, second)

    def extra_colours(self, seat: int, stall: int) -> list[str]:
        """Colours ``seat`` could pay as the additional cube after the stall's row and column cubes."""
        left = dict(self.s.players[seat].cubes)
        for colour in self.cost(stall):
            left[colour] -= 1
        return [c for c in board.CUBE_COLOURS if left[c] > 0]

    def cousin_targets(self, space: int) -> list[int]:
        """Free spaces where a cousins token's second assistant may go from ``space`` (MOR:L100, M3)."""
        s = self.s
        return [sp for sp in board.cousin_spaces(space)
                if s.spaces[sp] is None and s.tiles[board.stall_of(sp)] is None]

    def legal_actions(self) -> Iterator[Action]:
        """Every action the actor to move may apply now (lazy; placements come first)."""
        s = self.s
        if s.finished:
            return
        if s.pending is not None:
            if s.pending["kind"] == "question":
                yield from (Answer(s.pending["key"], option) for option in s.pending["options"])
            else:
                yield from (Choose(s.pending["player"], option) for option in s.pending["options"])
            return
        seat = self.to_move
        assert isinstance(seat, int)
        if s.phase == "roll":
            yield from (Roll(seat, face) for face in board.DIE_FACES)
        elif s.phase == "scout":
            yield from (Scout(seat, space) for space in board.ROOFTOP_OUTER if space != s.pawn)
        elif s.phase == "assign":
            if s.placed:
                yield EndTurn(seat)
            else:
                yield from self.legal_placements(seat)
                if not self.can_place(seat):
                    yield Pass(seat)
            if s.players[seat].gold:
                for a, b in itertools.chain(itertools.combinations(LINES[:5], 2), itertools.combinations(LINES[5:], 2)):
                    yield Swap(seat, (a, b))

    # --- applying ------------------------------------------------------------------------------------------

    def _expect(self, seat: int, phase: str, doing: str) -> PlayerState:
        """The acting player's state, after checking the phase, the seat and whose turn it is.

        ``doing`` names the action (a key of ``words.DOING``: "roll the market die", ...).
        """
        s = self.s
        what = words.DOING[doing]
        if s.phase != phase:
            raise WrongPhase(Msg("{player} cannot {what} now: {now}", player=self._player_name(seat),
                                 what=what, now=words.due_now(s.phase)))
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(s.players)):
            raise NotYourTurn(Msg("there is no player {seat!r} in this {count}-player game", seat=seat,
                                  count=len(s.players)))
        if self.to_move != seat:
            raise NotYourTurn(Msg("it is not {player}'s turn to {what}: {actor} must act now", player=self.name(seat),
                                  what=what, actor=self._actor_text()))
        return s.players[seat]

    def _roll(self, a: Roll) -> None:
        s = self.s
        p = self._expect(a.player, "roll", "roll")
        if a.face not in board.DIE_FACES:
            raise IllegalRoll(Msg("the market die rolled by {player} cannot show {face!r}; its faces: {faces}",
                                  player=p.name, face=a.face, faces=[words.cube_name(f) for f in board.DIE_FACES]))
        s.rolls += 1
        if a.face == board.WILD:
            self.push(*({"k": "wild", "p": seat} for seat in s.order()))
        else:
            for q in s.players:
                q.cubes[a.face] += 1

    def _scout(self, a: Scout) -> None:
        s = self.s
        p = self._expect(a.player, "scout", "scout")
        if a.space not in board.ROOFTOP_OUTER:
            raise IllegalScout(Msg("{player} must move the pawn to one of the outer rooftop spaces 1-5, "
                                   "not {space!r} (M1)", player=p.name, space=a.space))
        if a.space == s.pawn:
            raise IllegalScout(Msg("{player} must move the pawn to another rooftop space: it cannot stay on "
                                   "space {space} (MOR:L59)", player=p.name, space=a.space))
        s.pawn = a.space
        for neighbour in board.rooftop_neighbours(a.space):
            p.cubes[s.rooftop[neighbour - 1]] += 1
        for q in s.players:
            if q is not p:
                q.cubes[s.rooftop[a.space - 1]] += 1  # MOR:L61
        s.turn += 1

    def _space_index(self, p: PlayerState, at: Any, what: str) -> int:
        if not (isinstance(at, tuple) and len(at) == 2 and all(isinstance(v, int) for v in at)
                and all(0 <= v < board.SPACES_PER_SIDE for v in at)):
            raise IllegalPlacement(Msg("{player} named no market space for the {what}: {at!r} "
                                       "(row and column 0-{last})", player=p.name, what=words.THE_WORKER[what],
                                       at=at, last=board.SPACES_PER_SIDE - 1))
        return at[0] * board.SPACES_PER_SIDE + at[1]

    def _place(self, a: Place) -> None:
        s = self.s
        p = self._expect(a.player, "assign", "place")
        if s.placed:
            raise IllegalPlacement(Msg("{player} has already placed a worker (or passed) this turn (MOR:L77)",
                                       player=p.name))
        if a.worker not in board.WORKERS:
            raise IllegalPlacement(Msg("{player} cannot play {worker!r}: workers are {workers}", player=p.name,
                                       worker=a.worker, workers=[words.WORKER_NAMES[w] for w in board.WORKERS]))
        space = self._space_index(p, a.space, a.worker)
        stall = board.stall_of(space)
        self._check_space(p, space, a.worker)
        supply = {"assistant": p.assistants, "bodyguard": p.bodyguards, "tourist": p.tourists,
                  "cousins": p.cousins}[a.worker]
        if supply == 0:
            if a.worker == "bodyguard":
                raise IllegalPlacement(Msg("{player} has no bodyguard left to play (bodyguards are won by 2nd and "
                                           "3rd places, MOR:L127)", player=p.name))
            raise IllegalPlacement(Msg("{player} has no {worker} left to play", player=p.name,
                                       worker=words.WORKER_NAMES[a.worker]))
        if a.worker == "cousins" and p.assistants < 2:
            raise IllegalPlacement(Msg("{player} needs 2 assistants for the cousins token, not {count} (M3)",
                                       player=p.name, count=p.assistants))
        three = a.worker in ("tourist", "cousins")
        if three and a.extra not in board.CUBE_COLOURS:
            raise IllegalPlacement(Msg("{player} must name the colour of the additional cube a {worker} costs "
                                       "(MOR:L94-98), not {extra!r}", player=p.name,
                                       worker=words.WORKER_NAMES[a.worker], extra=a.extra))
        if not three and a.extra is not None:
            raise IllegalPlacement(Msg("{worker} costs only the row and column cubes: {player} pays no "
                                       "additional cube (MOR:L90)", worker=words.A_WORKER_SUBJECT[a.worker],
                                       player=p.name))
        need: dict[str, int] = {}
        for colour in (*self.cost(stall), *([a.extra] if three and a.extra else [])):
            need[colour] = need.get(colour, 0) + 1
        short = [Msg("{count} more {colour}", count=n - p.cubes[c], colour=words.cube_name(c))
                 for c, n in need.items() if p.cubes[c] < n]
        if short:
            row, column = self.cost(stall)
            r, c = board.stall_row_col(stall)
            plus = Msg(" + 1 {colour}", colour=words.cube_name(str(a.extra))) if three else ""
            raise IllegalPlacement(Msg("{player} cannot pay for {worker} in the stall in row {row}, column {column}: "
                                       "it costs 1 {row_cube} (row {row}) + 1 {column_cube} (column {column}){plus}, "
                                       "and {player} needs {short} (MOR:L86-98)", player=p.name,
                                       worker=words.A_WORKER[a.worker], row=r + 1, column=c + 1,
                                       row_cube=words.cube_name(row), column_cube=words.cube_name(column), plus=plus,
                                       short=short))
        second = None
        if a.worker == "cousins":
            if a.second is None:
                raise IllegalPlacement(Msg("{player} must name the space of the cousins' second assistant (MOR:L100)",
                                           player=p.name))
            second = self._space_index(p, a.second, "cousins' second assistant")
            if second not in board.cousin_spaces(space):
                raise IllegalPlacement(Msg("{player}'s second cousin must go next to the first, in a different stall "
                                           "(MOR:L100): {space} is not", player=p.name,
                                           space=words.space_name(second)))
            self._check_space(p, second, "cousins' second assistant")
        elif a.second is not None:
            raise IllegalPlacement(Msg("only a cousins token places a second assistant; {player} played {worker}",
                                       player=p.name, worker=words.A_WORKER[a.worker]))
        for colour, n in need.items():
            p.cubes[colour] -= n
        if a.worker == "cousins":
            p.cousins -= 1
            s.spaces[space] = [a.player, "assistant"]
            assert second is not None  # checked above for cousins
            s.spaces[second] = [a.player, "assistant"]
            p.assistants -= 2
        else:
            s.spaces[space] = [a.player, a.worker]
            if a.worker == "assistant":
                p.assistants -= 1
            elif a.worker == "bodyguard":
                p.bodyguards -= 1
            else:
                p.tourists -= 1
        s.placed = s.placed_this_round = True
        self.enqueue(stall)  # the stall that filled first is scored first (MOR:L117)
        if second is not None:
            self.enqueue(board.stall_of(second))

    def _check_space(self, p: PlayerState, space: int, what: str) -> None:
        s = self.s
        stall = board.stall_of(space)
        if s.tiles[stall] is not None:
            r, c = board.stall_row_col(stall)
            raise IllegalPlacement(Msg("the stall in row {row}, column {column} is closed: {player} cannot place "
                                       "{worker} there", row=r + 1, column=c + 1, player=p.name,
                                       worker=words.A_WORKER[what]))
        occupant = s.spaces[space]
        if occupant is not None:
            raise IllegalPlacement(Msg("{space} is taken by {owner}'s {worker}: {player} must choose an open space "
                                       "(MOR:L79)", space=words.space_name(space), owner=self.name(occupant[0]),
                                       worker=words.WORKER_NAMES[occupant[1]], player=p.name))

    def _pass(self, a: Pass) -> None:
        s = self.s
        p = self._expect(a.player, "assign", "pass")
        if s.placed:
            raise IllegalPass(Msg("{player} has already placed a worker (or passed) this turn", player=p.name))
        if self.can_place(a.player):
            raise IllegalPass(Msg("{player} is able to place a worker and must place one (MOR:L102)", player=p.name))
        p.passes += 1
        s.placed = True

    def _swap(self, a: Swap) -> None:
        s = self.s
        p = self._expect(a.player, "assign", "swap")
        if p.gold == 0:
            raise IllegalSwap(Msg("{player} has no gold coin to spend on a swap (MOR:L161)", player=p.name))
        first, second = a.lines
        for line in a.lines:
            if line not in LINES:
                raise IllegalSwap(Msg("{player} named {line!r}: swap two of {lines}", player=p.name, line=line,
                                      lines=", ".join(LINES)))
        if first == second:
            raise IllegalSwap(Msg("{player} must swap two different rows", player=p.name) if first.startswith("row")
                              else Msg("{player} must swap two different columns", player=p.name))
        if first[:-1] != second[:-1]:
            raise IllegalSwap(Msg("{player} may not swap a cube from a row to a column or vice versa (MOR:L163)",
                                  player=p.name))
        cubes = s.rows if first.startswith("row") else s.columns
        i, j = int(first[-1]) - 1, int(second[-1]) - 1
        cubes[i], cubes[j] = cubes[j], cubes[i]
        p.gold -= 1
        s.gold_supply += 1

    def _end_turn(self, a: EndTurn) -> None:
        s = self.s
        p = self._expect(a.player, "assign", "end_turn")
        if not s.placed:
            raise IllegalEndTurn(Msg("{player} must place a worker (or pass when unable) before ending the turn "
                                     "(MOR:L102)", player=p.name))
        s.turn, s.placed = s.turn + 1, False

    def _answer(self, a: Answer) -> None:
        pending = self.s.pending
        if pending is None or pending["kind"] != "question":
            raise IllegalAnswer(Msg("there is no open question about {key!r}", key=a.key))
        if a.key != pending["key"]:
            raise IllegalAnswer(Msg("the open question is about {asked!r}, not {key!r}", asked=pending["key"],
                                    key=a.key))
        if a.value not in pending["options"] or isinstance(a.value, bool):
            raise IllegalAnswer(Msg("{value!r} is not a possible answer to '{prompt}'; options: {options}",
                                    value=a.value, prompt=prompt_of(pending), options=str(pending["options"])))
        self.s.profile[a.key] = a.value
        self.s.pending = None

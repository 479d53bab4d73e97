"""``Game``: applies actions to the state, runs the phases, lists legal actions, undoes.

Model: boardgame.io's reducer plus python-chess's ``push``/``pop``. Every accepted action is
validated completely *before* anything changes (so an error leaves the state untouched), then
appended to ``log``; the state always equals ``Game.replay(setup, log)``, and ``undo`` is that
replay without the last action. Between actions the engine runs automatic steps (exchanges,
bonuses, end of round, scoring) until it needs a player, the tower or the table.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from companion import COLOURS
from companion.games.common.decisions import NeedInput, choice, prompt_of, question
from companion.games.common.game_base import TABLE, EngineGame
from companion.games.marrakesh import desert_towns, expansions, scoring, scrolls, sectors, tiles  # noqa: F401 (handlers)
from companion.games.marrakesh.actions import Action, Answer, Choose, Claim, Release, Select, UseAssistant
from companion.games.marrakesh.asked_draws import first_toss_reveals
from companion.games.marrakesh.board import ASSISTANT_SPACES, COLOUR_SECTOR, GOODS, LAP, ROUNDS, SEASONS, SECTORS
from companion.games.marrakesh.effects import HANDLERS, Effect, room
from companion.games.marrakesh.errors import (
    IllegalAnswer,
    IllegalAssistant,
    IllegalChoice,
    IllegalClaim,
    IllegalRelease,
    IllegalSelection,
    NotYourTurn,
    RuleError,
    WrongPhase,
)
from companion.games.marrakesh.setup import SetupOptions, initial_state, resolve_setup
from companion.games.marrakesh.state import GameState, PlayerState
from companion.games.marrakesh.variants import game_class, register
from companion.i18n import (
    Msg,
    claim_name,
    colour_name,
    figure_name,
    path_name,
    phase_name,
    resource_name,
    sector_name,
    square_name,
)

#: Where the rulebook says a phase is played in turn order (cited when someone acts out of turn).
TURN_ORDER_RULES: dict[str, str] = {"claim": "EN:L625", "assistants": "EN:L758"}


@register
class Game(EngineGame[GameState, PlayerState]):
    """One Marrakesh Essential game. Create with ``Game.new(SetupOptions(...))``."""

    edition: ClassVar[str] = "essential"
    rule_error = RuleError
    wrong_phase = WrongPhase
    illegal_choice = IllegalChoice
    not_your_turn = NotYourTurn
    moves: ClassVar[Mapping[type, str]] = {
        Answer: "_answer",
        Choose: "_choose",
        Select: "_select",
        Release: "_release",
        Claim: "_claim",
        UseAssistant: "_use_assistant",
    }
    lap: ClassVar[int] = LAP
    """Points per lap of the scoring track (the lap tiles show lap and 2 * lap)."""

    # --- construction ---------------------------------------------------------------------------

    @classmethod
    def new(cls, options: SetupOptions) -> Game:
        """A new game from setup options (random draws from ``options.seed``).

        ``Game.new`` builds the variant that ``options.edition`` names (``variants.VARIANTS``); a
        variant class called directly (``ClassicGame.new``) always builds its own edition.
        """
        if cls is Game and options.edition != cls.edition:
            return game_class(options.edition).new(options)
        if options.edition != cls.edition:
            options = dataclasses.replace(options, edition=cls.edition)
        return cls(resolve_setup(options))

    def _initial_state(self, setup: dict[str, Any]) -> GameState:
        """The state after setup (a variant overrides this to build its own state)."""
        return initial_state(setup)

    @classmethod
    def replay(cls, setup: dict[str, Any], actions: Sequence[Any]) -> Game:
        """Rebuild a game from its resolved setup and action log (of the edition the setup names)."""
        edition = setup.get("edition", cls.edition)
        if cls is Game and edition != cls.edition:
            return game_class(str(edition)).replay(setup, actions)
        return super().replay(setup, actions)

    # --- views ------------------------------------------------------------------------------------

    @property
    def season(self) -> int:
        """Season 1-3."""
        return self.s.season

    @property
    def round(self) -> int:
        """Round 1-4 of the season."""
        return self.s.round

    @property
    def start_player(self) -> int:
        """Seat holding the round tracker (camel): first in turn order this round."""
        return self.s.start_player

    @property
    def season_player(self) -> int:
        """Seat holding the season tracker."""
        return self.s.season_player

    def p(self, index: int) -> PlayerState:
        """Player ``index``'s board."""
        return self.s.players[index]

    def round_number(self) -> int:
        """Rounds since the start of the game (1-12)."""
        return (self.s.season - 1) * ROUNDS + self.s.round

    def _phase_mover(self) -> int | str | None:
        """The next seat to select, the table for the toss, the seat to claim or use an assistant."""
        s = self.s
        if s.phase == "select":
            for i in s.order():
                if not s.players[i].has_selected:
                    return i
        if s.phase == "toss":
            return TABLE
        if s.phase in ("claim", "assistants"):
            return s.order()[s.turn]
        return None

    def players_to_dict(self) -> list[dict[str, Any]]:
        """Each player's board as ``to_dict`` gives it, without copying the rest of the state (which
        includes the table's whole board profile)."""
        return [p.to_dict() for p in self.s.players]

    def player_names(self) -> list[str]:
        """The players' names in seat order (read after every action: no copy of any board)."""
        return [p.name for p in self.s.players]

    def breakdowns(self) -> list[dict[str, int]]:
        """Each player's points per scoring category, as copies (compared before and after an action)."""
        return [dict(p.breakdown) for p in self.s.players]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view of the whole state (equal for equal games)."""
        out = self.s.to_dict()
        out["edition"] = self.edition
        out["expansions"] = list(self.s.setup.get("expansions", []))
        out["to_move"] = self.to_move
        out["tower"] = {"inside": out.pop("tower_inside"), "tossed_total": out.pop("tossed_total"),
                        "released_total": out.pop("released_total"), "display": out.pop("display"),
                        "supply": out.pop("supply"), "leftovers": out.pop("tower_leftovers")}
        return out

    def winners(self) -> list[int]:
        """Winning seats (palace-then-mosque tie-breaks); meaningful once finished."""
        return scoring.winners(self)

    # --- effect machinery (used by handlers) -------------------------------------------------------

    def push(self, *effects: Effect) -> None:
        """Schedule ``effects`` to run next, in the given order."""
        self.s.stack.extend(reversed(effects))

    def pick(self, eff: Effect, player: int, prompt: str | Msg, options: list[Any]) -> Any:
        """The player's answer to this effect's next decision, or pause for it.

        A handler may ask several decisions; it runs again from the start after each answer, so the
        answers are kept on the effect (``_in``) and handed out in order. A single option is taken
        at once.
        """
        return self._input(eff, options, lambda: choice(player, prompt, options))

    def draw(self, eff: Effect, key: str, prompt: str | Msg, options: list[Any]) -> Any:
        """A tile the table drew from a face-down stack (table draws), or pause and ask which."""
        return self._input(eff, options, lambda: {**question(key, prompt, options), "kind": "draw"})

    def _input(self, eff: Effect, options: list[Any], decision: Any) -> Any:
        index = self._cursor
        self._cursor += 1
        answers: list[Any] = eff.setdefault("_in", [])
        if index < len(answers):
            return answers[index]
        if len(options) == 1:
            answers.append(options[0])
            return options[0]
        raise NeedInput(decision())

    def value(self, key: str, prompt: str | Msg, options: list[Any], *, multi: bool = False) -> Any:
        """A printed board value from the profile, or pause and ask the table."""
        if key in self.s.profile:
            return self.s.profile[key]
        raise NeedInput(question(key, prompt, options, multi=multi))

    def _run(self) -> None:
        """Run effects and automatic phase steps until a player, the tower or the table must act."""
        s = self.s
        while s.pending is None:
            if s.stack:
                eff = s.stack.pop()
                self._cursor = 0
                try:
                    self._handle(eff)
                except NeedInput as wait:
                    s.stack.append(eff)
                    s.pending = wait.decision
                    return
            elif not self._step():
                return

    def _handle(self, eff: Effect) -> None:
        """Run one effect's handler (a variant may wrap it, e.g. to account for wooden keshis)."""
        HANDLERS[eff["k"]](self, eff)

    # --- automatic phase steps ------------------------------------------------------------------------

    def _step(self) -> bool:
        """One automatic transition; False when the game waits for an action."""
        s = self.s
        if s.phase == "select":
            if not all(p.has_selected for p in s.players):
                return False
            reveals = first_toss_reveals(self)  # table draws: displays left out at setup, named now
            if reveals:
                self.push(*reveals)
                return True
            for p in s.players:
                for c in p.selected:
                    s.tower_inside[c] += 1
                    s.tossed_total[c] += 1
            s.phase = "toss"
            return True
        if s.phase == "claim":
            return self._claim_step()
        if s.phase == "exchange":
            s.phase, s.turn = "assistants", 0
            return True
        if s.phase == "assistants":
            current = s.players[s.order()[s.turn]]
            if current.assistants:
                return False
            refills = self._refill_effects()
            s.turn += 1
            if s.turn == len(s.players):
                self._end_round()
            self.push(*refills)  # the displays are refilled before anything else happens
            return True
        if s.phase == "round_end":
            self._next_round()
            return True
        if s.phase == "season_end":
            self._next_season()
            return True
        if s.phase == "final":
            s.phase, s.finished = "finished", True
        return False

    def _claim_step(self) -> bool:
        s = self.s
        n = len(s.players)
        if sum(s.display.values()):
            for offset in range(n):
                seat = s.order()[(s.turn + offset) % n]
                if self.legal_claims(seat):
                    if offset == 0:
                        return False
                    s.turn = (s.turn + offset) % n  # players without a legal claim are skipped
                    return True
            for c in COLOURS:  # nobody may claim the rest: back to the supply (digest A4)
                s.supply[c] += s.display[c]
                s.returned_unclaimed[c] += s.display[c]
                s.display[c] = 0
        effects: list[Effect] = []
        for seat in s.order():
            p = s.players[seat]
            effects += [{"k": "gain", "p": seat, "colour": c} for c in p.claimed]
            for c in p.claimed:
                s.supply[c] += 1  # the wooden keshi goes back to the supply (EN:L665-669)
            p.claimed = []
        s.phase = "exchange"
        self.push(*effects)
        return True

    def _refill_effects(self) -> list[Effect]:
        """Scroll and luxury displays are refilled at the end of a player's turn (EN:L843-846, L1072)."""
        s = self.s
        effects: list[Effect] = []
        for colour, shown in s.scroll_display.items():
            effects += [{"k": "reveal_scroll", "colour": colour}] * min(3 - len(shown), len(s.scroll_stacks[colour]))
        effects += [{"k": "reveal_luxury"}] * min(5 - len(s.luxury_display), len(s.luxury_stack))
        return [dict(e) for e in effects]

    def _end_round(self) -> None:
        """Phase 4: river bonus in turn order, placeholder swaps (EN:L1200-1250)."""
        s = self.s
        s.phase = "round_end"
        effects: list[Effect] = [{"k": "rapid_choice", "p": i} for i in s.order()]
        effects += tiles.timed_effects("end_of_round", [(i, s.players[i].scrolls) for i in s.order()])
        effects += [{"k": "placeholder_swap", "p": i} for i in s.order() if s.players[i].placeholders]
        self.push(*effects)

    def _next_round(self) -> None:
        s = self.s
        s.start_player = (s.start_player + 1) % len(s.players)  # the camel passes left
        for p in s.players:
            p.selected, p.has_selected = [], False
        if s.round < ROUNDS:
            s.round += 1
            s.phase = "select"
            return
        s.phase = "season_end"
        effects = tiles.timed_effects("end_of_season", [(i, s.players[i].scrolls) for i in s.order(s.season_player)])
        effects.append({"k": "river_eval"})
        # table draws: the provision tile each player turned up at setup, when it was not entered
        effects += [{"k": "name_provision", "p": i} for i in s.order(s.season_player)
                    if 0 in s.players[i].revealed_provisions]
        effects += [{"k": "provisions", "p": i} for i in s.order(s.season_player)]
        if s.season < SEASONS:
            effects += [{"k": "reveal_provision", "p": i} for i in s.order(s.season_player)]
        self.push(*effects)

    def _next_season(self) -> None:
        """Prepare the next season (EN:L1297-1330) or start final scoring."""
        s = self.s
        if s.season == SEASONS:
            s.phase = "final"
            self.push(*scoring.final_effects(self))
            return
        s.season += 1
        s.round = 1
        s.exchange_offices.pop(0)
        n = len(s.players)
        s.season_player = (s.season_player + 1) % n
        s.start_player = s.season_player
        self._refill_screens()
        s.phase = "select"

    def _refill_screens(self) -> None:
        """Each player takes 1 wooden keshi of each colour; a shortage gives the leader a placeholder."""
        s = self.s
        n = len(s.players)
        leaders = sorted(s.order(s.season_player), key=lambda i: -s.players[i].score)  # digest A20
        for c in COLOURS:
            short = max(0, n - s.supply[c])
            for seat in range(n):
                p = s.players[seat]
                if seat in leaders[:short]:
                    p.placeholders.append(c)  # a cardboard placeholder instead (EN:L1317-1330)
                else:
                    p.screen[c] += 1
                    s.supply[c] -= 1

    # --- legal actions -----------------------------------------------------------------------------

    def legal_claims(self, seat: int | None = None) -> list[Claim]:
        """Legal claims of ``seat`` (default: the player to move) in phase 2 (EN:L620-652)."""
        s = self.s
        if s.phase != "claim" or s.pending is not None:
            return []
        if seat is None:
            seat = s.order()[s.turn]
        p = s.players[seat]
        room_of = {c: room(self, seat, c, p.claimed.count(c)) for c in COLOURS if s.display[c] > 0}
        if 61 in p.scrolls:  # 2 keshis of any colours (scroll 61)
            singles = [c for c, r in room_of.items() if r > 0]
            pairs = [Claim(seat, (a, b)) for a, b in itertools.combinations(singles, 2)]
            pairs += [Claim(seat, (c, c)) for c in singles if s.display[c] >= 2 and room_of[c] >= 2]
            if pairs:
                return pairs
            return [Claim(seat, (c,)) for c in singles]
        out = []
        for c, r in room_of.items():
            take = min(2, s.display[c], r)
            if take > 0:
                out.append(Claim(seat, (c,) * take))
        return out

    def legal_actions(self) -> Iterator[Action]:
        """Every action the actor to move may apply now (lazy)."""
        s = self.s
        if s.pending is not None:
            if s.pending["kind"] in ("question", "draw"):
                for option in s.pending["options"]:
                    yield Answer(s.pending["key"], [option] if s.pending["multi"] else option)
            else:
                for option in s.pending["options"]:
                    yield Choose(s.pending["player"], option)
            return
        if s.phase == "select":
            seat = self.to_move
            assert isinstance(seat, int)
            yield from self.legal_selections(seat)
        elif s.phase == "toss":
            yield Release({c: n for c, n in s.tower_inside.items() if n})
            yield Release({})
        elif s.phase == "claim":
            yield from self.legal_claims()
        elif s.phase == "assistants":
            seat = s.order()[s.turn]
            for sector in sorted(set(s.players[seat].assistants), key=SECTORS.index):
                if sectors.new_keshi_possible(self, seat, sector):
                    yield UseAssistant(seat, sector, "keshi")
                if sectors.action_possible(self, seat, sector):
                    yield UseAssistant(seat, sector, "action")
                if self._must_forfeit(seat, sector):
                    yield UseAssistant(seat, sector, "forfeit")

    def legal_selections(self, seat: int) -> Iterator[Select]:
        """Every legal phase-1 selection of ``seat`` (any player may reveal in any order, EN:L597-614)."""
        p = self.s.players[seat]
        available = [c for c in COLOURS for _ in range(p.screen[c])]
        size = min(3, len(available))
        for combo in sorted(set(itertools.combinations(available, size))):
            fixed = [COLOUR_SECTOR[c] for c in combo if c != "red"]
            reds = combo.count("red")
            free = [sec for sec in SECTORS if fixed.count(sec) < ASSISTANT_SPACES[sec]]
            for wild in itertools.product(free, repeat=reds):
                if self._deployment_error(fixed + list(wild)) is None:
                    yield Select(seat, combo, wild)

    @staticmethod
    def _deployment_error(targets: list[str]) -> str | None:
        for sector in set(targets):
            if targets.count(sector) > ASSISTANT_SPACES[sector]:
                return sector
        return None

    # --- applying ---------------------------------------------------------------------------------------

    def _seat(self, seat: int, rule: type[RuleError]) -> PlayerState:
        if not isinstance(seat, int) or not 0 <= seat < len(self.s.players):
            raise rule(Msg("there is no player {seat!r} in this {count}-player game", seat=seat,
                           count=len(self.s.players)))
        return self.s.players[seat]

    def _expect_turn(self, seat: int) -> None:
        if self.to_move != seat:
            actor = self.to_move
            who = Msg("the table") if actor == TABLE else self.name(int(actor)) if actor is not None else Msg("nobody")
            raise NotYourTurn(Msg("it is not {player}'s turn: {actor} must act now (phase {phase}; {rule})",
                                  player=self.name(seat), actor=who, phase=phase_name(self.s.phase),
                                  rule=TURN_ORDER_RULES.get(self.s.phase, "EN:L526")))

    def _select(self, a: Select) -> None:
        s = self.s
        if s.phase != "select":
            raise WrongPhase(Msg("{player} cannot select keshis in phase {phase}",
                                 player=self._player_name(a.player), phase=phase_name(s.phase)))
        p = self._seat(a.player, IllegalSelection)
        if p.has_selected:
            raise IllegalSelection(Msg("{player} has already selected keshis this round", player=p.name))
        size = min(3, sum(p.screen.values()))
        if len(a.colours) != size:
            raise IllegalSelection(Msg("{player} must select exactly {size} keshis, not {count}",
                                       player=p.name, size=size, count=len(a.colours)))
        for c in set(a.colours):
            if c not in COLOURS:
                raise IllegalSelection(Msg("{player} selected unknown colour {colour!r}", player=p.name, colour=c))
            if a.colours.count(c) > p.screen[c]:
                if c in p.placeholders:
                    raise IllegalSelection(Msg("{player} has no {colour} keshi left behind the screen (a cardboard "
                                               "placeholder cannot be selected)", player=p.name, colour=colour_name(c)))
                raise IllegalSelection(Msg("{player} has no {colour} keshi left behind the screen",
                                           player=p.name, colour=colour_name(c)))
        reds = a.colours.count("red")
        if len(a.wild_sectors) != reds:
            raise IllegalSelection(Msg("{player} must name one sector per red keshi ({reds}), not {count}",
                                       player=p.name, reds=reds, count=len(a.wild_sectors)))
        for sector in a.wild_sectors:
            if sector not in SECTORS:
                raise IllegalSelection(Msg("{player} sent a red keshi's assistant to unknown sector {sector!r}",
                                           player=p.name, sector=sector))
        targets = [COLOUR_SECTOR[c] for c in a.colours if c != "red"] + list(a.wild_sectors)
        full = self._deployment_error(targets)
        if full is not None:
            raise IllegalSelection(Msg("{player} cannot put {count} assistants in the {sector}: "
                                       "it has {spaces} assistant space(s)", player=p.name,
                                       count=targets.count(full), sector=sector_name(full),
                                       spaces=ASSISTANT_SPACES[full]))
        for c in a.colours:
            p.screen[c] -= 1
        p.selected, p.assistants, p.has_selected = list(a.colours), targets, True

    def _release(self, a: Release) -> None:
        s = self.s
        if s.phase != "toss":
            raise WrongPhase(Msg("the tower releases keshis only after the toss, not in phase {phase}",
                                 phase=phase_name(s.phase)))
        for c, n in a.counts.items():
            if c not in COLOURS or not isinstance(n, int) or n < 0:
                raise IllegalRelease(Msg("tower release must count each of the 12 colours >= 0: {colour!r}: {n!r}",
                                         colour=c, n=n))
        for c, n in a.counts.items():
            if n > s.tower_inside[c]:
                self._leftover(c, n - s.tower_inside[c])
            s.tower_inside[c] -= n
            s.released_total[c] += n
            s.display[c] += n
        s.phase, s.turn = "claim", 0

    def _leftover(self, colour: str, n: int) -> None:
        """``n`` keshis of ``colour`` fell out that nobody believed inside: a leftover of an earlier game
        or a miscounted toss. The table's count wins (the pieces are in the tray): they join the tower
        from the supply (as far as it has them) and are booked as leftovers, so the display, the
        claims and the tower's totals all stay consistent."""
        s = self.s
        s.supply[colour] -= min(n, max(0, s.supply[colour]))
        s.tower_inside[colour] += n
        s.tower_leftovers[colour] += n

    def _claim(self, a: Claim) -> None:
        s = self.s
        if s.phase != "claim":
            raise WrongPhase(Msg("{player} cannot claim keshis in phase {phase}",
                                 player=self._player_name(a.player), phase=phase_name(s.phase)))
        p = self._seat(a.player, IllegalClaim)
        self._expect_turn(a.player)
        legal = self.legal_claims(a.player)
        if a not in legal:
            raise IllegalClaim(self._claim_error(a, p, legal))
        for c in a.colours:
            s.display[c] -= 1
            p.claimed.append(c)
        s.turn = (s.turn + 1) % len(s.players)
        self._after_claim(a.player)

    def _after_claim(self, seat: int) -> None:
        """Essential: claimed keshis wait in ``claimed`` until the display is empty (a variant may deploy them)."""

    def _claim_error(self, a: Claim, p: PlayerState, legal: list[Claim]) -> Msg:
        s = self.s
        options = [claim_name(c.colours) for c in legal]
        for c in a.colours:
            if c not in COLOURS:
                return Msg("{player} claimed unknown colour {colour!r}", player=p.name, colour=c)
            if s.display[c] < a.colours.count(c):
                return Msg("{player} cannot claim {count} {colour}: the tower base shows {shown}", player=p.name,
                           count=a.colours.count(c), colour=colour_name(c), shown=s.display[c])
            if c not in GOODS and room(self, a.player, c, p.claimed.count(c)) == 0:
                if c == "red":
                    return Msg("{player}'s water vendors are complete: {player} may not claim {colour} keshis",
                               player=p.name, colour=colour_name(c))
                return Msg("{player}'s {sector} is complete: {player} may not claim {colour} keshis",
                           player=p.name, sector=sector_name(COLOUR_SECTOR[c]), colour=colour_name(c))
        if len(set(a.colours)) > 1 and 61 not in p.scrolls:
            return Msg("{player} may claim keshis of a single colour only (scroll 61 not held); legal: {options}",
                       player=p.name, options=options)
        c = a.colours[0] if a.colours else "?"
        if len(a.colours) == 1 and c in COLOURS and s.display[c] >= 2:
            return Msg("{player} must take 2 {colour} keshis: 2 are available and the sector has room "
                       "(digest A1); legal: {options}", player=p.name, colour=colour_name(c), options=options)
        if len(a.colours) == 2 and c in COLOURS and room(self, a.player, c, p.claimed.count(c)) < 2:
            return Msg("{player} may take only 1 {colour} keshi: the sector has 1 free space or its marker is on 7; "
                       "legal: {options}", player=p.name, colour=colour_name(c), options=options)
        if not a.colours:
            return Msg("{player} cannot claim nothing; legal: {options}", player=p.name, options=options)
        return Msg("{player} cannot claim {colours}; legal: {options}", player=p.name, colours=claim_name(a.colours),
                   options=options)

    def _use_assistant(self, a: UseAssistant) -> None:
        s = self.s
        if s.phase != "assistants":
            raise WrongPhase(Msg("{player} cannot use assistants in phase {phase}",
                                 player=self._player_name(a.player), phase=phase_name(s.phase)))
        p = self._seat(a.player, IllegalAssistant)
        self._expect_turn(a.player)
        if a.sector not in p.assistants:
            raise IllegalAssistant(Msg("{player} has no unused assistant in the {sector}", player=p.name,
                                       sector=sector_name(a.sector)))
        if a.mode == "keshi":
            if not sectors.new_keshi_possible(self, a.player, a.sector):
                raise IllegalAssistant(Msg("{player}'s {sector} is complete: {player} may not take a new keshi there",
                                           player=p.name, sector=sector_name(a.sector)))
            follow: Effect | None = sectors.new_keshi_effect(a.player, a.sector)
        elif a.mode == "action":
            if not sectors.action_possible(self, a.player, a.sector):
                raise IllegalAssistant(Msg("{player} cannot perform the {sector} action now "
                                           "(it would have no effect; take a new keshi instead)",
                                           player=p.name, sector=sector_name(a.sector)))
            follow = sectors.sector_action_effect(a.player, a.sector)
        elif a.mode == "forfeit":
            if not self._must_forfeit(a.player, a.sector):
                raise IllegalAssistant(Msg("{player} may forfeit the {sector} assistant only "
                                           "when neither a new keshi nor the sector action is possible",
                                           player=p.name, sector=sector_name(a.sector)))
            follow = None
        else:
            raise IllegalAssistant(Msg("{player}'s assistant mode must be 'keshi', 'action' or 'forfeit', not {mode!r}",
                                       player=p.name, mode=a.mode))
        p.assistants.remove(a.sector)
        self._water_vendor_income(a.player, a.sector, a.mode)
        for hook in tiles.ASSISTANT_HOOKS:  # e.g. scroll 57's souk vendor
            hook(self, a.player, a.sector, a.mode)
        if follow is not None:
            self.push(follow)

    def _water_vendor_income(self, seat: int, sector: str, mode: str) -> None:
        """A water vendor in the sector pays 1 water first, whatever the option (EN:L1212-1218);
        scroll 35: 1 more water, scroll 50: 2 points."""
        p = self.s.players[seat]
        if sector in p.water_vendors:
            p.resources["water"] += 2 if 35 in p.scrolls else 1
            if 50 in p.scrolls:
                p.add_points("scrolls", 2)

    def _must_forfeit(self, seat: int, sector: str) -> bool:
        """Neither option is possible (complete sector, action without effect): the assistant is spent.

        The rulebook does not cover this case; the engine lets the player remove the assistant
        (the water vendor still pays, as the assistant was used in that sector).
        """
        return not sectors.new_keshi_possible(self, seat, sector) and not sectors.action_possible(self, seat, sector)

    def _answer(self, a: Answer) -> None:
        pending = self.s.pending
        if pending is None or pending["kind"] not in ("question", "draw"):
            raise IllegalAnswer(Msg("there is no open question about {key!r}", key=a.key))
        if a.key != pending["key"]:
            raise IllegalAnswer(Msg("the open question is about {asked!r}, not {key!r}",
                                    asked=pending["key"], key=a.key))
        if pending["multi"]:
            ok = (isinstance(a.value, list) and a.value and len(set(map(repr, a.value))) == len(a.value)
                  and all(v in pending["options"] for v in a.value))
        else:
            ok = a.value in pending["options"]
        if not ok and "rule" in pending:  # a setup draw named during play: says why the answer cannot be
            raise IllegalAnswer(Msg("{value} is not a possible answer to '{prompt}': {rule}; possible answers: "
                                    "{options}", value=answer_words(a.value), prompt=prompt_of(pending),
                                    rule=Msg.from_json(pending["rule"]),
                                    options=[answer_words(option) for option in pending["options"]]))
        if not ok:
            raise IllegalAnswer(Msg("{value} is not a possible answer to '{prompt}'; possible answers: {options}",
                                    value=answer_words(a.value), prompt=prompt_of(pending),
                                    options=[answer_words(option) for option in pending["options"]]))
        if pending.get("kept"):  # a setup draw named during play (asked_draws): kept for this game
            self.s.drawn[a.key] = a.value
        elif pending["kind"] == "draw":  # a tile drawn at the table: this game's event, not a board value
            self._resume_with(a.value)
        else:
            self.s.profile[a.key] = a.value
        self.s.pending = None


def answer_words(value: Any) -> Msg | str:
    """An answer to the table's question as players name it: a game word (colour, sector, main-square
    space, Sahara path, resource, figure) in the reader's language, a list as its items, anything else
    as written (a number, a tile's name)."""
    if isinstance(value, list):
        return Msg("({items})", items=[answer_words(item) for item in value])
    if isinstance(value, str):
        for name in (colour_name, sector_name, square_name, path_name, resource_name, figure_name):
            found = name(value)
            if isinstance(found, Msg):
                return found
        return value.replace("_", " ")
    return str(value)

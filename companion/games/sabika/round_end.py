"""End of Round and End of Game (L898-1061): Income, Narrator, Tribute, Events, Maintenance, Starting Player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.sabika import rules, scoring, solo, yusuf
from companion.games.sabika.handlers import (
    Effect,
    blue,
    city_tile,
    handler,
)
from companion.games.sabika.questions import lazy
from companion.games.sabika.say import Said
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.sabika.game import Game


@handler
def h_income(g: Game, eff: Effect) -> None:
    """Blue consolidated Cities' income and blue Poem 1* (2 Dinars) (L904-908, L1070)."""
    s, seat = g.s, eff["p"]
    if solo.is_yusuf(s, seat):
        return  # Yusuf receives no Income (L1458-1460, L1478)
    p = s.players[seat]
    icons: list[str] = []
    for city, where in sorted(p.ships.items()):
        tile = city_tile(g, city)
        if where == "right" and s.profile[f"city_tile.{tile}.colour"] == "blue":
            icons += list(s.profile[f"city_tile.{tile}.consolidate"])
    p.dinars += 2 * blue(g, p, "income_start")
    if icons:
        g.push({"k": "gain", "p": seat, "icons": icons, "src": "income"})


@handler
def h_narrator(g: Game, eff: Effect) -> None:
    """Advance the Narrator; Era change at space 3; Sultan's Wishes into the Tower and scored; Tribute (L910-937)."""
    s = g.s
    narrator = s.narrator + 1
    removed = (s.profile["major.II.two_player_removed"]  # asked now in a lazy game, not at setup
               if narrator == 3 and lazy(s) and len(s.players) == 2 else None)
    tile = s.wish_track.get(narrator)
    wished = [scoring.wishes(s, p, [*s.wish_tower, tile]) for p in s.players] if tile is not None else []
    printed = int(s.profile[f"tribute.{narrator}"])
    change = bool(s.events) and narrator in s.profile["events.change_spaces"] and s.event_at + 1 < len(s.events)
    s.narrator = narrator  # every printed value read: the changes begin
    if narrator == 3:
        s.major_tiles["I"] = []  # Era change (L1002-1006)
        if removed is not None:
            rules.remove_two_player_tiles(s, removed)
    if tile is not None:
        del s.wish_track[narrator]
        s.wish_tower.append(tile)
        for p, points in zip(s.players, wished, strict=True):
            p.gain_pp(points, "wishes")
    due = max(0, printed + {5: -1, 8: 1}.get(g.event(), 0))  # Events 5, 8
    follow: list[Effect] = []
    for seat in s.order():
        automa = solo.is_yusuf(s, seat)  # Yusuf ignores the Events (L1488-1489)
        follow.append({"k": "tribute", "p": seat, "n": printed if automa else due})
        if g.event() == 14 and not automa:
            follow.append({"k": "tribute_dinar", "p": seat})
    if change:
        follow.append({"k": "event_change"})
    follow.append({"k": "final_scoring"} if s.phase == "final" else {"k": "reset"})
    g.push(*follow)


@handler
def h_tribute_dinar(g: Game, eff: Effect) -> None:
    """Event 14: 1 Dinar besides the Parias, or 1 PP when it cannot be paid (L1181-1182)."""
    p = g.s.players[eff["p"]]
    if rules.budget(p):
        g.push({"k": "pay", "p": eff["p"], "n": 1, "why": "Event 14"})
    else:
        p.gain_pp(-1, "tribute")


@handler
def h_event_change(g: Game, eff: Effect) -> None:
    """Advanced mode: the Future Event becomes the Active Event after the Tribute Phase (L1138-1142)."""
    g.s.event_at += 1


@handler
def h_tribute(g: Game, eff: Effect) -> None:
    """Pay Parias: track, 2 Dinars, a Seal or 1 PP each, in any combination (L922-933)."""
    seat, n = eff["p"], eff["n"]
    p = g.s.players[seat]
    if n <= 0:
        return
    if solo.is_yusuf(g.s, seat):
        yusuf.pay_tribute(g, n)
        return
    options: dict[str, tuple[int, int, int, int]] = {}
    for track in range(min(n, p.parias), -1, -1):
        for seals in range(0, min(n - track, p.seals) + 1):
            for dinar_pairs in range(0, min(n - track - seals, p.dinars // 2) + 1):
                pp = n - track - seals - dinar_pairs
                parts = [Msg("{n} on the Paria Track", n=track)] if track else []
                parts += [Msg("{n} Seals", n=seals)] if seals else []
                parts += [Msg("{n} Dinars", n=2 * dinar_pairs)] if dinar_pairs else []
                parts += [Msg("{n} PP", n=pp)] if pp else []
                options[Said(Msg("{parts}", parts=parts))] = (track, seals, dinar_pairs, pp)
    prompt = Msg("{player} pays {n} Parias how?", player=p.name, n=n)
    track, seals, dinar_pairs, pp = options[g.pick(eff, seat, prompt, list(options))]
    p.parias -= track
    if track:
        g.s.stamp += 1
        p.paria_stamp = g.s.stamp
    p.seals -= seals
    p.dinars -= 2 * dinar_pairs
    p.gain_pp(-pp, "tribute")


@handler
def h_reset(g: Game, eff: Effect) -> None:
    """Reactivate Workers, move the Sultan's Workers, Maintenance (L965-992); then the Starting Player."""
    s = g.s
    for p in s.players:
        for worker in p.workers.values():
            worker.active = True
    for w in s.sultan_workers:
        w[1] = g.layout.next_square(w[0], w[1])
    s.marble_spots = [True] * len(s.marble_spots)
    refill = [{"k": "reveal", "what": "raw", "slot": k, "sub": 0} for k, t in enumerate(s.raw_spots) if t is None]
    refill += [{"k": "reveal", "what": "poem", "slot": i, "sub": 0} for i, m in enumerate(s.poem_display) if m is None]
    refill += [{"k": "reveal", "what": "minor", "slot": i, "sub": 0} for i, c in enumerate(s.minor_display)
               if c is None]
    refill += [{"k": "reveal", "what": "store", "slot": side, "sub": i}
               for side, pair in enumerate(s.store_display) for i, t in enumerate(pair) if t is None]
    leader = max(range(len(s.players)), key=lambda i: (s.players[i].parias, s.players[i].paria_stamp))
    g.push(*refill, {"k": "rescan"}, {"k": "start_choice", "p": leader})


@handler
def h_start_choice(g: Game, eff: Effect) -> None:
    """The Paria leader (top of the pile on a tie) chooses the next Starting Player (L994-1000)."""
    s = g.s
    leader = s.players[eff["p"]]
    names = [p.name for p in s.players]
    if solo.is_yusuf(s, eff["p"]):  # Yusuf leading starts himself (L1462-1464)
        chosen = solo.YUSUF
    else:
        prompt = Msg("{player} leads on the Paria Track: who starts next round?", player=leader.name)
        chosen = names.index(g.pick(eff, eff["p"], prompt, names))
    s.start_player = chosen
    starter = s.players[chosen]
    starter.gain_pp(2 * blue(g, starter, "income_start"), "poems")  # Minor Poem 1* (L1071-1072)
    s.round += 1
    s.phase = "actions"
    s.turn = chosen
    s.refreshed = False


@handler
def h_final_scoring(g: Game, eff: Effect) -> None:
    """Major Poems, the Trade Card, leftovers (L1024-1061)."""
    scoring.final(g.s)
    g.s.phase = "finished"
    g.s.finished = True

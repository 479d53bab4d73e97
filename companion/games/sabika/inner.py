"""Inner Rondel actions: carving Poems, reactivating, artisanal labour (L793-852)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.sabika import rules
from companion.games.sabika.components import (
    MATERIALS,
)
from companion.games.sabika.handlers import (
    Effect,
    blue,
    handler,
    material_sets,
    use_materials,
)
from companion.games.sabika.questions import latest_asking
from companion.games.sabika.say import Said
from companion.i18n import Msg

if TYPE_CHECKING:
    from companion.games.sabika.game import Game


@handler
def h_carve(g: Game, eff: Effect) -> None:
    """Pay the Poem's Dinars, a base Material + extra(s), score, place the Card (L797-842)."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    poems = rules.carve_options(g, seat, rules.budget(p))
    if not poems:
        return
    words = g.pick(eff, seat, Msg("{player} carves which Poem?", player=p.name), poems).split()
    colour, which = words[0], words[-1]
    scaffold = blue(g, p, "poem_scaffold")
    sets = material_sets(p, ("gypsum", "wood", "marble"), MATERIALS, 2 if scaffold else 1, g.event() == 4)
    prompt = Msg("{player} puts which Materials on the Poem Carving Scaffold?", player=p.name)
    used = sets[g.pick(eff, seat, prompt, list(sets))]
    cost = rules.poem_cost(p, colour, g.event())
    red = list(s.profile[f"minor_poem.{which}.red"]) if colour == "red" else []  # read first (``Game._unknown``)
    materials = f"minor_poem.{which}.quarry_materials"  # its permanent side works from now on (``blue``)
    if (colour == "blue" and latest_asking(s) and s.profile[f"minor_poem.{which}.blue"] == "quarry_extra"
            and materials not in s.profile):
        raise KeyError(materials)  # asked (``Game._unknown``)
    use_materials(g, p, used, "poems", per_material=1 if scaffold else 0)
    follow: list[Effect] = [{"k": "pay", "p": seat, "n": cost, "why": "the Poem"}]
    if colour == "grey":
        s.major_poems[s.major_poems.index(which)] = None
        p.grey_poems.append(which)
    else:
        m = int(which)
        s.poem_display[s.poem_display.index(m)] = None
        if colour == "blue":
            p.blue_poems.append(m)
        else:
            p.red_poems.append(m)
            follow.append({"k": "gain", "p": seat, "icons": red, "src": "poems"})
    g.push(*follow)


@handler
def h_reactivate(g: Game, eff: Effect) -> None:
    """Reapply the effect of one of your red Poems (L845-847)."""
    s, seat = g.s, eff["p"]
    p = s.players[seat]
    poems = {Said(Msg("red Poem {n}", n=m)): m for m in p.red_poems}
    if poems:
        m = poems[g.pick(eff, seat, Msg("{player} reactivates which red Poem?", player=p.name), list(poems))]
        g.push({"k": "gain", "p": seat, "icons": list(s.profile[f"minor_poem.{m}.red"]), "src": "poems"})


@handler
def h_artisanal(g: Game, eff: Effect) -> None:
    """3 Dinars + 1 per 2 Poem Cards (L849-852)."""
    p = g.s.players[eff["p"]]
    p.dinars += 3 + p.poems() // 2

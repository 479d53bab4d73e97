"""The Map's trade routes (L712-733, L1107-1118): export costs and chains of consecutive Ships.

The route graph comes from the board profile (``map.routes``: pairs ``"a-b"``, 0 = the Kingdom of
Granada, 1-9 = the Cities; ``map.route.a-b.cost``: Dinars).
"""

from __future__ import annotations

import heapq
from typing import Any


def graph(profile: dict[str, Any]) -> dict[int, list[tuple[int, int]]]:
    """Adjacency: place -> [(neighbour, cost)]."""
    out: dict[int, list[tuple[int, int]]] = {}
    for route in profile["map.routes"]:  # a lazy game asks the Map when a route is first needed
        a, b = (int(x) for x in str(route).split("-"))
        cost = int(profile[f"map.route.{route}.cost"])
        out.setdefault(a, []).append((b, cost))
        out.setdefault(b, []).append((a, cost))
    return out


def export_costs(profile: dict[str, Any], ships: dict[int, str], per_route: int = 0) -> dict[int, int]:
    """Cheapest Dinars to each place, starting from Granada or any City with the player's Ship (L719-721).

    "The nearest City where you have a presence" is read as the start that makes the route cheapest
    (docs/sabika.md); routes may pass Cities where the player has no Ship (L735-737). ``per_route``:
    Event 9 adds 1 Dinar per route (L1169).
    """
    adjacency = graph(profile)
    best: dict[int, int] = {}
    heap = [(0, place) for place in [0, *ships]]
    while heap:
        cost, place = heapq.heappop(heap)
        if place in best:
            continue
        best[place] = cost
        for neighbour, step in adjacency.get(place, []):
            if neighbour not in best:
                heapq.heappush(heap, (cost + step + per_route, neighbour))
    return best


def longest_chain(profile: dict[str, Any], ships: dict[int, str]) -> int:
    """Most Cities in one chain of consecutive Ships (joined by routes; Granada does not count, L1107-1113)."""
    adjacency = graph(profile)
    seen: set[int] = set()
    best = 0
    for city in ships:
        if city in seen:
            continue
        size, todo = 0, [city]
        seen.add(city)
        while todo:
            here = todo.pop()
            size += 1
            for neighbour, _ in adjacency.get(here, []):
                if neighbour in ships and neighbour not in seen and neighbour != 0:
                    seen.add(neighbour)
                    todo.append(neighbour)
        best = max(best, size)
    return best

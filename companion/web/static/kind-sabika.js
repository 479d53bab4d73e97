// Sabika's board for the generic game page: draws the adapter's board_view (companion/table/kinds/sabika.py).
// Every player's Workshop (your own first on a phone, all side by side on a tablet), then the shared board:
// round and era, the three Rondels with their Workers, the Map's Cities and trade routes, the tribute due,
// the Sultan's Wishes and the cards and tiles on offer. Plain DOM; every colour is also written in words.
(function () {
  "use strict";

  const STYLE = [
    ".sk { display: block; min-width: 0; overflow-wrap: break-word; }",
    ".sk h4 { margin: 10px 0 4px; font-size: 16px; color: var(--muted, #a9b0bb); }",
    ".sk-status { font-size: 16px; margin: 0 0 8px; }",
    ".sk-players { display: grid; grid-template-columns: 1fr; gap: 10px; }",
    ".sk-shared { display: grid; grid-template-columns: 1fr; gap: 10px; margin-top: 10px; }",
    "@media (min-width: 900px) {",
    "  .sk-players { grid-template-columns: none; grid-auto-flow: column; grid-auto-columns: minmax(0, 1fr); }",
    "  .sk-players .sk-card { container-type: inline-size; }",
    "  .sk-shared { grid-template-columns: repeat(2, minmax(0, 1fr)); }",
    "  .sk-shared .sk-wide { grid-column: 1 / -1; }",
    "}",
    ".sk-card { background: var(--card, #1f232a); border-radius: 12px; padding: 10px 12px; min-width: 0;",
    "  border: 2px solid #39414d; }",
    ".sk-card.sk-mine { border-color: var(--accent, #f2b33d); }",
    ".sk-card.sk-turn { box-shadow: 0 0 0 3px #8fc3ff inset; }",
    ".sk-pp { font-size: 24px; font-weight: 800; font-variant-numeric: tabular-nums; }",
    ".sk-badge { display: inline-block; font-size: 13px; padding: 1px 7px; margin-left: 4px; border-radius: 8px;",
    "  background: #39414d; color: var(--fg, #f1f1ee); font-weight: 600; }",
    ".sk-facts { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 2px 10px; margin: 4px 0; }",
    ".sk-facts div { display: flex; justify-content: space-between; gap: 6px; border-bottom: 1px solid #333; }",
    "@container (max-width: 230px) { .sk-facts { grid-template-columns: 1fr; } }",
    ".sk-facts b { font-variant-numeric: tabular-nums; }",
    ".sk-chips { display: flex; flex-wrap: wrap; gap: 4px; margin: 2px 0; }",
    ".sk-chip { display: inline-flex; align-items: center; gap: 5px; padding: 2px 8px; border-radius: 8px;",
    "  background: #2b313b; font-size: 15px; }",
    ".sk-chip.sk-zero { opacity: .55; }",
    ".sk-dot { width: 12px; height: 12px; border-radius: 3px; border: 1px solid #fff8; flex: none; }",
    ".sk-list { margin: 2px 0; padding-left: 18px; font-size: 15px; }",
    ".sk-ring { display: grid; grid-template-columns: repeat(auto-fill, minmax(128px, 1fr)); gap: 4px; }",
    ".sk-square { background: #2b313b; border-radius: 8px; padding: 4px 6px; font-size: 14px; min-height: 48px; }",
    ".sk-square b { font-size: 15px; }",
    ".sk-who { display: block; color: #ffe08a; font-weight: 600; }",
    ".sk-lying { color: var(--muted, #a9b0bb); font-weight: 400; }",
    ".sk details summary { min-height: 48px; display: flex; align-items: center; cursor: pointer; font-weight: 600; }",
    ".sk details.sk-card > summary { justify-content: space-between; gap: 8px; flex-wrap: wrap; font-size: 19px; }",
    ".sk-sum { font-size: 15px; font-weight: 400; color: var(--muted, #a9b0bb); }",
    ".sk table { width: 100%; border-collapse: collapse; font-size: 15px; }",
    ".sk td, .sk th { padding: 3px 4px; border-bottom: 1px solid #333; text-align: left; vertical-align: top; }",
    ".sk td.n, .sk th.n { text-align: right; font-variant-numeric: tabular-nums; }",
    ".sk-now { font-weight: 700; }",
  ].join("\n");

  // Named colours of the Materials, Goods and Raw Materials (the name is always written beside).
  const SWATCH = {
    "Gypsum": "#e8e4da", "Wood": "#9a6a3a", "Marble": "#b9c0c8", "Glazed Ceramic": "#2f8fb0",
    "Sugar": "#f4f1e8", "Clothes": "#8d4fb8", "Pottery": "#c4683a",
    "Sugar cane": "#8ac06a", "Silk": "#d9a9d6", "Clay": "#a0522d",
  };

  // The page's language (static/common.js): t() for this file's texts, word() for a game word the view
  // sends in English (context "sabika"), say() for a message the view sends as data (``*_say``). Drawn
  // without common.js (a bare test page), the English stays as it is.
  function t(text, params) {
    if (window.Keshi) { return window.Keshi.t(text, params); }
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }
  function word(text) { return window.Keshi && text ? window.Keshi.word("sabika", text) : text; }
  function say(message, english) { return window.Keshi && message ? window.Keshi.say(message) : english; }

  function h(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "class") { node.className = attrs[key]; } else { node.setAttribute(key, attrs[key]); }
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false) { return; }
      node.appendChild(typeof child === "string" || typeof child === "number" ?
        document.createTextNode(String(child)) : child);
    });
    return node;
  }

  function ensureStyle() {
    if (document.getElementById("kind-sabika-style")) { return; }
    document.head.appendChild(h("style", { id: "kind-sabika-style" }, [STYLE]));
  }

  // A Material, Good or Raw Material (its English name picks the swatch) with its count.
  function chip(name, count) {
    const attrs = { class: "sk-chip" + (count === 0 ? " sk-zero" : "") };
    const dot = SWATCH[name] ? h("span", { class: "sk-dot", style: "background:" + SWATCH[name], "aria-hidden": "true" }) : null;
    return h("span", attrs, [dot, word(name) + (count === undefined ? "" : " " + count)]);
  }

  function textChip(text) { return h("span", { class: "sk-chip" }, [text]); }

  // Which sections the reader opened or closed, kept across re-renders (section key -> open).
  const opened = {};

  // A collapsible card: open by default when asked (your own board; every section on a wide screen).
  function card(key, attrs, summary, body, openByDefault) {
    const node = h("details", attrs, [h("summary", {}, summary)].concat(body));
    node.open = Object.prototype.hasOwnProperty.call(opened, key) ? opened[key] : openByDefault;
    node.addEventListener("toggle", function () { opened[key] = node.open; });
    return node;
  }

  function fact(label, value) {
    return h("div", {}, [h("span", {}, [label]), h("b", {}, [String(value)])]);
  }

  function workerText(w) {
    const where = w.at === null ? t("in the Workshop") : t("{ring}, square {n}", {ring: word(w.ring), n: w.at});
    return w.standing ? t("{worker}: {where}", {worker: word(w.name), where: where}) :
      t("{worker}: {where} (lying down)", {worker: word(w.name), where: where});
  }

  function playerCard(p, mine, turn, wide) {
    const classes = "sk-card" + (mine ? " sk-mine" : "") + (turn ? " sk-turn" : "");
    const badges = [];
    if (mine) { badges.push(h("span", { class: "sk-badge" }, [t("you")])); }
    if (turn) { badges.push(h("span", { class: "sk-badge" }, [t("to move")])); }
    if (p.starting_player) { badges.push(h("span", { class: "sk-badge" }, [t("Starting Player")])); }
    const store = p.store.boxes === null ? t("{n} items stored", {n: p.store.used}) :
      t("{used} of {boxes} Store Boxes used", {used: p.store.used, boxes: p.store.boxes});
    const cities = p.cities.length ? p.cities.map(function (c) {
      return c.consolidated ? t("City {n} (consolidated)", {n: c.city}) : t("City {n}", {n: c.city});
    }).join(", ") : t("none yet");
    const breakdown = h("table", { class: "sk-breakdown" }, p.breakdown.map(function (b) {
      return h("tr", {}, [h("td", {}, [say(b.label_say, b.label)]), h("td", { class: "n" }, [String(b.points)])]);
    }).concat([h("tr", {}, [h("th", {}, [t("Total")]), h("th", { class: "n" }, [String(p.score)])])]));
    const summary = [
      h("span", {}, [h("b", {}, [p.name])].concat(badges)),
      h("span", { class: "sk-pp", "data-testid": "sabika-score" }, [t("{n} PP", {n: p.score})]),
      h("span", { class: "sk-sum" }, [t("{dinars} Dinars · {parias} Parias · {seals} Seals",
        {dinars: p.dinars, parias: p.parias, seals: p.seals})]),
    ];
    const attrs = { class: classes, "data-seat": String(p.seat), "data-testid": "sabika-player" };
    return card("player-" + p.seat, attrs, summary, [
      h("div", { class: "sk-facts" }, [
        fact(t("Dinars"), p.dinars), fact(t("Parias"), p.parias), fact(t("Seals"), p.seals),
        fact(t("Sultan's Favour"), p.favour), fact(t("Ships at home"), p.ships_home),
        fact(t("Balances"), p.balances),
      ]),
      h("h4", {}, [t("Materials")]),
      h("div", { class: "sk-chips" }, p.materials.map(function (m) { return chip(m.name, m.count); })),
      h("h4", {}, [t("Goods and Raw Materials")]),
      h("div", { class: "sk-chips" }, p.goods.concat(p.raws).map(function (m) { return chip(m.name, m.count); })),
      h("div", { class: "small muted" }, [store]),
      h("h4", {}, [t("Workers")]),
      h("ul", { class: "sk-list" }, p.workers.map(function (w) { return h("li", {}, [workerText(w)]); })),
      h("h4", {}, [t("Constructions, Poems, Cities")]),
      h("ul", { class: "sk-list" }, [
        h("li", {}, [t("Major Constructions {major} · Minor Constructions {minor}",
          {major: p.major_constructions, minor: p.minor_constructions})]),
        h("li", {}, [t("Poems: blue {blue} · red {red} · grey {grey}", p.poems)]),
        h("li", {}, [t("Ships in {cities}", {cities: cities})]),
        p.starting_tile !== null ? h("li", {}, [t("Starting Tile {n}", {n: p.starting_tile})]) : null,
      ]),
      h("details", {}, [h("summary", {}, [t("Score breakdown")]), breakdown]),
    ], mine || wide);
  }

  function rondelCard(view, wide) {
    const rings = view.rondel.map(function (ring) {
      return h("div", {}, [
        h("h4", {}, [word(ring.ring)]),
        h("div", { class: "sk-ring" }, ring.squares.map(function (sq) {
          const who = sq.workers.map(function (w) {
            const named = {player: w.name, worker: word(w.worker)};
            return h("span", { class: "sk-who" + (w.standing ? "" : " sk-lying") },
              [w.standing ? t("{player}'s {worker}", named) : t("{player}'s {worker} (lying)", named)]);
          });
          if (sq.sultan) {
            who.push(h("span", { class: "sk-who" }, [sq.sultan > 1 ? t("Sultan's Worker ×{n}", {n: sq.sultan}) :
              t("Sultan's Worker")]));
          }
          const secondary = (sq.secondary_say || sq.secondary).map(function (spot, i) { return say(spot, sq.secondary[i]); });
          return h("div", { class: "sk-square", "data-square": String(sq.n) }, [
            h("b", {}, [sq.n + " " + (sq.action ? word(sq.action) : "?")]),  // "?": not asked yet
            secondary.length ? h("span", { class: "small muted" }, [" + " + secondary.join(", ")]) : null,
          ].concat(who));
        })),
      ]);
    });
    const tokens = view.raw_squares.map(function (s) {
      return textChip(t("Raw Material square {n}: {what}", {n: s.n, what: s.token ? word(s.token) : t("empty")}));
    }).concat(view.marble_squares.map(function (s) {
      return textChip(t("Marble square {n}: {what}", {n: s.n, what: s.marble ? word("Marble") : t("empty")}));
    }));
    const body = view.rondel.length ? rings : [h("p", { class: "muted" }, [t("The Rondel appears once the table has described it.")])];
    const placed = view.rondel.reduce(function (n, ring) {
      return n + ring.squares.reduce(function (m, sq) { return m + sq.workers.length; }, 0);
    }, 0);
    return card("rondel", { class: "sk-card sk-wide", "data-testid": "sabika-rondel" },
      [t("Rondel"), h("span", { class: "sk-sum" }, [placed === 1 ? t("{n} Worker out", {n: placed}) :
        t("{n} Workers out", {n: placed})])],
      body.concat([h("div", { class: "sk-chips" }, tokens)]), wide);
  }

  function mapCard(view, wide) {
    const rows = view.map.cities.map(function (c) {
      const ships = c.ships.map(function (s) {
        return s.consolidated ? t("{player} (consolidated)", {player: s.name}) : s.name;
      }).join(", ");
      const what = [c.colour ? t("{colour} City", {colour: word(c.colour)}) : null,
        c.demand ? t("wants {good}", {good: word(c.demand)}) : null,
        c.seal ? t("Seal still here") : t("Seal taken")].filter(Boolean).join(" · ");
      const bonus = c.bonus ? h("div", { class: "small muted" }, [t("City Bonus: {bonus}", {bonus: say(c.bonus_say, c.bonus)})]) : null;
      return h("tr", {}, [h("td", {}, [t("City {n}", {n: c.n})]), h("td", {}, [what, bonus]), h("td", {}, [ships || "—"])]);
    });
    const routes = view.map.routes.map(function (r) {
      return h("li", {}, [t("{from} – {to}: {cost} Dinars", {from: say(r.from_say, r.from), to: say(r.to_say, r.to),
        cost: r.cost === null || r.cost === undefined ? "?" : r.cost})]);
    });
    const ships = view.map.cities.reduce(function (n, c) { return n + c.ships.length; }, 0);
    return card("map", { class: "sk-card", "data-testid": "sabika-map" },
      [t("Map: Cities and trade routes"), h("span", { class: "sk-sum" }, [ships === 1 ? t("{n} Ship out", {n: ships}) :
        t("{n} Ships out", {n: ships})])], [
      h("table", {}, [h("tr", {}, [h("th", {}, [t("City")]), h("th", {}, [t("Tile")]), h("th", {}, [t("Ships")])])].concat(rows)),
      h("details", {}, [h("summary", {}, [t("Trade routes ({n})", {n: routes.length})]), h("ul", { class: "sk-list" }, routes)]),
    ], wide);
  }

  function roundCard(view, wide) {
    const tribute = view.tribute.map(function (r) {
      const due = {n: r.round, parias: r.parias === null || r.parias === undefined ? "?" : r.parias};
      return h("li", { class: r.round === view.round ? "sk-now" : "" },
        [r.round === view.round ? t("End of round {n}: {parias} Parias due (this round)", due) :
          t("End of round {n}: {parias} Parias due", due)]);
    });
    const wishes = view.wishes.map(function (w) {
      const tile = w.scored ? t("Scored Sultan's Wishes {tile}", {tile: w.tile}) :
        t("End of round {n}: Sultan's Wishes {tile}", {n: w.round, tile: w.tile});
      return h("li", {}, [tile + (w.counts ? " — " + say(w.counts_say, w.counts) : "")]);
    });
    const d = view.displays;
    const words = d.say || d;
    function shown(list, english) { return list.map(function (m, i) { return say(m, english[i]); }); }
    const offer = [
      [t("Major Construction Tiles"), shown(words.major_tiles.I.concat(words.major_tiles.II), d.major_tiles.I.concat(d.major_tiles.II))],
      [t("Minor Construction Cards"), shown(words.minor_cards, d.minor_cards)],
      [t("Minor Poems"), shown(words.minor_poems, d.minor_poems)], [t("Major Poems"), shown(words.major_poems, d.major_poems)],
      [t("Storehouse Tiles"), shown(words.storehouse_tiles[0].concat(words.storehouse_tiles[1] || []),
        d.storehouse_tiles[0].concat(d.storehouse_tiles[1] || []))],
      [t("Trade Card"), [say(words.trade_card, d.trade_card)]],
    ].map(function (row) { return h("tr", {}, [h("td", {}, [row[0]]), h("td", {}, [row[1].join(", ") || t("none")])]); });
    const due = view.tribute.filter(function (r) { return r.round === view.round; })[0];
    return card("round", { class: "sk-card", "data-testid": "sabika-round" },
      [t("Round {n} of {total} · Era {era}", {n: view.round, total: view.rounds, era: view.era}),
        h("span", { class: "sk-sum" }, [due && due.parias !== null && due.parias !== undefined ?
          t("{n} Parias due this round", {n: due.parias}) : t("Tribute, Wishes, offers")])], [
      h("h4", {}, [t("Tribute to the Catholic Monarchs")]), h("ul", { class: "sk-list" }, tribute),
      h("h4", {}, [t("Sultan's Wishes")]), h("ul", { class: "sk-list" }, wishes),
      h("details", {}, [h("summary", {}, [t("Palace works and cards on offer")]), h("table", {}, offer)]),
    ], wide);
  }

  function statusText(view) {
    if (view.finished) {
      const scores = view.players.map(function (p) { return p.name + " " + t("{n} PP", {n: p.score}); }).join(", ");
      const names = {names: view.winners.map(function (s) { return view.players[s].name; }).join(t(" and "))};
      return t("Final scores: {scores}", {scores: scores}) + " · " +
        (view.winners.length === 1 ? t("{names} wins", names) : t("{names} share the win", names));
    }
    const round = {n: view.round, total: view.rounds, era: view.era, phase: say(view.phase_say, view.phase)};
    return t("Round {n} of {total} · Era {era} · {phase}", round) +
      (view.event ? " · " + t("Event {n} active", {n: view.event}) : "");
  }

  // `names` (the seats' names) is part of the page's contract; Sabika's view carries each player's name itself.
  function render(el, view, names, mySeat) {
    ensureStyle();
    const wide = window.matchMedia("(min-width: 900px)").matches;
    const mine = typeof mySeat === "number" ? mySeat : null;
    const order = view.players.slice().sort(function (a, b) {
      return (a.seat === mine ? -1 : 0) - (b.seat === mine ? -1 : 0) || a.seat - b.seat;
    });
    const root = h("div", { class: "sk", "data-testid": "sabika-board" }, [
      h("p", { class: "sk-status", "data-testid": "sabika-status" }, [statusText(view)]),
      h("div", { class: "sk-players" }, order.map(function (p) {
        return playerCard(p, p.seat === mine, view.turn === p.seat, wide);
      })),
      h("div", { class: "sk-shared" }, [rondelCard(view, wide), roundCard(view, wide), mapCard(view, wide)]),
    ]);
    el.replaceChildren(root);
  }

  window.KeshiKinds = window.KeshiKinds || {};
  window.KeshiKinds.sabika = { render: render };
}());

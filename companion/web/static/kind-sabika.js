// Sabika's board for the generic game page: draws the adapter's board_view (companion/web/kinds/sabika.py).
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
    ".sk td.n { text-align: right; font-variant-numeric: tabular-nums; }",
    ".sk-now { font-weight: 700; }",
  ].join("\n");

  // Named colours of the Materials, Goods and Raw Materials (the name is always written beside).
  const SWATCH = {
    "Gypsum": "#e8e4da", "Wood": "#9a6a3a", "Marble": "#b9c0c8", "Glazed Ceramic": "#2f8fb0",
    "Sugar": "#f4f1e8", "Clothes": "#8d4fb8", "Pottery": "#c4683a",
    "Sugar cane": "#8ac06a", "Silk": "#d9a9d6", "Clay": "#a0522d",
  };

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

  function chip(name, count) {
    const attrs = { class: "sk-chip" + (count === 0 ? " sk-zero" : "") };
    const dot = SWATCH[name] ? h("span", { class: "sk-dot", style: "background:" + SWATCH[name], "aria-hidden": "true" }) : null;
    return h("span", attrs, [dot, name + (count === undefined ? "" : " " + count)]);
  }

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
    const where = w.at === null ? "in the Workshop" : w.ring + ", square " + w.at;
    return w.name + ": " + where + (w.standing ? "" : " (lying down)");
  }

  function playerCard(p, mine, turn, wide) {
    const classes = "sk-card" + (mine ? " sk-mine" : "") + (turn ? " sk-turn" : "");
    const badges = [];
    if (mine) { badges.push(h("span", { class: "sk-badge" }, ["you"])); }
    if (turn) { badges.push(h("span", { class: "sk-badge" }, ["to move"])); }
    if (p.starting_player) { badges.push(h("span", { class: "sk-badge" }, ["Starting Player"])); }
    const store = p.store.boxes === null ? p.store.used + " items stored" :
      p.store.used + " of " + p.store.boxes + " Store Boxes used";
    const cities = p.cities.length ? p.cities.map(function (c) {
      return "City " + c.city + (c.consolidated ? " (consolidated)" : "");
    }).join(", ") : "none yet";
    const breakdown = h("table", { class: "sk-breakdown" }, p.breakdown.map(function (b) {
      return h("tr", {}, [h("td", {}, [b.label]), h("td", { class: "n" }, [String(b.points)])]);
    }).concat([h("tr", {}, [h("th", {}, ["Total"]), h("th", { class: "n" }, [String(p.score)])])]));
    const summary = [
      h("span", {}, [h("b", {}, [p.name])].concat(badges)),
      h("span", { class: "sk-pp", "data-testid": "sabika-score" }, [p.score + " PP"]),
      h("span", { class: "sk-sum" }, [p.dinars + " Dinars · " + p.parias + " Parias · " + p.seals + " Seals"]),
    ];
    const attrs = { class: classes, "data-seat": String(p.seat), "data-testid": "sabika-player" };
    return card("player-" + p.seat, attrs, summary, [
      h("div", { class: "sk-facts" }, [
        fact("Dinars", p.dinars), fact("Parias", p.parias), fact("Seals", p.seals),
        fact("Sultan's Favour", p.favour), fact("Ships at home", p.ships_home),
        fact("Balances", p.balances),
      ]),
      h("h4", {}, ["Materials"]),
      h("div", { class: "sk-chips" }, p.materials.map(function (m) { return chip(m.name, m.count); })),
      h("h4", {}, ["Goods and Raw Materials"]),
      h("div", { class: "sk-chips" }, p.goods.concat(p.raws).map(function (m) { return chip(m.name, m.count); })),
      h("div", { class: "small muted" }, [store]),
      h("h4", {}, ["Workers"]),
      h("ul", { class: "sk-list" }, p.workers.map(function (w) { return h("li", {}, [workerText(w)]); })),
      h("h4", {}, ["Constructions, Poems, Cities"]),
      h("ul", { class: "sk-list" }, [
        h("li", {}, ["Major Constructions " + p.major_constructions + " · Minor Constructions " + p.minor_constructions]),
        h("li", {}, ["Poems: blue " + p.poems.blue + " · red " + p.poems.red + " · grey " + p.poems.grey]),
        h("li", {}, ["Ships in " + cities]),
        p.starting_tile !== null ? h("li", {}, ["Starting Tile " + p.starting_tile]) : null,
      ]),
      h("details", {}, [h("summary", {}, ["Score breakdown"]), breakdown]),
    ], mine || wide);
  }

  function rondelCard(view, wide) {
    const rings = view.rondel.map(function (ring) {
      return h("div", {}, [
        h("h4", {}, [ring.ring]),
        h("div", { class: "sk-ring" }, ring.squares.map(function (sq) {
          const who = sq.workers.map(function (w) {
            return h("span", { class: "sk-who" + (w.standing ? "" : " sk-lying") },
              [w.name + "'s " + w.worker + (w.standing ? "" : " (lying)")]);
          });
          if (sq.sultan) { who.push(h("span", { class: "sk-who" }, ["Sultan's Worker" + (sq.sultan > 1 ? " ×" + sq.sultan : "")])); }
          return h("div", { class: "sk-square", "data-square": String(sq.n) }, [
            h("b", {}, [sq.n + " " + sq.action]),
            sq.secondary.length ? h("span", { class: "small muted" }, [" + " + sq.secondary.join(", ")]) : null,
          ].concat(who));
        })),
      ]);
    });
    const tokens = view.raw_squares.map(function (s) {
      return chip("Raw Material square " + s.n + ": " + (s.token || "empty"));
    }).concat(view.marble_squares.map(function (s) {
      return chip("Marble square " + s.n + ": " + (s.marble ? "Marble" : "empty"));
    }));
    const body = view.rondel.length ? rings : [h("p", { class: "muted" }, ["The Rondel appears once the table has described it."])];
    const placed = view.rondel.reduce(function (n, ring) {
      return n + ring.squares.reduce(function (m, sq) { return m + sq.workers.length; }, 0);
    }, 0);
    return card("rondel", { class: "sk-card sk-wide", "data-testid": "sabika-rondel" },
      ["Rondel", h("span", { class: "sk-sum" }, [placed + (placed === 1 ? " Worker out" : " Workers out")])],
      body.concat([h("div", { class: "sk-chips" }, tokens)]), wide);
  }

  function mapCard(view, wide) {
    const rows = view.map.cities.map(function (c) {
      const ships = c.ships.map(function (s) { return s.name + (s.consolidated ? " (consolidated)" : ""); }).join(", ");
      const what = [c.colour ? c.colour + " City" : null, c.demand ? "wants " + c.demand : null,
        c.seal ? "Seal still here" : "Seal taken"].filter(Boolean).join(" · ");
      return h("tr", {}, [h("td", {}, ["City " + c.n]), h("td", {}, [what, c.bonus ? h("div", { class: "small muted" }, ["City Bonus: " + c.bonus]) : null]),
        h("td", {}, [ships || "—"])]);
    });
    const routes = view.map.routes.map(function (r) {
      return h("li", {}, [r.from + " – " + r.to + ": " + (r.cost === null || r.cost === undefined ? "?" : r.cost) + " Dinars"]);
    });
    const ships = view.map.cities.reduce(function (n, c) { return n + c.ships.length; }, 0);
    return card("map", { class: "sk-card", "data-testid": "sabika-map" },
      ["Map: Cities and trade routes", h("span", { class: "sk-sum" }, [ships + (ships === 1 ? " Ship out" : " Ships out")])], [
      h("table", {}, [h("tr", {}, [h("th", {}, ["City"]), h("th", {}, ["Tile"]), h("th", {}, ["Ships"])])].concat(rows)),
      h("details", {}, [h("summary", {}, ["Trade routes (" + routes.length + ")"]), h("ul", { class: "sk-list" }, routes)]),
    ], wide);
  }

  function roundCard(view, wide) {
    const tribute = view.tribute.map(function (t) {
      return h("li", { class: t.round === view.round ? "sk-now" : "" },
        ["End of round " + t.round + ": " + (t.parias === null || t.parias === undefined ? "?" : t.parias) + " Parias due" +
          (t.round === view.round ? " (this round)" : "")]);
    });
    const wishes = view.wishes.map(function (w) {
      return h("li", {}, [(w.scored ? "Scored " : "End of round " + w.round + ": ") + "Sultan's Wishes " + w.tile +
        (w.counts ? " — " + w.counts : "")]);
    });
    const d = view.displays;
    const offer = [
      ["Major Construction Tiles", d.major_tiles.I.concat(d.major_tiles.II)],
      ["Minor Construction Cards", d.minor_cards], ["Minor Poems", d.minor_poems], ["Major Poems", d.major_poems],
      ["Storehouse Tiles", d.storehouse_tiles[0].concat(d.storehouse_tiles[1] || [])], ["Trade Card", [d.trade_card]],
    ].map(function (row) { return h("tr", {}, [h("td", {}, [row[0]]), h("td", {}, [row[1].join(", ") || "none"])]); });
    const due = view.tribute.filter(function (t) { return t.round === view.round; })[0];
    return card("round", { class: "sk-card", "data-testid": "sabika-round" },
      ["Round " + view.round + " of " + view.rounds + " · Era " + view.era,
        h("span", { class: "sk-sum" }, [due && due.parias !== null && due.parias !== undefined ?
          due.parias + " Parias due this round" : "Tribute, Wishes, offers"])], [
      h("h4", {}, ["Tribute to the Catholic Monarchs"]), h("ul", { class: "sk-list" }, tribute),
      h("h4", {}, ["Sultan's Wishes"]), h("ul", { class: "sk-list" }, wishes),
      h("details", {}, [h("summary", {}, ["Palace works and cards on offer"]), h("table", {}, offer)]),
    ], wide);
  }

  // `names` (the seats' names) is part of the page's contract; Sabika's view carries each player's name itself.
  function render(el, view, names, mySeat) {
    ensureStyle();
    const wide = window.matchMedia("(min-width: 900px)").matches;
    const mine = typeof mySeat === "number" ? mySeat : null;
    const order = view.players.slice().sort(function (a, b) {
      return (a.seat === mine ? -1 : 0) - (b.seat === mine ? -1 : 0) || a.seat - b.seat;
    });
    let status = "Round " + view.round + " of " + view.rounds + " · Era " + view.era + " · " + view.phase;
    if (view.event) { status += " · Event " + view.event + " active"; }
    if (view.finished) {
      status = "Final scores: " + view.players.map(function (p) { return p.name + " " + p.score + " PP"; }).join(", ") +
        " · " + view.winners.map(function (s) { return view.players[s].name; }).join(" and ") +
        (view.winners.length === 1 ? " wins" : " share the win");
    }
    const root = h("div", { class: "sk", "data-testid": "sabika-board" }, [
      h("p", { class: "sk-status", "data-testid": "sabika-status" }, [status]),
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

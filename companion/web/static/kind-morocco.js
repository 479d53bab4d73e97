// Morocco's board for the generic table page: every family's supply and score (this phone's first),
// the rooftop with its cubes and the pawn, and the market: the cube beside each row and column, each
// stall's four spaces with their workers, closed stalls with their tile and overflow arrow, and the
// juice sellers still on the stall corners. Plain DOM, drawn again from the view on every change.
(function () {
  "use strict";
  const CUBES = {green: "#3aa65a", orange: "#e88a2a", brown: "#8b5a2b", blue: "#3b7bd8", white: "#eeeeee"};
  const WORKER_MARK = {assistant: "A", bodyguard: "B", tourist: "T"};
  const t = Keshi.t;
  const WORKER_NAME = {assistant: t("assistant"), bodyguard: t("bodyguard (counts two)"), tourist: t("tourist")};
  const CUBE_NAME = {green: t("green"), orange: t("orange"), brown: t("brown"), blue: t("blue"), white: t("white")};
  const ARROWS = {up: "↑", down: "↓", left: "←", right: "→"};
  const DIRECTION = {up: Keshi.t("up"), down: Keshi.t("down"), left: Keshi.t("left"), right: Keshi.t("right")};
  const SPACE = [t("top-left"), t("top-right"), t("bottom-left"), t("bottom-right")];
  const esc = Keshi.esc;

  function cubeName(colour) { return CUBE_NAME[colour] || colour; }
  function cube(colour, count) {
    return '<span class="mor-cube" title="' + esc(cubeName(colour)) + '"><i style="background:' + (CUBES[colour] || "#666") +
      '"></i>' + (count !== undefined ? "<b>" + count + "</b> " : "") + esc(cubeName(colour)) + "</span>";
  }
  function family(p, names, mine, categories) {
    const cubes = Object.keys(p.cubes).filter(function (c) { return p.cubes[c] > 0; })
      .map(function (c) { return cube(c, p.cubes[c]); }).join(" ") || '<span class="muted">' + esc(t("no cubes")) + "</span>";
    const juice = p.juice_points === null ? t("{n} juice seller(s) (face down)", {n: p.juice_tokens}) :
      t("{n} juice seller(s) = {points} VP", {n: p.juice_tokens, points: p.juice_points});
    // the parts in the board's category order (the same for every family; the final scoring table's rows)
    const breakdown = (categories || []).filter(function (c) { return p.breakdown[c.label]; }).map(function (c) {
      return esc(Keshi.sayOr(c.say, c.label)) + " " + p.breakdown[c.label]; }).join(" · ");
    return '<div class="mor-family' + (mine ? " mine" : "") + '" data-seat="' + p.seat + '" style="border-color:' +
      window.KeshiSeatColour(p.seat) + '"><h3>' + esc(p.name) + (mine ? " " + esc(t("(you)")) : "") + (p.start ? " · " + esc(t("start player")) : "") +
      ' <span class="mor-score" data-score="' + p.score + '">' + esc(t("{n} VP", {n: p.score})) + "</span></h3>" +
      '<p class="mor-cubes">' + cubes + "</p>" +
      '<p class="small">' + esc(t("Gold {gold} · assistants {assistants} · bodyguards {bodyguards} (+{quarters} in the quarters) · " +
        "tourists {tourists} · cousins {cousins} · market tiles {tiles}", {gold: p.gold, assistants: p.assistants,
        bodyguards: p.bodyguards, quarters: p.quarters, tourists: p.tourists, cousins: p.cousins, tiles: p.market_tiles})) +
      " · " + esc(juice) + "</p>" +
      (breakdown ? '<p class="small muted">' + breakdown + "</p>" : "") + "</div>";
  }
  function stall(s, names) {
    const where = t("Row {row}, column {column}", {row: s.row, column: s.column});
    if (s.tile !== null) {
      const owner = s.tile === "empty" ? null : s.tile;
      const text = owner === null ? esc(t("empty")) : esc(names[owner]);
      return '<div class="mor-stall closed" title="' + esc(t("{where}: closed, {owner}", {where: where, owner: owner === null ? t("empty") : names[owner]})) + '" style="background:' +
        (owner === null ? "#333" : window.KeshiSeatColour(owner)) + '"><span>' + text + "</span>" +
        (s.arrow ? '<span class="mor-arrow" title="' + esc(t("overflow arrow {arrow}", {arrow: DIRECTION[s.arrow] || s.arrow})) + '">' + ARROWS[s.arrow] + "</span>" : "") + "</div>";
    }
    const spaces = s.spaces.map(function (w, i) {
      if (!w) { return '<span class="mor-space" title="' + esc(t("{where} {space}: free", {where: where, space: SPACE[i]})) + '"></span>'; }
      return '<span class="mor-space taken" title="' + esc(t("{where} {space}: {player}'s {worker}", {where: where, space: SPACE[i],
        player: names[w.seat], worker: WORKER_NAME[w.worker]})) + '" style="background:' + window.KeshiSeatColour(w.seat) + '">' + WORKER_MARK[w.worker] + "</span>";
    }).join("");
    const extra = s.overflow ? '<span class="mor-overflow" title="' + esc(t("overflow arrows pointing here")) + '">+' + s.overflow + "</span>" : "";
    return '<div class="mor-stall" title="' + esc(where) + '">' + spaces + extra + "</div>";
  }
  function market(board, names) {
    let html = '<div class="mor-market"><span></span>';
    board.columns.forEach(function (c, i) { html += '<span class="mor-edge" title="' + esc(t("column {n}: {colour}", {n: i + 1, colour: cubeName(c)})) + '"><i style="background:' + CUBES[c] + '"></i>' + (i + 1) + "</span>"; });
    for (let r = 0; r < 5; r += 1) {
      const c = board.rows[r];
      html += '<span class="mor-edge" title="' + esc(t("row {n}: {colour}", {n: r + 1, colour: cubeName(c)})) + '"><i style="background:' + CUBES[c] + '"></i>' + (r + 1) + "</span>";
      for (let col = 0; col < 5; col += 1) { html += stall(board.stalls[r * 5 + col], names); }
    }
    html += "</div>";
    const juice = board.juice.map(function (v, i) {
      if (!v) { return ""; }
      const cy = Math.floor(i / 6), cx = i % 6;
      return '<span class="mor-juice" style="left:' + (cx * 20) + "%;top:" + (cy * 20) + '%" title="' + esc(t("juice seller worth {n} VP", {n: v})) + '">' + v + "</span>";
    }).join("");
    return html.replace('<div class="mor-market">', '<div class="mor-market"><div class="mor-juices">' + juice + "</div>");
  }
  function rooftop(board) {
    const spaces = board.rooftop.map(function (c, i) {
      const here = board.pawn === i + 1;
      return '<span class="mor-roof' + (here ? " pawn" : "") + '">' + (i + 1) + " " + cube(c) + (here ? " ♟" : "") + "</span>";
    }).join("");
    return '<p class="mor-rooftop">' + esc(t("Rooftop:")) + " " + (board.pawn === 0 ? '<span class="mor-roof pawn">' + esc(t("centre")) + " ♟</span>" : "") + spaces + "</p>";
  }

  // The market to choose a stall on: each stall the worker may go to is a button (named "Row 2, column 4" like
  // the step it takes) showing its cost, the row's and the column's cube, and how full it is; the acting
  // family's own cubes above it, so the cost is read beside what they hold.
  function pickOnBoard(board, actor, picks) {
    const p = board.players[actor] || {cubes: {}};
    const own = Object.keys(p.cubes).filter(function (c) { return p.cubes[c] > 0; })
      .map(function (c) { return cube(c, p.cubes[c]); }).join(" ") || esc(t("no cubes"));
    const at = {};
    picks.forEach(function (pick) { at[pick.row + "," + pick.column] = pick; });
    let html = '<p class="mor-own" id="own-cubes">' + esc(t("Your cubes:")) + " " + own + "</p>" +
      '<p class="small muted">' + esc(t("Tap a stall: it costs the cube of its row and the cube of its column (a tourist or cousins: one cube more).")) + "</p>" +
      '<div class="mor-pick" id="stall-picker"><span></span>';
    board.columns.forEach(function (c, i) { html += '<span class="mor-edge"><i style="background:' + CUBES[c] + '"></i>' + (i + 1) + "</span>"; });
    for (let r = 1; r <= 5; r += 1) {
      html += '<span class="mor-edge"><i style="background:' + CUBES[board.rows[r - 1]] + '"></i>' + r + "</span>";
      for (let col = 1; col <= 5; col += 1) {
        const s = board.stalls[(r - 1) * 5 + col - 1];
        const pick = at[r + "," + col];
        if (!pick) {
          html += '<span class="mor-pick-off' + (s.tile !== null ? " closed" : "") + '"></span>';
          continue;
        }
        const full = s.spaces.filter(Boolean).length;
        html += '<button type="button" class="tg-board-step mor-pick-stall" data-step="' + pick.step + '" data-row="' + r +
          '" data-column="' + col + '" aria-label="' + esc(pick.label) + '" title="' + esc(pick.label) + '">' +
          '<span class="mor-cost">' + s.cost.map(function (c) { return '<i style="background:' + CUBES[c] + '" title="' +
            esc(cubeName(c)) + '"></i>'; }).join("") + "</span>" +
          '<span class="mor-full">' + esc(t("{n}/4", {n: full})) + "</span></button>";
      }
    }
    return html + "</div>";
  }

  window.KeshiKinds = window.KeshiKinds || {};
  window.KeshiKinds.morocco = {
    pickOnBoard: pickOnBoard,
    render: function (el, board, names, mySeat) {
      const order = board.players.slice().sort(function (a, b) { return (b.seat === mySeat) - (a.seat === mySeat); });
      el.innerHTML = '<div class="mor-families">' + order.map(function (p) { return family(p, names, p.seat === mySeat, board.categories); }).join("") + "</div>" +
        rooftop(board) + market(board, names) +
        '<p class="small muted">' + esc(t("{open} stalls open · gold coins in the supply {gold} · empty stall tiles {empty}",
          {open: board.open_stalls, gold: board.gold_supply, empty: board.empty_tiles})) +
        (board.final_round ? " · <strong>" + esc(t("final round")) + "</strong>" : "") +
        (board.end_reason ? " · " + esc(Keshi.sayOr(board.end_reason_say, board.end_reason)) : "") + "</p>";
    },
  };
})();

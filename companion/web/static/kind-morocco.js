// Morocco's board for the generic table page: every family's supply and score (this phone's first),
// the rooftop with its cubes and the pawn, and the market: the cube beside each row and column, each
// stall's four spaces with their workers, closed stalls with their tile and overflow arrow, and the
// juice sellers still on the stall corners. Plain DOM, drawn again from the view on every change.
(function () {
  "use strict";
  const CUBES = {green: "#3aa65a", orange: "#e88a2a", brown: "#8b5a2b", blue: "#3b7bd8", white: "#eeeeee"};
  const WORKER_MARK = {assistant: "A", bodyguard: "B", tourist: "T"};
  const WORKER_NAME = {assistant: "assistant", bodyguard: "bodyguard (counts two)", tourist: "tourist"};
  const ARROWS = {up: "↑", down: "↓", left: "←", right: "→"};
  const SPACE = ["top-left", "top-right", "bottom-left", "bottom-right"];
  const esc = Keshi.esc;

  function cube(colour, count) {
    return '<span class="mor-cube" title="' + esc(colour) + '"><i style="background:' + (CUBES[colour] || "#666") +
      '"></i>' + (count !== undefined ? "<b>" + count + "</b> " : "") + esc(colour) + "</span>";
  }
  function family(p, names, mine) {
    const cubes = Object.keys(p.cubes).filter(function (c) { return p.cubes[c] > 0; })
      .map(function (c) { return cube(c, p.cubes[c]); }).join(" ") || '<span class="muted">no cubes</span>';
    const juice = p.juice_points === null ? p.juice_tokens + " juice seller" + (p.juice_tokens === 1 ? "" : "s") + " (face down)" :
      p.juice_tokens + " juice sellers = " + p.juice_points + " VP";
    const breakdown = Object.keys(p.breakdown).map(function (k) { return esc(k) + " " + p.breakdown[k]; }).join(" · ");
    return '<div class="mor-family' + (mine ? " mine" : "") + '" data-seat="' + p.seat + '" style="border-color:' +
      window.KeshiSeatColour(p.seat) + '"><h3>' + esc(p.name) + (mine ? " (you)" : "") + (p.start ? " · start player" : "") +
      ' <span class="mor-score" data-score="' + p.score + '">' + p.score + " VP</span></h3>" +
      '<p class="mor-cubes">' + cubes + "</p>" +
      '<p class="small">Gold ' + p.gold + " · assistants " + p.assistants + " · bodyguards " + p.bodyguards +
      " (+" + p.quarters + " in the quarters) · tourists " + p.tourists + " · cousins " + p.cousins +
      " · market tiles " + p.market_tiles + " · " + juice + "</p>" +
      (breakdown ? '<p class="small muted">' + breakdown + "</p>" : "") + "</div>";
  }
  function stall(s, names) {
    const where = "Row " + s.row + ", column " + s.column;
    if (s.tile !== null) {
      const owner = s.tile === "empty" ? null : s.tile;
      const text = owner === null ? "empty" : esc(names[owner]);
      return '<div class="mor-stall closed" title="' + where + ": closed, " + text + '" style="background:' +
        (owner === null ? "#333" : window.KeshiSeatColour(owner)) + '"><span>' + text + "</span>" +
        (s.arrow ? '<span class="mor-arrow" title="overflow arrow ' + s.arrow + '">' + ARROWS[s.arrow] + "</span>" : "") + "</div>";
    }
    const spaces = s.spaces.map(function (w, i) {
      if (!w) { return '<span class="mor-space" title="' + where + " " + SPACE[i] + ': free"></span>'; }
      return '<span class="mor-space taken" title="' + where + " " + SPACE[i] + ": " + esc(names[w.seat]) + "'s " +
        WORKER_NAME[w.worker] + '" style="background:' + window.KeshiSeatColour(w.seat) + '">' + WORKER_MARK[w.worker] + "</span>";
    }).join("");
    const extra = s.overflow ? '<span class="mor-overflow" title="overflow arrows pointing here">+' + s.overflow + "</span>" : "";
    return '<div class="mor-stall" title="' + where + '">' + spaces + extra + "</div>";
  }
  function market(board, names) {
    let html = '<div class="mor-market"><span></span>';
    board.columns.forEach(function (c, i) { html += '<span class="mor-edge" title="column ' + (i + 1) + ": " + c + '"><i style="background:' + CUBES[c] + '"></i>' + (i + 1) + "</span>"; });
    for (let r = 0; r < 5; r += 1) {
      const c = board.rows[r];
      html += '<span class="mor-edge" title="row ' + (r + 1) + ": " + c + '"><i style="background:' + CUBES[c] + '"></i>' + (r + 1) + "</span>";
      for (let col = 0; col < 5; col += 1) { html += stall(board.stalls[r * 5 + col], names); }
    }
    html += "</div>";
    const juice = board.juice.map(function (v, i) {
      if (!v) { return ""; }
      const cy = Math.floor(i / 6), cx = i % 6;
      return '<span class="mor-juice" style="left:' + (cx * 20) + "%;top:" + (cy * 20) + '%" title="juice seller worth ' + v + ' VP">' + v + "</span>";
    }).join("");
    return html.replace('<div class="mor-market">', '<div class="mor-market"><div class="mor-juices">' + juice + "</div>");
  }
  function rooftop(board) {
    const spaces = board.rooftop.map(function (c, i) {
      const here = board.pawn === i + 1;
      return '<span class="mor-roof' + (here ? " pawn" : "") + '">' + (i + 1) + " " + cube(c) + (here ? " ♟" : "") + "</span>";
    }).join("");
    return '<p class="mor-rooftop">Rooftop: ' + (board.pawn === 0 ? '<span class="mor-roof pawn">centre ♟</span>' : "") + spaces + "</p>";
  }

  window.KeshiKinds = window.KeshiKinds || {};
  window.KeshiKinds.morocco = {
    render: function (el, board, names, mySeat) {
      const order = board.players.slice().sort(function (a, b) { return (b.seat === mySeat) - (a.seat === mySeat); });
      el.innerHTML = '<div class="mor-families">' + order.map(function (p) { return family(p, names, p.seat === mySeat); }).join("") + "</div>" +
        rooftop(board) + market(board, names) +
        '<p class="small muted">' + board.open_stalls + " stalls open · gold coins in the supply " + board.gold_supply +
        " · empty stall tiles " + board.empty_tiles + (board.final_round ? " · <strong>final round</strong>" : "") +
        (board.end_reason ? " · " + esc(board.end_reason) : "") + "</p>";
    },
  };
})();

// The table at a glance, drawn from the view's `boards`, `score_track` and `claim_display` (views.py):
// every player's board (own board first on a phone, the others a swipe away), the scoring track and
// the tower-base display with what the player to move may take. Colours are always named.
window.KeshiBoards = (function () {
  "use strict";
  const esc = Keshi.esc;
  const chip = Keshi.chip;
  const t = Keshi.t;
  // A word the view sends as a message (``say``), first letter up; the English ``fallback`` without one.
  function named(say, fallback) {
    if (!say) { return fallback; }
    const text = Keshi.say(say);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function seatName(board) {
    return '<span class="seat seat-' + esc(board.colour || "none") + '">' + esc(board.name) + "</span>";
  }

  // 8 small pips for a 0-8 sector, the filled ones first: a shape, not only a colour.
  function pips(value, max) {
    let html = '<span class="pips" aria-hidden="true">';
    for (let i = 0; i < max; i += 1) { html += i < value ? "●" : "○"; }
    return html + "</span>";
  }

  function sectorRow(sector, goods) {
    let what;
    let value = "";
    if (sector.kind === "goods") {
      what = sector.colours.map(function (c) { return chip(c, goods[c]); }).join(" ");
      value = t("{n} goods", {n: sector.value});
    } else {
      what = chip(sector.colours[0]) + (sector.kind === "marker" ? ' <span class="muted small">' + esc(t("marker")) + "</span>" : "") +
        pips(sector.value, sector.max);
      value = sector.value + "/" + sector.max;
    }
    return '<li class="sector" data-sector="' + esc(sector.sector) + '" data-value="' + sector.value + '">' +
      '<span class="sector-name">' + esc(named(sector.say, sector.label)) + '</span><span class="sector-value">' + esc(value) + "</span>" +
      '<span class="sector-what">' + what + (sector.vendor ? ' <span class="vendor">' + esc(t("+ water vendor")) + "</span>" : "") + "</span></li>";
  }

  function board(b, mine) {
    const oases = b.oases;
    const res = b.resources;
    // [key (data-fact, never shown), label, value]
    const facts = [
      ["Fisherman", t("Fisherman"), t("river space {n}", {n: b.river.space}) +
        (b.river.jetty_spot !== null ? " · " + t("jetty spot {n}", {n: b.river.jetty_spot}) : "")],
      ["Courtier", t("Courtier"), t("palace step {n}", {n: b.palace})],
      ["Student", t("Student"), t("mosque step {n}", {n: b.mosque})],
      ["Scrolls", t("Scrolls"), b.scrolls.length ? t("{n}: no. {numbers}", {n: b.scrolls.length, numbers: b.scrolls.join(", ")}) : t("none")],
      ["Oases", t("Oases"), t("{found} of {spaces} discovered · {claimed} claimed",
        {found: oases.discovered, spaces: oases.spaces, claimed: oases.claimed.length})],
      ["Luxury goods", t("Luxury goods"), String(b.luxury_goods)],
      ["Supply", t("Supply"), [t("{n} water", {n: res.water}), Keshi.tn(res.dates, "1 date", "{n} dates"),
        Keshi.tn(res.dinars, "1 dinar", "{n} dinars")].join(" · ")],
    ];
    return '<article class="board' + (mine ? " mine" : "") + '" data-seat="' + b.seat + '" aria-label="' +
      esc(t("{name}'s board", {name: b.name})) + '">' +
      (mine ? '<p class="mine-label">' + esc(t("Your board")) + "</p>" : "") + '<h3 class="board-head">' + seatName(b) +
      ' <span class="points" data-score="' + b.score + '">' + esc(t("{n} pts", {n: b.score})) + "</span></h3>" +
      '<ul class="sectors">' + b.sectors.map(function (s) { return sectorRow(s, b.goods); }).join("") + "</ul>" +
      '<dl class="board-facts">' + facts.map(function (f) {
        return "<div><dt>" + esc(f[1]) + '</dt><dd data-fact="' + esc(f[0]) + '">' + esc(f[2]) + "</dd></div>";
      }).join("") + "</dl></article>";
  }

  // Own board first, then the others clockwise from it.
  function ordered(boards, seat) {
    if (seat === null || seat === undefined || !boards[seat]) { return boards.slice(); }
    return boards.slice(seat).concat(boards.slice(0, seat));
  }

  function renderBoards(box, view, seat) {
    const list = ordered(view.boards || [], seat);
    box.innerHTML = list.map(function (b) { return board(b, b.seat === seat); }).join("");
    const dots = document.getElementById("board-dots");
    if (dots) {
      dots.innerHTML = list.length > 1 ? list.map(function (b) {
        return '<a href="#" data-seat="' + b.seat + '" class="board-dot">' + esc(b.name) + "</a>";
      }).join("") : "";
      dots.querySelectorAll("a").forEach(function (a) {
        a.addEventListener("click", function (event) {
          event.preventDefault();
          const target = box.querySelector('.board[data-seat="' + a.dataset.seat + '"]');
          if (target) { target.scrollIntoView({behavior: "smooth", block: "nearest", inline: "start"}); }
        });
      });
    }
  }

  function renderTrack(box, track) {
    if (!track) { box.innerHTML = ""; return; }
    box.innerHTML = '<p class="muted small">' + esc(t("Scoring track: {n} spaces a lap", {n: track.lap})) + '</p><ol class="track">' +
      track.markers.map(function (m) {
        const where = Math.round(100 * m.space / track.lap);
        return '<li class="track-row" data-seat="' + m.seat + '"><span class="seat seat-' + esc(m.colour || "none") + '">' +
          esc(m.name) + '</span> <b class="n">' + m.score + "</b>" + (m.laps ? ' <span class="muted small">' + esc(t("(lap {n})", {n: m.laps + 1})) + "</span>" : "") +
          '<span class="track-bar" aria-hidden="true"><span class="track-marker" style="left:' + where + '%"></span></span></li>';
      }).join("") + "</ol>";
  }

  // "2× yellow: Cleo takes 2 → Souk" while claiming; otherwise just what lies in the tower base.
  function displayHtml(entries) {
    if (!entries || !entries.length) { return '<span class="muted">' + esc(t("empty")) + "</span>"; }
    return '<ul class="claims">' + entries.map(function (e) {
      let text = "";
      if (e.takes === null || e.takes === undefined) { text = ""; }
      else if (e.takes > 0) { text = ": " + esc(t("{player} takes {n} → {to}", {player: e.who, n: e.takes, to: named(e.to_say, e.to)})); }
      else { text = ": " + esc(t("not for {player} (that sector is full)", {player: e.who})); }
      return '<li class="claim-row" data-colour="' + esc(e.colour) + '">' + chip(e.colour, e.count) +
        '<span class="claim-text">' + text + "</span></li>";
    }).join("") + "</ul>";
  }

  return {
    render: function (view, seat) {
      const boards = document.getElementById("boards");
      if (boards) { renderBoards(boards, view, seat); }
      const track = document.getElementById("score-track");
      if (track) { renderTrack(track, view.score_track); }
      const display = document.getElementById("display");
      if (display) { display.innerHTML = displayHtml(view.claim_display); }
    },
    displayHtml: displayHtml,
  };
})();

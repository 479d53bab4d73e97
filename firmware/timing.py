"""Drop timing: from beam edges to drops, "settled", and beam faults — a pure state machine.

``DropTimer`` never reads a clock or sleeps: edges arrive with their own timestamps (``edge``) and
the caller says what time it is (``poll``), in the pin factory's ticks (seconds). So tests and the
simulator can play any sequence at any speed, and the Pi service feeds it the kernel's edge times.

Rules (thresholds in ``TimingConfig``):
- a toss starts from the button or dashboard (``start``), or else from the first drop itself;
- a drop is one blocked interval; a clear gap shorter than ``bounce_ms`` inside it is bounce
  (the interval continues) and a block shorter than ``glitch_ms`` is noise, not a piece;
- a drop blocked longer than ``double_ms`` is flagged as a likely double (two pieces together);
- the toss has settled ``settle_ms`` after the last drop with the beam clear; a toss that was
  started but saw no drop at all settles after ``dead_s`` marked ``silent`` (beam never seen);
- a beam blocked longer than ``stuck_s`` raises a ``beam_stuck`` fault once, ends the toss (no
  more drops can be seen), and the block is not counted as a drop; a toss started while the beam
  is stuck settles ``dead_s`` later, silent, so the camera still counts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.errors import TimingConfigError


@dataclass(frozen=True)
class TimingConfig:
    """Thresholds of drop timing, in ms unless named ``_s``; defaults suit a ~20 cm tower."""

    bounce_ms: float = 1.0
    glitch_ms: float = 0.3
    double_ms: float = 9.0
    settle_ms: float = 600.0
    stuck_s: float = 2.0
    dead_s: float = 3.0

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TimingConfigError(f"timing threshold {name} must be a number, not {value!r}")
            if not value > 0:
                raise TimingConfigError(f"timing threshold {name} must be positive, not {value}")
        if self.glitch_ms >= self.double_ms:
            raise TimingConfigError(
                f"glitch_ms ({self.glitch_ms}) must be shorter than double_ms ({self.double_ms})"
            )
        if self.stuck_s * 1000.0 <= self.double_ms:
            raise TimingConfigError(
                f"stuck_s ({self.stuck_s}) must be longer than double_ms ({self.double_ms} ms)"
            )


@dataclass(frozen=True)
class TossStarted:
    """A toss began at ``ticks``; ``source`` is "button", "dashboard", "beam", ..."""

    ticks: float
    source: str


@dataclass(frozen=True)
class Drop:
    """One piece (or two, if ``double``) crossed the beam; times in ms since the toss started."""

    index: int
    ticks: float
    t_ms: float
    gap_ms: float
    blocked_ms: float
    double: bool

    @property
    def pieces(self) -> int:
        """How many pieces this drop most likely was."""
        return 2 if self.double else 1


@dataclass(frozen=True)
class Settled:
    """The toss is over: the tray is quiet. ``silent``: started but the beam never saw a piece."""

    ticks: float
    drops: tuple[Drop, ...]
    silent: bool

    @property
    def beam_count(self) -> int:
        """Pieces the beam saw, counting each likely double as two."""
        return sum(drop.pieces for drop in self.drops)


@dataclass(frozen=True)
class Fault:
    """Something is wrong with the beam: ``kind`` is a stable name, ``message`` says what to do."""

    ticks: float
    kind: str
    message: str


TimingEvent = TossStarted | Drop | Settled | Fault


class DropTimer:
    """Turns timestamped beam edges into toss events; feed it ``edge`` and ``poll``, read the events."""

    def __init__(self, config: TimingConfig | None = None) -> None:
        self.config = config or TimingConfig()
        self._blocked = False
        self._block_start: float | None = None  # first edge of the current (or pending) block
        self._block_end: float | None = None  # clear edge awaiting bounce confirmation
        self._stuck = False
        self._toss_start: float | None = None
        self._drops: list[Drop] = []
        self._last_activity = 0.0

    @property
    def in_toss(self) -> bool:
        """True from a toss's start until it settles."""
        return self._toss_start is not None

    @property
    def stuck(self) -> bool:
        """True while the beam has been blocked longer than ``stuck_s``."""
        return self._stuck

    def start(self, ticks: float, source: str) -> list[TimingEvent]:
        """Start a toss (button, dashboard) at ``ticks``; nothing happens if one is running."""
        if self.in_toss:
            return []
        self._begin(ticks)
        return [TossStarted(ticks, source)]

    def edge(self, ticks: float, blocked: bool) -> list[TimingEvent]:
        """One beam edge with its own timestamp; returns the events it completes."""
        if blocked == self._blocked:
            return []
        self._blocked = blocked
        events: list[TimingEvent] = []
        if blocked:
            if self._block_end is not None and (ticks - self._block_end) * 1000.0 < self.config.bounce_ms:
                self._block_end = None  # bounce: the same block goes on
            else:
                if self._block_end is not None:
                    events += self._finish_block()
                self._block_start = ticks
        elif self._block_start is not None:
            if self._stuck:
                self._stuck = False  # the stuck block cleared; it was never a drop
                self._block_start = None
            else:
                self._block_end = ticks
        self._last_activity = ticks
        return events

    def poll(self, now: float) -> list[TimingEvent]:
        """Let time pass to ``now``: completes drops, detects settle, stuck and silent tosses."""
        cfg = self.config
        events: list[TimingEvent] = []
        if self._block_end is not None and (now - self._block_end) * 1000.0 >= cfg.bounce_ms:
            events += self._finish_block()
        blocked_since = self._block_start if self._blocked and not self._stuck else None
        if blocked_since is not None and now - blocked_since > cfg.stuck_s:
            self._stuck = True
            events.append(Fault(now, "beam_stuck", (
                f"the beam has been blocked for more than {cfg.stuck_s:g} s: "
                "a piece is stuck at the tower exit or the beam is misaligned"
            )))
            if self.in_toss:
                events.append(self._settle(now, silent=False))
        if self.in_toss and self._stuck:
            assert self._toss_start is not None
            if now - self._toss_start >= cfg.dead_s:  # a blind beam: give the pieces time to land
                events.append(self._settle(now, silent=not self._drops))
        elif self.in_toss and not self._blocked and self._block_end is None:
            assert self._toss_start is not None
            if self._drops and (now - self._last_activity) * 1000.0 >= cfg.settle_ms:
                events.append(self._settle(now, silent=False))
            elif not self._drops and now - max(self._toss_start, self._last_activity) >= cfg.dead_s:
                events.append(self._settle(now, silent=True))
        return events

    def _begin(self, ticks: float) -> None:
        self._toss_start = ticks
        self._drops = []
        self._last_activity = ticks

    def _finish_block(self) -> list[TimingEvent]:
        start, end = self._block_start, self._block_end
        self._block_start = self._block_end = None
        assert start is not None and end is not None
        blocked_ms = (end - start) * 1000.0
        if blocked_ms < self.config.glitch_ms:
            return []
        events: list[TimingEvent] = []
        if self._toss_start is None:
            self._begin(start)
            events.append(TossStarted(start, "beam"))
        assert self._toss_start is not None
        t_ms = (start - self._toss_start) * 1000.0
        previous = self._drops[-1].t_ms if self._drops else 0.0
        drop = Drop(
            index=len(self._drops),
            ticks=start,
            t_ms=round(t_ms, 3),
            gap_ms=round(t_ms - previous, 3),
            blocked_ms=round(blocked_ms, 3),
            double=blocked_ms > self.config.double_ms,
        )
        self._drops.append(drop)
        events.append(drop)
        return events

    def _settle(self, now: float, silent: bool) -> Settled:
        settled = Settled(now, tuple(self._drops), silent)
        self._toss_start = None
        self._drops = []
        return settled

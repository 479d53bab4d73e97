"""``keshi tower pintest``: contributed to the ``keshi tower`` group (see ``companion.tower.cli``)."""

from __future__ import annotations

import argparse

from firmware.pins import PinMap


def positive_seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds must be a number, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"seconds must be positive, not {text}")
    return value


def register(tower_subparsers: argparse._SubParsersAction) -> None:
    """Add ``keshi tower pintest``."""
    defaults = PinMap()
    parser = tower_subparsers.add_parser(
        "pintest", help="on the Pi: self-test the beam, blink the tray light and print each drop"
    )
    parser.add_argument("--seconds", type=positive_seconds, default=30.0,
                        help="how long to watch (default 30)")
    parser.add_argument("--beam-pin", type=int, default=defaults.beam,
                        help=f"BCM GPIO of the IR receiver ({defaults.beam})")
    parser.add_argument("--emitter-pin", type=int, default=defaults.emitter,
                        help=f"BCM GPIO powering the IR emitter ({defaults.emitter})")
    parser.add_argument("--light-pin", type=int, default=defaults.light,
                        help=f"BCM GPIO of the light MOSFET ({defaults.light})")
    parser.add_argument("--button-pin", type=int, default=defaults.button,
                        help=f"BCM GPIO of the toss button ({defaults.button}); -1 for none")
    parser.add_argument("--mock", action="store_true",
                        help="rehearse on gpiozero's MockFactory with a few simulated drops")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the rig (real pins, or simulated with ``--mock``) and run the pin test."""
    from firmware.pintest import rehearse, run_pintest
    from firmware.rig import TowerRig, simulated_rig

    button = None if args.button_pin == -1 else args.button_pin
    pins = PinMap(beam=args.beam_pin, emitter=args.emitter_pin, light=args.light_pin, button=button)
    rig = simulated_rig(pins) if args.mock else TowerRig(pins)
    try:
        if args.mock:
            return rehearse(rig, args.seconds, lambda line: print(line, flush=True))
        return run_pintest(rig, args.seconds, lambda line: print(line, flush=True))
    finally:
        rig.close()

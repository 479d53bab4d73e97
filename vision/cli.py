"""``keshi vision calibrate`` and ``keshi vision count``: the vision pipeline from the command line.

``keshi vision calibrate CAL_DIR --out CAL.json [--colour-matrix M.json]`` learns a calibration from
``empty.png`` plus one ``<colour>.png`` (or several ``<colour>-<n>.png``) per colour, with the camera's
colour matrix from ``M.json`` or ``CAL_DIR/camera.json`` when given (``vision.colour_matrix``).
``keshi vision count IMAGE --calibration CAL.json [--json] [--debug-image OUT.png]`` counts the pieces
of one frame.
The heavy modules (OpenCV, the detector) load only when a command runs, so ``keshi --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``vision`` command group (``calibrate``, ``count``) to the ``keshi`` parser."""
    vision = subparsers.add_parser("vision", help="calibrate the camera and count keshis in a frame")
    commands = vision.add_subparsers(dest="vision_command", metavar="VISION_COMMAND")
    commands.required = True

    calibrate = commands.add_parser(
        "calibrate",
        help="learn the tray and the 12 colours from a calibration folder",
        description="CAL_DIR holds empty.png and <colour>.png or <colour>-<n>.png for all 12 colours.",
    )
    calibrate.add_argument("cal_dir", metavar="CAL_DIR", type=Path, help="folder of calibration frames")
    calibrate.add_argument("--out", metavar="CAL.json", type=Path, required=True, help="calibration to write")
    calibrate.add_argument(
        "--colour-matrix",
        metavar="M.json",
        type=Path,
        help="the camera's 3x3 colour matrix (white-balanced sensor RGB -> linear sRGB, rows summing to 1; "
        "Picamera2's ColourCorrectionMatrix); default: CAL_DIR/camera.json when present, else none",
    )
    calibrate.set_defaults(func=run_calibrate)

    count = commands.add_parser("count", help="count the keshis in one frame")
    count.add_argument("image", metavar="IMAGE", type=Path, help="frame to count (PNG/JPEG)")
    count.add_argument("--calibration", metavar="CAL.json", type=Path, required=True, help="calibration file")
    count.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    count.add_argument("--debug-image", metavar="OUT.png", type=Path, help="draw what was seen")
    count.set_defaults(func=run_count)


def run_calibrate(args: argparse.Namespace) -> int:
    """Handle ``keshi vision calibrate``: write the calibration and say what was learned."""
    from vision import colour_matrix
    from vision.calibrate import calibrate_folder

    matrix = None if args.colour_matrix is None else colour_matrix.read(args.colour_matrix)
    calibration = calibrate_folder(args.cal_dir, matrix)
    calibration.save(args.out)
    sizes = calibration.size_prior
    source = "no colour matrix"
    if calibration.camera.colour_matrix is not None:
        source = f"colour matrix from {args.colour_matrix or args.cal_dir / colour_matrix.SIDECAR}"
    print(
        f"calibrated {len(calibration.colours)} colours from {args.cal_dir} -> {args.out} "
        f"(piece area {sizes.area_median:.0f} px, tray {calibration.width}x{calibration.height}; {source})"
    )
    return 0


def run_count(args: argparse.Namespace) -> int:
    """Handle ``keshi vision count``: detect, print JSON or a table, optionally save a debug image."""
    from vision.calibrate import Calibration
    from vision.detect import Detector, draw_debug
    from vision.sources import read_image, write_image

    calibration = Calibration.load(args.calibration)
    frame = read_image(args.image)
    detection = Detector(calibration).detect(frame)
    if args.debug_image is not None:
        write_image(args.debug_image, draw_debug(frame, detection))
    if args.json:
        json.dump(detection.to_json(), sys.stdout)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(detection.table())
    return 0

"""Vision benchmark: speed and memory per 640x480 frame, and accuracy per light on physically based scenes.

Run: ``make bench-vision`` (``.venv/bin/python benchmarks/bench_vision.py [--split NAME] [--scenes N]
[--lights ...] [--one-tower [--no-colour-matrix]] [--speed-only]``).
Prints the machine; the median and 95th-percentile detection time on one thread
(``cv2.setNumThreads(1)``) and the peak resident memory of a process that only calibrates and
detects (measured in a child process, so the scene renderer's memory is not counted). Then, by
default (issue 26), on the chosen split of ``vision.physical`` (default: ``across-cameras-held-out-8``,
a seed drawn once the code of issue 26's ninth round was final) photographed by four towers'
cameras (both cameras whose sensitivities colour-science ships, each with its fitted and with a perturbed colour
matrix), per tower and light: piece accuracy and wrong-colour rate calibrated with the camera's colour matrix and
without it, on the same frames; each calibration is made through ``keshi vision calibrate`` too (with
and without ``--colour-matrix``) and a few frames counted through ``keshi vision count``, which must
agree with the in-process figures. ``--one-tower`` instead gives the split's own tower's full table:
unknowns, extras, exact scenes; the tower LED mixed with a side lamp counted on light-on/off frame
pairs (and, for contrast, on the lit frame alone); and a reliability table of the confidences
(expected calibration error, 10 equal-width bins); there ``--no-colour-matrix`` calibrates without
the camera's colour matrix, as from bare image files.
The machine running this may be shared: timings are noisy, which is why the median is reported.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion import COLOURS
from vision.calibrate import CameraSettings, calibrate
from vision.detect import Detection, Detector
from vision.errors import CalibrationError

# ``vision.physical`` (and colour-science) is imported in ``main`` only: the speed child process that
# measures peak memory must hold no more than the tower's own process would.


def machine() -> str:
    """CPU model, core count and Python/OpenCV versions, for the README."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, OpenCV {cv2.__version__}"


def peak_rss_mb() -> float:
    """This process's peak resident memory: ``VmHWM`` (reset by exec, unlike ``ru_maxrss``, which a
    child started from the big parent inherits), else ``ru_maxrss``."""
    try:
        with open("/proc/self/status", encoding="utf-8") as status:
            line = next(line for line in status if line.startswith("VmHWM:"))
        return int(line.split()[1]) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def speed(frames_dir: Path) -> None:
    """Child process: calibrate from saved frames, time detection of the saved scenes, print peak RSS."""
    cv2.setNumThreads(1)
    data = np.load(frames_dir / "frames.npz")
    empty = data["empty"]
    shots = {name.split("/", 1)[1]: [data[name]] for name in data.files if name.startswith("cal/")}
    camera = CameraSettings(colour_matrix=data["colour_matrix"].tolist()) if "colour_matrix" in data.files else None
    detector = Detector(calibrate(empty, shots, camera))
    frames = [data[name] for name in data.files if name.startswith("scene/")]
    times, cpu = [], []
    for _ in range(5):
        for frame in frames:
            start, start_cpu = time.perf_counter(), time.process_time()
            detector.detect(frame)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    peak = peak_rss_mb()
    print(f"load average while timing (1/5/15 min, 2 cores shared): {'/'.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"detection time per 640x480 frame, 1 thread: median {statistics.median(times):.1f} ms, "
          f"p95 {np.percentile(times, 95):.1f} ms (1-20 pieces, n={len(times)}); CPU time of the process "
          f"(less affected by other jobs on a shared machine): median {statistics.median(cpu):.1f} ms")
    print(f"peak memory of a process that calibrates and detects (max RSS, all of Python): {peak:.0f} MB")


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", default="across-cameras-held-out-8",
                        help="a split named in vision.physical.split.SPLITS (checked once it is imported)")
    parser.add_argument("--scenes", type=int, default=60,
                        help="scenes per light (and tower); 60 give about 600 pieces a cell, 20 about 200")
    parser.add_argument("--lights", nargs="*", help="only these lights (default: all)")
    parser.add_argument("--no-colour-matrix", action="store_true",
                        help="calibrate without the camera's colour matrix (as from bare image files)")
    parser.add_argument("--speed-only", action="store_true", help="only time detection and measure peak memory")
    parser.add_argument("--one-tower", action="store_true",
                        help="the split's own tower only, with light-on/off pairs and the reliability table "
                        "(default: four towers across cameras, each with and without the colour matrix)")
    parser.add_argument("--speed-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.speed_child:
        speed(args.speed_child)
        return
    from vision.frame_pair import tower_light_only
    from vision.physical.evaluate import Tally, reliability
    from vision.physical.scene import render
    from vision.physical.split import (
        CALIBRATION_LIGHT,
        LIGHTS,
        PAIR_LIGHTS,
        SPLITS,
        calibration_frames,
        camera_settings,
        make_scene,
        render_pair,
    )

    if args.split not in SPLITS:
        parser.error(f"argument --split: unknown split {args.split!r} (choose from {', '.join(SPLITS)})")
    cv2.setNumThreads(1)
    split = SPLITS[args.split]
    print(f"machine: {machine()} (shared with other work: timings are noisy)")
    empty, shots = calibration_frames(split)
    camera = None if args.no_colour_matrix else camera_settings()
    detector = Detector(calibrate(empty, shots, camera))

    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"keshi-bench-vision-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    saved = {"empty": empty, **{f"cal/{c}": f[0] for c, f in shots.items()}}
    if camera is not None and camera.colour_matrix is not None:
        saved["colour_matrix"] = np.array(camera.colour_matrix)
    for index in range(20):
        scene = make_scene(split, CALIBRATION_LIGHT, 10_000 + index)
        saved[f"scene/{index}"] = render(scene, split.tray)
    np.savez(tmp / "frames.npz", **saved)  # type: ignore[arg-type]
    subprocess.run([sys.executable, __file__, "--speed-child", str(tmp)], check=True)
    (tmp / "frames.npz").unlink()
    tmp.rmdir()
    if args.speed_only:
        return
    if not args.one_tower:
        across_cameras(split, args.scenes, args.lights or list(LIGHTS))
        return

    print(f"\naccuracy on the {split.name} split (seed {split.seed}, tray {split.tray.seed}; {args.scenes} scenes "
          "per light, 1-20 pieces each):")
    print(f"| {'light':<32} | piece accuracy | wrong colour | unknown | extra | exact scenes | pieces |")
    print(f"|{'-' * 34}|---------------:|-------------:|--------:|------:|-------------:|-------:|")
    everything = Tally()
    for light in args.lights or list(LIGHTS):
        tally = Tally()
        for index in range(args.scenes):
            scene = make_scene(split, light, index)
            tally.add(detector.detect(render(scene, split.tray)), scene)
        everything.reports.extend(tally.reports)
        print(f"| {light:<32} | {100 * tally.accuracy:13.2f} % | {100 * tally.wrong_rate:10.2f} % "
              f"| {tally.unknown:7d} | {tally.extra:5d} | {100 * tally.exact / tally.scenes:10.0f} % "
              f"| {tally.pieces:6d} |", flush=True)
    print("\nwith light-on/off frame pairs (vision.frame_pair; calibrated on pairs too):")
    print(f"| {'light':<32} | piece accuracy | wrong colour | unknown | extra | exact scenes | pieces |")
    print(f"|{'-' * 34}|---------------:|-------------:|--------:|------:|-------------:|-------:|")
    pair_empty, pair_shots = calibration_frames(split, pairs=True)
    pair_detector = Detector(calibrate(pair_empty, pair_shots, camera))
    contrast = {}
    for light in PAIR_LIGHTS:
        tally, single = Tally(), Tally()
        for index in range(args.scenes):
            scene = make_scene(split, light, index)
            lit, unlit = render_pair(scene, split.tray)
            tally.add(pair_detector.detect(tower_light_only(lit, unlit, srgb=camera is not None)), scene)
            single.add(detector.detect(lit), scene)
        everything.reports.extend(tally.reports)
        contrast[light] = single
        print(f"| {light:<32} | {100 * tally.accuracy:13.2f} % | {100 * tally.wrong_rate:10.2f} % "
              f"| {tally.unknown:7d} | {tally.extra:5d} | {100 * tally.exact / tally.scenes:10.0f} % "
              f"| {tally.pieces:6d} |", flush=True)
    print("for contrast, the lit frame alone (not in the reliability table below):")
    for light, single in contrast.items():
        print(f"| {light + ', single frame':<32} | {100 * single.accuracy:13.2f} % | {100 * single.wrong_rate:10.2f} % "
              f"| {single.unknown:7d} | {single.extra:5d} | {100 * single.exact / single.scenes:10.0f} % "
              f"| {single.pieces:6d} |")

    rows, ece = reliability(everything.reports)
    print(f"\nreliability of the confidences (all lights, {len(everything.reports)} reported pieces):")
    print("| confidence bin | mean confidence | share right | pieces |")
    print("|---------------:|----------------:|------------:|-------:|")
    for low, conf, share, n in rows:
        print(f"| {low:.1f}-{low + 0.1:.1f} | {conf:15.3f} | {share:11.3f} | {n:6d} |")
    print(f"expected calibration error (ECE, 10 bins): {100 * ece:.2f} %")


def across_cameras(split: Any, scenes: int, lights: list[str]) -> None:
    """Per tower of ``split`` across cameras (``vision.physical.split.towers``) and per light: piece
    accuracy and wrong colours calibrated with the camera's colour matrix and without one, both on the
    same frames. Each calibration is also made through the CLI (``keshi vision calibrate``, with and
    without ``--colour-matrix``) from the frames saved as PNG, and must give the same file; a few frames
    are counted through ``keshi vision count`` too and must give the same counts."""
    from vision.physical.evaluate import Tally
    from vision.physical.scene import render
    from vision.physical.split import calibration_frames, camera_settings, make_scene, towers

    print(f"\naccuracy on the {split.name} split (seed {split.seed}; {scenes} scenes per light and tower, "
          "1-20 pieces each), with the camera's colour matrix / without; the interval is the 95 % interval "
          "(Wilson) of the accuracy with the matrix, counting each count error as one piece wrong:")
    print(f"| {'tower':<26} | {'light':<30} | accuracy with | 95 % interval | without | wrong with | wrong without "
          "| pieces |")
    print(f"|{'-' * 28}|{'-' * 32}|--------------:|--------------:|--------:|-----------:|--------------:|-------:|")
    totals = {True: Tally(), False: Tally()}
    for label, tower in towers(split):
        empty, shots = calibration_frames(tower)
        camera = camera_settings(tower.tray)
        detectors = {}
        for with_matrix in (True, False):
            try:
                detectors[with_matrix] = Detector(calibrate(empty, shots, camera if with_matrix else None))
            except CalibrationError as exc:  # counted as every piece missed; the refusal is printed
                print(f"| {label:<26} | calibration {'with' if with_matrix else 'without'} the matrix refused: {exc}")
        cli_check(empty, shots, camera.colour_matrix, detectors, [render(make_scene(tower, lights[0], i), tower.tray)
                                                                 for i in range(2)])
        for light in lights:
            tallies = {True: Tally(), False: Tally()}
            for index in range(scenes):
                scene = make_scene(tower, light, index)
                frame = render(scene, tower.tray)
                for with_matrix in (True, False):
                    detector = detectors.get(with_matrix)
                    detection = detector.detect(frame) if detector else Detection(dict.fromkeys(COLOURS, 0), 0, [])
                    tallies[with_matrix].add(detection, scene)
            for with_matrix, tally in tallies.items():
                total = totals[with_matrix]
                for name in ("scenes", "pieces", "count_error", "unknown", "wrong_colour", "extra", "missed"):
                    setattr(total, name, getattr(total, name) + getattr(tally, name))
            w, wo = tallies[True], tallies[False]
            print(f"| {label:<26} | {light:<30} | {100 * w.accuracy:11.2f} % | {interval(w):>13} "
                  f"| {100 * wo.accuracy:5.2f} % | {100 * w.wrong_rate:8.2f} % | {100 * wo.wrong_rate:11.2f} % "
                  f"| {w.pieces:6d} |", flush=True)
    w, wo = totals[True], totals[False]
    print(f"| {'all towers':<26} | {'all lights':<30} | {100 * w.accuracy:11.2f} % | {interval(w):>13} "
          f"| {100 * wo.accuracy:5.2f} % | {100 * w.wrong_rate:8.2f} % | {100 * wo.wrong_rate:11.2f} % "
          f"| {w.pieces:6d} |")


def interval(tally: Any) -> str:
    """The 95 % Wilson interval of a tally's piece accuracy, in percent: with about 200 pieces a cell, one
    piece is 0.5 %, the size of the gap between the targets and what is measured."""
    from scipy.stats import binomtest

    if not tally.pieces:
        return "-"
    right = max(0, tally.pieces - tally.count_error)
    low, high = binomtest(right, tally.pieces).proportion_ci(0.95, method="wilson")
    return f"{100 * low:.1f}-{100 * high:.1f}"


def cli_check(
    empty: Any, shots: dict[str, list[Any]], matrix: list[list[float]] | None, detectors: dict[bool, Detector],
    frames: list[Any],
) -> None:
    """Calibrate and count through the ``keshi`` CLI as a user would; stop if it differs from in-process."""
    import json
    import tempfile

    from vision.sources import write_image

    keshi = str(Path(sys.executable).with_name("keshi"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "cal"
        folder.mkdir()
        write_image(folder / "empty.png", empty)
        for colour, frames_of in shots.items():
            write_image(folder / f"{colour}.png", frames_of[0])
        (Path(tmp) / "m.json").write_text(json.dumps(matrix))
        for index, frame in enumerate(frames):
            write_image(Path(tmp) / f"frame{index}.png", frame)
        for with_matrix, detector in detectors.items():
            option = ["--colour-matrix", str(Path(tmp) / "m.json")] if with_matrix else []
            out = Path(tmp) / "cal.json"
            subprocess.run([keshi, "vision", "calibrate", str(folder), "--out", str(out), *option], check=True,
                           stdout=subprocess.DEVNULL)
            if json.loads(out.read_text()) != json.loads(json.dumps(detector.calibration.to_json())):
                raise SystemExit("the CLI's calibration differs from the in-process one")
            for index, frame in enumerate(frames):
                counted = subprocess.run([keshi, "vision", "count", str(Path(tmp) / f"frame{index}.png"),
                                          "--calibration", str(out), "--json"], check=True, capture_output=True)
                if json.loads(counted.stdout)["counts"] != detector.detect(frame).counts:
                    raise SystemExit("the CLI's count differs from the in-process one")


if __name__ == "__main__":
    main()

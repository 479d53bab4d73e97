"""Vision benchmark: detection time per 640x480 frame on one core, peak memory, and piece accuracy.

Run: ``.venv/bin/python benchmarks/bench_vision.py [--scenes N]``. Prints the machine, the median and
95th-percentile detection time (``cv2.setNumThreads(1)``), the process's peak resident memory, and
piece accuracy (1 - (sum |predicted - true| + unknown) / sum true) on generated scenes under the
calibration light, ±35 % brightness and 3000 K / 6500 K light with the white balance locked.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import time

import cv2
import numpy as np

from companion import COLOURS
from vision.calibrate import calibrate
from vision.detect import Detector
from vision.synthetic import (
    Lighting,
    SceneStyle,
    calibration_set,
    default_calibration,
    random_counts,
    render_scene,
)

LIGHTS = {
    "calibration light": Lighting(),
    "brightness -35 %": Lighting(brightness=0.65),
    "brightness +35 %": Lighting(brightness=1.35),
    "3000 K (WB locked)": Lighting(temperature=3000),
    "6500 K (WB locked)": Lighting(temperature=6500),
    "+35 % and 3000 K": Lighting(brightness=1.35, temperature=3000),
    "+35 % and 6500 K": Lighting(brightness=1.35, temperature=6500),
}

#: Two simulated towers: the default tray, and another tray texture / stronger lens falloff and shadow,
#: each with its own calibration (as the acceptance run's unseen rendering would have).
TRAYS = {
    "default tray": (0, SceneStyle()),
    "other tray": (5, SceneStyle(texture=0.04, falloff=0.3, noise=2.5, blur=1.0, shadow=0.35)),
}


def machine() -> str:
    """CPU model, core count and Python/OpenCV versions, for the README."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, OpenCV {cv2.__version__}"


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=40, help="generated scenes per lighting")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    detector = Detector(default_calibration())
    print(f"machine: {machine()}")

    timing_rng = np.random.default_rng(1)
    frames = [render_scene(random_counts(timing_rng, 10, 20), timing_rng)[0] for _ in range(20)]
    times = []
    for _ in range(5):
        for frame in frames:
            start = time.perf_counter()
            detector.detect(frame)
            times.append((time.perf_counter() - start) * 1000)
    print(f"detection time per 640x480 frame, 1 thread: median {statistics.median(times):.1f} ms, "
          f"p95 {np.percentile(times, 95):.1f} ms (10-20 pieces, n={len(times)})")
    detect_peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory after calibration + 100 detections (max RSS, all of Python): {detect_peak_mb:.0f} MB")

    for tray, (tray_seed, base) in TRAYS.items():
        empty, shots = calibration_set(seed=tray_seed, tray_seed=tray_seed, style=base)
        tray_detector = Detector(calibrate(empty, shots))
        style_rng = np.random.default_rng(2)
        for name, lighting in LIGHTS.items():
            rng = np.random.default_rng(100)
            error = total = 0
            for _ in range(args.scenes):
                style = SceneStyle(
                    texture=base.texture,
                    falloff=base.falloff,
                    shadow=base.shadow,
                    noise=base.noise * float(style_rng.uniform(0.6, 1.8)),
                    blur=base.blur * float(style_rng.uniform(0.5, 1.6)),
                )
                frame, truth = render_scene(
                    random_counts(rng), rng, lighting=lighting, style=style, tray_seed=tray_seed
                )
                detection = tray_detector.detect(frame)
                error += sum(abs(detection.counts[c] - truth["counts"][c]) for c in COLOURS) + detection.unknown
                total += sum(truth["counts"].values())
            accuracy = 100 * (1 - error / total)
            print(f"piece accuracy, {tray}, {name:<20}: {accuracy:6.2f} % ({total} pieces, {args.scenes} scenes)")

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of the whole benchmark (adds the scene renderer's float images): {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()

"""The tower's senses on gpiozero: the exit break-beam, the tray light, the toss button.

Modules: ``pins`` (the default wiring), ``devices`` (``BreakBeam``, ``TowerLight``, ``TossButton``,
``BeamEmitter``), ``timing`` (drop timing, settle and fault detection as a pure state machine),
``mockpins`` (MockFactory pins that change at chosen timestamps, for the simulated tower and tests),
``rig`` (all devices of one tower on one pin factory), ``capture`` (light, frame, detect),
``pintest`` and ``cli`` (``keshi tower pintest``). Nothing here imports lgpio or Picamera2 at import
time: those load only on the Pi path.
"""

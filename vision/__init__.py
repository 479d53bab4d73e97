"""Vision: count the 12 keshi colours in the tower base from one camera frame.

Submodules, each small and importable anywhere (Picamera2 only loads inside ``Picamera2Source``):

- ``vision.errors``     the vision error types (``KeshiError`` leaves)
- ``vision.sources``    ``FrameSource`` protocol and the Picamera2 / OpenCV / file / synthetic sources
- ``vision.synthetic``  a top-down tray scene renderer (lighting, noise, blur, shadows, touching pieces)
- ``vision.calibrate``  empty tray + one frame per colour -> a versioned JSON ``Calibration``
- ``vision.detect``     ``Detector(calibration).detect(frame) -> Detection`` and the debug drawer
- ``vision.frame_pair`` light-on/off frame pairs: the tray under the tower light alone
- ``vision.physical``   an independent spectral scene generator for honest benchmarks (dev only: colour-science)
- ``vision.cli``        ``keshi vision calibrate`` and ``keshi vision count``
"""

"""An independent, physically based tray-image generator, for measuring the detector honestly.

``vision.synthetic`` (which the detector was developed against) paints each colour as a fixed
per-channel ratio of the floor and models a light change as three channel gains: exactly what the
detector normalises away. This package shares none of that. It renders spectrally: paint and tray
reflectances recovered from sRGB (colour-science, Otsu 2018), CIE illuminant spectra (LED B-series,
tungsten, fluorescent F11, mixes), a real camera's spectral sensitivities (Nikon D5100, NPL), a Bayer
mosaic with shot and read noise, white balance and colour matrix locked under the calibration light,
sRGB gamma and JPEG; 3-D height fields for standing and lying pieces with Lambert and specular
shading, cast shadows from each light, lens falloff, tray stains and the tower wall's shadow.

Development and benchmark only: it needs colour-science (a ``dev`` extra, numpy >= 2), which the Pi
does not install. Nothing in the runtime imports it.

``spectra`` - materials, lights and the camera; ``scene`` - geometry and the image pipeline;
``split`` - the tuning and held-out scene sets.
"""

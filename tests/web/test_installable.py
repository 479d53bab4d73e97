"""The dashboard can be added to a phone's home screen: manifest, icons, favicon."""

from __future__ import annotations

import cv2
import numpy as np
from flask.testing import FlaskClient


def test_manifest_names_the_app_and_its_icons_load_at_their_sizes(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200 and png.mimetype == "image/png"
        image = cv2.imdecode(np.frombuffer(png.data, np.uint8), cv2.IMREAD_COLOR)
        assert image is not None
        assert f"{image.shape[1]}x{image.shape[0]}" == icon["sizes"]


def test_favicon_is_served(client: FlaskClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data.startswith(b"\x89PNG")

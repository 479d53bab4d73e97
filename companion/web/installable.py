"""What lets a phone add the dashboard to its home screen: the web app manifest and the favicon.

``/manifest.webmanifest`` names the app, its start page, colours and icons (drawn by
``app_icons``); ``/favicon.ico`` answers the request every browser makes on its own (the PNG
favicon; browsers read PNG data there), so no page logs a 404 for it.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, send_from_directory, url_for
from flask.typing import ResponseReturnValue

from companion.web.icon_files import BACKGROUND, ICONS

bp = Blueprint("installable", __name__)


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    """The web app manifest (``display: standalone``, so the home-screen app opens without browser bars)."""
    icons = [{"src": url_for("static", filename=f"icons/{name}"), "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "maskable" if "maskable" in name else "any"}
             for name, (size, _) in ICONS.items() if size >= 192]
    response = jsonify(name="Keshi Tower Companion", short_name="Keshi Tower", start_url="/", scope="/",
                       display="standalone", background_color=BACKGROUND, theme_color=BACKGROUND,
                       description="Games, tower tosses and fairness of a Marrakesh table", icons=icons)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/favicon.ico")
def favicon() -> ResponseReturnValue:
    static = current_app.static_folder or ""
    return send_from_directory(static, "icons/favicon-32.png", mimetype="image/png", max_age=86400)

"""English and German for everything the companion shows people.

Pure Python (no Flask), so the rules engine can use it: ``Msg`` is a message whose words are chosen
when it is turned into text, in the language of ``LOCALE`` (a context variable, English unless a web
request of a German browser sets it). The CLI, the logs and the tests therefore read English; a web
response reads the language of the phone that asked. ``companion.i18n.web`` wires this into Flask
(Flask-Babel for templates, the language switch, the catalog for JavaScript).
"""

from companion.i18n.catalogs import LANGUAGES, compile_catalogs, translations
from companion.i18n.text import LOCALE, Msg, as_msg, error_words, render_words, use_locale, word
from companion.i18n.words import (
    claim_name,
    colour_name,
    figure_name,
    path_name,
    phase_name,
    resource_name,
    sector_name,
    square_name,
)

__all__ = [
    "LANGUAGES",
    "LOCALE",
    "Msg",
    "as_msg",
    "claim_name",
    "colour_name",
    "compile_catalogs",
    "error_words",
    "figure_name",
    "path_name",
    "phase_name",
    "render_words",
    "resource_name",
    "sector_name",
    "square_name",
    "translations",
    "use_locale",
    "word",
]

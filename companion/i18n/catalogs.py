"""The message catalogs: ``companion/translations/<lang>/LC_MESSAGES/messages.po`` (edited by people)
compiled to ``messages.mo`` (read by gettext and Flask-Babel) with Babel's own API.

The ``.mo`` files are build products: ``compile_catalogs`` writes one whenever it is missing or older
than its ``.po``. The app calls it at start-up and ``translations`` calls it before the first German
lookup, so a fresh checkout needs no hand step.
"""

from __future__ import annotations

import gettext
import os
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

#: The languages the companion speaks; English is the source language (and the fallback).
LANGUAGES: tuple[str, ...] = ("en", "de")
DOMAIN = "messages"
TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"


def compile_catalogs(directory: Path = TRANSLATIONS_DIR) -> list[Path]:
    """Compile each ``<lang>/LC_MESSAGES/messages.po`` under ``directory`` whose ``.mo`` is missing or stale.

    Returns the ``.mo`` files written. Each is written to a temporary name and renamed, so a reader
    never sees half a catalog (two processes may start at once).
    """
    written: list[Path] = []
    for po in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        partial = mo.with_name(f".{mo.name}.{os.getpid()}.part")
        with partial.open("wb") as target:
            write_mo(target, catalog)
        os.replace(partial, mo)
        written.append(mo)
    return written


@cache
def translations(locale: str) -> gettext.NullTranslations:
    """The compiled catalog of ``locale`` (English, or a language without a catalog: no translation)."""
    if locale == "en":
        return gettext.NullTranslations()
    compile_catalogs()
    return Translations.load(str(TRANSLATIONS_DIR), [locale], DOMAIN)


@cache
def js_catalog(locale: str) -> dict[str, str]:
    """``{English text: translation}`` for the browser's ``t()``; a word with a context is keyed
    ``context + "\\u0004" + text`` (gettext's convention). Untranslated and fuzzy entries are left out,
    so the page falls back to English for them."""
    po = TRANSLATIONS_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    if locale == "en" or not po.exists():
        return {}
    with po.open("rb") as source:
        catalog = read_po(source, locale=locale)
    out: dict[str, str] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not isinstance(message.id, str) or not message.string:
            continue
        key = f"{message.context}\u0004{message.id}" if message.context else message.id
        out[key] = str(message.string)
    return out

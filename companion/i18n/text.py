"""``Msg``: a message kept as its English text and named values, put into words when rendered.

The engine raises ``RuleError(Msg("it is not {player}'s turn ...", player="Ben"))`` and never needs to
know the reader's language: ``str(error)`` renders in ``LOCALE``'s language at that moment (English by
default; a web request sets the phone's language). ``Msg.to_json`` is the same message as plain data,
which a browser renders with ``t.say`` (see docs/i18n.md), so one cached game view serves phones in
either language.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from companion.i18n.catalogs import translations
from companion.i18n.player_words import FOR_PLAYERS, for_players

#: The language messages are rendered in; a web request sets it from the browser (``companion.i18n.web``).
LOCALE: ContextVar[str] = ContextVar("keshi_locale", default="en")


@contextmanager
def use_locale(locale: str) -> Iterator[None]:
    """Render messages in ``locale`` inside the ``with`` block."""
    token = LOCALE.set(locale)
    try:
        yield
    finally:
        LOCALE.reset(token)


class Msg:
    """English text with ``{name}`` placeholders (``str.format``) and the values to put in them.

    A value may itself be a ``Msg`` (a colour or sector name from ``companion.i18n.words``), which
    is rendered in the same language, or a list of such values, rendered as ``"a, b, c"``. The English
    text is the catalog's message id.
    """

    __slots__ = ("context", "params", "text")

    def __init__(self, text: str, /, **params: Any) -> None:
        self.text = text
        self.context: str | None = None
        self.params: dict[str, Any] = params

    def render(self, locale: str | None = None) -> str:
        """The message in ``locale`` (default: the current ``LOCALE``); English where no translation exists.

        A translation whose placeholders do not match (a catalog mistake) falls back to English
        rather than failing the request that wanted to show it. Rendered for a player (a web request), the
        rulebook references the engines cite are left out (``companion.i18n.player_words``).
        """
        locale = locale or LOCALE.get()
        values = {k: _rendered(v, locale) for k, v in self.params.items()}
        catalog = translations(locale)
        template = catalog.pgettext(self.context, self.text) if self.context else catalog.gettext(self.text)
        try:
            return for_players(template.format(**values))
        except (KeyError, IndexError, ValueError):
            return for_players(self.text.format(**values))

    def english(self) -> str:
        """The message in English (for logs and stored game data), with its rulebook references."""
        token = FOR_PLAYERS.set(False)
        try:
            return self.render("en")
        finally:
            FOR_PLAYERS.reset(token)

    def to_json(self) -> dict[str, Any]:
        """The message as plain data: ``{"text", "params"}`` (and ``"context"`` for a word)."""
        out: dict[str, Any] = {"text": self.text, "params": {k: _plain(v) for k, v in self.params.items()}}
        if self.context:
            out["context"] = self.context
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Msg:
        """The inverse of ``to_json``."""
        params = {k: _from_plain(v) for k, v in data.get("params", {}).items()}
        out = cls(data["text"], **params)
        out.context = data.get("context")
        return out

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Msg({self.english()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.text, self.context))


def error_words(exc: BaseException) -> Msg | str:
    """What an error says: the ``Msg`` it was raised with (said in the reader's language) or its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Msg) else str(exc)


def render_words(words: Msg | str, locale: str | None = None) -> str:
    """``words`` in ``locale`` (default: the current ``LOCALE``): a message rendered, a text made outside
    the catalog (a name, a number already formatted) as it is."""
    return words.render(locale) if isinstance(words, Msg) else words


def as_msg(text: Msg | str) -> Msg:
    """``text`` as a message (a text made outside the catalog, e.g. by a library, is shown as it is)."""
    return text if isinstance(text, Msg) else Msg("{problem}", problem=text)


def _rendered(value: Any, locale: str) -> Any:
    if isinstance(value, Msg):
        return value.render(locale)
    if isinstance(value, list):
        return ", ".join(str(_rendered(item, locale)) for item in value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _from_plain(value: Any) -> Any:
    if isinstance(value, Mapping) and "text" in value:
        return Msg.from_json(value)
    if isinstance(value, list):
        return [_from_plain(item) for item in value]
    return value


def word(context: str, text: str) -> Msg:
    """A single word whose translation depends on what it names (``word("colour", "orange")``)."""
    out = Msg(text)
    out.context = context
    return out

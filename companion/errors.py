"""One exception root for the whole product.

Like gpiozero, every leaf also subclasses the matching builtin, so callers may catch either
``KeshiError`` (anything this product raises on purpose) or the builtin they expect.
The CLI turns any ``KeshiError`` into a one-line message and a non-zero exit.
"""


class KeshiError(Exception):
    """Root of every error this product raises on purpose (bad input, bad state, bad setup)."""


class ConfigError(KeshiError, ValueError):
    """A setting, option or instance folder is unusable."""


class StoreError(KeshiError, RuntimeError):
    """The SQLite store cannot be opened, migrated or written."""

"""Firmware errors: each subclasses ``KeshiError`` and the builtin a caller would expect."""

from companion.errors import KeshiError


class FirmwareError(KeshiError, RuntimeError):
    """The tower's hardware cannot be used (no GPIO on this machine, pin already in use, ...)."""


class PinMapError(KeshiError, ValueError):
    """A pin map names an invalid or duplicated GPIO pin."""


class TimingConfigError(KeshiError, ValueError):
    """Drop-timing thresholds are inconsistent (e.g. a negative quiet interval)."""

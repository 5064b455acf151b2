"""The one base error type: every message says what was wrong, where, and what to do."""


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class UnknownLevel(CompanionError, ValueError):
    """A computer player's level name (or number) that does not exist."""

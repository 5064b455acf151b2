"""The one base error type: every message says what was wrong, where, and what to do."""


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""

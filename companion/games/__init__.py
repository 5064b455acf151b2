"""One package per game: its rules, views, AI and screen.

A package here whose `rules` module defines `GAME` (a `companion.play.state.Game`)
is a registered game (see `companion.play.registry`).
"""

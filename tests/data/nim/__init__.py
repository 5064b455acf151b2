"""Nim, a game made at run time by tests/test_game_folders.py: this folder is all of it."""

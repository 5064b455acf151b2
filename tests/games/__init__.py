"""Tests of the games, one folder each."""

"""Nim's Kivy parts."""

"""Battleship: rules, deduction, the computer opponent, the screen."""

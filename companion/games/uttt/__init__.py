"""Ultimate Tic-Tac-Toe: rules, the computer opponent, the screen."""

"""九九戦艦 Kuku Battleship: rules, the computer opponent, the learning report, the screen."""

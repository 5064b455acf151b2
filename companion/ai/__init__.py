"""Computer opponents: pure, with injected RNG and budgets.  No Kivy."""

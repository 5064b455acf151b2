"""The gunkan game's Kivy parts: its screen and widgets (nothing outside screen/ and ui/ imports Kivy)."""

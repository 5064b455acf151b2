"""The thin Kivy UI: screens render views and send actions (DESIGN.md principle 5)."""

"""The thin Kivy UI: screens render views and send actions (docs/design.md, principle 5)."""

"""Load cells: weight sources (HX711 on GPIO, serial firmware link, simulator),
the signal pipeline and the judge.  Imports no Kivy."""

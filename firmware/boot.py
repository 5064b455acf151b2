"""Runs first after every reset, soft ones included: watchdog on, fed by a timer
until main.py's loop takes over (seesaw/keepalive.py says why)."""

from seesaw import keepalive

keepalive.start()

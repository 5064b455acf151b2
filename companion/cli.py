"""`companion`: start the app, or one of its sub-commands (doctor, monitor, calibrate, record)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time

from companion import config as config_module
from companion import backoff, display, i18n
from companion.errors import CompanionError

DISPLAY_WAIT_S = 20.0  # a KMS/DRM device can appear a few seconds into the boot
CRASH_FILE = "companion-crash.txt"  # the last internal error's traceback (one file, overwritten)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    parser.add_argument("--config", help="configuration file (default: config.yaml)")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="start the touchscreen app (the default)")
    commands.add_parser("doctor", help="check this machine: display, font, config, sensor")
    monitor = commands.add_parser("monitor", help="live readings of the seesaw's pans")
    calibrate = commands.add_parser("calibrate", help="tare and calibrate each pan")
    record = commands.add_parser("record", help="save the raw stream of the seesaw to a file, with tapped events")
    for sub in (monitor, calibrate, record):
        sub.add_argument("--source", choices=("simulator", "gpio", "serial", "replay"),
                         help="override sensor.source")
        sub.add_argument("--port", help="serial port or pyserial URL (with --source serial)")
    monitor.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl-C)")
    calibrate.add_argument("--mass", type=float, default=100.0,
                           help="the known mass you will put on each pan, in grams (default 100)")
    calibrate.add_argument("--name", default="default", help="name to save the calibration under")
    record.add_argument("out", help="the recording to write (.jsonl, or .jsonl.gz compressed)")
    record.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl-C or end of input)")
    record.add_argument("--note", default="", help="a line about what was recorded")
    args = parser.parse_args(argv)

    if args.command == "doctor":
        from companion.doctor import run_doctor

        return run_doctor(args.config)
    # The appliance's starts (under systemd): one that keeps failing waits longer each time.
    starts = backoff.record() if args.command in (None, "run") else None
    if starts:
        starts.begin()
    status = _start(args, starts)
    if starts and status == 0:
        starts.healthy()
    return status


def _start(args: argparse.Namespace, starts: backoff.StartRecord | None = None) -> int:
    cfg = None
    try:
        cfg = config_module.load(args.config)
        if args.command == "monitor":
            from companion import terminal

            return terminal.monitor(cfg, args.source, args.port, args.seconds)
        if args.command == "calibrate":
            from companion import terminal

            return terminal.calibrate(cfg, args.source, args.port, args.name, args.mass)
        if args.command == "record":
            from companion import terminal

            return terminal.record(cfg, args.source, args.port, args.out, args.seconds, args.note)
        return run_app(cfg, starts)
    except display.NoDisplay as exc:  # nothing to show it on: the journal has it
        print(f"companion: {exc}", file=sys.stderr)
        return display.EXIT_NO_DISPLAY
    except CompanionError as exc:  # in the configured language (the locale's before the config is read)
        lang = i18n.language_from(cfg.language if cfg else "auto", unset="en")  # a console may draw no kana
        print(f"companion: {i18n.said(exc, lang)}", file=sys.stderr)
        if args.command in (None, "run"):
            return _show_on_screen(exc, cfg, starts) or 2
        return 2
    except Exception as exc:  # a bug: its traceback goes to a file, not to the person
        report = _save_traceback(exc)
        print(f"companion: an internal error stopped it ({type(exc).__name__}: {exc}); the "
              f"details are in {report}: please report them", file=sys.stderr)
        if args.command in (None, "run"):
            return _show_on_screen(exc, cfg, starts) or 3
        return 3


def _save_traceback(exc: BaseException) -> str:
    """The traceback in one file, overwritten by the next: a start that fails again and
    again leaves one file, not one per try."""
    import traceback

    path = os.path.join(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir(), CRASH_FILE)
    with open(path, "w") as out:
        out.write("".join(traceback.format_exception(exc)))
    return path


def display_missing(environ=os.environ, dri: str = "/dev/dri") -> bool:
    """True when there is nothing to draw on (see `companion.display.problem`)."""
    return display.problem(environ, dri) is not None


def wait_for_display(wait_s: float = DISPLAY_WAIT_S, environ=os.environ) -> None:
    """`NoDisplay` naming the device if there is still nothing to draw on after `wait_s`."""
    deadline = time.monotonic() + wait_s
    while (problem := display.problem(environ)) is not None:
        if time.monotonic() >= deadline:
            raise display.NoDisplay(problem)
        time.sleep(0.5)


def run_app(cfg: config_module.Config, starts: backoff.StartRecord | None = None) -> int:
    wait_for_display(float(os.environ.get("COMPANION_DISPLAY_WAIT_S", DISPLAY_WAIT_S)))
    from companion.store import Store

    store = Store.in_dir(cfg.data_path)  # the lock and the database before any window opens
    got_going = threading.Timer(backoff.HEALTHY_S, starts.healthy) if starts else None
    try:
        from companion.ui.app import CompanionApp

        if got_going:
            got_going.daemon = True
            got_going.start()
        CompanionApp(cfg, store=store).run()
    finally:
        if got_going:
            got_going.cancel()
        store.close()
    return 0


def _show_on_screen(error: Exception, cfg: config_module.Config | None,
                    starts: backoff.StartRecord | None = None) -> int | None:
    """The appliance has no terminal: the reason it cannot start goes on the screen too
    (when there is one; COMPANION_PROBLEM_WINDOW=0 keeps it in the terminal only); the
    exit status `NoDisplay`'s if the screen cannot be opened after all.  A person who
    read it and tapped Try again is no failing loop: the next start does not wait."""
    if os.environ.get("COMPANION_PROBLEM_WINDOW", "1") == "0" or display.problem() is not None \
            or not any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")):
        return None
    from companion.ui import app  # noqa: F401  (Kivy's settings, before any window opens)
    from companion.ui.problems import show_start_problem

    try:
        show_start_problem(error, cfg)
    except display.NoDisplay as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return display.EXIT_NO_DISPLAY
    if starts:
        starts.healthy()
    return None

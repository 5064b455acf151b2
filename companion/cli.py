"""`companion`: start the app, or one of its sub-commands (doctor, monitor, calibrate)."""

from __future__ import annotations

import argparse
import sys

from companion import config as config_module
from companion.errors import CompanionError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    parser.add_argument("--config", help="configuration file (default: config.yaml)")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="start the touchscreen app (the default)")
    commands.add_parser("doctor", help="check this machine: display, font, config, sensor")
    args = parser.parse_args(argv)

    if args.command == "doctor":
        from companion.doctor import run_doctor

        return run_doctor(args.config)
    try:
        cfg = config_module.load(args.config)
        return run_app(cfg)
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2


def run_app(cfg: config_module.Config) -> int:
    from companion.ui.app import CompanionApp

    CompanionApp(cfg).run()
    return 0

"""A refused command under MicroPython: CommandError must be constructible and carry
its command and code (MicroPython's Exception has no __init__ to call)."""
from seesaw import protocol

try:
    raise protocol.CommandError("RATE", "unsupported")
except protocol.CommandError as e:
    print(e.command, e.code, e.args)

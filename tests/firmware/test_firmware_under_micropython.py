"""The firmware under a real MicroPython (v1.27, WebAssembly port on Node.js), not our
CPython fakes: the things CPython is lenient about fail here as on a Pico."""

from under_micropython import run_micropython


def test_a_refusal_is_an_exception_micropython_can_build():
    """MicroPython has no Exception.__init__: calling it made every refused command
    escape App.handle as AttributeError, and main.py reset the board."""
    out = run_micropython("command_error.py").stdout.decode()
    assert out.split()[:2] == ["RATE", "unsupported"]

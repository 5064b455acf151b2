"""The table's address, its hotspot (asked of a stand-in nmcli on PATH) and the QR codes,
read back by Debian's zbarimg."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest

from companion.seats.address import Hotspot, host_name, hotspot, lan_address, local_hosts, qr_png
from companion.seats.gate import address_of


def fake_nmcli(tmp_path, monkeypatch, output: str, code: int = 0):
    script = tmp_path / "nmcli"
    script.write_text(f"#!/bin/sh\necho \"$@\" > {tmp_path}/args\nprintf '{output}'\nexit {code}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")


def test_an_active_hotspot_is_found(tmp_path, monkeypatch):
    fake_nmcli(tmp_path, monkeypatch, "activated\\nTable Wi-Fi\\nsecret123\\n")
    assert hotspot() == Hotspot("Table Wi-Fi", "secret123")
    assert "companion-hotspot" in (tmp_path / "args").read_text()


@pytest.mark.parametrize("output, code", [("", 10), ("activating\\nTable\\nsecret123\\n", 0), ("\\n", 0)])
def test_no_hotspot_when_it_is_missing_or_not_up(tmp_path, monkeypatch, output, code):
    fake_nmcli(tmp_path, monkeypatch, output, code)
    assert hotspot() is None


def test_no_hotspot_without_network_manager(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no nmcli at all
    assert hotspot() is None


def test_the_address_is_an_ipv4_address():
    parts = lan_address().split(".")
    assert len(parts) == 4 and all(0 <= int(p) <= 255 for p in parts)


def zbar(png: bytes, tmp_path) -> str:
    """What Debian's zbarimg reads in the picture."""
    path = tmp_path / "qr.png"
    path.write_bytes(png)
    return subprocess.run(["zbarimg", "--raw", "-q", str(path)], capture_output=True, text=True,
                          check=True, timeout=30).stdout.strip()


def test_qr_codes_decode_to_the_join_link_and_the_wifi(tmp_path):
    join = "http://192.168.1.20:8765/#room=Qx-3_kd93jsa0P2lm1"
    assert zbar(qr_png(join), tmp_path) == join
    assert zbar(Hotspot("Table; 1", "secret:123").qr_png(), tmp_path) == "WIFI:T:WPA;S:Table\\; 1;P:secret\\:123;;"


def test_the_hosts_a_request_may_name_hold_loopback_and_the_qrs_address():
    hosts = local_hosts()
    assert {"localhost", "127.0.0.1", "::1", lan_address()} <= hosts
    assert "evil.example" not in hosts


@pytest.mark.parametrize("header, name", [("192.168.4.1:8765", "192.168.4.1"), ("[fd00::2]:8765", "fd00::2"),
                                          ("Pi.Local", "pi.local"), ("fd00::2", "fd00::2"), ("[::1]", "::1")])
def test_a_host_header_is_read_without_its_port(header, name):
    assert host_name(header) == name


def test_ipv6_addresses_count_by_their_network():
    assert address_of(("2001:db8::1", 1, 0, 0)) == address_of(("2001:db8::ffff:2", 1, 0, 0)) == "2001:db8::/64"
    assert address_of(("::ffff:10.0.0.7", 1, 0, 0)) == "10.0.0.7"
    assert address_of(("10.0.0.7", 1)) == "10.0.0.7" and address_of(None) == "?"



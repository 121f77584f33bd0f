"""Whether a printed link can reach the server from a phone, and the machine's LAN addresses to offer instead.

The addresses are read from the local interfaces (Linux ``SIOCGIFADDR`` on a UDP socket that is never
connected), so nothing leaves the machine.  Where that is not available, the address the system would
use towards a private network is asked with a UDP ``connect``, which sends no packet.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
import urllib.parse

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address
PROBE = ("10.255.255.255", 9)  # a private address: connecting a UDP socket to it sends nothing


def is_loopback(url: str) -> bool:
    """True when ``url``'s host is 127.x, ::1 or localhost: only this machine can open it."""
    host = (urllib.parse.urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _usable(addr: str) -> bool:
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _from_interfaces() -> list[str]:
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    out = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # an interface without an IPv4 address
                continue
            out.append(socket.inet_ntoa(raw[20:24]))
    return out


def _from_route() -> list[str]:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(PROBE)
            return [str(s.getsockname()[0])]
    except OSError:
        return []


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that other machines on its network can reach, private ones first."""
    found = [a for a in _from_interfaces() if _usable(a)] or [a for a in _from_route() if _usable(a)]
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda a: not ipaddress.ip_address(a).is_private)


def with_host(url: str, host: str) -> str:
    """``url`` with its host replaced by ``host`` (the port, path and query kept)."""
    parts = urllib.parse.urlsplit(url)
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def listening(addr: str, port: int) -> bool:
    """Does this server answer on ``addr`` (one of this machine's own addresses, so the connection stays on it)?"""
    try:
        with socket.create_connection((addr, port), timeout=0.5):
            return True
    except OSError:
        return False

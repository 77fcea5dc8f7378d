"""How phones find the hub: its real LAN addresses, an mDNS name and QR codes.

The hostname is never trusted for an address (Debian and Raspberry Pi OS resolve it to
127.0.1.1): the interfaces are enumerated with ``ifaddr``. The hub announces itself with
``zeroconf`` as ``lumen-<table>.local`` (an A record for phones that resolve .local, and an
``_http._tcp`` service for browsers that list them). QR codes are made by ``segno``."""

import ipaddress
import logging
import re
import socket

log = logging.getLogger("lumen.lan")

WILDCARD = ("0.0.0.0", "::", "")


def lan_addresses():
    """The IPv4 addresses phones on the same network can reach, best first: private
    (RFC 1918) before others; loopback and link-local left out."""
    import ifaddr
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not ip.is_IPv4:
                continue
            addr = ipaddress.IPv4Address(ip.ip)
            if addr.is_loopback or addr.is_link_local or addr.is_unspecified:
                continue
            found.append((0 if addr.is_private else 1, str(addr)))
    return [a for _, a in sorted(set(found))]


def mdns_host(table):
    """``table-1`` -> ``lumen-table-1`` (an mDNS label: lowercase letters, digits, -)."""
    label = re.sub(r"[^a-z0-9-]+", "-", str(table).lower()).strip("-") or "table"
    return ("lumen-" + label)[:63]


def display_urls(host, port, table):
    """Where the display can be opened: {"local", "lan": [...], "mdns"} (lan and mdns only
    when the hub listens on every interface)."""
    out = {"local": "http://%s:%d/" % ("127.0.0.1" if host in WILDCARD else host, port), "lan": [], "mdns": None}
    if host in WILDCARD:
        out["lan"] = ["http://%s:%d/" % (a, port) for a in lan_addresses()]
        out["mdns"] = "http://%s.local:%d/" % (mdns_host(table), port)
    return out


def qr_svg(text, scale=6):
    """A QR code as a standalone SVG document (dark modules on white, a quiet zone of 4)."""
    import io

    import segno
    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="svg", scale=scale, border=4, dark="#000", light="#fff",
                                     xmldecl=False, svgclass=None, lineclass=None, omitsize=True)
    return buf.getvalue().decode()


class Announcer:
    """Registers ``lumen-<table>.local`` (and an ``_http._tcp`` service) while the hub runs."""

    SERVICE = "_http._tcp.local."

    def __init__(self, table, port, addresses=None):
        self.host = mdns_host(table)
        self.port = port
        self.addresses = list(addresses if addresses is not None else lan_addresses())
        self.zc = None
        self.info = None

    @property
    def name(self):
        return "%s.local" % self.host

    def start(self):
        from zeroconf import IPVersion, ServiceInfo, Zeroconf
        if not self.addresses:
            return False
        self.info = ServiceInfo(self.SERVICE, "%s.%s" % (self.host, self.SERVICE), port=self.port,
                                addresses=[socket.inet_aton(a) for a in self.addresses],
                                server=self.name + ".", properties={"path": "/"})
        self.zc = Zeroconf(interfaces=self.addresses, ip_version=IPVersion.V4Only)
        self.zc.register_service(self.info, allow_name_change=True)
        return True

    def stop(self):
        if self.zc is not None:
            try:
                self.zc.unregister_service(self.info)
            finally:
                self.zc.close()
                self.zc = None

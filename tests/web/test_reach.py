"""Issue 12, point 6: phones can connect. The printed and served addresses are the
machine's interfaces (ifaddr), never 127.x from the hostname; the hub announces
lumen-<table>.local by mDNS (zeroconf), resolved here by a second, independent zeroconf
instance; QR codes encode those addresses."""

import os

import ifaddr
import pytest

from hub.web import lan
from hub.web.server import urls
from tests.web.conftest import TOKEN


def interface_addresses():
    return {ip.ip for a in ifaddr.get_adapters() for ip in a.ips if ip.is_IPv4 and not ip.ip.startswith("127.")}


def test_lan_addresses_are_the_interfaces_never_loopback():
    found = lan.lan_addresses()
    assert all(not a.startswith("127.") for a in found)
    assert set(found) <= interface_addresses()


def test_the_printed_admin_link_uses_a_lan_address(table):
    u = urls(table, "0.0.0.0", 8123)
    assert u["display"] == "http://127.0.0.1:8123/"
    assert u["lan_all"] == ["http://%s:8123/" % a for a in lan.lan_addresses()]
    if u["lan_all"]:
        assert u["admin"] == u["lan_all"][0] + "#admin=" + TOKEN
        assert u["mdns"] == "http://lumen-table-1.local:8123/"
    only_local = urls(table, "127.0.0.1", 8123)
    assert only_local["lan_all"] == [] and only_local["mdns"] is None


def test_mdns_names_are_labels():
    assert lan.mdns_host("table-1") == "lumen-table-1"
    assert lan.mdns_host("Table 3 (finals)") == "lumen-table-3-finals"


def test_the_hub_is_announced_as_lumen_table_local():
    addresses = lan.lan_addresses()
    if not addresses:
        if os.environ.get("CI") == "true":
            raise AssertionError("CI has a network interface: mDNS must be tested")
        pytest.skip("no network interface besides loopback: nothing to announce on")
    from zeroconf import AddressResolver, IPVersion, Zeroconf
    announcer = lan.Announcer("mdns-test-%d" % os.getpid(), 8123, addresses=addresses)
    assert announcer.start()
    zc = Zeroconf(ip_version=IPVersion.V4Only)
    try:
        resolver = AddressResolver(announcer.name + ".")
        assert resolver.request(zc, 5000), "nobody answered for " + announcer.name
        assert set(resolver.parsed_addresses()) <= set(addresses) and resolver.parsed_addresses()
        info = zc.get_service_info(lan.Announcer.SERVICE, "%s.%s" % (announcer.host, lan.Announcer.SERVICE), 5000)
        assert info is not None and info.port == 8123 and info.server == announcer.name + "."
    finally:
        zc.close()
        announcer.stop()


def test_qr_codes_are_svg_and_the_judges_needs_the_token(client):
    r = client.get("/api/reach/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in r.text
    assert client.get("/api/admin/qr.svg").status_code == 401
    judge = client.get("/api/admin/qr.svg", headers={"Authorization": "Bearer " + TOKEN})
    assert judge.status_code == 200 and judge.text != r.text        # it carries more: the token
    reach = client.get("/api/reach").json()
    assert reach["spectator"].startswith("http://") and reach["phones"] is False     # the test client is local

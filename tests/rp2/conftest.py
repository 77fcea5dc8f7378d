"""The emulated-RP2040 lane: MicroPython's rp2 image from ../shared/rp2/ on
rp2040js. Where those files (or node and rp2040js) are missing, a user's own
clone skips the lane in one line; CI (CI=true) must run it."""

from __future__ import annotations

import os

import pytest

from tests.rp2.emu import Rp2Pod, node_ready, shared_rp2


@pytest.fixture(scope="session")
def rp2_files():
    files = shared_rp2()
    why = "../shared/rp2/ (the MicroPython rp2 image and boot ROM) is not here" if files is None else node_ready()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"emulated RP2040 lane cannot run in CI: {why}")
        pytest.skip(f"emulated RP2040 lane skipped: {why}")
    return files


@pytest.fixture
def rp2_pod(rp2_files):
    pods: list[Rp2Pod] = []

    def make(**kw) -> Rp2Pod:
        pod = Rp2Pod(rp2_files, **kw)
        pods.append(pod)
        return pod

    yield make
    for p in pods:
        p.close()

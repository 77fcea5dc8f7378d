"""uvicorn's package registered without its command-line module (hub/web/uvicorn_lean.py,
issue 36: ~35 M instructions of the hub's start). Each case runs in a fresh interpreter: what is
in ``sys.modules`` is what is asked."""

from tests.fresh import run_json


def test_the_hub_is_served_by_uvicorn_without_its_command_line_module_or_click():
    """Before: ``import uvicorn`` imported ``uvicorn.main`` and click, which the hub never runs.
    (uvicorn before 0.50, which pyproject still allows, imports click in its logging module too:
    there only ``uvicorn.main`` is left out.)"""
    got = run_json("import importlib.metadata, urllib.request\n"
                   "from hub.record.store import Store\n"
                   "from hub.sessions.table import Table\n"
                   "from hub.web.server import start_in_thread\n"
                   "t = Table(Store(':memory:'))\n"
                   "t.start('tracker', None, None, auto=True)\n"
                   "with start_in_thread(t) as h:\n"       # lifespan on: uvicorn's `from uvicorn import Config`
                   "    with urllib.request.urlopen(h.url + '/api/state', timeout=60) as r:\n"
                   "        status = r.status\n"
                   "major, minor = map(int, importlib.metadata.version('uvicorn').split('.')[:2])\n"
                   "print(json.dumps({'status': status, 'main': 'uvicorn.main' in sys.modules,\n"
                   "                  'click': 'click' in sys.modules, 'click_free': (major, minor) >= (0, 50),\n"
                   "                  'lifespan': 'uvicorn.lifespan.on' in sys.modules}))\n")
    assert got["status"] == 200 and got["lifespan"]
    assert got["main"] is False
    if got["click_free"]:
        assert got["click"] is False


def test_every_name_of_uvicorns_package_is_the_object_its_own_init_gives():
    got = run_json("import importlib, importlib.metadata\n"
                   "import hub.web.uvicorn_lean as lean\n"
                   "import uvicorn, uvicorn.config, uvicorn.server\n"
                   "cheap = uvicorn.Config is uvicorn.config.Config is lean.Config and \\\n"
                   "        uvicorn.Server is uvicorn.server.Server is lean.Server\n"
                   "still_lean = 'uvicorn.main' not in sys.modules\n"
                   "run = uvicorn.run\n"                                  # the package's own __init__ now
                   "cli = sys.modules['uvicorn.main']\n"                # `uvicorn.main` is the click command, as in uvicorn
                   "ns = {}\n"
                   "exec('from uvicorn import *', ns)\n"
                   "try:\n"
                   "    uvicorn.no_such_name\n"
                   "    missing = None\n"
                   "except AttributeError as e:\n"
                   "    missing = str(e)\n"
                   "print(json.dumps({'cheap': cheap, 'still_lean': still_lean,\n"
                   "                  'run': run is cli.run, 'main': uvicorn.main is cli.main,\n"
                   "                  'version': uvicorn.__version__ == importlib.metadata.version('uvicorn'),\n"
                   "                  'star': sorted(k for k in ns if not k.startswith('__')),\n"
                   "                  'same_after': uvicorn.Config is uvicorn.config.Config and\n"
                   "                                uvicorn.Server is uvicorn.server.Server,\n"
                   "                  'missing': missing}))\n")
    assert got["cheap"] and got["still_lean"]
    assert got["run"] and got["main"] and got["version"] and got["same_after"]
    assert got["star"] == ["Config", "Server", "main", "run"]
    assert "no_such_name" in got["missing"]


def test_a_uvicorn_imported_before_the_hub_is_left_as_it_is():
    got = run_json("import uvicorn\n"
                   "before = uvicorn\n"
                   "import hub.web.uvicorn_lean as lean\n"
                   "print(json.dumps({'same': sys.modules['uvicorn'] is before, 'main': 'uvicorn.main' in sys.modules,\n"
                   "                  'config': lean.Config is uvicorn.Config}))\n")
    assert got == {"same": True, "main": True, "config": True}

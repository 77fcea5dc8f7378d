# A tiny test runner for MicroPython-side test modules: runs every test_*
# function of a module and prints PASS/FAIL lines that tests/firmware/test_mp.py reads.
import gc
import sys


def run_tests(g):
    for k in sorted(k for k in g if k.startswith("test_")):
        gc.collect()
        try:
            g[k]()
            print("PASS", k)
        except Exception as e:
            print("FAIL", k, repr(e))
            sys.print_exception(e)

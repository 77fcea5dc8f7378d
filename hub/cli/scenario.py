"""``lumen scenario FILE|DIR...``: run rule-conformance scenario files (PASS/FAIL per file)."""


def run(args):
    from engine.scenarios import report, run_paths
    text, code = report(run_paths(args.files), as_json=args.json)   # directories expanded
    print(text)
    return code

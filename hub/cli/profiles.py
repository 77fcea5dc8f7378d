"""``lumen profiles check PATH...`` (profile and profile-card files, file:line problems),
``lumen profiles list`` (the bundled profiles and card sets), ``lumen profiles keys``
(the profile format's key registry as JSON)."""

import json


def check(args):
    from hub.cli.cards import report
    from hub.profiles.profile import check_path
    return report(args.paths, check_path, "profile")


def list_profiles(args):
    from hub.profiles import cards, profile
    for p in profile.bundled().values():
        print("%-10s %s / %s  (%s, seats %s, best of %d, %d min)  hash %s" % (
            p.id, p.name["ko"], p.name["en"], p.rules, "/".join(map(str, p.players)), p.match["best_of"],
            p.match["minutes"], p.hash))
    for s in cards.bundled().values():
        print("cards %-14s %s: %s" % (s.id, s.kind, ", ".join("%s (%s)" % (c["name"], c["id"]) for c in s.body["characters"])))
    return 0


def keys(args):
    from hub.profiles.schema import registry
    print(json.dumps(registry(), ensure_ascii=False, indent=1))
    return 0

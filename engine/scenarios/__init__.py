"""Rule-conformance scenarios (runner.py: load, build, run, report; expect.py and patterns.py:
the checks of ``expect:``; position.py: the set-up) and the card editor's two-card trial
(trial.py). On top of the engine; ``lumen scenario`` is its command."""

from engine.scenarios.runner import Outcome, Scenario, build, expand_paths, load, report, run, run_file, run_paths
from engine.scenarios.trial import TrialError, judge

__all__ = ["Outcome", "Scenario", "build", "expand_paths", "load", "report", "run", "run_file", "run_paths", "TrialError",
           "judge"]

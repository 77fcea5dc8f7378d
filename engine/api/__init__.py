"""The game's front door (game.py: new_game, apply, check; views.py: what each seat may see;
at_time.py: a timed game's end of round). Re-exported by the ``engine`` package."""

"""Seeded randomness kept in the state as one integer (SplitMix64), so a state
round-trips through JSON and the same seed always gives the same game."""

MASK = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def coin_toss(state: int) -> tuple[int, str]:
    """Initial priority (guide 3.4.1 step 1): returns (new state, "a" or "b")."""
    state, z = next_u64(state)
    return state, ("a" if z & 1 else "b")

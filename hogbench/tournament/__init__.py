"""Class tournaments, in rooms: ``config`` (one settings schema: the tournament file's keys, the
command line's options, the defaults), ``field`` (loading the entrants), ``schedule`` (which
pairs, their store keys, batches), ``match`` (playing pairs), ``round_robin``, ``gauntlets`` and
``store`` (finished pairs in SQLite, so a tournament resumes).

A tournament is a round robin: every pair of entrants plays in both seatings. Submissions are
loaded once (in the sandbox) into decision tables; pairs of tables are evaluated exactly, and a
pair with a live entrant (one that is not a table, e.g. a randomised strategy) is played by Monte
Carlo. In ``mc`` mode every pair is played by Monte Carlo.

The names below are the package's public face; each is defined in its room and read from there
when first asked for, so that importing the package (the command line does) stays cheap.
"""

from __future__ import annotations

from hogbench.lazy import lazy_names

__all__, __getattr__ = lazy_names(
    __name__,
    {
        "config": (
            "BACKENDS", "DEFAULT_GAMES", "DEFAULT_LIVE_BUDGET", "MODES", "REPORT_FILES", "SETTING",
            "SETTINGS", "Setting", "TOML_KEYS", "Tournament", "check_paths", "default_store",
            "from_toml", "load_source", "parse_sprt", "SANDBOX_KEYS", "sandbox_settings",
        ),
        "field": ("Progress", "Slot", "live_policy", "load_slots", "reason"),
        "schedule": (
            "MAX_BATCH", "MAX_BATCH_TABLE_BYTES", "PairFailure", "auto_batch_size", "make_batches",
            "pair_key", "pair_seed",
        ),
        "match": ("PlaySettings", "Played", "StopRule", "play_batch", "play_pairs"),
        "round_robin": ("PairResults", "TournamentResult", "run"),
        "gauntlets": ("GauntletRow", "gauntlet"),
        "store": ("PairKey", "PairResult", "Store"),
    },
)  # fmt: skip

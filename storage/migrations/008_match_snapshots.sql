-- A cache of a match's engine state: the state after action `seq` of its log, pickled, with
-- the fingerprint of the engine code and settings that made it. A cold start loads it and
-- replays only the actions after `seq`; the log stays the source of truth (a snapshot whose
-- fingerprint does not match, or that a later rewind made stale, is not used).
CREATE TABLE match_snapshots (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    seq INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    state BLOB NOT NULL
);

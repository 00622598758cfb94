-- What a running tournament has produced (the formats' record, the Cup's playoff seeds, the
-- organisers who asked for a copy of secret choices) lives apart from its settings, which
-- only organisers set. One JSON value per key.
CREATE TABLE tournament_state (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (tournament_id, key)
);
INSERT INTO tournament_state (tournament_id, key, value)
    SELECT t.id, j.key, j.value FROM tournaments t, json_each(t.settings) j
    WHERE j.key IN ('run', 'playoff_seeds', 'host_copy');
UPDATE tournaments SET settings = json_remove(settings, '$.run', '$.playoff_seeds', '$.host_copy');

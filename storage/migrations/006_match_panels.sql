-- A player's private panel of a match: the DM message the bot edits in place as the match
-- moves on, and sends again on /hand or /start m-<match id>.
CREATE TABLE match_panels (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX match_panels_by_user ON match_panels (user_id);

-- Pending late-choice reminders of the HP battle become the late clock of hidden input,
-- stamped with their match's position now (the clock acts only while it is unchanged).
UPDATE jobs SET kind = 'hidden_late',
    payload = json_set(json_remove(payload, '$.round'), '$.seq',
        (SELECT COALESCE(MAX(a.seq), 0) FROM match_actions a
         WHERE a.match_id = json_extract(jobs.payload, '$.match_id')))
    WHERE kind = 'hp_late' AND status = 'pending';

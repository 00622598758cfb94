-- A player's private panel of a match: the DM message the bot edits in place as the match
-- moves on, and sends again on /hand or /start m-<match id>.
CREATE TABLE match_panels (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX match_panels_by_user ON match_panels (user_id);

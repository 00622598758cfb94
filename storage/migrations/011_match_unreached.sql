-- The players of a match the bot could not write its private panel to, until a panel reaches
-- them: the match's own group message asks them to open the chat for as long as this lasts.
CREATE TABLE match_unreached (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id INTEGER NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

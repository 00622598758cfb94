-- A user's applications are looked up on every private message (is a form waiting?).
CREATE INDEX entrants_user ON entrants (user_id, status);

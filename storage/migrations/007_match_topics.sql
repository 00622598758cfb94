-- A match played in a forum topic of its own (topics=on): the topic's thread id.
ALTER TABLE matches ADD COLUMN thread_id INTEGER;

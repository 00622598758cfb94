-- A match's clocks are found by the match's id, not by reading every pending job's payload:
-- the id is a column of its own (copied from the payload, which keeps it too), indexed.
ALTER TABLE jobs ADD COLUMN match_id INTEGER;
UPDATE jobs SET match_id = json_extract(payload, '$.match_id')
 WHERE json_extract(payload, '$.match_id') IS NOT NULL;
CREATE INDEX jobs_by_match ON jobs (match_id, status) WHERE match_id IS NOT NULL;

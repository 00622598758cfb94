-- A friendly match (/challenge, /practice) is a tournament row of its own with this flag:
-- the chat's lists, targets and tables ignore it (README, "Decisions").
ALTER TABLE tournaments ADD COLUMN friendly INTEGER NOT NULL DEFAULT 0;

-- 1 while the organisers' decision on an application has not reached the applicant, who had
-- not opened the chat with the bot: an approval's card asks them to open it. Once they do,
-- they are told the decision and the card loses that line.
ALTER TABLE entrants ADD COLUMN unreached INTEGER NOT NULL DEFAULT 0;

-- A supergroup Telegram made of a group keeps the group's old id: what the bot says when it
-- joins a chat depends on whether the chat is new or the group it already knew.
ALTER TABLE chats ADD COLUMN migrated_from INTEGER;

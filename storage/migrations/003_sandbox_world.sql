-- The offline sandbox's stand-in for Telegram (bot/sandbox, README "The sandbox"): kept in
-- the bot's own database file so that a second sandbox run on the same --db continues the
-- first as one long run. The live bot never reads or writes these tables.
CREATE TABLE sandbox_users (
    handle TEXT PRIMARY KEY,
    id INTEGER NOT NULL UNIQUE,
    language TEXT NOT NULL,
    started INTEGER NOT NULL,
    blocked INTEGER NOT NULL
);

-- admins and topics are JSON lists of ids; a group with a topic is a forum.
CREATE TABLE sandbox_groups (
    name TEXT PRIMARY KEY,
    id INTEGER NOT NULL UNIQUE,
    creator INTEGER,
    admins TEXT NOT NULL,
    topics TEXT NOT NULL
);

-- Every message of every chat as the sandbox keeps it (the Bot API JSON), so an edit or a
-- button press in a later run finds it.
CREATE TABLE sandbox_messages (
    chat_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    from_bot INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);

CREATE TABLE sandbox_counters (
    chat_id INTEGER PRIMARY KEY,
    last_message_id INTEGER NOT NULL
);

-- The transcript's position: next update id, virtual clock, random state, lines carried out.
CREATE TABLE sandbox_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

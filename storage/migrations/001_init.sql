-- Users and chats the bot has seen; language is the user's /lang choice (NULL: Telegram's).
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT,
    first_name TEXT NOT NULL,
    telegram_language TEXT,
    language TEXT,
    started INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX users_username ON users (lower(username)) WHERE username IS NOT NULL;

CREATE TABLE chats (
    id INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    title TEXT,
    language TEXT,
    active_tournament_id INTEGER
);

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER NOT NULL REFERENCES chats (id),
    game TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    starts_at TEXT,
    timezone TEXT,
    created_by INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
);
CREATE INDEX tournaments_chat ON tournaments (chat_id, status);

-- status: name (waiting for Имя_Фамилия), photo (waiting for the screenshot), pending
-- (waiting for an organiser), approved, rejected, withdrawn, removed, disqualified.
CREATE TABLE entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL REFERENCES users (id),
    display_name TEXT,
    status TEXT NOT NULL,
    photo_file_id TEXT,
    checked_in INTEGER NOT NULL DEFAULT 0,
    seed INTEGER,
    application_message_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE UNIQUE INDEX entrants_name ON entrants (tournament_id, lower(display_name))
    WHERE display_name IS NOT NULL AND status IN ('photo', 'pending', 'approved');

-- Every organiser action: who, what, when and why.
CREATE TABLE organiser_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER REFERENCES tournaments (id),
    chat_id INTEGER,
    actor_id INTEGER NOT NULL,
    action TEXT NOT NULL,
    details TEXT NOT NULL DEFAULT '{}',
    reason TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    stage TEXT NOT NULL,
    round INTEGER NOT NULL,
    slot TEXT NOT NULL,
    kind TEXT NOT NULL,
    player_a INTEGER,
    player_b INTEGER,
    status TEXT NOT NULL,
    winner INTEGER,
    result TEXT NOT NULL DEFAULT '{}',
    board_message_id INTEGER,
    created_at TEXT NOT NULL,
    finished_at TEXT,
    UNIQUE (tournament_id, stage, slot)
);

-- The append-only history of a match; state is the replay of these rows in seq order.
CREATE TABLE match_actions (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,
    actor_id INTEGER,
    payload TEXT NOT NULL,
    update_id INTEGER,
    created_at TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);

-- Scheduled work; the scheduler is rebuilt from the pending rows at start-up.
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    tournament_id INTEGER REFERENCES tournaments (id),
    run_at TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'pending'
);
CREATE INDEX jobs_pending ON jobs (status, run_at);

CREATE TABLE processed_updates (
    update_id INTEGER PRIMARY KEY,
    processed_at TEXT NOT NULL
);

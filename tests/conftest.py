import os

# Tests never read a developer's .env or environment: every setting comes from the test.
for name in ("BOT_TOKEN", "ADMIN_IDS", "DATABASE_PATH", "WEBHOOK_URL", "WEBHOOK_SECRET",
             "BOT_API_URL", "TIMEZONE", "DEFAULT_LANGUAGE", "REMINDERS"):
    os.environ.pop(name, None)

from storage.cache import ReadCache  # noqa: E402

# Every cached read is checked against a fresh one: a write that forgets to drop its cached
# reads, or a caller that mutates a cached value, fails the test that does it.
ReadCache.verify = True

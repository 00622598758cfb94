import os

# Tests never read a developer's .env or environment: every setting comes from the test.
for name in ("BOT_TOKEN", "ADMIN_IDS", "DATABASE_PATH", "WEBHOOK_URL", "WEBHOOK_SECRET",
             "BOT_API_URL", "TIMEZONE", "DEFAULT_LANGUAGE", "REMINDERS"):
    os.environ.pop(name, None)

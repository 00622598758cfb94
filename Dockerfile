FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DATABASE_PATH=/data/bot.sqlite3
WORKDIR /app
# DejaVu draws Cyrillic names in the standings and bracket pictures.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY storage ./storage
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 bot \
    && mkdir -p /data && chown bot:bot /data
USER bot
VOLUME ["/data"]
EXPOSE 8080
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]

# General, the dice game bot: one image for Telegram, Discord or both (see DEPLOY.md).
# Build: docker build -t general .   Run: docker run --env-file .env -v general-data:/data general
FROM python:3.11-slim

# uv from the package index; the project's dependencies exactly as uv.lock pins them.
RUN pip install --no-cache-dir uv
ENV UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy UV_PYTHON_DOWNLOADS=never

RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin general \
    && mkdir /data && chown general:general /data
WORKDIR /app
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-dev
COPY bot ./bot
COPY adapters ./adapters
COPY core ./core
RUN python -m compileall -q bot adapters core

# The SQLite database lives on the volume; health and metrics on port 8080 inside.
ENV PATH=/app/.venv/bin:$PATH \
    GENERAL_DATABASE=/data/general.db \
    GENERAL_HTTP_LISTEN=0.0.0.0 \
    GENERAL_HTTP_PORT=8080
VOLUME /data
EXPOSE 8080
USER general

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=3).status != 200)"]
# SIGTERM is a clean stop: every press already taken is answered and stored.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]

# One deployable unit: `tasksvc run` starts bot, web and proxy; only the proxy's PORT is exposed.
FROM python:3.11.14-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    NODE_ENV=production \
    DATA_DIR=/app/data \
    PORT=3000

WORKDIR /app
# /app/data (the database) and /backups (BACKUP_DIR of deploy/compose.yaml) belong to the service's user: a new
# named volume mounted on them takes that ownership, so the unit can write both.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin tasksvc \
    && mkdir -p /app/data /backups \
    && chown tasksvc:tasksvc /app/data /backups

# The release: the build context has no .git, so the version and commit come as build arguments (deploy/compose.yaml
# passes TASKSVC_VERSION and TASKSVC_REVISION; docs/operations.md, "Upgrades"). `tasksvc --version` prints them, and
# the image carries them as its OCI labels (`docker image inspect`).
ARG VERSION=0.0.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="tasksvc" \
      org.opencontainers.image.description="Task tracker for WhatsApp groups: bot, web interface and proxy" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"

# A regular (non-editable) install, the same wheel the tests install, under the exact versions CI tests: the library
# and the service's own dependencies (the `service` extra), with the PostgreSQL driver.
COPY pyproject.toml README.md constraints.txt ./
COPY src ./src
RUN SETUPTOOLS_SCM_PRETEND_VERSION_FOR_TASKSVC="${VERSION}" \
    SETUPTOOLS_SCM_PRETEND_METADATA_FOR_TASKSVC="{node=\"g${REVISION}\"}" \
    pip install --no-cache-dir --constraint constraints.txt ".[service,postgres]"

USER tasksvc
VOLUME ["/app/data", "/backups"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s --retries=3 \
    CMD python -c "import os, sys, urllib.request; url = f'http://127.0.0.1:{os.environ.get(\"PORT\", \"3000\")}/health'; sys.exit(0 if urllib.request.urlopen(url, timeout=2).status == 200 else 1)"

CMD ["tasksvc", "run"]

# pbem in a container: the whole server (web pages, scheduler, SMTP receiver, outbox) in one
# process, its data (database, secret key, local mail folder) in the volume /var/lib/pbem.
# Build and start: docker compose up -d (compose.yaml); docs/operations.md, "In a container".
FROM python:3.11-slim

# what `pip install .` needs: the package, its data files (pyproject's data-files), the metadata
COPY pyproject.toml README.md /src/
COPY pbem /src/pbem
COPY maps /src/maps
COPY templates /src/templates
COPY static /src/static
RUN pip install --no-cache-dir /src && rm -rf /src

# a user of its own, never root; its home is the instance, the volume below
RUN useradd --system --user-group --create-home --home-dir /var/lib/pbem --shell /usr/sbin/nologin pbem

# the settings, as PBEM_<NAME> variables (docs/operations.md, "Settings"); set the club's in
# compose.yaml (base_url, from_addr, domain, admin_email, the relay) or in a settings file
# mounted at /etc/pbem/pbem.toml and named by PBEM_CONFIG
ENV PBEM_INSTANCE=/var/lib/pbem \
    PBEM_WEB_HOST=0.0.0.0 \
    PBEM_WEB_PORT=8080 \
    PBEM_SMTP_HOST=0.0.0.0 \
    PBEM_SMTP_PORT=2525 \
    PBEM_DEMO=false \
    PYTHONUNBUFFERED=1

USER pbem
WORKDIR /var/lib/pbem
VOLUME /var/lib/pbem
EXPOSE 8080 2525
HEALTHCHECK --interval=30s --timeout=5s CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/login', timeout=4)"]
CMD ["pbem", "serve"]

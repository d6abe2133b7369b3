# Hugging Face Spaces (Docker SDK; README front matter: sdk docker, app_port 8501), or any host
# that runs containers. Every step is a call into scripts/deploy.sh, which CI runs on a fresh
# virtual environment (scripts/deploy_check.sh): this file itself has not been built here.
FROM python:3.11-slim

# Spaces runs the container as user 1000; own the app and its caches as that user.
RUN useradd --create-home --uid 1000 user
USER user
ENV HOME=/home/user \
    VIRTUAL_ENV=/home/user/venv \
    PATH=/home/user/venv/bin:/home/user/.local/bin:$PATH \
    NUMBA_CACHE_DIR=/home/user/numba-cache \
    PYTHON=python
WORKDIR /home/user/app
RUN python -m venv "$VIRTUAL_ENV"

# Dependencies first, so a code change does not reinstall them.
COPY --chown=user requirements.txt ./
COPY --chown=user scripts/deploy.sh scripts/
RUN bash scripts/deploy.sh install

COPY --chown=user . .
# Compile every numba kernel now, into NUMBA_CACHE_DIR, so the first visitor does not wait.
RUN bash scripts/deploy.sh warm

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"
# Binds 0.0.0.0:8501 (deploy.sh's defaults).
CMD ["bash", "scripts/deploy.sh", "serve"]

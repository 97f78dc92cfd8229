# Any Debian-like image with Python 3.11 and its venv module: the official one by default;
# deploy/images.sh passes one it made where no registry answers.
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE}
WORKDIR /app
RUN python3 -m venv /opt/tabletop
ENV PATH=/opt/tabletop/bin:$PATH
# The dependencies first (a layer kept while only the source changes): from the wheelhouse
# deploy/images.sh makes when there is one, else from PyPI.
COPY deploy/wheels ./wheels
RUN if ls wheels/*.whl >/dev/null 2>&1; then \
      pip install --no-cache-dir --no-index --find-links wheels wheels/*.whl; fi
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY services ./services
RUN if ls wheels/*.whl >/dev/null 2>&1; then set -- --no-index --find-links wheels; fi; \
    pip install --no-cache-dir "$@" ".[fast]"
ENV TABLETOP_LOG_FORMAT=json
ENTRYPOINT ["tabletop"]

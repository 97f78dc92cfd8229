FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY services ./services
RUN pip install --no-cache-dir ".[fast]"
ENV TABLETOP_LOG_FORMAT=json
ENTRYPOINT ["tabletop"]

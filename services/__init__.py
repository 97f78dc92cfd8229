"""The services, the CLI and the web server of tabletop."""

from importlib.metadata import version

# tabletop's one version (pyproject.toml's, as installed): every micro service reports it,
# `tabletop --version` prints it and the web client's /config.json carries it.
VERSION = version("tabletop")

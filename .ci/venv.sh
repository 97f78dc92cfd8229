# Sourced by ./tabletop and ./test: `use_venv ROOT EXTRAS` makes ROOT/.venv with Python 3.11+
# on first use and installs the checkout at ROOT into it (editable, with EXTRAS such as
# "[test]"), and installs again once pyproject.toml has changed; it sets `venv` to its path.
# TABLETOP_VENV names an environment to use as it is instead, with nothing installed.

use_venv() {
    if [ -n "${TABLETOP_VENV:-}" ]; then
        venv=$TABLETOP_VENV
        return
    fi
    venv=$1/.venv
    if [ ! -x "$venv/bin/python" ]; then
        python=${PYTHON:-python3}
        if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "tabletop needs Python 3.11 or newer as \`$python\` (or set PYTHON)" >&2
            exit 1
        fi
        "$python" -m venv "$venv"
    fi
    stamp="$venv/.tabletop-installed$2"
    if [ -z "$2" ] && [ -f "$venv/.tabletop-installed[test]" ]; then
        stamp="$venv/.tabletop-installed[test]"  # the test extra's install has tabletop too
    fi
    if [ ! -f "$stamp" ] || [ "$1/pyproject.toml" -nt "$stamp" ]; then
        echo "installing tabletop$2 into $venv ..." >&2
        "$venv/bin/python" -m pip install --quiet --editable "$1$2"
        touch "$stamp"
    fi
}

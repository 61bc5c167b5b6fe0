#!/usr/bin/env bash
# ordstat as users install it: build the wheel and the sdist, check them (twine, the file lists),
# install the wheel into a fresh virtualenv outside the repository, pip check, then run
# tests/install/wheel_smoke.py from a folder outside the source tree, without any extra and
# again after installing matplotlib.
#
#   tests/install/check_wheel.sh PYTHON [VENV_PYTHON]
#
# PYTHON builds (it needs the build and twine packages, e.g. .venv/bin/python); the fresh
# virtualenv is made by VENV_PYTHON (default: python3). The build is isolated (setuptools from
# PyPI or the pip cache); dependencies come from PyPI or the pip cache. Prints the time of
# every step; everything happens in a temporary folder, removed at the end.
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $0 PYTHON [VENV_PYTHON]" >&2
    exit 2
fi
PYTHON=$1
VENV_PYTHON=${2:-python3}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ordstat-wheel.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# nothing of the repository may leak into the installed package's imports
unset PYTHONPATH PYTHONHOME
export PIP_DISABLE_PIP_VERSION_CHECK=1

START=$SECONDS
LAST=$SECONDS
lap() {  # print the time of the step that just ended
    printf '%6d s  %s\n' $((SECONDS - LAST)) "$1"
    LAST=$SECONDS
}
quiet() {  # run a command, show its output only when it fails
    local log="$TMP/step.log"
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        echo "check_wheel: failed: $*" >&2
        exit 1
    fi
}

# The files git tracks or would track (no .venv, build output or caches), copied so that the
# build leaves nothing in the repository.
mkdir -p "$TMP/src" "$TMP/dist" "$TMP/work"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
    | xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh \
    | tar --null -T - -cf -) | tar -C "$TMP/src" -xf -
lap "copied the source tree"

quiet "$PYTHON" -m build --outdir "$TMP/dist" "$TMP/src"
WHEEL=$(ls "$TMP"/dist/ordstat-*.whl)
SDIST=$(ls "$TMP"/dist/ordstat-*.tar.gz)
VERSION=$(basename "$WHEEL" | cut -d- -f2)
lap "built $(basename "$WHEEL") and $(basename "$SDIST")"

quiet "$PYTHON" -m twine check --strict "$WHEEL" "$SDIST"
"$PYTHON" "$ROOT/tests/install/wheel_contents.py" "$WHEEL" "$SDIST"
lap "twine check, file lists of the wheel and the sdist"

"$VENV_PYTHON" -m venv "$TMP/venv"
VPY="$TMP/venv/bin/python"
quiet "$VPY" -m pip install -q --no-compile "$WHEEL"
lap "fresh virtualenv, pip install the wheel (dependencies from PyPI or the cache)"

"$VPY" -m pip check
lap "pip check"

cp "$ROOT/tests/install/wheel_smoke.py" "$TMP/work/"
cd "$TMP/work"
"$VPY" wheel_smoke.py core "$VERSION"
lap "wheel_smoke core (no extras)"

quiet "$VPY" -m pip install -q --no-compile matplotlib
lap "pip install matplotlib"
"$VPY" wheel_smoke.py plot "$VERSION"
lap "wheel_smoke plot"

printf '%6d s  check_wheel: ordstat %s installs and runs from a wheel\n' \
    $((SECONDS - START)) "$VERSION"

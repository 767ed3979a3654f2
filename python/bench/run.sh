#!/usr/bin/env bash
# The benchmarks of the Python package (bench/README.md): builds it into a venv of
# its own (python/bench/.venv, ignored by git) with the packages it is compared
# with, which are installed there only, then runs bench.py. Arguments go to
# bench.py (--quick: a tenth of each list).
#
#   bash python/bench/run.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
venv="$here/.venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "$here/.." \
    rfc3987==1.3.8 rfc3987-syntax2==1.3.3 rfc3986-validator==0.1.1 rfc3986==2.0.0
cd "$here"
exec "$venv/bin/python" "$here/bench.py" "$@"

#!/usr/bin/env bash
# One prepared run of every CUDA path, for a session that is lent a GPU machine (the `device` tool).
#
# The GPU image has Python 3.12 with a CUDA torch, numpy, psutil, pyyaml, nvidia-ml-py and pytest, but not this
# project's pure-Python dependencies. Fetch them here first (they are small), as the device README describes:
#   echo /.whl/ >> .git/info/exclude
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#       --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .whl \
#       pydantic==2.14.4 pydantic-core==2.50.5 annotated-types typing-inspection platformdirs
# then run, with `.whl` carried:   bash bench/gpu_session.sh
# Everything it prints is also written under $OUT (or ./gpu-session) for the closing note.
set -u -o pipefail
OUT=${OUT:-gpu-session}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
if compgen -G ".whl/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
fi
export PYTHONPATH="$PWD:/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
export TUTOR_DATA_DIR="$OUT/data"
tutor() { python3 -m tutor "$@"; }

step() { printf '\n=== %s\n' "$*"; }
{
    step "GPU"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
    step "torch"; python3 -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.get_arch_list())"
    step "tutor doctor"; tutor doctor --lock "$OUT/env.lock.json"; tutor doctor --json > "$OUT/doctor.json"
    step "CUDA tests"; python3 -m pytest -q -p no:cacheprovider tests/test_measure_cuda.py tests/test_measure_api.py
    step "tutor telemetry (NVML)"; tutor telemetry --json --samples 3 --interval 0.5
    step "tutor bench --quick, twice"
    tutor bench --quick --device cuda --json "$OUT/bench1.json" --markdown "$OUT/bench1.md"
    tutor bench --quick --device cuda --json "$OUT/bench2.json"
    step "hand-written references next to the bench"; python3 bench/reference.py --device cuda --mode quick
    step "CPU figures on the same machine, for the note"; tutor bench --quick --device cpu --no-store
} 2>&1 | tee "$OUT/session.log"

#!/usr/bin/env bash
# Regenerates the synthetic documents and retrains the learned field scorer in one command, with a
# fixed seed, under issue 14's honest protocol (only the tuning part of the labelled dev sets is
# read; see models/README.md, "Retrain"). Idempotent: the virtualenv and the binaries are only
# brought up to date, the synthetic set and the tuning views are rebuilt from scratch.
#
#   bash scripts/retrain.sh [TRAIN_FLAGS...]     e.g. --no-e2e (quick), --e2e-images, --seed S
#
# Writes models/fields.onnx, models/fields.calibration.json and models/fields.metrics.json, and
# prints the summary (tune-CV and synthetic held-out figures, rules -> model, time per phase);
# then trains the party model (models/train_parties.py: models/parties.onnx, its calibration and
# metrics), with the same --data and --out. --fields-only skips the party model. The choice
# model (currency, document type: models/train_choices.py) reads the fields as the engine does,
# with the models built into it: it is trained last, and only when --out is models/ (the
# default), after a rebuild with the new field and party models; with another --out, copy the
# files to models/ and run `.venv/bin/python models/train_choices.py` yourself.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# The Python packages pinned in scripts/requirements.txt (scripts/setup.sh installs the rest of
# the toolchain too; a virtualenv that is up to date is only checked).
if [ ! -x .venv/bin/python ] || [ ! -f .venv/.requirements.sha256 ] \
    || [ "$(cat .venv/.requirements.sha256)" != "$(sha256sum scripts/requirements.txt | cut -d' ' -f1)" ]; then
    bash scripts/setup.sh
fi
# The dev profile: the workspace builds one profile for builds and tests.
cargo build -q -p folio-bench --bin export_features --bin accuracy
# --data and --out go to both trainers; --fields-only is this script's own.
shared=()
fields=()
parties=1
out=models
data=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shared+=("$1" "$2"); fields+=("$1" "$2"); shift 2 ;;
        --data) data=(--data "$2"); shared+=("$1" "$2"); fields+=("$1" "$2"); shift 2 ;;
        --fields-only) parties=0; shift ;;
        *) fields+=("$1"); shift ;;
    esac
done
.venv/bin/python models/train.py ${fields[@]+"${fields[@]}"}
if [ "$parties" = 1 ]; then
    .venv/bin/python models/train_parties.py ${shared[@]+"${shared[@]}"}
fi
if [ "$(realpath -m "$out")" = "$(realpath -m models)" ]; then
    cargo build -q -p folio-bench --bin export_features
    .venv/bin/python models/train_choices.py ${data[@]+"${data[@]}"}
else
    echo "retrain: the choice model reads the fields with the models built in: copy $out/* to models/, then run .venv/bin/python models/train_choices.py" >&2
fi

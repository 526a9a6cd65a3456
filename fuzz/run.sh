#!/usr/bin/env bash
# Builds the fuzz targets (stable Rust, cargo-fuzz without a sanitizer), seeds their corpora from
# fixtures/ (fuzz/seed.py) and runs them.
#
#   bash fuzz/run.sh smoke [SCALE]     every target: its seeds, then a fixed number of executions
#                                      (about 3 s each on one core, times SCALE, default 1) from a
#                                      fixed seed, so a given commit always runs the same inputs
#                                      (on one build: another machine's build meets others);
#                                      a crash, a hang (10 s), memory past 2 GB or an allocation
#                                      past the 8 GB address-space cap fails (CI)
#   bash fuzz/run.sh long TARGET RUNS [JOBS]
#                                      RUNS executions of TARGET in libFuzzer's fork mode with JOBS
#                                      processes (default 1), going on past crashes; prints the
#                                      final stats line (executions, coverage, corpus)
#   bash fuzz/run.sh list              the targets
#
# Crashing inputs are written to fuzz/artifacts/<target>-crash-<sha1> (not committed); replay one
# with `fuzz/target/x86_64-unknown-linux-gnu/release/<target> <file>` (FOLIO_FUZZ_VERBOSE=1 prints
# each input's outcome). Needs cargo-fuzz (scripts/setup.sh installs it) and the project .venv.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

TARGETS=(filetype pdf image doc docx sheet rtf words_json hocr einvoice signed_url multipart)
# Executions of the smoke run: about 3 s of each target on one core of the CI machine.
declare -A SMOKE_RUNS=([filetype]=150000 [pdf]=600 [image]=5000 [doc]=150000 [docx]=100000
  [sheet]=60000 [rtf]=30000 [words_json]=20000 [hocr]=9000 [signed_url]=200000
  [multipart]=80000 [einvoice]=60000)
BIN="fuzz/target/x86_64-unknown-linux-gnu/release"
# What a single input may cost before it counts as a finding.
LIMITS=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10)
# Address space of a fuzzing process (KiB): without a sanitizer libFuzzer cannot see an allocation
# that is never touched, and whether the kernel grants a 35 GB one depends on the machine's
# overcommit policy; capped, such an allocation fails (an abort: a finding) on every machine.
VMEM_KB=$((8 * 1024 * 1024))

build() {
  # -s none: no sanitizer, so no nightly-only -Z flags; -a: debug assertions and overflow checks.
  (cd fuzz && cargo fuzz build -s none -a >&2)
  .venv/bin/python fuzz/seed.py
  mkdir -p fuzz/artifacts
}

case "${1:-}" in
  list)
    printf '%s\n' "${TARGETS[@]}"
    ;;
  smoke)
    scale="${2:-1}"
    build
    failed=()
    for t in "${TARGETS[@]}"; do
      log="fuzz/artifacts/$t.smoke.log"
      # A scratch corpus beside the seeds: the run adds nothing to fuzz/corpus.
      scratch="$(mktemp -d)"
      runs=$((SMOKE_RUNS[$t] * scale))
      if (ulimit -v "$VMEM_KB" && exec "$BIN/$t" "${LIMITS[@]}" -runs="$runs" -seed=1 \
        -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t-" "$scratch" "fuzz/corpus/$t" \
        >"$log" 2>&1); then
        echo "fuzz $t: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') executions, ok" >&2
      else
        echo "fuzz $t: FAILED (see $log)" >&2
        grep -E 'panicked at|^thread .* panicked|ERROR: libFuzzer|^SUMMARY|Test unit written' "$log" | head -8 >&2 || true
        failed+=("$t")
      fi
      rm -rf "$scratch"
    done
    if [ ${#failed[@]} -gt 0 ]; then
      echo "fuzz: findings in ${failed[*]}" >&2
      exit 1
    fi
    ;;
  long)
    t="${2:?target}"; runs="${3:?runs}"; jobs="${4:-1}"
    build
    mkdir -p "fuzz/corpus/$t.long"
    log="fuzz/artifacts/$t.long.log"
    start=$(date +%s)
    # Fork mode: JOBS child processes, findings saved and the run going on.
    (ulimit -v "$VMEM_KB" && exec "$BIN/$t" "${LIMITS[@]}" -runs="$runs" -fork="$jobs" \
      -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -print_final_stats=1 \
      -artifact_prefix="fuzz/artifacts/$t-" "fuzz/corpus/$t.long" "fuzz/corpus/$t" \
      >"$log" 2>&1) || true
    end=$(date +%s)
    echo "fuzz $t: $((end - start)) s, $(grep -E '^#[0-9]+' "$log" | tail -1)"
    ls "fuzz/artifacts/" | grep -E "^$t-(crash|timeout|oom|leak)-" || true
    ;;
  *)
    sed -n '2,17p' "$0" >&2
    exit 2
    ;;
esac

# Where the test suite's time goes, sourced by scripts/test and .ci/run: `step NAME CMD...`
# runs CMD and, when LASTBITE_TIMINGS names a file, appends "seconds<TAB>NAME" to it;
# `print_timings` prints those lines as a Markdown table with their total, when the
# caller asked for it (PRINT_TIMINGS=1). A step's figure is wall time, compile and run
# apart where the step names one of them.
step() {
  local name="$1"
  shift
  local t0
  t0=$(date +%s.%N)
  "$@"
  if [ -n "${LASTBITE_TIMINGS:-}" ]; then
    awk -v a="$t0" -v b="$(date +%s.%N)" -v n="$name" 'BEGIN { printf "%.1f\t%s\n", b - a, n }' >>"$LASTBITE_TIMINGS"
  fi
}

print_timings() {
  if [ "${PRINT_TIMINGS:-0}" != 1 ] || [ -z "${LASTBITE_TIMINGS:-}" ]; then
    return 0
  fi
  awk -F'\t' 'BEGIN { print "| step | seconds |"; print "|---|---:|" }
    { printf "| %s | %.0f |\n", $2, $1; t += $1 }
    END { printf "| total | %.0f |\n", t }' "$LASTBITE_TIMINGS"
}

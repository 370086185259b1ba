# Where the test suite's time goes, sourced by scripts/test and .ci/run: `step NAME CMD...`
# runs CMD and, when LASTBITE_TIMINGS names a file, appends "seconds<TAB>NAME" to it;
# `print_timings` prints those lines as a Markdown table with their total, when the
# caller asked for it (PRINT_TIMINGS=1). A step's figure is wall time, compile and run
# apart where the step names one of them.
#
# `step_bg NAME CMD...` starts a step in the background, for work that leaves a core idle
# beside the steps that follow (a single-threaded link beside a browser waiting on its
# pages); `step_wait NAME` waits for it, prints its output, and fails as it failed. The
# table lists a background step's own time marked "(overlapped)", outside the total, and
# the time spent waiting for it as a step of its own, inside: the total stays wall time.
step() {
  local name="$1"
  shift
  local t0
  t0=$(date +%s.%N)
  "$@"
  record "$t0" "$name"
}

record() {
  if [ -n "${LASTBITE_TIMINGS:-}" ]; then
    awk -v a="$1" -v b="$(date +%s.%N)" -v n="$2" 'BEGIN { printf "%.1f\t%s\n", b - a, n }' >>"$LASTBITE_TIMINGS"
  fi
}

declare -A BG_PID=() BG_LOG=()
# A suite that stops at a failing step stops its background steps too.
stop_bg() {
  local pid
  for pid in "${BG_PID[@]}"; do
    kill -- "$pid" 2>/dev/null || true
  done
}
step_bg() {
  local name="$1"
  shift
  trap stop_bg EXIT
  BG_LOG[$name]=$(mktemp)
  (step "$name (overlapped)" "$@") >"${BG_LOG[$name]}" 2>&1 &
  BG_PID[$name]=$!
}

step_wait() {
  local name="$1" rc=0 t0
  t0=$(date +%s.%N)
  wait "${BG_PID[$name]}" || rc=$?
  record "$t0" "waiting for: $name"
  echo "--- $name (ran in the background):"
  cat "${BG_LOG[$name]}"
  rm -f "${BG_LOG[$name]}"
  if [ "$rc" != 0 ]; then
    echo "$name failed (exit $rc)" >&2
    return "$rc"
  fi
}

print_timings() {
  if [ "${PRINT_TIMINGS:-0}" != 1 ] || [ -z "${LASTBITE_TIMINGS:-}" ]; then
    return 0
  fi
  awk -F'\t' 'BEGIN { print "| step | seconds |"; print "|---|---:|" }
    { printf "| %s | %.0f |\n", $2, $1; if ($2 !~ /\(overlapped\)$/) t += $1 }
    END { printf "| total | %.0f |\n", t }' "$LASTBITE_TIMINGS"
}

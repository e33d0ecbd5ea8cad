#!/bin/sh
# labs/grade/fuzz.sh: `make fuzz`, a long fuzzing campaign for $ARCH. Boots
# a fresh image, runs user/fuzz.c's campaign and then fsck on the image it
# leaves; prints the fuzzer's PASS/FAIL lines, its calls per second, and
# "N passed, N failed". A run passes when nothing panics or hangs, no
# worker is left stuck in the kernel, free memory comes back, and the
# image is clean.
#
# Environment: FUZZ_CALLS (1000000), FUZZ_SEED (the clock's seconds; it
# is printed, so that `make fuzz FUZZ_SEED=S` replays a run), FUZZ_THREADS
# (3), FUZZ_PROCS (3), CPUS (3), FUZZ_SECS (how long the campaign may take
# before it counts as a hang: 3600).
cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh

CALLS=${FUZZ_CALLS:-1000000}
SEED=${FUZZ_SEED:-$(date +%s)}
THREADS=${FUZZ_THREADS:-3}
PROCS=${FUZZ_PROCS:-3}
FCPUS=${CPUS:-3}
SECS=${FUZZ_SECS:-3600}

trap 'qemu_stop' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

suite_header fuzz "$ARCH, CPUS=$FCPUS"
fuzz_campaign fuzz-campaign "$FCPUS" "$SEED" "$CALLS" "$THREADS" "$PROCS" "$SECS"
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

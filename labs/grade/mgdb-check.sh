#!/bin/sh
# labs/grade/mgdb-check.sh: mgdb attaches to every thread of a running
# multi-threaded program, shows each one stopped, and detaches leaving the
# program running.
#
# Boots a copy of the image, starts `threads 8 &` (1+8 threads), lists its
# threads with `ps -T -p PID`, runs
#     mgdb -p PID -batch -ex "info threads" -ex detach
# and checks in the serial log that "info threads" shows all 9 threads in
# state t, that mgdb detached, and that `ps -T -p PID` afterwards shows
# all 9 again in state S or R. One PASS/FAIL line per check, then
# "N passed, N failed"; exits non-zero on a failure.
#
#   sh labs/grade/mgdb-check.sh         (ARCH and CPUS as for make check)

cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh

IMG=build/$ARCH/fs.img
CPUS=${CPUS:-3}
RUN=mgdb-check-cpus$CPUS
NTHREADS=9                      # threads 8: eight plus the main thread

# log_lines: how many lines the log holds now.
log_lines() {
	wc -l < "$Q_LOG"
}

# log_since N: the log after its first N lines, carriage returns removed.
log_since() {
	tail -n +"$(($1 + 1))" "$Q_LOG" | tr -d '\r'
}

# run_cmd LINE: type LINE at the next prompt and wait until it has finished
# (the prompt after it); its output goes to $OUT. False (with Q_REASON) on
# a timeout.
run_cmd() {
	_rc_start=$(log_lines)
	qemu_send "$1" 60 && qemu_wait_prompt 60
	_rc_r=$?
	OUT=$(log_since "$_rc_start")
	return $_rc_r
}

# ps_states: from $OUT (a `ps -T -p $PID` listing), "TID STATE" per thread.
ps_states() {
	printf '%s\n' "$OUT" | awk -v pid="$PID" '$1 == pid && $2 ~ /^[0-9]+$/ { print $2, $3 }'
}

main() {
	mkdir -p "$TESTDIR"
	cp --sparse=always "$IMG" "$TESTDIR/$RUN.img" || { fail "mgdb-check: no image $IMG (run make)"; return; }
	qemu_start "$RUN" "$CPUS" "$TESTDIR/$RUN.img" 240 || { fail "mgdb-check: could not start QEMU"; return; }

	if ! qemu_send 'threads 8 &' 60 || ! qemu_wait_for 'ready (1+8 threads)' 60; then
		fail_log "mgdb-check: threads 8 did not say it was ready: $Q_REASON"
		return
	fi
	PID=$(tr -d '\r' < "$Q_LOG" | sed -n 's/.*threads: pid \([0-9][0-9]*\) ready (1+8 threads).*/\1/p' | head -n 1)
	if [ -z "$PID" ]; then
		fail_log "mgdb-check: cannot read the pid of threads 8 from the log"
		return
	fi
	pass "mgdb-check: threads 8 is running as pid $PID"

	run_cmd "ps -T -p $PID" || { fail_log "mgdb-check: ps -T did not finish: $Q_REASON"; return; }
	TIDS=$(ps_states | awk '{ print $1 }')
	n=$(printf '%s\n' "$TIDS" | grep -c '[0-9]')
	if [ "$n" -eq $NTHREADS ]; then
		pass "mgdb-check: ps -T lists $NTHREADS threads of $PID before mgdb"
	else
		fail_log "mgdb-check: ps -T lists $n threads of $PID before mgdb, want $NTHREADS"
		return
	fi

	run_cmd "mgdb -p $PID -batch -ex \"info threads\" -ex detach" ||
		{ fail_log "mgdb-check: mgdb did not finish: $Q_REASON"; return; }
	MGDB=$OUT
	printf '%s\n' "$MGDB" | grep -q -x -F "Attaching to process $PID" &&
		pass "mgdb-check: mgdb printed \"Attaching to process $PID\"" ||
		fail_log "mgdb-check: no \"Attaching to process $PID\" line"
	missing=""
	for tid in $TIDS; do
		printf '%s\n' "$MGDB" | grep -q -E "^[* ] [0-9]+ +LWP $tid +[^ ]+ +t 0x[0-9a-f]+" ||
			missing="$missing $tid"
	done
	if [ -z "$missing" ]; then
		pass "mgdb-check: info threads lists all $NTHREADS threads in state t"
	else
		fail_log "mgdb-check: info threads does not list in state t the threads:$missing"
	fi
	if printf '%s\n' "$MGDB" | grep -q 'Cannot attach'; then
		fail_log "mgdb-check: mgdb could not attach to some thread: $(printf '%s\n' "$MGDB" | grep 'Cannot attach' | head -n 1)"
	else
		pass "mgdb-check: mgdb attached to every thread without a warning"
	fi
	printf '%s\n' "$MGDB" | grep -q -x -F "[Inferior 1 (process $PID) detached]" &&
		pass "mgdb-check: mgdb detached" ||
		fail_log "mgdb-check: no \"[Inferior 1 (process $PID) detached]\" line"

	run_cmd "ps -T -p $PID" || { fail_log "mgdb-check: ps -T did not finish: $Q_REASON"; return; }
	after=$(ps_states)
	bad=$(printf '%s\n' "$after" | awk 'NF == 2 && $2 != "S" && $2 != "R" { printf " %s(%s)", $1, $2 }')
	n=$(printf '%s\n' "$after" | grep -c '[0-9]')
	if [ "$n" -eq $NTHREADS ] && [ -z "$bad" ]; then
		pass "mgdb-check: after detach all $NTHREADS threads run on (state S or R)"
	else
		fail_log "mgdb-check: after detach ps -T shows $n threads, not running:$bad"
	fi

	if qemu_send poweroff 30 && qemu_wait_exit 30; then
		pass "mgdb-check: poweroff ends QEMU with status 0"
	else
		fail_log "mgdb-check: poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
	fi
}

main
qemu_stop
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

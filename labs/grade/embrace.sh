#!/bin/sh
# labs/grade/embrace.sh: `make grade LAB=embrace`, the grader of lab 04.
#
# Checks that the kernel behaves as Linux 5.12-rc5 did after the
# "embrace" fix (I/O threads take signals in their own loops, can be
# traced, and die by themselves), with a looping `uringcp -l -a big out`
# as the workload:
#   - mgdb attaches to every thread, I/O threads included, without a
#     warning, and `info threads` shows every one of them stopped (t);
#   - its detach resumes everything: no thread stays stopped, nothing is
#     traced, the copy goes on;
#   - `kill -STOP PID` stops every thread (ps -T: all T), the parent is
#     told (waitpid(WUNTRACED)), and top -H shows the I/O threads using
#     (almost) no CPU;
#   - SIGCONT resumes every thread; a one-shot copy stopped in the middle
#     and continued completes, byte-identical (cmp, cksum);
#   - STOP then `kill -9 PID` ends every thread at once, and no page is
#     lost (MemFree as before).
# The baseline fails the mgdb and STOP checks; the embrace series passes
# all. One PASS/FAIL line per check, then "N passed, N failed"; exit 1 on
# a failure. CPUS=N picks the CPU count (default 3). The full serial log is
# build/$ARCH/test/embrace.log.

cd "$(dirname "$0")/../.." || exit 1
RUN=embrace
. labs/grade/lib.sh
. labs/grade/lib-uring.sh

CPUS=${CPUS:-3}
MAX_IDLE_CPU=10     # %CPU the I/O threads of a stopped process may use together

# not_in_state STATE: from $THREADS, " TID(STATE)" for threads not in STATE.
not_in_state() {
	echo "$THREADS" | awk -v s="$1" 'NF && $2 != s { printf " %s(%s)", $1, $2 }'
}

suite_header "$RUN" "$ARCH, CPUS=$CPUS"
uring_boot "$CPUS" || finish
start_copy '-l -a big out' || finish

# 1. mgdb attaches to every thread ps -T lists, the I/O threads too.
get_threads "$PID"
ALLTIDS=$(echo "$THREADS" | awk 'NF { print $1 }')
NIO=$(echo "$THREADS" | awk '$3 ~ /^iou-/' | wc -l)
if run_cmd "mgdb -p $PID -n 5 -batch -ex \"info threads\" -ex detach" 90; then
	MOUT=$OUT
	NWARN=$(grep -c 'Cannot attach' "$MOUT")
	LISTED=$(grep -E '^[* ] [0-9]+ +LWP [0-9]+ ' "$MOUT" | sed 's/^[* ]//' | awk '{ print $3, $5, $4 }')
	NOTSTOPPED=$(echo "$LISTED" | awk 'NF && $2 != "t" { printf " %s(%s)", $1, $2 }')
	IOSTOPPED=$(echo "$LISTED" | awk '$3 ~ /^iou-/ && $2 == "t"' | wc -l)
	MISSING=""
	for t in $ALLTIDS; do
		echo "$LISTED" | awk -v t="$t" '$1 == t { f = 1 } END { exit !f }' || MISSING="$MISSING $t"
	done
	if [ "$NWARN" -gt 0 ] || grep -q 'giving up' "$MOUT"; then
		fail_log "mgdb -p $PID: $NWARN 'Cannot attach' warning(s)$(grep -q 'giving up' "$MOUT" && echo ', and it gave up') (output: $MOUT)"
	elif [ -n "$MISSING" ] || [ -n "$NOTSTOPPED" ] || [ "$NIO" -lt 2 ] || [ "$IOSTOPPED" -lt "$NIO" ]; then
		fail_log "mgdb info threads should list all $(echo $ALLTIDS | wc -w) threads ps shows ($NIO I/O threads), each stopped (t); missing:${MISSING:- none}, not stopped:${NOTSTOPPED:- none} (output: $MOUT)"
	else
		pass "mgdb -p $PID attaches to all $(echo $ALLTIDS | wc -w) threads without a warning; info threads shows the $NIO I/O threads stopped (t)"
	fi
	if grep -q -x -F "[Inferior 1 (process $PID) detached]" "$MOUT"; then
		DETACHED=yes
	else
		DETACHED=no
	fi
else
	fail_log "mgdb -p $PID -n 5 did not end within 90 s: $Q_REASON"
	DETACHED=no
fi

# 2. The detach resumes everything: nothing stopped, nothing traced, and
# the copy goes on (the process's CPU time grows).
get_threads "$PID"
HELD=$(echo "$THREADS" | awk 'NF && ($2 == "t" || $2 == "T") { printf " %s(%s)", $1, $2 }')
TRACED=""
for t in $ALLTIDS; do
	run_cmd "cat /proc/$PID/task/$t/status" 20
	tr=$(awk '$1 == "TracerPid:" { print $2 }' "$OUT")
	[ -n "$tr" ] && [ "$tr" != 0 ] && TRACED="$TRACED $t"
done
get_ticks "$PID"
T1=$TICKS
run_cmd 'sleep 2' 10
get_ticks "$PID"
T2=$TICKS
if [ "$DETACHED" = yes ] && [ -z "$HELD" ] && [ -z "$TRACED" ] && [ "${T2:-0}" -gt "${T1:-0}" ]; then
	pass "mgdb's detach resumes every thread: none stopped or traced, CPU time $T1 -> $T2 ticks in 2 s"
else
	fail_log "after mgdb's detach (detached: $DETACHED): threads stopped:${HELD:- none}, still traced:${TRACED:- none}, CPU time ${T1:-?} -> ${T2:-?} ticks in 2 s"
fi

# 3. kill -STOP stops every thread, and the parent is told.
stop_copy "$PID"
STOP_WORKS=$STOPPED     # if not, later stops need not be waited for long
case "$STOPPED" in
yes) pass "kill -STOP $PID: the parent is told it stopped (waitpid WUNTRACED)" ;;
no) fail_log "kill -STOP $PID: the parent was not told within $STOP_SECS s that it stopped ($STOP_DETAIL)" ;;
*) fail_log "kill -STOP $PID: waitstop said nothing about the stop: $Q_REASON" ;;
esac
get_threads "$PID"
NOTT=$(not_in_state T)
NALL=$(echo "$THREADS" | awk 'NF' | wc -l)
if [ -z "$NOTT" ] && [ "$NALL" -ge 3 ]; then
	pass "ps -T after kill -STOP: all $NALL threads of $PID are stopped (T), I/O threads too"
else
	fail_log "ps -T after kill -STOP: want every thread of $PID in T; not stopped:${NOTT:- none} (output: $OUT)"
fi
get_io_cpu "$PID"
if [ "$IOCPU" -le $MAX_IDLE_CPU ]; then
	pass "top -H after kill -STOP: the I/O threads use ${IOCPU}% CPU together: nothing spins"
else
	fail_log "top -H after kill -STOP: the I/O threads of $PID use ${IOCPU}% CPU together (${IOBUSY:-none listed}), want at most ${MAX_IDLE_CPU}%"
fi

# 4. SIGCONT resumes every thread.
run_cmd "kill -CONT $PID" 20
if wait_after "$CMD_FROM" "$WS""PID $PID continued" 10; then
	get_threads "$PID"
	NOTRUN=$(echo "$THREADS" | awk 'NF && ($2 == "T" || $2 == "t") { printf " %s(%s)", $1, $2 }')
	if [ -z "$NOTRUN" ]; then
		pass "kill -CONT $PID: the parent is told it continued, and no thread is left stopped"
	else
		fail_log "kill -CONT $PID: threads still stopped:$NOTRUN (output: $OUT)"
	fi
else
	fail_log "kill -CONT $PID: waitstop did not report 'PID $PID continued': $Q_REASON"
fi

# 5. A one-shot copy, stopped in the middle and continued, completes
# byte-identical.
# Stop it at once (a 4 MB copy takes a few seconds, one command on the
# console a fraction of one), then check that it had its I/O threads
# by then: uringcp -a punts its first 64 reads as it starts.
LOOP=$PID
ONE=""
ONE_SECS=$STOP_SECS
[ "$STOP_WORKS" = yes ] || ONE_SECS=5
if run_cmd "waitstop -t $ONE_SECS uringcp -a big out2 &" 20 &&
	wait_after "$CMD_FROM" "$WS"'PID [0-9]+ started: uringcp -a' 20; then
	ONE=$(line_after "$CMD_FROM" "$WS"'PID [0-9]+ started' | sed -E 's/.*waitstop: PID ([0-9]+) started.*/\1/')
else
	fail_log "waitstop uringcp -a big out2 & did not start: $Q_REASON"
fi
if [ -n "$ONE" ]; then
	stop_copy "$ONE"
	ONE_STOPPED=$STOPPED
	get_nthreads "$ONE"
	ONE_THREADS=$NTHREADS
	run_cmd 'cmp big out2' 30
	MIDWAY=$(grep -E ' differ: |^(\$ )*cmp: ' "$OUT" | head -n 1 | sed 's/^[$ ]*//')
	ONE_DETAIL=$STOP_DETAIL
	run_cmd "kill -CONT $ONE" 20
	wait_after "$CMD_FROM" "$WS""PID $ONE (exited|killed)" 60
	ENDED=$?
	if [ "$ONE_STOPPED" != yes ]; then
		fail_log "uringcp -a big out2 (PID $ONE): kill -STOP was not reported to the parent ($ONE_DETAIL)"
	elif [ "$ONE_THREADS" -lt 3 ]; then
		fail_log "uringcp -a big out2 (PID $ONE) had $ONE_THREADS thread(s) when stopped: its I/O threads did not exist yet"
	elif [ $ENDED != 0 ]; then
		fail_log "uringcp -a big out2 (PID $ONE) did not finish within 60 s of kill -CONT: $Q_REASON"
	elif [ -z "$(line_after "$CMD_FROM" "$WS""PID $ONE exited 0")" ]; then
		fail_log "uringcp -a big out2 (PID $ONE) ended badly: $(line_after "$CMD_FROM" "$WS""PID $ONE (exited|killed)" | sed 's/.*waitstop:/waitstop:/')"
	else
		run_cmd 'cmp big out2' 30
		CMPOUT=$(grep -E ' differ: |^(\$ )*cmp: ' "$OUT")
		run_cmd 'cksum big out2' 30
		NSUMS=$(awk '$1 ~ /^[0-9]+$/ && ($3 == "big" || $3 == "out2")' "$OUT" | wc -l)
		SUMS=$(awk '$1 ~ /^[0-9]+$/ && ($3 == "big" || $3 == "out2") { print $1, $2 }' "$OUT" | sort -u | wc -l)
		if [ -z "$CMPOUT" ] && [ "$NSUMS" = 2 ] && [ "$SUMS" = 1 ]; then
			pass "a copy stopped midway (${MIDWAY:-cmp saw no difference yet}) and continued completes byte-identical (cmp silent, cksum equal)"
		else
			fail_log "big and out2 differ after the copy: cmp said '$CMPOUT' (cksum output: $OUT)"
		fi
	fi
fi
PID=$LOOP

# 6. STOP then KILL: every thread ends at once, no page is lost. (Where
# stops are never reported, waiting for this one's report is pointless:
# wait only for the main thread to stop.)
if [ "$STOP_WORKS" = yes ]; then
	stop_copy "$PID"
else
	run_cmd "kill -STOP $PID" 20
	wait_after "$CMD_FROM" "$WS""PID $PID: main thread stopped" 10
fi
if kill_copy "$PID" 10; then
	case "$HOW" in
	*"killed by signal 9 "*) pass "kill -STOP then kill -9 $PID ends it: $HOW" ;;
	*) fail_log "kill -STOP then kill -9 $PID: want killed by signal 9, got: $HOW" ;;
	esac
else
	get_threads "$PID"
	fail_log "kill -STOP then kill -9 $PID: the process did not end within 10 s: $Q_REASON; threads: $(echo $THREADS)"
fi
get_nthreads "$PID"
await_memfree
if [ "$NTHREADS" = 0 ] && [ "$MEMFREE" = "$MEM0" ]; then
	pass "no thread of $PID is left and no page is lost (MemFree $MEMFREE kB, as before uringcp ran)"
else
	fail_log "after kill -9 $PID: /proc/$PID/status counts $NTHREADS thread(s); MemFree ${MEMFREE:-?} kB, was $MEM0 kB"
fi
finish

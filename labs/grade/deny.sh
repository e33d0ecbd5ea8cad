#!/bin/sh
# labs/grade/deny.sh: `make grade LAB=deny`, the grader of lab 02.
#
# Checks that the kernel behaves as Linux 5.12-rc4 did after the "deny"
# fix (I/O threads refuse signals and stay out of group stops), with a
# looping `uringcp -l -a big out` as the workload:
#   - mgdb (GDB 10's attach) still loops: `mgdb -p PID -n 5` warns
#     "Cannot attach to lwp N: Operation not permitted (1)" about an I/O
#     thread on every one of its 5 passes, and gives up;
#   - `kill -STOP PID` completes: the parent is told (waitpid(WUNTRACED),
#     seen by waitstop), ps -T shows the user thread stopped (T), and
#     top -H shows the I/O threads using (almost) no CPU: nothing spins;
#   - SIGCONT lets it go on;
#   - `kill -9 TID` for an I/O thread's tid is refused with "No such
#     process" (ESRCH) and the process lives on;
#   - the same refusal for tgkill(PID, TID, SIG) (the tgkill tool);
#   - `kill -9 PID` still ends every thread, and no page is lost;
#   - a stop under way while an I/O thread is born (stopjoin) completes
#     too: the new thread is not counted where it joins the stop, and
#     after SIGCONT stopjoin ends.
# The baseline fails the STOP and kill checks; the deny series passes all.
# One PASS/FAIL line per check, then "N passed, N failed"; exit 1 on a
# failure. CPUS=N picks the CPU count (default 3). The full serial log is
# build/$ARCH/test/deny.log.

cd "$(dirname "$0")/../.." || exit 1
RUN=deny
. labs/grade/lib.sh
. labs/grade/lib-uring.sh

CPUS=${CPUS:-3}
MAX_IDLE_CPU=10     # %CPU the I/O threads of a stopped process may use together

suite_header "$RUN" "$ARCH, CPUS=$CPUS"
uring_boot "$CPUS" || finish
start_copy '-l -a big out' || finish

# 1. The I/O threads are threads of the process: ps -T lists them.
get_threads "$PID"
IOTIDS=$(echo "$THREADS" | awk '$3 ~ /^iou-/ { print $1 }' | tr '\n' ' ')
MGR=$(echo "$THREADS" | awk '$3 ~ /^iou-mgr-/ { print $1 }' | head -n 1)
if [ -n "$MGR" ]; then
	pass "ps -T lists the I/O threads of uringcp (PID $PID): tids ${IOTIDS% }"
else
	fail_log "ps -T should list iou-mgr-$PID among the threads of PID $PID (output: $OUT)"
fi

# 2. The debugger still loops: deny did not make attaching possible.
if run_mgdb "$PID" "-p $PID -n 5"; then
	WARN_RE='^warning: Cannot attach to lwp [0-9]+: Operation not permitted \(1\)$'
	NWARN=$(grep -c -E "$WARN_RE" "$OUT")
	MAXPER=$(grep -E "$WARN_RE" "$OUT" | awk '{ print $6 }' | sort | uniq -c |
		awk '{ if ($1 > m) m = $1 } END { print m + 0 }')
	if grep -q -x 'mgdb: giving up after 5 passes' "$OUT" && [ "$MAXPER" -ge 5 ]; then
		pass "mgdb -p $PID -n 5 still loops: $NWARN 'Cannot attach' warnings, one lwp on all 5 passes, then it gave up"
	else
		fail_log "mgdb -p $PID -n 5 should warn about an I/O thread on all 5 passes and give up; got $NWARN warnings (output: $OUT)"
	fi
else
	fail_log "mgdb -p $PID -n 5 did not end: $Q_REASON"
fi

# 3. kill -STOP: the group stop completes without the I/O threads.
stop_copy "$PID"
case "$STOPPED" in
yes) pass "kill -STOP $PID: the parent is told it stopped (waitpid WUNTRACED)" ;;
no) fail_log "kill -STOP $PID: the parent was never told that it stopped ($STOP_DETAIL)" ;;
*) fail_log "kill -STOP $PID: waitstop said nothing about the stop: $Q_REASON" ;;
esac

get_threads "$PID"
MAIN=$(echo "$THREADS" | awk -v p="$PID" '$1 == p { print $2 }')
if [ "$MAIN" = T ]; then
	pass "ps -T after kill -STOP: the user thread $PID is stopped (T)"
else
	fail_log "ps -T after kill -STOP: want uringcp ($PID) in state T, got '$MAIN' (output: $OUT)"
fi

# The I/O threads first finish the requests queued before the stop (a
# few seconds at most); then they must sleep.
[ "$STOPPED" = yes ] && wait_io_idle "$PID" 30
get_io_cpu "$PID"
if [ -n "$MGR" ] && [ "$IOCPU" -le $MAX_IDLE_CPU ]; then
	pass "top -H after kill -STOP: the I/O threads use ${IOCPU}% CPU together: nothing spins"
else
	fail_log "top -H after kill -STOP: the I/O threads of $PID use ${IOCPU}% CPU together (${IOBUSY:-none listed}), want at most ${MAX_IDLE_CPU}%"
fi

run_cmd "kill -CONT $PID" 20
if wait_after "$CMD_FROM" "$WS""PID $PID continued" 10; then
	pass "kill -CONT $PID: the parent is told it continued"
else
	fail_log "kill -CONT $PID: waitstop did not report 'PID $PID continued': $Q_REASON"
fi

# 4. A signal aimed at an I/O thread is refused: ESRCH, as merged.
ALIVE=yes
if [ -z "$MGR" ]; then
	fail "kill -9 to an I/O thread: no I/O thread tid to try"
else
	run_cmd "kill -9 $MGR" 20
	KOUT=$OUT
	KFROM=$CMD_FROM
	run_cmd 'sleep 1' 10
	if [ -n "$(line_after "$KFROM" "$WS""PID $PID (killed|exited)")" ]; then
		ALIVE=no
		fail_log "kill -9 $MGR (iou-mgr-$PID) was not refused: it ended the whole process: $(line_after "$KFROM" "$WS""PID $PID (killed|exited)" | sed 's/.*waitstop:/waitstop:/')"
	elif grep -q -x -F "kill: ($MGR) - No such process" "$KOUT"; then
		pass "kill -9 $MGR (iou-mgr-$PID) is refused: kill: ($MGR) - No such process; the process lives on"
	else
		fail_log "kill -9 $MGR (iou-mgr-$PID) should fail with 'kill: ($MGR) - No such process' (output: $KOUT)"
	fi
	# The same refusal on the thread-directed path: tgkill(PID, TID, SIG)
	# goes through check_kill_permission() too, not through kill()'s
	# process lookup.
	if [ "$ALIVE" = yes ]; then
		run_cmd "tgkill $PID $MGR KILL" 20
		KOUT=$OUT
		KFROM=$CMD_FROM
		run_cmd 'sleep 1' 10
		if [ -n "$(line_after "$KFROM" "$WS""PID $PID (killed|exited)")" ]; then
			ALIVE=no
			fail_log "tgkill $PID $MGR KILL (iou-mgr-$PID) was not refused: it ended the whole process (a refusal on kill(2)'s path alone misses tgkill(2))"
		elif grep -q -x -F "tgkill: ($MGR) - No such process" "$KOUT"; then
			pass "tgkill $PID $MGR KILL (iou-mgr-$PID) is refused too: tgkill: ($MGR) - No such process"
		else
			fail_log "tgkill $PID $MGR KILL (iou-mgr-$PID) should fail with 'tgkill: ($MGR) - No such process' (output: $KOUT)"
		fi
	fi
fi

# 5. kill -9 PID still ends everything, and every page comes back.
if [ "$ALIVE" = no ]; then
	fail "kill -9 $PID: nothing left to kill (the kill to an I/O thread ended it)"
elif kill_copy "$PID" 30; then
	case "$HOW" in
	*"killed by signal 9 "*) pass "kill -9 $PID ends it: $HOW" ;;
	*) fail_log "kill -9 $PID: want killed by signal 9, got: $HOW" ;;
	esac
else
	fail_log "kill -9 $PID: the process did not end: $Q_REASON"
fi
get_threads "$PID"
await_memfree
if [ -z "$THREADS" ] && [ "$MEMFREE" = "$MEM0" ]; then
	pass "no thread of $PID is left and no page is lost (MemFree $MEMFREE kB)"
else
	fail_log "after kill -9 $PID: threads left: '$(echo $THREADS)'; MemFree ${MEMFREE:-?} kB, was $MEM0 kB"
fi

# 6. An I/O thread born while a stop is under way (Eric Biederman's point
# on the posted patch: it "misses the joining of group stop during fork").
# stopjoin keeps a stop open (a thread of its own waits in the kernel,
# in create_io_thread()'s window widened by the knob) while io-wq makes a
# new worker; that worker joins the stop in task_join_group_stop(), not
# in do_signal_stop(). Left out there too, the stop completes once the
# holding thread comes back, and the parent is told; counted, it never
# completes. A watcher in stopjoin says whether the worker was indeed
# born during the stop (else this check proves nothing, and says so).
start_bg stopjoin
SJ=$BGPID
_sj_from=$BG_FROM
[ -n "$SJ" ] || fail_log "waitstop stopjoin & did not start: $Q_REASON"
if [ -n "$SJ" ]; then
	if wait_after "$_sj_from" "$WS""PID $SJ (reported stopped|not reported stopped|exited|killed)" \
		$((10 * STOP_SECS + 60)); then
		SJSTOP=$(line_after "$_sj_from" "$WS""PID $SJ (reported stopped|not reported stopped|exited|killed)" |
			sed 's/.*waitstop: //')
	else
		SJSTOP="waitstop said nothing: $Q_REASON"
	fi
	wait_after "$_sj_from" '^(\$ )*stopjoin: ' 5
	BORN=$(line_after "$_sj_from" '^(\$ )*stopjoin: ' | sed 's/.*stopjoin: //')
	case "$SJSTOP" in
	"PID $SJ reported stopped"*)
		case "$BORN" in
		*": yes") pass "stopjoin: a stop is reported although an I/O thread was born while it was under way (${BORN%%,*})" ;;
		*) fail_log "stopjoin: the stop was reported, but no I/O thread was born during it as planned (${BORN:-the watcher said nothing}): this run proves nothing" ;;
		esac ;;
	*) fail_log "stopjoin: an I/O thread born during a stop was counted in it (task_join_group_stop()), and the stop was never reported: $SJSTOP${BORN:+; $BORN}" ;;
	esac
	run_cmd "kill -CONT $SJ" 20
	Q_REASON=""
	CMD_FROM=$_sj_from
	if wait_end "$SJ" 20 && [ -n "$(line_after "$_sj_from" "$WS""PID $SJ exited 0")" ]; then
		pass "kill -CONT $SJ: stopjoin goes on and ends (exit 0)"
	else
		fail_log "kill -CONT $SJ: stopjoin did not end with exit 0: ${Q_REASON:-$(line_after "$_sj_from" "$WS""PID $SJ (exited|killed)" | sed 's/.*waitstop://')}"
		run_cmd "kill -9 $SJ" 20
	fi
fi
finish

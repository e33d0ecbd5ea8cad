#!/bin/sh
# labs/grade/vhost.sh: `make grade LAB=vhost`, the grader of lab 07.
#
# Lab 07 asks for a kernel worker thread that behaves as a thread of the
# process it works for. The workload is `vpump -l big out`: the kernel's
# vhost copy engine copies big to out, over and over, in its worker
# vhost-PID, while vpump waits. One check per cell of the chapter's
# symptom matrix:
#   - listed: ps -T shows vhost-PID as a thread of PID, and top -H too;
#   - accounted: the copy's bytes count in /proc/PID/io;
#   - stoppable: kill -STOP PID is reported to the parent (waitpid
#     WUNTRACED, seen by waitstop), ps -T shows the worker stopped (T),
#     and the disk gets no writes while it stays stopped; SIGCONT lets the
#     copy go on;
#   - traceable: mgdb (GDB 10's attach loop) attaches to every thread,
#     lists the worker in `info threads`, and after detach the copy goes on;
#   - killable: kill -9 to the worker's tid ends the process, as a signal
#     to any of its threads does; kill -9 PID ends a copy, stopped first
#     or not; no page is lost.
# The baseline (a kernel thread) fails listed, accounted, stoppable and
# traceable; the vhost series passes all. One PASS/FAIL line per check,
# then "N passed, N failed"; exit 1 on a failure. CPUS=N picks the CPU
# count (default 3). The serial log is build/$ARCH/test/vhost.log.

cd "$(dirname "$0")/../.." || exit 1
RUN=vhost
. labs/grade/lib.sh
. labs/grade/lib-uring.sh

CPUS=${CPUS:-3}
QUIET_SECS=2      # a stopped copy must leave the disk alone this long

# get_worker PID: run ps -T; WORKER = the tid of PID's thread vhost-PID
# (empty if ps lists none), WSTATE its state letter.
get_worker() {
	get_threads "$1"
	WORKER=$(echo "$THREADS" | awk -v n="vhost-$1" '$3 == n { print $1; exit }')
	WSTATE=$(echo "$THREADS" | awk -v n="vhost-$1" '$3 == n { print $2; exit }')
}

# get_disk_writes: DISKW = writes completed + sectors written, from
# /proc/diskstats (every disk): what moves while anything writes.
get_disk_writes() {
	run_cmd 'cat /proc/diskstats' 20
	DISKW=$(awk 'NF >= 10 && $1 ~ /^[0-9]+$/ { s += $8 + $10 } END { print s + 0 }' "$OUT")
}

# await_io_moves PID: true once IOBYTES of PID has moved from what it is
# now, looking once a second. False once the disk has been written at
# three looks while IOBYTES stood still (the copy goes on, but is not
# counted for PID), or once nothing at all moved for STOP_SECS (the copy
# is slow on a loaded machine, not stuck, as long as the disk moves).
await_io_moves() {
	get_io "$1"
	_aim_from=$IOBYTES
	get_disk_writes
	_aim_disk=$DISKW
	_aim_moved=0
	_aim_since=$(date +%s)
	while :; do
		run_cmd 'sleep 1' 10
		get_io "$1"
		[ -n "$IOBYTES" ] && [ -n "$_aim_from" ] && [ "$IOBYTES" -gt "$_aim_from" ] && return 0
		get_disk_writes
		if [ "$DISKW" != "$_aim_disk" ]; then
			_aim_disk=$DISKW
			_aim_since=$(date +%s)
			_aim_moved=$((_aim_moved + 1))
			[ $_aim_moved -ge 3 ] && return 1
		elif [ $(($(date +%s) - _aim_since)) -ge "$STOP_SECS" ]; then
			return 1
		fi
	done
}

# start_pump: start `waitstop vpump -l big out &`; PID is its pid. Waits
# (15 s at most) for the copy to be under way: out exists and grows.
start_pump() {
	start_bg "vpump -l big out"
	PID=$BGPID
	if [ -z "$PID" ]; then
		fail_log "waitstop vpump -l big out & did not start: $Q_REASON"
		return 1
	fi
	_sp_i=0
	get_disk_writes
	_sp_d=$DISKW
	while :; do
		run_cmd 'sleep 1' 10
		get_disk_writes
		[ "$DISKW" != "$_sp_d" ] && return 0
		_sp_i=$((_sp_i + 1))
		if [ $_sp_i -ge 15 ]; then
			fail_log "vpump -l big out (PID $PID) wrote nothing in 15 s"
			return 1
		fi
	done
}

# stop_pump PID: kill -STOP PID and wait for waitstop to report the stop.
# A worker that honours the stop copies a chunk or two more at most, so
# the wait ends, by event, once the process's I/O has moved by
# STOP_SLACK bytes after the kill with no report (STOPPED = no), or once
# nothing moved for STOP_SECS; STOPPED = yes on the report.
STOP_SLACK=262144
stop_pump() {
	get_io "$1"
	_st_io0=$IOBYTES
	run_cmd "kill -STOP $1" 20
	_st_from=$CMD_FROM
	_st_last=$IOBYTES
	_st_since=$(date +%s)
	STOPPED=""
	STOP_DETAIL=""
	while :; do
		if wait_after "$_st_from" "$WS""PID $1 reported stopped" 1; then
			STOPPED=yes
			return
		fi
		get_io "$1"
		if [ -n "$IOBYTES" ] && [ -n "$_st_io0" ] && [ $((IOBYTES - _st_io0)) -gt $STOP_SLACK ]; then
			STOPPED=no
			STOP_DETAIL="the copy went on for $((IOBYTES - _st_io0)) bytes after kill -STOP"
			return
		fi
		if [ "$IOBYTES" != "$_st_last" ]; then
			_st_last=$IOBYTES
			_st_since=$(date +%s)
		elif [ $(($(date +%s) - _st_since)) -ge "$STOP_SECS" ]; then
			STOPPED=no
			STOP_DETAIL="nothing was reported in $STOP_SECS s"
			return
		fi
	done
}

suite_header "$RUN" "$ARCH, CPUS=$CPUS"
uring_boot "$CPUS" || finish
start_pump || finish

# 1. listed: the worker is a thread of the process, in ps -T and top -H.
get_worker "$PID"
if [ -n "$WORKER" ] && [ "$WORKER" != "$PID" ]; then
	pass "ps -T lists the worker vhost-$PID as a thread of vpump (PID $PID): tid $WORKER"
else
	fail_log "ps -T should list a thread vhost-$PID of process $PID (the worker is not a thread of the process; output: $OUT)"
fi
run_cmd 'top -b -n 2 -d 1 -H' 60
if awk -v p="$PID" -v n="vhost-$PID" '$1 == p && $6 == n { f = 1 } END { exit !f }' "$OUT"; then
	pass "top -H shows vhost-$PID under PID $PID"
else
	fail_log "top -H should show vhost-$PID under PID $PID (output: $OUT)"
fi

# 2. accounted: the worker's copying shows in the process's I/O counts.
if await_io_moves "$PID"; then
	pass "/proc/$PID/io counts the worker's copy: rchar + wchar moved to $IOBYTES"
else
	fail_log "/proc/$PID/io should count the bytes the worker copies for the process; it stayed at ${IOBYTES:-nothing} while the disk was written"
fi

# 3. stoppable: a group stop takes in the worker and stops the copy.
stop_pump "$PID"
case "$STOPPED" in
yes) pass "kill -STOP $PID: the parent is told it stopped (waitpid WUNTRACED)" ;;
*) fail_log "kill -STOP $PID: the parent was never told that it stopped ($STOP_DETAIL)" ;;
esac
get_worker "$PID"
if [ -n "$WORKER" ] && [ "$WSTATE" = T ]; then
	pass "ps -T after kill -STOP: the worker $WORKER is stopped (T)"
else
	fail_log "ps -T after kill -STOP: want vhost-$PID in state T, got '${WSTATE:-no such thread}' (output: $OUT)"
fi
# A chunk in flight when the stop came may still be committed: wait for
# the disk to settle once, then it must stay quiet.
get_disk_writes
D1=$DISKW
run_cmd "sleep $QUIET_SECS" 20
get_disk_writes
D2=$DISKW
run_cmd "sleep $QUIET_SECS" 20
get_disk_writes
if [ "$DISKW" = "$D2" ]; then
	pass "while $PID is stopped, the disk gets no writes for $QUIET_SECS s: the copy is stopped too"
else
	fail_log "while $PID is stopped, the copy goes on: the disk was written $((DISKW - D2)) more times/sectors in $QUIET_SECS s (and $((D2 - D1)) before)"
fi
run_cmd "kill -CONT $PID" 20
if wait_after "$CMD_FROM" "$WS""PID $PID continued" 10 && await_io_moves "$PID"; then
	pass "kill -CONT $PID: the parent is told it continued, and the copy goes on"
else
	fail_log "kill -CONT $PID: want 'continued' from waitstop and the copy going on again: ${Q_REASON:-its I/O counts did not move}"
fi

# 4. traceable: GDB 10's attach loop settles and lists the worker.
get_worker "$PID"
if run_mgdb "$PID" "-p $PID -n 5 -batch -ex \"info threads\" -ex detach"; then
	MOUT=$OUT
	NWARN=$(grep -c 'Cannot attach' "$MOUT")
	if [ "$NWARN" -gt 0 ] || grep -q 'giving up' "$MOUT"; then
		fail_log "mgdb -p $PID: $NWARN 'Cannot attach' warning(s)$(grep -q 'giving up' "$MOUT" && echo ', and it gave up') (output: $MOUT)"
	elif [ -z "$WORKER" ] || ! grep -q -E "^[* ] [0-9]+ +LWP $WORKER " "$MOUT"; then
		fail_log "mgdb -p $PID attached, but info threads does not list the worker vhost-$PID${WORKER:+ (tid $WORKER)}: a debugger cannot see it (output: $MOUT)"
	elif await_io_moves "$PID"; then
		pass "mgdb -p $PID attaches to every thread, lists vhost-$PID (tid $WORKER) in info threads, and after detach the copy goes on"
	else
		fail_log "mgdb -p $PID: after detach the copy should go on; it did not (output: $MOUT)"
	fi
else
	fail_log "mgdb -p $PID did not end: $Q_REASON"
fi

# 5. killable: kill -9 to the worker's tid ends the whole process.
if [ -z "$WORKER" ]; then
	fail "kill -9 to the worker: ps -T shows no worker thread of $PID to send it to"
	kill_copy "$PID" 10
else
	run_cmd "kill -9 $WORKER" 20
	if grep -q 'kill: ' "$OUT"; then
		fail_log "kill -9 $WORKER (the worker of $PID) was refused: $(grep 'kill: ' "$OUT" | head -n 1)"
		kill_copy "$PID" 10
	elif wait_end "$PID" 3 15; then   # a kill ends in well under a second: 15 s is ample
		HOWP=$(line_after "$CMD_FROM" "$WS""PID $PID (killed by signal|exited)" | sed 's/.*waitstop: //')
		case "$HOWP" in
		*"killed by signal 9 "*) pass "kill -9 $WORKER (the worker) ends the process, as for any of its threads: $HOWP" ;;
		*) fail_log "kill -9 $WORKER (the worker): want the process killed by signal 9, got: $HOWP" ;;
		esac
	else
		fail_log "kill -9 $WORKER (the worker of $PID): the process did not end: $Q_REASON"
	fi
fi

# 6. killable, stopped first: STOP, then kill -9 PID ends every thread.
start_pump || finish
stop_pump "$PID"
if kill_copy "$PID" 10; then
	case "$HOW" in
	*"killed by signal 9 "*) pass "kill -STOP then kill -9 $PID: the process ends ($HOW)" ;;
	*) fail_log "kill -STOP then kill -9 $PID: want killed by signal 9, got: $HOW" ;;
	esac
else
	fail_log "kill -STOP then kill -9 $PID: the process did not end: $Q_REASON"
fi
get_threads "$PID"
if [ -z "$THREADS" ]; then
	pass "after kill -9, ps -T lists no thread of $PID"
else
	fail_log "after kill -9, ps -T still lists threads of $PID: $(echo "$THREADS" | tr '\n' ' ')"
fi
if await_memfree; then
	pass "MemFree is back to $MEM0 kB: no page lost"
else
	fail_log "MemFree is $MEMFREE kB, not $MEM0 kB as before: pages were lost"
fi
finish

#!/bin/sh
# labs/grade/hide.sh: `make grade LAB=hide`, the grader of lab 03.
#
# Checks that the kernel behaves as with the "hide" series proposed on
# 2021-03-25 (I/O threads left out of same_thread_group() and of
# /proc/PID/task, but not of CPU-time accounting), with a looping
# `uringcp -l -a -t big out` as the workload (-t: a second user thread,
# started after the I/O threads, so listed after them):
#   - the I/O threads exist (/proc/PID/status counts them in Threads:),
#     yet ps -T and top -H show none of them;
#   - ps -T shows both user threads, the one after the I/O threads too:
#     a listing that ends at the first I/O thread instead of passing
#     over it loses every thread started after the pool;
#   - a hidden I/O thread cannot be opened by its tid either
#     (/proc/PID/task/TID): it is out of the thread group, not only out
#     of the listing;
#   - mgdb attaches and detaches cleanly: no "Cannot attach" warning,
#     every thread it lists is stopped (t) while attached, it detaches,
#     and afterwards the program runs on, untraced;
#   - the process's CPU time (/proc/PID/stat, utime + stime) is more than
#     the threads ps can see add up to: the hidden workers' time still
#     counts for the process (thread_group_cputime() sums every thread;
#     filtering that sum with the new same_thread_group() would lose it);
#   - `kill -9 PID` ends every thread, and no page is lost.
# The baseline fails the ps, top, mgdb and accounting checks; the hide
# series passes all. One PASS/FAIL line per check, then "N passed, N
# failed"; exit 1 on a failure. CPUS=N picks the CPU count (default 3).
# The full serial log is build/$ARCH/test/hide.log.

cd "$(dirname "$0")/../.." || exit 1
RUN=hide
. labs/grade/lib.sh
. labs/grade/lib-uring.sh

CPUS=${CPUS:-3}
MIN_HIDDEN=10       # ticks of CPU time the hidden threads must account for

suite_header "$RUN" "$ARCH, CPUS=$CPUS"
uring_boot "$CPUS" || finish
start_copy '-l -a -t big out' || finish

# 1. The I/O threads exist, but ps -T and top -H do not show them.
get_nthreads "$PID"
NALL=$NTHREADS
get_threads "$PID"
SEEN=$(echo "$THREADS" | awk 'NF' | wc -l)
SEEN_IO=$(echo "$THREADS" | awk '$3 ~ /^iou-/ { printf "%s %s, ", $1, $3 }')
VISIBLE=$(echo "$THREADS" | awk 'NF { print $1 }')
if [ -z "$SEEN_IO" ] && [ "$NALL" -ge 3 ]; then
	pass "ps -T shows $SEEN thread(s) of uringcp (PID $PID), no iou- thread, while /proc/$PID/status counts $NALL"
else
	fail_log "ps -T should show no I/O thread of PID $PID; it shows: ${SEEN_IO%, } (output: $OUT)"
fi

# Both user threads are listed: main and -t's thread, whose tid is above
# the I/O threads' (it starts once the first requests are submitted).
SEEN_USER=$(echo "$THREADS" | awk 'NF && $3 !~ /^iou-/' | wc -l)
if [ "$SEEN_USER" -ge 2 ]; then
	pass "ps -T shows both user threads of uringcp -t (PID $PID), the one started after the I/O threads too"
else
	fail_log "ps -T shows $SEEN_USER of the 2 user threads of uringcp -t (PID $PID): the thread started after the I/O threads is not listed (does the listing end at an I/O thread instead of passing over it?) (output: $OUT)"
fi

get_io_cpu "$PID"
TOP_IO=$(awk -v p="$PID" '$1 == p && $6 ~ /^iou-/ { printf "%s %s, ", $2, $6 }' "$OUT.last")
if [ -z "$TOP_IO" ]; then
	pass "top -H shows no I/O thread of PID $PID"
else
	fail_log "top -H should show no I/O thread of PID $PID; it shows: ${TOP_IO%, } (output: $OUT)"
fi

# A hidden thread must not be reachable by its tid either: hiding it from
# the listing alone leaves /proc/PID/task/TID (and so every tool that
# knows the tid) working. The copy's first request made iou-mgr-PID, and
# start_copy typed nothing meanwhile, so it has tid PID+1.
MGR=$((PID + 1))
run_cmd "cat /proc/$PID/task/$MGR/status" 20
MGRNAME=$(awk '$1 == "Name:" { print $2 }' "$OUT")
case "$MGRNAME" in
iou-*) fail_log "/proc/$PID/task/$MGR/status still shows the hidden I/O thread $MGR ($MGRNAME): it is left out of the listing but not of the thread group (same_thread_group())" ;;
"") pass "/proc/$PID/task/$MGR/status (iou-mgr-$PID, hidden) cannot be opened: the I/O thread is out of the thread group, not just out of the listing" ;;
*) fail_log "tid $MGR should be the hidden iou-mgr-$PID, but /proc/$PID/task/$MGR/status names '$MGRNAME' (output: $OUT)" ;;
esac

# 2. mgdb attaches to what it can see, without a warning, and detaches.
if run_mgdb "$PID" "-p $PID -n 5 -batch -ex \"info threads\" -ex detach"; then
	MOUT=$OUT
	NWARN=$(grep -c 'Cannot attach' "$MOUT")
	LISTED=$(grep -E '^[* ] [0-9]+ +LWP [0-9]+ ' "$MOUT" | sed 's/^[* ]//' | awk '{ print $3, $5 }')
	NLISTED=$(echo "$LISTED" | awk 'NF' | wc -l)
	NOTSTOPPED=$(echo "$LISTED" | awk 'NF && $2 != "t" { printf " %s(%s)", $1, $2 }')
	MISSING=""
	for t in $VISIBLE; do
		echo "$LISTED" | awk -v t="$t" '$1 == t { f = 1 } END { exit !f }' || MISSING="$MISSING $t"
	done
	if [ "$NWARN" -gt 0 ] || grep -q 'giving up' "$MOUT"; then
		fail_log "mgdb -p $PID: $NWARN 'Cannot attach' warning(s)$(grep -q 'giving up' "$MOUT" && echo ', and it gave up') (output: $MOUT)"
	elif [ "$NLISTED" -lt 1 ] || [ -n "$NOTSTOPPED" ] || [ -n "$MISSING" ]; then
		fail_log "mgdb info threads should list every thread ps shows, each stopped (t); listed $NLISTED, not stopped:${NOTSTOPPED:- none}, missing:${MISSING:- none} (output: $MOUT)"
	elif ! grep -q -x -F "[Inferior 1 (process $PID) detached]" "$MOUT"; then
		fail_log "mgdb -p $PID did not print [Inferior 1 (process $PID) detached] (output: $MOUT)"
	else
		pass "mgdb -p $PID attaches without a warning, lists $NLISTED thread(s) all stopped (t), and detaches"
	fi
else
	fail_log "mgdb -p $PID -n 5 did not end: $Q_REASON"
fi

# After the detach the program runs on: untraced, not stopped, and its
# CPU time still grows (the copy goes on).
run_cmd "cat /proc/$PID/status" 20
TRACER=$(awk '$1 == "TracerPid:" { print $2 }' "$OUT")
get_threads "$PID"
HELD=$(echo "$THREADS" | awk 'NF && ($2 == "t" || $2 == "T") { printf " %s(%s)", $1, $2 }')
get_ticks "$PID"
T1=$TICKS
run_cmd 'sleep 2' 10
get_ticks "$PID"
T2=$TICKS
if [ "$TRACER" = 0 ] && [ -z "$HELD" ] && [ "${T2:-0}" -gt "${T1:-0}" ]; then
	pass "after the detach uringcp runs on: TracerPid 0, no thread stopped, CPU time $T1 -> $T2 ticks in 2 s"
else
	fail_log "after the detach: TracerPid '${TRACER}', threads stopped:${HELD:- none}, CPU time ${T1:-?} -> ${T2:-?} ticks in 2 s"
fi

# 3. The process's CPU time still counts the hidden threads: read the
# process's total first, then each thread ps can see (so the threads'
# sum can only come out larger, never smaller, than at that moment).
get_ticks "$PID"
TOTAL=$TICKS
SUM=0
DETAIL=""
for t in $VISIBLE; do
	run_cmd "cat /proc/$PID/task/$t/stat" 20
	v=$(awk -v t="$t" '$1 == t { print $14 + $15 }' "$OUT")
	SUM=$((SUM + ${v:-0}))
	DETAIL="$DETAIL $t:${v:-?}"
done
HIDDEN=$((${TOTAL:-0} - SUM))
if [ "$HIDDEN" -ge $MIN_HIDDEN ]; then
	pass "/proc/$PID/stat counts $TOTAL ticks of CPU time; the threads ps shows add up to $SUM (${DETAIL# }): $HIDDEN ticks are the hidden I/O threads'"
else
	fail_log "/proc/$PID/stat counts ${TOTAL:-?} ticks; the threads ps shows add up to $SUM (${DETAIL# }): want the process to count at least $MIN_HIDDEN ticks more, the hidden I/O threads' work"
fi

# 4. kill -9 PID ends everything, and every page comes back.
if kill_copy "$PID" 30; then
	case "$HOW" in
	*"killed by signal 9 "*) pass "kill -9 $PID ends it: $HOW" ;;
	*) fail_log "kill -9 $PID: want killed by signal 9, got: $HOW" ;;
	esac
else
	fail_log "kill -9 $PID: the process did not end: $Q_REASON"
fi
get_nthreads "$PID"
await_memfree
if [ "$NTHREADS" = 0 ] && [ "$MEMFREE" = "$MEM0" ]; then
	pass "no thread of $PID is left, hidden or not, and no page is lost (MemFree $MEMFREE kB)"
else
	fail_log "after kill -9 $PID: /proc/$PID/status counts $NTHREADS thread(s); MemFree ${MEMFREE:-?} kB, was $MEM0 kB"
fi
finish

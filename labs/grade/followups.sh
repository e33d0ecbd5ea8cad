#!/bin/sh
# labs/grade/followups.sh: `make grade LAB=followups`, the grader of lab 05.
#
# Checks the follow-ups to the embrace fix, on a kernel that has it:
#   - GDB 15's behaviour in mgdb: with one thread of a program already
#     traced by another mgdb, `mgdb --gdb15 -p PID` errors out at once
#     ("Cannot attach to lwp N: ..." once, no warning, no second pass),
#     detaches what it held and leaves the program untraced;
#   - the create_io_thread() mask race, made deterministic with
#     /proc/sys/kernel/io_thread_race_ticks: `racetest` sends SIGUSR1
#     into the window; no I/O thread may spin afterwards, and the main
#     thread must still get the signal;
#   - what a debugger sees of the I/O threads of a looping
#     `uringcp -l -a big out`: pc 0 and sp 0 (no user frame, no user
#     stack), a real pc for the user thread, and on x86_64 the code
#     segment of a 64-bit user thread, so that mgdb's model of GDB 10's
#     architecture probe does not warn (Linux 5.13, 50b7b6f29de3);
#   - STOP then KILL ends the process at once (no thread left hanging in
#     D state), and no page is lost.
# The baseline fails the race and register checks; on x86_64 the embrace
# series fails the code-segment check; the followups series passes
# all. One PASS/FAIL line per check, then "N passed, N failed"; exit 1 on a
# failure. CPUS=N picks the CPU count (default 3). The full serial log is
# build/$ARCH/test/followups.log.

cd "$(dirname "$0")/../.." || exit 1
RUN=followups
. labs/grade/lib.sh
. labs/grade/lib-uring.sh

CPUS=${CPUS:-3}
ZERO=0x0000000000000000

suite_header "$RUN" "$ARCH, CPUS=$CPUS"
uring_boot "$CPUS" || finish

# 1. GDB 15: a thread that cannot be attached is an error, at once. Make
# one: `threads 2` runs three threads; a first mgdb, reading commands
# from a pipe that stays silent, holds its second thread.
if ! run_cmd 'threads 2 &' 20 || ! wait_after "$CMD_FROM" 'threads: pid [0-9]+ ready' 30; then
	fail_log "threads 2 & did not say it was ready: $Q_REASON"
	finish
fi
TP=$(line_after "$CMD_FROM" 'threads: pid [0-9]+ ready' | sed -E 's/.*threads: pid ([0-9]+) ready.*/\1/')
get_threads "$TP"
HELD=$(echo "$THREADS" | awk -v p="$TP" 'NF && $1 != p { print $1 }' | head -n 1)
run_cmd "sleep 60 | mgdb -p $HELD &" 20
wait_after "$CMD_FROM" '\(mgdb\) ' 30
run_cmd "cat /proc/$TP/task/$HELD/status" 20
HOLDER=$(awk '$1 == "TracerPid:" { print $2 }' "$OUT")
if [ -z "$HOLDER" ] || [ "$HOLDER" = 0 ]; then
	fail_log "a first mgdb should hold thread $HELD of threads (PID $TP); /proc says TracerPid '${HOLDER}' (output: $OUT)"
else
	T0=$(date +%s)
	run_cmd "mgdb --gdb15 -p $TP" 30
	R=$?
	SECS=$(($(date +%s) - T0))
	ERR_RE="^Cannot attach to lwp $HELD: Operation not permitted \\(1\\), process $HELD is already traced by process $HOLDER\$"
	NERR=$(grep -c -E 'Cannot attach to lwp' "$OUT")
	if [ $R -ne 0 ]; then
		fail_log "mgdb --gdb15 -p $TP did not end within 30 s: $Q_REASON"
	elif [ "$NERR" -eq 1 ] && grep -q -E "$ERR_RE" "$OUT" && ! grep -q -E 'warning:|giving up' "$OUT" &&
		grep -q -x -F "[Inferior 1 (process $TP) detached]" "$OUT" && [ $SECS -le 10 ]; then
		pass "mgdb --gdb15 -p $TP errors out at once ($SECS s): $(grep -E 'Cannot attach' "$OUT")"
	else
		fail_log "mgdb --gdb15 -p $TP should print one error 'Cannot attach to lwp $HELD: ..., process $HELD is already traced by process $HOLDER', no warning, and detach; got $NERR 'Cannot attach' lines in $SECS s (output: $OUT)"
	fi
	run_cmd "cat /proc/$TP/status" 20
	if grep -q -E '^TracerPid:[[:space:]]+0$' "$OUT" && grep -q -E '^State:[[:space:]]+[RS]' "$OUT"; then
		pass "after mgdb --gdb15, thread $TP runs on untraced: it detached what it held"
	else
		fail_log "after mgdb --gdb15, /proc/$TP/status should show TracerPid 0 and state R or S (output: $OUT)"
	fi
fi
# Clean up: the first mgdb's job (its process group), then threads.
if [ -n "$HOLDER" ] && [ "$HOLDER" != 0 ]; then
	run_cmd "cat /proc/$HOLDER/stat" 20
	PGRP=$(awk -v p="$HOLDER" '$1 == p { print $5 }' "$OUT")
	[ -n "$PGRP" ] && run_cmd "kill -9 -$PGRP" 20
fi
run_cmd "kill -9 $TP" 20
i=0
while get_nthreads "$TP" && [ "$NTHREADS" -gt 0 ] && [ $i -lt 10 ]; do
	run_cmd 'sleep 1' 10
	i=$((i + 1))
done

# 2. The mask race: a signal sent into create_io_thread()'s window.
check_racetest
run_cmd 'cat /proc/sys/kernel/io_thread_race_ticks' 20
get_memfree
MEM1=$MEMFREE

# 3. What a debugger sees of the I/O threads: pc 0 (no user frame) and
# sp 0 (no user stack), and a real pc for uringcp. On x86_64 also the code
# segment of a 64-bit user thread, so that GDB 10's probe (which mgdb
# models) takes the process for 64-bit: with 5.12's zeroed registers an
# I/O thread has cs 0 and the probe warns. Thread 2 is the first I/O
# thread (iou-mgr-PID): threads are numbered in tid order after the main
# thread.
start_copy '-l -a big out' || finish
if [ "$ARCH" = x86_64 ]; then SPREG=rsp; else SPREG=sp; fi
if run_mgdb "$PID" "-p $PID -n 5 -batch -ex \"info threads\" -ex \"thread 2\" -ex \"info registers\" -ex \"thread 1\" -ex \"info registers\" -ex detach"; then
	MOUT=$OUT
	LINES=$(grep -E '^[* ] [0-9]+ +LWP [0-9]+ ' "$MOUT" | sed 's/^[* ]//')
	NIO=$(echo "$LINES" | awk '$4 ~ /^iou-/' | wc -l)
	IOBAD=$(echo "$LINES" | awk -v z="$ZERO" '$4 ~ /^iou-/ && $6 != z { printf " %s(%s)", $3, $6 }')
	MAINPC=$(echo "$LINES" | awk -v p="$PID" '$3 == p { print $6 }')
	T2NAME=$(echo "$LINES" | awk '$1 == 2 { print $4 }')
	# reg_of N NAME: register NAME as thread N's info registers printed it.
	reg_of() {
		awk -v n="$1" -v r="$2" '/^\[Switching to thread / { t = $4 } t == n && $1 == r { print $2; exit }' "$MOUT"
	}
	T2SP=$(reg_of 2 "$SPREG")
	if grep -q 'Cannot attach' "$MOUT"; then
		fail_log "mgdb -p $PID could not attach to every thread: $(grep 'Cannot attach' "$MOUT" | head -n 1) (output: $MOUT)"
	elif [ "$NIO" -ge 2 ] && [ -z "$IOBAD" ] && [ -n "$MAINPC" ] && [ "$MAINPC" != "$ZERO" ]; then
		pass "mgdb info threads: the $NIO I/O threads are at pc $ZERO in ?? (), uringcp ($PID) at $MAINPC"
	else
		fail_log "mgdb info threads: want every I/O thread at pc $ZERO (no user frame) and uringcp at a real pc; $NIO I/O threads, at another pc:${IOBAD:- none}; uringcp at '${MAINPC}' (output: $MOUT)"
	fi
	case "$T2NAME" in
	iou-*)
		if [ "$T2SP" = "$ZERO" ]; then
			pass "mgdb info registers: I/O thread 2 ($T2NAME) has $SPREG $ZERO: no user stack"
		else
			fail_log "mgdb info registers: I/O thread 2 ($T2NAME) should have $SPREG $ZERO (it has no user stack), has '${T2SP}' (output: $MOUT)"
		fi ;;
	*) fail_log "mgdb: thread 2 should be an I/O thread (iou-mgr-$PID), is '${T2NAME}' (output: $MOUT)" ;;
	esac
	if [ "$ARCH" = x86_64 ]; then
		CS1=$(reg_of 1 cs)
		CS2=$(reg_of 2 cs)
		if grep -q 'Selected architecture' "$MOUT" || [ "$CS2" != "$CS1" ]; then
			fail_log "x86_64: an I/O thread should have the code segment of a 64-bit user thread (uringcp's cs $CS1), has cs '${CS2}'$(grep -q 'Selected architecture' "$MOUT" && echo ', and the architecture probe warned') (output: $MOUT)"
		else
			pass "x86_64: I/O thread 2 has uringcp's code segment ($CS2): the architecture probe takes the process for 64-bit, no warning"
		fi
	fi
else
	fail_log "mgdb -p $PID -n 5 did not end: $Q_REASON"
fi

# 4. STOP then KILL: the process ends at once, nothing hangs in D.
stop_copy "$PID"
if kill_copy "$PID" 10; then
	pass "kill -STOP then kill -9 $PID ends it at once: $HOW"
else
	get_threads "$PID"
	fail_log "kill -STOP then kill -9 $PID: the process did not end ($Q_REASON); its threads: $(echo $THREADS)"
fi
get_nthreads "$PID"
i=0
while :; do
	get_memfree
	[ "$MEMFREE" = "$MEM1" ] && break
	i=$((i + 1))
	[ $i -ge 3 ] && break
	run_cmd 'sleep 1' 10
done
if [ "$NTHREADS" = 0 ] && [ "$MEMFREE" = "$MEM1" ]; then
	pass "no thread of $PID is left and no page is lost (MemFree $MEMFREE kB, as before uringcp ran)"
else
	fail_log "after kill -9 $PID: /proc/$PID/status counts $NTHREADS thread(s); MemFree ${MEMFREE:-?} kB, was $MEM1 kB"
fi
finish

#!/bin/sh
# labs/grade/reproduce.sh: `make grade LAB=reproduce`, the grader of lab 01.
#
# Checks that the kernel shows both bugs of March 2021 the way Linux
# 5.12-rc3 did. The baseline on main passes; a kernel with any of the
# fixes fails some of the checks (which ones is how lab 02-04 tell the
# fixes apart).
#   1. ps -T lists the iou-mgr-PID and iou-wrk-PID threads of a looping
#      `uringcp -l -a big out`;
#   2. `mgdb -p PID -n 5` (GDB 10's attach) warns "Cannot attach to lwp N:
#      Operation not permitted (1)" about an I/O thread on every one of its
#      5 passes, and gives up;
#   3. `mgdb --gdb15 -p PID` errors out at the first such thread;
#   4. both leave the process running and untraced;
#   5. after `kill -STOP PID` its parent never hears of a stop:
#      waitpid(WUNTRACED) reports nothing while its threads spin with no
#      I/O (the parent is /waitstop, which polls it; a shell would poll
#      the same way);
#   6. ps -T then shows the main thread in T and I/O threads that are not;
#   7. top -H shows those I/O threads using >= MIN_CPU % CPU together;
#   8. `kill -9 PID` still ends the process ...
#   9. ... and every one of its threads;
#  10. and MemFree in /proc/meminfo is back to its value before.
# One PASS/FAIL line per check, then "N passed, N failed"; exit status 1 if
# anything failed. If the console stops answering, the run ends there with
# one FAIL. CPUS=N picks the CPU count (default 3); IMG= another image.
# The serial log: build/$ARCH/test/reproduce.log; each command's output:
# build/$ARCH/test/reproduce.outN (named by the FAIL lines).

cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh

CPUS=${CPUS:-3}
IMG=${IMG:-build/$ARCH/fs.img}
RUN=reproduce
RUN_NO=0
OUT=/dev/null
STOP_SECS=10    # waitstop gives up on a stop after this long with no I/O (a fixed
                # kernel may take seconds: the workers first finish their queue)
MIN_CPU=50      # %CPU the I/O threads of a stopped process must use together
# waitstop runs in the background: its lines may follow a prompt "$ ", or
# the echo of a command being typed, on the same line.
WS='waitstop: '

# finish: the closing line; exit status 1 if anything failed.
finish() {
	qemu_stop
	echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
	[ "$TOTAL_FAIL" -eq 0 ]
	exit
}

# run_cmd CMD SECS: at the next prompt, type CMD; wait up to SECS for the
# prompt after it. What the console printed meanwhile (CMD's output, CRs
# removed, perhaps with lines of the background job mixed in) goes to the
# file $OUT. If no prompt comes back, the console is lost: one FAIL, and
# the run ends.
run_cmd() {
	_rc_from=$(wc -l < "$Q_LOG")
	if qemu_send "$1" 30 && qemu_wait_prompt "$2"; then
		RUN_NO=$((RUN_NO + 1))
		OUT=$TESTDIR/$RUN.out$RUN_NO
		tail -n "+$((_rc_from + 1))" "$Q_LOG" | tr -d '\r' > "$OUT"
		return 0
	fi
	fail_log "'$1' did not give the prompt back ($Q_REASON); the remaining checks are not run"
	finish
}

# memfree: MemFree in kB from the last `cat /proc/meminfo` output ($OUT).
memfree() {
	awk '$1 == "MemFree:" { v = $2 } END { print v }' "$OUT"
}

# log_line REGEX: the last line of the whole log matching the ERE.
log_line() {
	tr -d '\r' < "$Q_LOG" | grep -E -e "$1" | tail -n 1
}

# io_tids: the tids of the I/O threads of $PID in $OUT (a ps -T listing).
io_tids() {
	awk -v p="$PID" '$1 == p && $5 ~ /^iou-/ { print $2 }' "$OUT" | tr '\n' ' ' | sed 's/ $//'
}

suite_header "$RUN" "$ARCH, CPUS=$CPUS"
if [ ! -f "$IMG" ]; then
	fail "no image $IMG (run make)"
	finish
fi
cp --sparse=always "$IMG" "$TESTDIR/$RUN.img" || exit 1
qemu_start "$RUN" "$CPUS" "$TESTDIR/$RUN.img" 400 || { fail "could not start QEMU"; finish; }

# The source file, and the free memory before anything of the scenario runs.
run_cmd 'mkbig big 4000000' 120
run_cmd 'cat /proc/meminfo' 20
MEM0=$(memfree)
if [ -z "$MEM0" ]; then
	fail_log "cat /proc/meminfo printed no MemFree line (output: $OUT)"
	finish
fi

# uringcp -l -a, run by waitstop: waitstop is its parent, and says what a
# parent learns through waitpid().
run_cmd "waitstop -t $STOP_SECS uringcp -l -a big out &" 20
if ! qemu_wait_match "$WS"'PID [0-9]+ started: uringcp' 20; then
	fail_log "waitstop uringcp -l -a big out & did not start: $Q_REASON"
	finish
fi
PID=$(log_line 'waitstop: PID [0-9]+ started' | sed -E 's/.*waitstop: PID ([0-9]+) started.*/\1/')

# 1. ps -T: the I/O threads are threads of the process. Workers come with
# the first copy; give them a few seconds.
i=0
while :; do
	run_cmd 'ps -T' 20
	NWRK=$(awk -v p="$PID" '$1 == p && $5 == "iou-wrk-" p' "$OUT" | wc -l)
	NMGR=$(awk -v p="$PID" '$1 == p && $5 == "iou-mgr-" p' "$OUT" | wc -l)
	[ "$NWRK" -ge 1 ] && [ "$NMGR" -eq 1 ] && break
	i=$((i + 1))
	[ $i -ge 10 ] && break
	run_cmd 'sleep 1' 10
done
IOTIDS=$(io_tids)
if [ "$NWRK" -ge 1 ] && [ "$NMGR" -eq 1 ]; then
	pass "ps -T lists iou-mgr-$PID and $NWRK iou-wrk-$PID thread(s) of uringcp (PID $PID): tids $IOTIDS"
else
	fail_log "ps -T should list one iou-mgr-$PID and iou-wrk-$PID threads under PID $PID; found $NMGR and $NWRK (output: $OUT)"
fi

# 2. mgdb, GDB 10's way: a warning per I/O thread per pass, then it gives
# up. (-batch: should the attach succeed, quit instead of prompting.)
run_cmd "mgdb -p $PID -n 5 -batch" 90
MOUT=$OUT
# Workers may have come and gone meanwhile: the I/O threads are those ps
# -T showed before or shows now.
run_cmd 'ps -T' 20
IOTIDS="$IOTIDS $(io_tids)"
WARN_RE='^warning: Cannot attach to lwp [0-9]+: Operation not permitted \(1\)$'
NWARN=$(grep -c -E "$WARN_RE" "$MOUT")
# "COUNT TID" per lwp warned about; the most any lwp got; lwps warned
# about that are not I/O threads.
PER=$(grep -E "$WARN_RE" "$MOUT" | awk '{ print $6 }' | tr -d ':' | sort | uniq -c)
MAXPER=$(echo "$PER" | awk 'NF { if ($1 > m) m = $1 } END { print m + 0 }')
OTHERS=""
for t in $(echo "$PER" | awk 'NF { print $2 }'); do
	case " $IOTIDS " in *" $t "*) ;; *) OTHERS="$OTHERS $t" ;; esac
done
if ! grep -q -x 'mgdb: giving up after 5 passes' "$MOUT"; then
	fail_log "mgdb -p $PID -n 5 should warn on every pass and give up after 5; it printed $NWARN warnings and no 'giving up' (output: $MOUT)"
elif [ "$MAXPER" -lt 5 ]; then
	fail_log "mgdb -p $PID -n 5: no lwp was warned about on all 5 passes ($NWARN warnings; output: $MOUT)"
elif [ -n "$OTHERS" ]; then
	fail_log "mgdb -p $PID -n 5 could not attach to threads that are not I/O threads:$OTHERS (output: $MOUT)"
else
	pass "mgdb -p $PID -n 5 warned 'Cannot attach to lwp N: Operation not permitted (1)' $NWARN times (an lwp on each of the 5 passes), then gave up"
fi

# 3. mgdb --gdb15: the first thread it cannot attach is an error.
run_cmd "mgdb --gdb15 -p $PID -batch" 30
NERR=$(grep -c -E '^Cannot attach to lwp [0-9]+: Operation not permitted \(1\)$' "$OUT")
NWARN=$(grep -c -E '^warning: Cannot attach' "$OUT")
if [ "$NERR" -eq 1 ] && [ "$NWARN" -eq 0 ] && ! grep -q 'giving up' "$OUT"; then
	pass "mgdb --gdb15 -p $PID errors out at once: $(grep -E '^Cannot attach' "$OUT")"
else
	fail_log "mgdb --gdb15 -p $PID should print one 'Cannot attach to lwp N: ...' error and stop; got $NERR errors, $NWARN warnings (output: $OUT)"
fi

# 4. Both mgdb runs let go: nothing traces the process, it is not stopped.
run_cmd "cat /proc/$PID/status" 20
if grep -q -E '^TracerPid:[[:space:]]+0$' "$OUT" && grep -q -E '^State:[[:space:]]+[RSD]' "$OUT"; then
	pass "after mgdb, PID $PID is running and untraced (TracerPid 0)"
else
	fail_log "after mgdb, /proc/$PID/status should show TracerPid 0 and state R, S or D (output: $OUT)"
fi

# 5. kill -STOP: the main thread stops, the I/O threads never do, so the
# group stop never completes and the parent is never told.
run_cmd "kill -STOP $PID" 20
if ! qemu_wait_match "$WS""PID $PID (reported stopped|not reported stopped)" $((10 * STOP_SECS + 30)); then
	fail_log "after kill -STOP $PID, waitstop neither saw a stop reported nor gave up waiting: $Q_REASON"
elif [ -n "$(log_line "waitstop: PID $PID reported stopped")" ]; then
	fail_log "after kill -STOP $PID the parent was told it stopped: $(log_line "waitstop: PID $PID reported stopped" | sed 's/.*waitstop:/waitstop:/')"
else
	qemu_wait_match "$WS""PID $PID: [0-9]+ of [0-9]+ threads never stopped" 10
	NEVER=$(log_line "waitstop: PID $PID: [0-9]+ of" | sed -E 's/.*waitstop: PID [0-9]+: ([0-9]+) of.*/\1/')
	if [ "${NEVER:-0}" -ge 1 ]; then
		WHYNOT=$(log_line "waitstop: PID $PID not reported stopped" | sed "s/.*not reported stopped: //")
		pass "after kill -STOP $PID, waitpid(WUNTRACED) reports no stop ($WHYNOT): $NEVER thread(s) never stop"
	else
		fail_log "waitstop did not say how many threads never stopped"
	fi
fi

# 6. ps -T: which threads stopped.
run_cmd 'ps -T' 20
MAINST=$(awk -v p="$PID" '$1 == p && $2 == p { print $3 }' "$OUT")
NOTT=$(awk -v p="$PID" '$1 == p && $5 ~ /^iou-/ && $3 !~ /^T/' "$OUT" | wc -l)
if [ "$MAINST" = T ] && [ "$NOTT" -ge 1 ]; then
	pass "ps -T after kill -STOP: uringcp is T, $NOTT I/O thread(s) are not"
else
	fail_log "ps -T after kill -STOP: want uringcp in T and I/O threads not in T; got main '$MAINST', $NOTT not in T (output: $OUT)"
fi

# 7. top -H: the I/O threads of the stopped process spin. They share the
# CPUs, so each gets about 100% * CPUS / (threads spinning): it is their
# sum that shows the machine is busy for a process that should be idle.
# Of the frames, the busiest counts: when spinning threads crowd the CPUs,
# top itself may run so late that one frame's figures are skewed.
run_cmd 'top -b -n 2 -d 1 -H' 60
# "SUM MAINSTATE TID:PCT,..." of the frame whose I/O threads sum highest.
BEST=$(awk -v p="$PID" '
	/^top - / { f++ }
	f && $1 == p && $2 == p { st[f] = $3 }
	f && $1 == p && $6 ~ /^iou-/ { s[f] += $4; if ($4 + 0 >= 1) b[f] = b[f] $2 ":" $4 "%," }
	END { m = 1; for (i = 1; i <= f; i++) if (s[i] > s[m]) m = i
	      printf "%d %s %s\n", s[m], (st[m] == "" ? "-" : st[m]), (b[m] == "" ? "-" : b[m]) }' "$OUT")
set -- $BEST
SUM=${1:-0} TOPMAIN=$2 BUSY=$3
if [ "$TOPMAIN" = T ] && [ "$SUM" -ge $MIN_CPU ]; then
	pass "top -H: uringcp stopped (T) while its I/O threads use ${SUM}% CPU together (tid:%CPU ${BUSY%,})"
else
	fail_log "top -H: want uringcp in T and its I/O threads at >= ${MIN_CPU}% CPU together; got '$TOPMAIN' and ${SUM}% (output: $OUT)"
fi

# 8. kill -9 still ends everything.
run_cmd "kill -9 $PID" 20
if qemu_wait_match "$WS""PID $PID (killed by signal|exited)" 30; then
	HOW=$(log_line "waitstop: PID $PID (killed by signal|exited)" | sed 's/.*waitstop:/waitstop:/')
	case "$HOW" in
	*"killed by signal 9 "*) pass "kill -9 $PID ends it: $HOW" ;;
	*) fail_log "kill -9 $PID: want killed by signal 9, got: $HOW" ;;
	esac
else
	fail_log "kill -9 $PID: the process did not end within 30 s: $Q_REASON"
fi

# 9. ... workers included.
run_cmd 'ps -T' 20
LEFT=$(awk -v p="$PID" '$1 == p { printf "%s %s %s, ", $2, $3, $5 }' "$OUT")
if [ -z "$LEFT" ] && grep -q -E '^ +1 +1 ' "$OUT"; then
	pass "no thread of PID $PID is left (ps -T)"
else
	fail_log "threads of PID $PID left after kill -9: ${LEFT%, } (output: $OUT)"
fi

# 10. No page lost: MemFree is back to its value before uringcp ran. Every
# page the scenario took (the ring, io-wq, copy buffers, page tables, the
# processes of ps, top, mgdb, waitstop) is freed when its owner is reaped,
# and file data lives in the fixed buffer cache, so the right tolerance is
# none: equal. A free that lands late gets a few seconds.
i=0
while :; do
	run_cmd 'cat /proc/meminfo' 20
	MEM1=$(memfree)
	[ "$MEM1" = "$MEM0" ] && break
	i=$((i + 1))
	[ $i -ge 3 ] && break
	run_cmd 'sleep 1' 10
done
if [ "$MEM1" = "$MEM0" ]; then
	pass "no page leaked: MemFree $MEM1 kB, as before uringcp ran"
else
	fail_log "MemFree was $MEM0 kB before uringcp ran and is ${MEM1:-?} kB after ($(( (MEM0 - ${MEM1:-0}) / 4 )) pages lost)"
fi

if ! qemu_send poweroff 30 || ! qemu_wait_exit 30; then
	fail_log "poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
fi
finish

# labs/grade/lib-uring.sh: what the graders of labs 02-05 (deny.sh,
# hide.sh, embrace.sh, followups.sh) and the demo share. POSIX sh.
# Source it after lib.sh, with RUN set to the run's name:
#
#     RUN=deny
#     . labs/grade/lib.sh
#     . labs/grade/lib-uring.sh
#
# The workload is the one of the bug report: `uringcp -l -a big out`, a
# copy through io_uring that starts again every second, with every request
# sent to io-wq, so that iou-mgr-PID and iou-wrk-PID threads stay alive.
# It runs under waitstop, which says what its parent learns (stops,
# continues, the end).
#
# Every function that types a command sets variables rather than printing
# a result: the harness counts the prompts it has seen, and a command run
# inside $(...) would be counted in a subshell and forgotten.
#
#   uring_boot CPUS             boot a copy of the image, make the 4 MB
#                               file `big`, note MemFree in MEM0
#   start_copy ARGS             waitstop -t $STOP_SECS uringcp ARGS &: sets
#                               PID once the I/O threads are there
#   run_cmd CMD SECS            type CMD, wait for the prompt; output in $OUT
#   wait_after FROM REGEX SECS  wait for a log line after line FROM
#   line_after FROM REGEX       print the last such line
#   get_threads PID             ps -T: THREADS = "TID STATE NAME" lines
#   get_nthreads PID            NTHREADS = "Threads:" of /proc/PID/status
#   get_ticks PID               TICKS = utime + stime of /proc/PID/stat
#   get_io_cpu PID              top -H: IOCPU = %CPU of PID's I/O threads
#                               together, IOBUSY = "TID N%, ..."
#   await_stop PID FROM         STOPPED, STOP_DETAIL for a stop after line FROM
#   stop_copy PID               kill -STOP PID: STOPPED = yes if the parent
#                               was told, no if not (no I/O for STOP_SECS;
#                               STOP_DETAIL says which threads did not stop)
#   wait_io_idle PID IDLE       wait until no I/O thread of PID is R or D
#   get_io PID                  IOBYTES = rchar + wchar of /proc/PID/io
#   get_memfree                 MEMFREE = MemFree in kB (/proc/meminfo)
#   await_memfree               ... again, until it is back to MEM0 (3 s)
#   kill_copy PID IDLE          kill -9 PID; HOW = how waitstop saw it end
#   get_progress PID            PROGRESS = CPU ticks + bytes read and written
#   wait_end PID IDLE           wait for the end while PID makes progress
#   run_mgdb PID ARGS           mgdb ARGS under iowatch (ends it if PID idles)
#   start_bg CMD                waitstop -t $STOP_SECS CMD &: BGPID, BG_FROM
#   finish                      power off, print the closing line, exit

# FAIL_FAST=1 (make check's matrix sets it where it expects a grader
# to fail): the first FAIL line ends the run at once, with the closing
# line. lib.sh's fail() is replaced by one that does that.
if [ -n "$FAIL_FAST" ]; then
	fail() {
		echo "FAIL $*"
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
		qemu_stop
		echo "(FAIL_FAST: the first failure ends the run; log: $Q_LOG)"
		echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
		exit 1
	}
fi

IMG=${IMG:-build/$ARCH/fs.img}
RUN=${RUN:-uring}
RUN_NO=0
OUT=/dev/null
CMD_FROM=0      # lines the log held when the last command was typed
MEM0=""
PID=""
# waitstop runs in the background: its lines may follow a prompt "$ ", or
# the echo of a command being typed, on the same line.
WS='waitstop: '
# How long a stop may take with nothing happening: waitstop -t, iowatch
# -t and the graders' waits give up only after STOP_SECS seconds in which
# the process did no I/O (rchar + wchar of /proc/PID/io did not move).
# A stop that comes while the I/O threads have requests queued completes
# only once they have run them all (64 chunks of 32 KiB), which takes
# seconds on a quiet machine and minutes on a loaded one; while they run,
# the process does I/O, so the wait goes on. A kernel that reports the
# stop does so as soon as it can; only one that never does waits this
# long after the I/O has ended.
STOP_SECS=${STOP_SECS:-60}

# run_cmd CMD SECS: at the next prompt, type CMD; wait up to SECS for the
# prompt after it. What the console printed meanwhile (CRs removed, maybe
# with lines of background jobs mixed in) goes to the file $OUT. False,
# with Q_REASON, if no prompt came back.
run_cmd() {
	qemu_wait_prompt 30 || return
	CMD_FROM=$(wc -l < "$Q_LOG")
	qemu_send "$1" 5 || return
	qemu_wait_prompt "$2"
	_rc_r=$?
	RUN_NO=$((RUN_NO + 1))
	OUT=$TESTDIR/$RUN.out$RUN_NO
	tail -n "+$((CMD_FROM + 1))" "$Q_LOG" | tr -d '\r' > "$OUT"
	return $_rc_r
}

# log_after FROM: the log after its first FROM lines, CRs removed.
log_after() {
	tail -n "+$(($1 + 1))" "$Q_LOG" | tr -d '\r'
}

# wait_after FROM REGEX SECS: wait until a line of the log after line FROM
# matches the ERE REGEX. False (with Q_REASON) on a timeout or if QEMU ended.
wait_after() {
	qemu_poll "$3" -a "$1" -E -e "$2"
}

# line_after FROM REGEX: print the last line after line FROM matching REGEX.
line_after() {
	log_after "$1" | grep -E -e "$2" | tail -n 1
}

# get_memfree: MEMFREE = MemFree in kB, from `cat /proc/meminfo` (empty
# if there is no such line).
get_memfree() {
	run_cmd 'cat /proc/meminfo' 20
	MEMFREE=$(awk '$1 == "MemFree:" { v = $2 } END { print v }' "$OUT")
}

# await_memfree: get_memfree again, a second apart (3 looks at most),
# until MEMFREE is back to MEM0: the pages of a process that has just
# ended may take a moment to come back. False if they did not.
await_memfree() {
	_am_i=0
	while :; do
		get_memfree
		[ "$MEMFREE" = "$MEM0" ] && return 0
		_am_i=$((_am_i + 1))
		[ $_am_i -ge 3 ] && return 1
		run_cmd 'sleep 1' 10
	done
}

# kill_copy PID IDLE: kill -9 PID and wait for waitstop to say how it
# ended, for as long as it makes progress (wait_end): HOW = that line
# ("waitstop: PID 6 killed by signal 9 (KILL)"). False, with HOW empty,
# if it stopped moving before it ended.
kill_copy() {
	HOW=""
	run_cmd "kill -9 $1" 20 &&
		wait_end "$1" "$2" &&
		HOW=$(line_after "$CMD_FROM" "$WS""PID $1 (killed by signal|exited)" | sed 's/.*waitstop:/waitstop:/')
	[ -n "$HOW" ]
}

# finish: power off, print the closing line; exit 1 if anything failed.
finish() {
	if [ -n "$Q_PID" ]; then
		if ! qemu_send poweroff 30 || ! qemu_wait_exit 30; then
			fail_log "poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
		fi
	fi
	qemu_stop
	echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
	[ "$TOTAL_FAIL" -eq 0 ]
	exit
}

# uring_boot CPUS: boot a fresh copy of the image as run $RUN, make the
# 4 MB file `big` and note MemFree in MEM0. False (after a FAIL line)
# if any of that goes wrong.
uring_boot() {
	if [ ! -f "$IMG" ]; then
		fail "no image $IMG (run make)"
		return 1
	fi
	cp --sparse=always "$IMG" "$TESTDIR/$RUN.img" || return 1
	qemu_start "$RUN" "$1" "$TESTDIR/$RUN.img" 1800 || { fail "could not start QEMU"; return 1; }
	if ! run_cmd 'mkbig big 4000000' 120; then
		fail_log "boot and mkbig big 4000000: $Q_REASON"
		return 1
	fi
	get_memfree
	if [ -z "$MEMFREE" ]; then
		fail_log "cat /proc/meminfo: no MemFree line"
		return 1
	fi
	MEM0=$MEMFREE
}

# get_nthreads PID: NTHREADS = how many threads /proc/PID/status counts
# (0 if the process is gone).
get_nthreads() {
	run_cmd "cat /proc/$1/status" 20
	NTHREADS=$(awk '$1 == "Threads:" { v = $2 } END { print v + 0 }' "$OUT")
}

# start_copy ARGS: start `waitstop -t $STOP_SECS uringcp ARGS &` and set
# PID to the copy's pid. Waits (up to 15 s) until /proc/PID/status counts at least 3
# threads: the main one, iou-mgr-PID and an iou-wrk-PID. That count takes
# in every thread of the group, listed in /proc/PID/task or not, so this
# works on every kernel. False (after a FAIL line) if the copy did not
# start.
start_copy() {
	start_bg "uringcp $1"
	PID=$BGPID
	if [ -z "$PID" ]; then
		fail_log "waitstop uringcp $1 & did not start: $Q_REASON"
		return 1
	fi
	# Type nothing for a moment: the copy's first request creates
	# iou-mgr-PID, and with no other process started meanwhile it gets
	# tid PID+1 (tids are handed out in order). demo.sh relies on that.
	sleep 1
	_sc_i=0
	while get_nthreads "$PID" && [ "$NTHREADS" -lt 3 ]; do
		_sc_i=$((_sc_i + 1))
		if [ $_sc_i -ge 15 ]; then
			fail_log "uringcp $1 (PID $PID) has no I/O threads after 15 s (/proc/$PID/status: $OUT)"
			return 1
		fi
		run_cmd 'sleep 1' 10
	done
}

# get_threads PID: run ps -T; THREADS = one "TID STATE NAME" line per
# thread of PID that it lists (STATE is the first letter of STAT).
get_threads() {
	run_cmd 'ps -T' 20
	THREADS=$(awk -v p="$1" '$1 == p && $2 ~ /^[0-9]+$/ { print $2, substr($3, 1, 1), $5 }' "$OUT")
}

# get_ticks PID: TICKS = the process's utime + stime in ticks (1/100 s)
# from /proc/PID/stat, which sums the whole group (thread_group_cputime()).
get_ticks() {
	run_cmd "cat /proc/$1/stat" 20
	TICKS=$(awk -v p="$1" '$1 == p { print $14 + $15 }' "$OUT")
}

# get_io_cpu PID: run top -b -n 2 -d 1 -H. From its last frame, IOCPU =
# the %CPU that PID's I/O threads (names iou-...) used together, as an
# integer; IOBUSY = "TID N%, ..." for those at 1% or more.
get_io_cpu() {
	run_cmd 'top -b -n 2 -d 1 -H' 60
	awk '/^top - / { n = 0; delete l } { l[++n] = $0 } END { for (i = 1; i <= n; i++) print l[i] }' \
		"$OUT" > "$OUT.last"
	IOCPU=$(awk -v p="$1" '$1 == p && $6 ~ /^iou-/ { s += $4 } END { printf "%d", s }' "$OUT.last")
	IOBUSY=$(awk -v p="$1" '$1 == p && $6 ~ /^iou-/ && $4 >= 1 { printf "%s %s%%, ", $2, $4 }' "$OUT.last")
	IOBUSY=${IOBUSY%, }
}

# stop_copy PID: kill -STOP PID, then await_stop PID. A PID that is gone
# already gives STOPPED = no at once.
stop_copy() {
	run_cmd "kill -STOP $1" 20
	if grep -q 'No such process' "$OUT"; then
		STOPPED=no
		STOP_DETAIL="it had ended before kill -STOP came"
		return
	fi
	await_stop "$1" "$CMD_FROM"
}

# await_stop PID FROM: wait for waitstop to say, after log line FROM,
# whether the parent was told of a stop of PID. STOPPED = yes if
# waitpid(WUNTRACED) reported it; no if waitstop gave up (after STOP_SECS
# in which the process did no I/O; STOP_DETAIL then says so and which
# threads never stopped) or the process ended first (STOP_DETAIL says
# how); "" if waitstop said none of these (it gives up after 10 *
# STOP_SECS at the most).
await_stop() {
	STOPPED=""
	STOP_DETAIL=""
	if wait_after "$2" "$WS""PID $1 (reported stopped|not reported stopped|exited|killed)" \
		$((10 * STOP_SECS + 20)); then
		if [ -n "$(line_after "$2" "$WS""PID $1 reported stopped")" ]; then
			STOPPED=yes
		elif [ -n "$(line_after "$2" "$WS""PID $1 (exited|killed)")" ]; then
			STOPPED=no
			STOP_DETAIL="it ended before the stop: $(line_after "$2" "$WS""PID $1 (exited|killed)" |
				sed 's/.*waitstop: //')"
		else
			STOPPED=no
			wait_after "$2" "$WS""PID $1: [0-9]+ of [0-9]+ threads never stopped" 5
			STOP_DETAIL="$(line_after "$2" "$WS""PID $1 not reported stopped" |
				sed 's/.*not reported stopped: //'); $(line_after "$2" "$WS""PID $1: [0-9]+ of" |
				sed 's/.*waitstop: PID [0-9]*: //'): $(line_after "$2" "$WS""threads of $1:" |
				sed 's/.*waitstop: threads of [0-9]*: //')"
		fi
	fi
}

# wait_io_idle PID IDLE: wait until ps -T shows none of PID's I/O threads
# running or in disk sleep (R or D): after a stop, they may first finish
# the requests already queued, which takes as long as the machine needs.
# So wait for as long as the process still reads or writes (rchar +
# wchar move at least once every IDLE seconds). True if they went idle;
# false if they stayed busy with no I/O (spinning). THREADS holds the
# last listing either way.
wait_io_idle() {
	_wi_io=-1
	_wi_since=$(date +%s)
	while :; do
		get_threads "$1"
		echo "$THREADS" | awk '$3 ~ /^iou-/ && ($2 == "R" || $2 == "D") { f = 1 } END { exit f }' &&
			return 0
		get_io "$1"
		if [ "$IOBYTES" != "$_wi_io" ]; then
			_wi_io=$IOBYTES
			_wi_since=$(date +%s)
		elif [ $(($(date +%s) - _wi_since)) -ge "$2" ]; then
			return 1
		fi
		run_cmd 'sleep 1' 10
	done
}

# get_io PID: IOBYTES = the bytes PID has read and written so far (rchar
# + wchar of /proc/PID/io, every thread's); empty if it is gone.
get_io() {
	run_cmd "cat /proc/$1/io" 20
	IOBYTES=$(awk '$1 == "rchar:" || $1 == "wchar:" { b += $2; s = 1 } END { if (s) print b }' "$OUT")
}

# get_progress PID: PROGRESS = what PID has done so far: its CPU time in
# ticks (utime + stime of /proc/PID/stat, every thread) plus the bytes it
# has read and written (rchar + wchar of /proc/PID/io). CPU time alone
# stands still while its threads wait for the disk. Empty if it is gone.
get_progress() {
	run_cmd "cat /proc/$1/stat /proc/$1/io" 20
	PROGRESS=$(awk -v p="$1" '$1 == p && NF > 15 { t = $14 + $15; s = 1 }
		$1 == "rchar:" || $1 == "wchar:" { b += $2 }
		END { if (s) print t + b }' "$OUT")
}

# wait_end PID IDLE [CAP]: wait for waitstop to say that PID ended (exited or
# killed), for as long as the process makes progress (get_progress: CPU
# time or I/O) at least once every IDLE seconds, and CAP seconds (10 * IDLE
# unless given) at the most (a process that should end but goes on working
# is wrong too).
# A loaded machine makes a process slow, not stuck; one that stops moving
# is stuck. It is looked at every IDLE/4 seconds, so that a stuck process
# is known IDLE seconds after its last move, not up to twice that. False,
# with Q_REASON, if it did not end.
wait_end() {
	_we_from=$CMD_FROM
	_we_step=$(($2 / 4))
	[ "$_we_step" -ge 1 ] || _we_step=1
	get_progress "$1"
	_we_last=${PROGRESS:--1}
	_we_moved=$(date +%s)
	_we_cap=${3:-$((10 * $2))}
	_we_end=$((_we_moved + _we_cap))
	while :; do
		wait_after "$_we_from" "$WS""PID $1 (exited|killed)" "$_we_step"
		_we_r=$?
		[ $_we_r = 1 ] || break          # ended (0), or QEMU did (2)
		get_progress "$1"
		_we_now=$(date +%s)
		if [ -n "$PROGRESS" ] && [ "$PROGRESS" -gt "$_we_last" ]; then
			_we_last=$PROGRESS
			_we_moved=$_we_now
		fi
		# No figure at all: the console did not answer in time (a busy
		# machine), or the process has just ended; look again, as long
		# as the cap allows.
		[ "$_we_now" -lt "$_we_end" ] && { [ -z "$PROGRESS" ] || [ $((_we_now - _we_moved)) -lt "$2" ]; } &&
			continue
		wait_after "$_we_from" "$WS""PID $1 (exited|killed)" 1
		_we_r=$?
		if [ $_we_r = 1 ] && [ "$_we_now" -ge "$_we_end" ]; then
			Q_REASON="it was still working after $_we_cap s"
		elif [ $_we_r = 1 ]; then
			Q_REASON="it did nothing (no CPU time, no I/O) for $2 s"
		fi
		break
	done
	CMD_FROM=$_we_from       # line_after "$CMD_FROM" finds the end line
	return $_we_r
}

# run_mgdb PID ARGS: run `mgdb ARGS` on process PID under iowatch, and
# wait for the prompt. mgdb ends when it is done; iowatch ends it only
# once PID has done no I/O for STOP_SECS while it waited (a stop that
# never comes), however slow the machine. Output in $OUT. False, with
# Q_REASON, if iowatch had to end it or no prompt came back.
run_mgdb() {
	run_cmd "iowatch -t $STOP_SECS $1 mgdb $2" $((10 * STOP_SECS + 30)) || return
	_rm_k=$(grep -E '^iowatch: mgdb killed' "$OUT" | sed 's/^iowatch: //')
	[ -z "$_rm_k" ] && return 0
	Q_REASON="it waited for something that never came: $_rm_k"
	return 1
}

# start_bg CMD: start `waitstop -t $STOP_SECS CMD &` and set BGPID to the
# pid of CMD, BG_FROM to the log line count when it was typed. BGPID is
# empty, with Q_REASON, if it did not start.
start_bg() {
	BGPID=""
	if run_cmd "waitstop -t $STOP_SECS $1 &" 20 &&
		wait_after "$CMD_FROM" "$WS"'PID [0-9]+ started: ' 60; then
		BG_FROM=$CMD_FROM
		BGPID=$(line_after "$CMD_FROM" "$WS"'PID [0-9]+ started' | sed -E 's/.*waitstop: PID ([0-9]+) started.*/\1/')
	fi
}

# start_one SECS [FILE]: start a one-shot `waitstop -t SECS uringcp -S -a
# FILE out2 &` (FILE: big if not given), which stops itself right after
# its first requests are submitted, and set ONE to its pid (its stop
# report follows line BG_FROM of the log); ONE is empty (after a FAIL
# line) if it did not start.
start_one() {
	_so_secs=$STOP_SECS
	STOP_SECS=$1
	start_bg "uringcp -S -a ${2:-big} out2"
	STOP_SECS=$_so_secs
	ONE=$BGPID
	[ -n "$ONE" ] || fail_log "waitstop uringcp -S -a ${2:-big} out2 & did not start: $Q_REASON"
}

# check_racetest: one check. racetest sends SIGUSR1 into create_io_thread()'s
# window (the knob makes it half a second): no I/O thread may spin
# afterwards, and the main thread must get the signal; that holds only if
# the new thread's signals are blocked from its first moment, in
# copy_process().
check_racetest() {
	if ! run_cmd 'racetest' 60; then
		fail_log "racetest did not end within 60 s: $Q_REASON"
		return
	fi
	_cr=$(grep -E '^racetest: signal into the window' "$OUT")
	case "$_cr" in
	*"window: yes"*"spinning: no"*"main thread: yes"*)
		pass "racetest: a SIGUSR1 sent into the window leaves no I/O thread spinning and reaches the main thread: ${_cr#racetest: }" ;;
	*"window: yes"*)
		fail_log "racetest: a signal sent while create_io_thread() made the thread was not blocked by it (the mask must be set in copy_process()): ${_cr#racetest: }" ;;
	*)
		fail_log "racetest did not report a signal sent into the window: ${_cr:-no result line} (output: $OUT)" ;;
	esac
}

# labs/grade/lib-uring.sh: what the graders of labs 02-05 (deny.sh,
# hide.sh, embrace.sh, followups.sh) and labs/demo.sh share. POSIX sh.
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
#   stop_copy PID               kill -STOP PID: STOPPED = yes if the parent
#                               was told, no if not (within STOP_SECS; then
#                               STOP_DETAIL says which threads did not stop)
#   wait_io_idle PID SECS       wait until no I/O thread of PID is R or D
#   get_memfree                 MEMFREE = MemFree in kB (/proc/meminfo)
#   await_memfree               ... again, until it is back to MEM0 (3 s)
#   kill_copy PID SECS          kill -9 PID; HOW = how waitstop saw it end
#   finish                      power off, print the closing line, exit

# FAIL_FAST=1 (labs/grade/matrix.sh sets it where it expects a grader
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
# waitstop runs in the background: its lines may follow a prompt "$ ".
WS='^(\$ )*waitstop: '
# How long waitstop waits for a stop to be reported. Not 1 or 2: a stop
# that comes while the I/O threads have requests queued completes only
# once they have run them all: 64 chunks of 32 KiB, which can take over
# 10 s on a busy machine (and a minute on one with two CPU-bound
# processes beside QEMU). A kernel that reports the stop does so as soon
# as it can; only one that never does waits this long.
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
	_wa_deadline=$(($(date +%s) + $3))
	while ! log_after "$1" | grep -q -E -e "$2"; do
		if ! qemu_running; then
			Q_REASON="QEMU exited with status $Q_STATUS"
			return 2
		fi
		if [ "$(date +%s)" -ge "$_wa_deadline" ]; then
			Q_REASON="timed out after $3 s"
			return 1
		fi
		sleep "$Q_POLL"
	done
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

# kill_copy PID SECS: kill -9 PID and wait up to SECS for waitstop to say
# how it ended: HOW = that line ("waitstop: PID 6 killed by signal 9
# (KILL)"). False, with HOW empty, if it did not end in time.
kill_copy() {
	HOW=""
	run_cmd "kill -9 $1" 20 &&
		wait_after "$CMD_FROM" "$WS""PID $1 (killed by signal|exited)" "$2" &&
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
	qemu_start "$RUN" "$1" "$TESTDIR/$RUN.img" 400 || { fail "could not start QEMU"; return 1; }
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
	PID=""
	if ! run_cmd "waitstop -t $STOP_SECS uringcp $1 &" 20 ||
		! wait_after "$CMD_FROM" "$WS"'PID [0-9]+ started: uringcp' 20; then
		fail_log "waitstop uringcp $1 & did not start: $Q_REASON"
		return 1
	fi
	PID=$(line_after "$CMD_FROM" "$WS"'PID [0-9]+ started' | sed -E 's/.*waitstop: PID ([0-9]+) started.*/\1/')
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

# stop_copy PID: kill -STOP PID, then wait for waitstop to say whether the
# parent was told. STOPPED = yes if waitpid(WUNTRACED) reported the stop,
# no if waitstop gave up after STOP_SECS (STOP_DETAIL then says how many
# threads never stopped) or the copy ended first (STOP_DETAIL says how),
# "" if it said none of these within STOP_SECS + 20 s.
stop_copy() {
	STOPPED=""
	STOP_DETAIL=""
	run_cmd "kill -STOP $1" 20
	_st_from=$CMD_FROM
	if wait_after "$_st_from" "$WS""PID $1 (reported stopped|not reported stopped|exited|killed)" \
		$((STOP_SECS + 20)); then
		if [ -n "$(line_after "$_st_from" "$WS""PID $1 reported stopped")" ]; then
			STOPPED=yes
		elif [ -n "$(line_after "$_st_from" "$WS""PID $1 (exited|killed)")" ]; then
			STOPPED=no
			STOP_DETAIL="it ended before the stop: $(line_after "$_st_from" "$WS""PID $1 (exited|killed)" |
				sed 's/.*waitstop: //')"
		else
			STOPPED=no
			wait_after "$_st_from" "$WS""PID $1: [0-9]+ of [0-9]+ threads never stopped" 5
			STOP_DETAIL=$(line_after "$_st_from" "$WS""PID $1: [0-9]+ of" | sed 's/.*waitstop: //')
		fi
	fi
}

# wait_io_idle PID SECS: wait (up to SECS) until ps -T shows none of PID's
# I/O threads running or in disk sleep (R or D): after a stop, they may
# first finish the requests already queued. True if that happened;
# THREADS holds the last listing either way.
wait_io_idle() {
	_wi_deadline=$(($(date +%s) + $2))
	while :; do
		get_threads "$1"
		echo "$THREADS" | awk '$3 ~ /^iou-/ && ($2 == "R" || $2 == "D") { f = 1 } END { exit f }' &&
			return 0
		[ "$(date +%s)" -ge "$_wi_deadline" ] && return 1
		run_cmd 'sleep 1' 10
	done
}

# wait_end PID IDLE: wait for waitstop to say that PID ended (exited or
# killed), for as long as the process makes progress: its CPU time
# (utime + stime of all its threads, /proc/PID/stat) must grow at least
# once every IDLE seconds. A loaded machine makes a copy slow, not stuck;
# a process that stops moving is. False, with Q_REASON, if it stopped
# moving (or QEMU ended) before it ended.
wait_end() {
	_we_from=$CMD_FROM
	_we_last=-1
	while :; do
		wait_after "$_we_from" "$WS""PID $1 (exited|killed)" "$2"
		_we_r=$?
		[ $_we_r = 1 ] || break          # ended (0), or QEMU did (2)
		get_ticks "$1"
		if [ -z "$TICKS" ] || [ "$TICKS" -le "$_we_last" ]; then
			wait_after "$_we_from" "$WS""PID $1 (exited|killed)" 1
			_we_r=$?
			[ $_we_r = 1 ] && Q_REASON="it made no progress for $2 s (CPU time ${TICKS:-gone} ticks)"
			break
		fi
		_we_last=$TICKS
	done
	CMD_FROM=$_we_from       # line_after "$CMD_FROM" finds the end line
	return $_we_r
}

# start_one SECS: start a one-shot `waitstop -t SECS uringcp -a big out2 &`
# and set ONE to its pid; ONE is empty (after a FAIL line) if it did not
# start.
start_one() {
	ONE=""
	if run_cmd "waitstop -t $1 uringcp -a big out2 &" 20 &&
		wait_after "$CMD_FROM" "$WS"'PID [0-9]+ started: uringcp -a' 20; then
		ONE=$(line_after "$CMD_FROM" "$WS"'PID [0-9]+ started' | sed -E 's/.*waitstop: PID ([0-9]+) started.*/\1/')
	else
		fail_log "waitstop uringcp -a big out2 & did not start: $Q_REASON"
	fi
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

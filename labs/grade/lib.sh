# labs/grade/lib.sh: the test harness library. POSIX sh; sourced by graders
# from the top of the tree:   . labs/grade/lib.sh
#
# One QEMU run at a time. Its serial console is driven through a FIFO that
# the harness holds open read-write on fd 9 (so QEMU never sees EOF), and
# its whole output goes to a log file, build/$ARCH/test/NAME.log, which every
# failure names. Commands are typed only after the shell prompt "$ " has
# appeared: the k-th command waits for the k-th prompt.
#
#   qemu_start NAME CPUS IMAGE SECS   boot; the run is killed after SECS
#   qemu_wait_prompt [SECS]           wait for the next prompt (last command done)
#   qemu_send LINE [SECS]             wait for the next prompt, type LINE
#   qemu_send_raw BYTES               type BYTES (printf escapes: '\032' is Ctrl-Z) at once
#   qemu_wait_for STRING [SECS]       wait until STRING is in the log
#   qemu_wait_line LINE [SECS]        ... a whole line equal to LINE
#   qemu_wait_match REGEX [SECS]      ... a line matching the ERE REGEX
#   qemu_wait_exit [SECS]             wait for QEMU to end; status in Q_STATUS
#   qemu_stop                         kill the run (by its pid) and clean up
#   run_test_program NAME CPUS IMAGE COMMAND SECS
#                                     boot, run a test program, count results
#   fuzz_campaign NAME CPUS SEED CALLS THREADS PROCS SECS
#                                     a fuzzing run on a fresh image, with its
#                                     watchdog lines and fsck counted
#   pass MSG / fail MSG / fail_log MSG   one result line, counted
#
# Waits return 0 when found, 1 on timeout, 2 if QEMU ended first (with its
# status in Q_STATUS); Q_REASON then says which, for the FAIL line.
# Test programs print "PASS ..." / "FAIL ..." lines and close with
# "N passed, N failed" alone on a line.

ARCH=${ARCH:-riscv64}
MAKE=${MAKE:-make}
TESTDIR=build/$ARCH/test
Q_POLL=${Q_POLL:-0.05}          # seconds between looks at the log
Q_WAIT=${Q_WAIT:-60}            # default seconds for a wait
Q_PROMPT_MIN=${Q_PROMPT_MIN:-60}  # never wait less for a prompt: on a loaded machine,
                                # or with the baseline's threads spinning, it is
                                # slow to come, not lost
# logwait (tools/logwait.c), the host tool every wait goes through; built
# here if make has not built it yet (a tree of the matrix gets LOGWAIT
# from the tree it was made from).
LOGWAIT=${LOGWAIT:-$(pwd)/build/logwait}
if [ ! -x "$LOGWAIT" ]; then
	mkdir -p "$(dirname "$LOGWAIT")"
	${HOSTCC:-cc} -Wall -O2 -o "$LOGWAIT.$$" tools/logwait.c && mv -f "$LOGWAIT.$$" "$LOGWAIT" ||
		{ echo "lib.sh: cannot build $LOGWAIT from tools/logwait.c" >&2; exit 1; }
fi
CLOSING='^[0-9]+ passed, [0-9]+ failed$'

TOTAL_PASS=0
TOTAL_FAIL=0
Q_PID=""                        # pid of the running `timeout ... qemu`
Q_LOG=""                        # its log file
Q_FIFO=""                       # its console input
Q_SENT=0                        # commands typed so far in this run
Q_STATUS=""                     # exit status of the last run (124: timed out)
Q_REASON=""                     # why the last wait failed
Q_T0=0                          # date +%s%N when the last run started

mkdir -p "$TESTDIR"
trap 'qemu_stop' EXIT
trap 'qemu_stop; exit 130' INT
trap 'qemu_stop; exit 143' TERM HUP

# pass MSG: print and count one passing check.
pass() {
	echo "PASS $*"
	TOTAL_PASS=$((TOTAL_PASS + 1))
}

# fail MSG: print and count one failing check.
fail() {
	echo "FAIL $*"
	TOTAL_FAIL=$((TOTAL_FAIL + 1))
}

# fail_log MSG: a failing check that names the current log and shows its tail.
fail_log() {
	fail "$* (log: $Q_LOG)"
	show_tail "$Q_LOG"
}

# show_tail LOG: the last 20 lines of a log, indented, carriage returns removed.
show_tail() {
	echo "  --- last 20 lines of $1:"
	tail -n 20 "$1" 2>/dev/null | tr -d '\r' | awk '{ print "  | " $0 }'
	echo "  ---"
}

# suite_header NAME DETAIL: the progress line as a suite starts.
suite_header() {
	echo "== $1 ($2)"
}

# qemu_command CPUS IMAGE: the QEMU command line for this tree's kernel
# (make qemu-cmd), or QEMU_OVERRIDE if set (bench.sh boots xv6 with it).
qemu_command() {
	if [ -n "${QEMU_OVERRIDE:-}" ]; then
		echo "$QEMU_OVERRIDE"
		return
	fi
	$MAKE -s --no-print-directory qemu-cmd ARCH="$ARCH" CPUS="$1" FSIMG="$2"
}

# qemu_start NAME CPUS IMAGE SECS: boot IMAGE in the background with a
# console FIFO and the log $TESTDIR/NAME.log; QEMU is killed after SECS.
qemu_start() {
	qemu_stop
	Q_LOG=$TESTDIR/$1.log
	Q_FIFO=$TESTDIR/$1.in
	Q_SENT=0
	Q_STATUS=""
	_cmd=$(qemu_command "$2" "$3") || {
		echo "lib.sh: make qemu-cmd failed" >&2
		return 1
	}
	rm -f "$Q_FIFO" "$Q_LOG"
	mkfifo "$Q_FIFO" || return 1
	exec 9<>"$Q_FIFO"
	: > "$Q_LOG"
	Q_T0=$(date +%s%N)
	timeout "$4" $_cmd <&9 >"$Q_LOG" 2>&1 &
	Q_PID=$!
}

# qemu_running: true while the current run's QEMU has not ended. Once it
# has, collect its exit status into Q_STATUS (and forget its pid).
qemu_running() {
	[ -n "$Q_PID" ] || return 1
	kill -0 "$Q_PID" 2>/dev/null && return 0
	wait "$Q_PID"
	Q_STATUS=$?
	Q_PID=""
	return 1
}

# qemu_poll SECS LOGWAIT-ARGS...: wait until the log holds what
# `logwait LOGWAIT-ARGS` looks for (-F, -E, -x, -o, -a SKIP, -n COUNT,
# -e PATTERN: tools/logwait.c; carriage returns do not count). logwait
# sleeps until the log grows or QEMU ends, so a wait costs no CPU. On
# failure Q_REASON says why: timed out, or QEMU ended (with its status).
qemu_poll() {
	_secs=$1
	shift
	_qp_pid=$Q_PID
	qemu_running || _qp_pid=""
	if [ -z "$_qp_pid" ]; then
		"$LOGWAIT" -t 0 "$@" "$Q_LOG" && return 0
		[ $? = 3 ] && { Q_REASON="logwait failed"; return 1; }
		Q_REASON="QEMU exited with status $Q_STATUS"
		return 2
	fi
	"$LOGWAIT" -t "$_secs" -p "$_qp_pid" "$@" "$Q_LOG"
	case $? in
	0) return 0 ;;
	1) Q_REASON="timed out after $_secs s"; return 1 ;;
	2) qemu_running; Q_REASON="QEMU exited with status $Q_STATUS"; return 2 ;;
	*) Q_REASON="logwait failed"; return 1 ;;
	esac
}

# qemu_wait_for STRING [SECS]: wait until STRING appears anywhere in the log.
qemu_wait_for() {
	qemu_poll "${2:-$Q_WAIT}" -F -e "$1"
}

# qemu_wait_line LINE [SECS]: wait for a line exactly LINE.
qemu_wait_line() {
	qemu_poll "${2:-$Q_WAIT}" -x -F -e "$1"
}

# qemu_wait_match REGEX [SECS]: wait for a line matching the ERE REGEX
# (anchor with ^ and $).
qemu_wait_match() {
	qemu_poll "${2:-$Q_WAIT}" -E -e "$1"
}

# qemu_wait_prompt [SECS]: wait for prompt number Q_SENT+1, the one the next
# command will be typed at (so the last command has finished). Fails like
# qemu_poll, with Q_REASON, if it does not come.
qemu_wait_prompt() {
	_wp_secs=${1:-$Q_WAIT}
	[ "$_wp_secs" -ge "$Q_PROMPT_MIN" ] || _wp_secs=$Q_PROMPT_MIN
	qemu_poll "$_wp_secs" -o -n $((Q_SENT + 1)) -F -e '$ ' && return 0
	_wp_r=$?
	case $Q_REASON in
	timed*) Q_REASON="no prompt after $_wp_secs s" ;;
	*) Q_REASON="no prompt: $Q_REASON" ;;
	esac
	return $_wp_r
}

# qemu_send LINE [SECS]: wait for prompt number Q_SENT+1, then type LINE.
qemu_send() {
	qemu_wait_prompt "$2" || return
	printf '%s\n' "$1" >&9
	# Q_TIMELOG=FILE: note when each line was typed (to see where a run spends its time).
	[ -z "$Q_TIMELOG" ] || echo "$(date +%s.%N | cut -c1-14) $1" >> "$Q_TIMELOG"
	Q_SENT=$((Q_SENT + 1))
}

# qemu_send_raw BYTES: write BYTES to the console at once, without waiting
# for a prompt; BYTES is a printf format, so '\032' is Ctrl-Z, '\003'
# Ctrl-C. For keys the kernel acts on as they arrive (job control).
qemu_send_raw() {
	printf "$1" >&9
}

# qemu_wait_exit [SECS]: wait for QEMU to end, killing it after SECS.
# Its exit status goes to Q_STATUS (124 when the timeout or we ended it);
# true if that is 0.
qemu_wait_exit() {
	_deadline=$(($(date +%s) + ${1:-$Q_WAIT}))
	while qemu_running; do
		if [ "$(date +%s)" -ge "$_deadline" ]; then
			qemu_stop
			Q_STATUS=124
			break
		fi
		sleep "$Q_POLL"
	done
	qemu_stop
	[ "$Q_STATUS" = 0 ]
}

# qemu_stop: end the current run, if any, and clean up. TERM goes to the
# run's own pid (timeout passes it on to QEMU); if that is not enough within
# 2 s, KILL goes to the run's own process group (timeout made it, pgid = pid).
qemu_stop() {
	if [ -n "$Q_PID" ]; then
		kill "$Q_PID" 2>/dev/null
		_qs_i=0
		while qemu_running && [ $_qs_i -lt 40 ]; do
			sleep 0.05
			_qs_i=$((_qs_i + 1))
		done
		if qemu_running; then
			kill -9 -- "-$Q_PID" 2>/dev/null
			wait "$Q_PID" 2>/dev/null
			Q_PID=""
		fi
	fi
	if [ -n "$Q_FIFO" ]; then
		exec 9>&-
		rm -f "$Q_FIFO"
		Q_FIFO=""
	fi
}

# log_results LOG: a test program's result lines and closing line(s).
log_results() {
	tr -d '\r' < "$1" | grep -E -e '^(PASS|FAIL) ' -e "$CLOSING"
}

# log_counts LOG: set R_PASS and R_FAIL from the log's last closing line;
# false if the log has none.
log_counts() {
	_last=$(tr -d '\r' < "$1" | grep -E -e "$CLOSING" | tail -n 1)
	[ -n "$_last" ] || return 1
	set -- $_last
	R_PASS=$1
	R_FAIL=$3
}

# run_test_program NAME CPUS IMAGE COMMAND SECS: boot IMAGE, type COMMAND at
# the prompt, wait (up to SECS) for its closing line and for the next prompt,
# then print its FAIL lines (every result line if VERBOSE is set) and a
# summary naming the log, and add its counts to the totals; finally type
# poweroff and expect QEMU to exit 0. A missing closing line is one failure.
run_test_program() {
	_rt_name=$1 _rt_cpus=$2 _rt_img=$3 _rt_prog=$4 _rt_secs=$5
	if ! qemu_start "$_rt_name" "$_rt_cpus" "$_rt_img" "$((_rt_secs + 90))"; then
		fail "$_rt_name: could not start QEMU"
		return 1
	fi
	if ! qemu_send "$_rt_prog" 60; then
		fail_log "$_rt_name: $Q_REASON"
		qemu_stop
		return 1
	fi
	qemu_wait_match "$CLOSING" "$_rt_secs" && qemu_wait_prompt 30
	_rt_r=$?
	if [ -n "$VERBOSE" ]; then
		log_results "$Q_LOG" | grep -v -E "$CLOSING"
	else
		log_results "$Q_LOG" | grep '^FAIL '
	fi
	if ! log_counts "$Q_LOG"; then
		fail_log "$_rt_name: no closing \"N passed, N failed\" line: $Q_REASON"
		qemu_stop
		return 1
	fi
	TOTAL_PASS=$((TOTAL_PASS + R_PASS))
	TOTAL_FAIL=$((TOTAL_FAIL + R_FAIL))
	echo "$_rt_name: $R_PASS passed, $R_FAIL failed (log: $Q_LOG)"
	if [ $_rt_r -ne 0 ]; then
		fail_log "$_rt_name: $_rt_prog did not return to the shell: $Q_REASON"
	elif ! qemu_send poweroff 30 || ! qemu_wait_exit 30; then
		fail_log "$_rt_name: poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
	else
		[ "$R_FAIL" = 0 ]
		return
	fi
	qemu_stop
	return 1
}

# fuzz_campaign NAME CPUS SEED CALLS THREADS PROCS SECS: copy the built
# image, boot it, run user/fuzz.c with that seed and those counts (up to
# SECS), and count its results; then two checks of our own: the console
# holds no watchdog report (a task hung in D, a soft or hard lockup: the
# fuzzer itself cannot see those) and fsck finds the image clean.
fuzz_campaign() {
	_fc_name=$1 _fc_cpus=$2 _fc_seed=$3 _fc_calls=$4
	_fc_img=$TESTDIR/$_fc_name.img
	_fc_fsck=${FSCK:-build/fsck}
	echo "fuzz: seed $_fc_seed (replay: make fuzz ARCH=$ARCH FUZZ_SEED=$_fc_seed FUZZ_CALLS=$_fc_calls)"
	cp --sparse=always "build/$ARCH/fs.img" "$_fc_img" || { fail "$_fc_name: no image"; return 1; }
	run_test_program "$_fc_name" "$_fc_cpus" "$_fc_img" \
		"fuzz -s $_fc_seed -n $_fc_calls -t $5 -p $6" "$7"
	_fc_log=$TESTDIR/$_fc_name.log
	tr -d '\r' < "$_fc_log" | grep -a -m 1 'calls/s'
	_fc_dog=$(tr -d '\r' < "$_fc_log" | grep -a -E 'INFO: task .* blocked for more than|soft lockup|hard LOCKUP|kernel panic' | head -n 3)
	if [ -z "$_fc_dog" ]; then
		pass "$_fc_name: no watchdog report and no panic on the console"
	else
		fail "$_fc_name: the console reports: $(echo "$_fc_dog" | tr '\n' ' ')(log: $_fc_log)"
	fi
	if _fc_out=$("$_fc_fsck" "$_fc_img" 2>&1); then
		pass "$_fc_name: $_fc_out"
	else
		fail "$_fc_name: fsck: the image is damaged: $(echo "$_fc_out" | head -n 5 | tr '\n' ' ')"
	fi
}

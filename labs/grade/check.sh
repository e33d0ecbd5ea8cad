#!/bin/sh
# labs/grade/check.sh: `make check`, every test suite for $ARCH.
# Prints "== SUITE (...)" as each suite starts, one PASS/FAIL line per check,
# and closes with "N passed, N failed"; exits non-zero on any failure.
# Logs: build/$ARCH/test/*.log. ONLY='usertests|boot' runs just those suites.

cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh

IMG=build/$ARCH/fs.img
MKFS=${MKFS:-build/mkfs}
HOSTCC=${HOSTCC:-cc}
BOOT_CPUS=${CPUS:-3}
TOOLPREFIX=${TOOLPREFIX-$($MAKE -s --no-print-directory ARCH="$ARCH" toolprefix 2>/dev/null)}

# The suites, one a line: NAME CPUS FUNCTION [ARGS...] ("host": no QEMU).
# To add one, add a line; a test program that prints PASS/FAIL lines and
# the closing line needs only `suite_program PROGRAM SECS`.
SUITES="
mkfs       host        suite_mkfs
boot       $BOOT_CPUS  suite_boot
usertests  1           suite_program usertests 180
usertests  3           suite_program usertests 180
sigtests   1           suite_program sigtests 240
sigtests   3           suite_program sigtests 240
ptracetests 1          suite_program ptracetests 180
ptracetests 3          suite_program ptracetests 180
mgdb       $BOOT_CPUS  suite_script labs/grade/mgdb-check.sh
uringtests 1           suite_program uringtests 240
uringtests 2           suite_program uringtests 240
jobctl     $BOOT_CPUS  suite_jobctl
logcrash   $BOOT_CPUS  suite_logcrash
fuzz       $BOOT_CPUS  suite_fuzz
watchdog   $BOOT_CPUS  suite_watchdog
fsck       host        suite_fsck
figures    host        suite_script labs/grade/figures-check.sh
badimage   1           suite_badimage
serial     2           suite_serial
gdb        $BOOT_CPUS  suite_script labs/grade/gdb-check.sh
"
# >>> full
# The suites of the full edition, which need the reference solutions and
# the wrong fixes (make handout leaves them out with those).
SUITES="$SUITES
matrix     $BOOT_CPUS  suite_matrix
gdb-traced $BOOT_CPUS  suite_gdb_traced
report     $BOOT_CPUS  suite_script labs/grade/report-check.sh
handout    $BOOT_CPUS  suite_script labs/grade/handout-check.sh
hints      host        suite_script labs/grade/hints-check.sh
"
# <<< full

# fresh_image NAME: copy the built image to $TESTDIR/NAME.img; print its path.
fresh_image() {
	cp --sparse=always "$IMG" "$TESTDIR/$1.img" && echo "$TESTDIR/$1.img"
}

# suite_program PROGRAM SECS: boot a fresh image, run PROGRAM, count its results.
suite_program() {
	_sp_run=$S_NAME-cpus$S_CPUS
	_sp_img=$(fresh_image "$_sp_run") || { fail "$_sp_run: no image $IMG"; return; }
	run_test_program "$_sp_run" "$S_CPUS" "$_sp_img" "$1" "$2"
}

# suite_script SCRIPT: run a grader script (it boots its own QEMU) with
# CPUS=$S_CPUS; add its counts (script_counts).
suite_script() {
	_ss_out=$TESTDIR/$(basename "$1" .sh)-cpus$S_CPUS.out
	CPUS=$S_CPUS ARCH=$ARCH MAKE=$MAKE sh "$1" > "$_ss_out" 2>&1
	script_counts "$_ss_out" "$1"
}

# script_counts OUT WHAT: a script's output OUT: show its FAIL lines (all
# with VERBOSE); add its counts, or fail if it has no closing line.
script_counts() {
	if [ -n "$VERBOSE" ]; then grep -v -E "$CLOSING" "$1"; else grep -E '^FAIL |^  ' "$1"; fi
	if log_counts "$1"; then
		TOTAL_PASS=$((TOTAL_PASS + R_PASS)); TOTAL_FAIL=$((TOTAL_FAIL + R_FAIL))
		echo "$2: $R_PASS passed, $R_FAIL failed (output: $1)"
	else
		fail "$2: no closing \"N passed, N failed\" line (output: $1)"
	fi
}

# >>> full
# suite_matrix: every cell of labs/grade/matrix.sh, two at a time: each
# lab's grader passes with its reference series and fails on the
# baseline, on the strategies that miss its lab and on every known-wrong
# fix of it; lab 01's the other way round.
suite_matrix() {
	JOBS=2
	export JOBS
	suite_script labs/grade/matrix.sh
	unset JOBS
}

# suite_gdb_traced: real GDB on kernels whose I/O threads can be traced,
# the matrix suite's trees: embrace (Linux 5.12's register model: zeroed)
# and, on x86_64, followups (5.13's: copied): labs/grade/gdb-check.sh's
# part 4, run in the tree, with this tree's image, programs and tools.
suite_gdb_traced() {
	_sg_top=$(pwd)
	_sg_trees="embrace:zeroed"
	[ "$ARCH" = x86_64 ] && _sg_trees="$_sg_trees followups:copied"
	for _sg in $_sg_trees; do
		_sg_t=${_sg%%:*}
		_sg_dir=build/matrix-$ARCH/$_sg_t
		if [ ! -f "$_sg_dir/build/$ARCH/kernel.elf" ]; then
			fail "gdb-traced: no kernel in $_sg_dir (the matrix suite builds it)"
			continue
		fi
		(cd "$_sg_dir" && CPUS=$S_CPUS ARCH=$ARCH MAKE=$MAKE IO_REGS=${_sg#*:} IMG=$_sg_top/$IMG \
			BIN=$_sg_top/build/$ARCH/user/bin HOSTBIN=$_sg_top/build sh labs/grade/gdb-check.sh) \
			> "$TESTDIR/gdb-traced-$_sg_t.out" 2>&1
		script_counts "$TESTDIR/gdb-traced-$_sg_t.out" "gdb-check.sh on the $_sg_t kernel"
	done
}
# <<< full

# suite_boot: the shell comes up, pipes work, the image holds init, poweroff ends QEMU.
suite_boot() {
	_sb_run=boot-cpus$S_CPUS
	_sb_img=$(fresh_image "$_sb_run") || { fail "boot: no image $IMG"; return; }
	qemu_start "$_sb_run" "$S_CPUS" "$_sb_img" 120 || { fail "boot: could not start QEMU"; return; }
	if qemu_wait_for '$ ' 60; then
		pass "boot: shell prompt"
	else
		fail_log "boot: no shell prompt: $Q_REASON"
		qemu_stop
		return
	fi
	# x86_64: the kernel faults on touching or running a user page
	# (the Makefile gives the CPU SMEP and SMAP; CPU 0 reads CR4 back).
	if [ "$ARCH" = x86_64 ]; then
		[ "$(log_count '^x86: SMEP on, SMAP on$')" = 1 ] &&
			pass "boot: SMEP and SMAP are on" ||
			fail_log "boot: no \"x86: SMEP on, SMAP on\" line: the kernel may run or touch user pages"
	fi
	qemu_send 'echo hello | cat' 10 && qemu_wait_line hello 20 &&
		pass "boot: echo hello | cat prints hello" ||
		fail_log "boot: echo hello | cat did not print hello: $Q_REASON"
	qemu_send 'ls | grep init | wc' 20 && qemu_wait_match '^ *1 +[0-9]+ +[0-9]+( .*)?$' 20 &&
		pass "boot: ls | grep init | wc counts 1 line" ||
		fail_log "boot: ls | grep init | wc did not print a count of 1 line: $Q_REASON"
	# A long command line (the graders type some of over 150 bytes): the
	# console must pass it to the shell whole, not cut it at 128 bytes.
	_sb_w=$(printf 'wwwwwwwwwwwwww %.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20)
	qemu_send "echo $_sb_w| wc" 20 && qemu_wait_match '^ *1 +20 +300( .*)?$' 20 &&
		pass "boot: a 309-byte command line reaches the shell whole (echo of 20 words | wc)" ||
		fail_log "boot: echo of 20 words of 14 bytes | wc did not count 1 20 300: the console cut the line: $Q_REASON"
	if qemu_send poweroff 20 && qemu_wait_exit 20; then
		pass "boot: poweroff ends QEMU with status 0"
	else
		fail_log "boot: poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
	fi
	qemu_stop
}

# suite_logcrash: boot 1 cuts the power inside a commit (QEMU exits 3);
# boot 2, on the same image, recovers the log and checks the files.
suite_logcrash() {
	_sl_run=logcrash-cpus$S_CPUS
	_sl_img=$(fresh_image "$_sl_run") || { fail "logcrash: no image $IMG"; return; }
	qemu_start "$_sl_run-boot1" "$S_CPUS" "$_sl_img" 120 || { fail "logcrash: could not start QEMU"; return; }
	if ! qemu_send 'logcrash write' 60; then
		fail_log "logcrash: boot 1: $Q_REASON"
	else
		qemu_wait_exit 60
		if [ "$Q_STATUS" = 3 ]; then
			pass "logcrash: boot 1 powered off inside a commit (QEMU exit 3)"
		else
			fail_log "logcrash: boot 1 should end QEMU with status 3 inside a commit, got ${Q_STATUS:-none}"
		fi
	fi
	qemu_stop
	run_test_program "$_sl_run-boot2" "$S_CPUS" "$_sl_img" 'logcrash verify' 90
}

# log_count REGEX: how many lines of the log match the ERE REGEX (a CR
# before the line end is ignored).
log_count() {
	tr -d '\r' < "$Q_LOG" | grep -c -E -e "$1"
}

# wait_count REGEX N SECS: wait until N lines of the log match REGEX.
wait_count() {
	qemu_poll "$3" -n "$2" -E -e "$1"
}

# stop_fg REGEX N: the job just typed is meant to be in the foreground:
# type Ctrl-Z until the Nth line matching REGEX (the shell's "Stopped"
# report) appears. A Ctrl-Z that comes before the job has the console
# goes to the shell, which ignores it, so one try a second is fair.
stop_fg() {
	_sf_try=0
	while [ $_sf_try -lt 10 ]; do
		sleep 1
		qemu_send_raw '\032'
		wait_count "$1" "$2" 2 && return 0
		[ $? = 2 ] && return 2
		_sf_try=$((_sf_try + 1))
	done
	return 1
}

# suite_jobctl: job control in the shell, typed on the console: Ctrl-Z
# stops the foreground job, jobs lists it, bg continues it in the
# background, fg brings it back, Ctrl-C ends it (and only it: the shell
# ignores Ctrl-C and Ctrl-Z itself); a pipeline stops and dies as one
# job; kill -KILL -PGID ends a background job's process group.
suite_jobctl() {
	_sj_run=jobctl-cpus$S_CPUS
	_sj_img=$(fresh_image "$_sj_run") || { fail "jobctl: no image $IMG"; return; }
	qemu_start "$_sj_run" "$S_CPUS" "$_sj_img" 240 || { fail "jobctl: could not start QEMU"; return; }
	_sj_stopped='^\[1\]\+ Stopped +sleep 100$'
	if ! qemu_send 'sleep 100' 60; then
		fail_log "jobctl: no shell prompt: $Q_REASON"
		qemu_stop
		return
	fi
	_sj_t0=$(date +%s)
	if stop_fg "$_sj_stopped" 1; then
		pass "jobctl: Ctrl-Z stops sleep 100: [1]+ Stopped  sleep 100"
	else
		fail_log "jobctl: Ctrl-Z did not stop sleep 100 (no \"[1]+ Stopped  sleep 100\"): $Q_REASON"
		qemu_stop
		return
	fi
	qemu_send 'jobs' 20 && wait_count "$_sj_stopped" 2 20 &&
		pass "jobctl: jobs lists the stopped job" ||
		fail_log "jobctl: jobs did not list [1]+ Stopped  sleep 100: $Q_REASON"
	qemu_send 'bg' 20 && qemu_wait_line '[1]+ sleep 100 &' 20 &&
		pass "jobctl: bg continues it: [1]+ sleep 100 &" ||
		fail_log "jobctl: bg did not print [1]+ sleep 100 &: $Q_REASON"
	qemu_send 'jobs' 20 && qemu_wait_match '^\[1\]\+ Running +sleep 100$' 20 &&
		pass "jobctl: jobs shows it Running" ||
		fail_log "jobctl: jobs did not show [1]+ Running  sleep 100: $Q_REASON"
	# fg shows the command once the job has the console: then Ctrl-C.
	if qemu_send 'fg' 20 && qemu_wait_line 'sleep 100' 20; then
		pass "jobctl: fg brings it back (prints sleep 100)"
		qemu_send_raw '\003'
		if ! qemu_wait_prompt 20; then
			fail_log "jobctl: no prompt after Ctrl-C: $Q_REASON"
			qemu_stop
			return
		fi
		_sj_secs=$(($(date +%s) - _sj_t0))
		if [ "$_sj_secs" -lt 60 ]; then
			pass "jobctl: Ctrl-C ends the foreground job; prompt back after $_sj_secs s of its 100"
		else
			fail_log "jobctl: the prompt came back only after $_sj_secs s: Ctrl-C did not end sleep 100"
		fi
	else
		fail_log "jobctl: fg did not print sleep 100: $Q_REASON"
	fi
	qemu_send 'jobs' 20 && qemu_send 'echo after-jobs' 20 && qemu_wait_line after-jobs 20 &&
		[ "$(log_count '^\[1\]')" = 4 ] &&
		pass "jobctl: the job is gone from jobs" ||
		fail_log "jobctl: jobs still lists a job after Ctrl-C, or the shell is stuck: $Q_REASON"

	# The shell itself ignores Ctrl-C and Ctrl-Z at the prompt.
	qemu_wait_prompt 20
	qemu_send_raw '\003'
	qemu_send_raw '\032'
	qemu_send 'echo still-here' 20 && qemu_wait_line still-here 20 &&
		pass "jobctl: Ctrl-C and Ctrl-Z at the prompt leave the shell alone" ||
		fail_log "jobctl: the shell did not survive Ctrl-C/Ctrl-Z at its prompt: $Q_REASON"

	# A pipeline is one job: it stops and dies as a whole.
	_sj_pipe='^\[1\]\+ Stopped +sleep 100 \| cat$'
	if qemu_send 'sleep 100 | cat' 20 && stop_fg "$_sj_pipe" 1; then
		pass "jobctl: Ctrl-Z stops a pipeline: [1]+ Stopped  sleep 100 | cat"
		if qemu_send 'fg' 20 && qemu_wait_line 'sleep 100 | cat' 20; then
			qemu_send_raw '\003'
			qemu_wait_prompt 20 &&
				pass "jobctl: fg, then Ctrl-C ends the pipeline" ||
				fail_log "jobctl: no prompt after Ctrl-C to the pipeline: $Q_REASON"
		else
			fail_log "jobctl: fg did not print sleep 100 | cat: $Q_REASON"
		fi
	else
		fail_log "jobctl: Ctrl-Z did not stop sleep 100 | cat: $Q_REASON"
	fi

	# A background job is out of Ctrl-C's reach; kill -KILL -PGID ends it.
	if qemu_send 'sleep 100 &' 20 && qemu_wait_match '^\[1\] [0-9]+$' 20; then
		_sj_pid=$(tr -d '\r' < "$Q_LOG" | sed -n 's/^\[1\] \([0-9][0-9]*\)$/\1/p' | tail -n 1)
		qemu_wait_prompt 20
		qemu_send_raw '\003'
		qemu_send 'jobs' 20 && wait_count '^\[1\]\+ Running +sleep 100( &)?$' 2 20 &&
			pass "jobctl: Ctrl-C at the prompt spares a background job" ||
			fail_log "jobctl: the background job did not survive Ctrl-C: $Q_REASON"
		qemu_send "kill -KILL -$_sj_pid" 20 && qemu_send 'echo reaped' 20 &&
			qemu_wait_match '^\[1\]\+ Killed +sleep 100$' 20 &&
			pass "jobctl: kill -KILL -$_sj_pid ends the background job's group ([1]+ Killed)" ||
			fail_log "jobctl: kill -KILL -$_sj_pid did not end the job: $Q_REASON"
	else
		fail_log "jobctl: sleep 100 & did not report [1] PID: $Q_REASON"
	fi

	if qemu_send poweroff 20 && qemu_wait_exit 20; then
		pass "jobctl: poweroff ends QEMU with status 0"
	else
		fail_log "jobctl: poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
	fi
	qemu_stop
}

# mkfs_refuses ID WHAT ARGS...: mkfs out.img ARGS must fail with a message that
# names the offending file (the last ARG), leaving
# neither out.img nor a temporary file.
mkfs_refuses() {
	_mr_id=$1 _mr_case=$2
	shift 2
	_mr_dir=$TESTDIR/mkfs
	rm -f "$_mr_dir"/out.img*
	"$MKFS" "$_mr_dir/out.img" "$@" > "$_mr_dir/$_mr_id.out" 2>&1
	_mr_rc=$?
	eval "_mr_file=\${$#}"
	if [ $_mr_rc -eq 0 ]; then
		fail "mkfs: $_mr_case: accepted (exit 0)"
	elif ! grep -q -F -e "$_mr_file" "$_mr_dir/$_mr_id.out"; then
		fail "mkfs: $_mr_case: message does not name $_mr_file: $(sed -n '1s/^mkfs: //p' "$_mr_dir/$_mr_id.out")"
	elif [ -n "$(ls "$_mr_dir" | grep '^out\.img')" ]; then
		fail "mkfs: $_mr_case: left $(ls "$_mr_dir" | grep '^out\.img' | tr '\n' ' ')"
	else
		pass "mkfs: refuses $_mr_case: $(sed -n '1s/^mkfs: //p' "$_mr_dir/$_mr_id.out")"
	fi
}

# suite_mkfs: the host tool refuses what cannot fit and builds a good image.
suite_mkfs() {
	_sm_dir=$TESTDIR/mkfs
	rm -rf "$_sm_dir"
	mkdir -p "$_sm_dir/many" "$_sm_dir/a" "$_sm_dir/b"
	echo small > "$_sm_dir/small"
	if [ ! -x "$MKFS" ]; then
		fail "mkfs: $MKFS not built (run make)"
		return
	fi
	# The limits, from the format header itself.
	printf '%s\n' '#include <stdio.h>' '#include <stdint.h>' \
		'typedef uint16_t u16; typedef uint32_t u32;' '#include "kernel/fs_format.h"' \
		'int main(void) { printf("%lu %d %d %d %d\n", (unsigned long)MAXFILE, BSIZE, FSSIZE, NINODES, DIRSIZ); return 0; }' |
		"$HOSTCC" -I. -x c -o "$_sm_dir/limits" - && set -- $("$_sm_dir/limits") || {
		fail "mkfs: cannot read the limits from kernel/fs_format.h"
		return
	}
	_sm_maxfile=$1 _sm_bsize=$2 _sm_fssize=$3 _sm_ninodes=$4 _sm_dirsiz=$5

	truncate -s $((_sm_maxfile * _sm_bsize + 1)) "$_sm_dir/big"
	mkfs_refuses toobig "a file over MAXFILE blocks" "$_sm_dir/big"

	truncate -s $((_sm_fssize * _sm_bsize)) "$_sm_dir/huge"
	mkfs_refuses nofit "files larger than the free data blocks" "$_sm_dir/small" "$_sm_dir/huge"

	_sm_i=0
	while [ $_sm_i -lt $((_sm_ninodes - 1)) ]; do
		: > "$_sm_dir/many/f$_sm_i"
		_sm_i=$((_sm_i + 1))
	done
	mkfs_refuses toomany "more files than inodes" "$_sm_dir"/many/f*

	_sm_long=$(printf "%0$((_sm_dirsiz + 1))d" 0 | tr 0 n)
	echo x > "$_sm_dir/$_sm_long"
	mkfs_refuses longname "a name longer than DIRSIZ" "$_sm_dir/small" "$_sm_dir/$_sm_long"

	echo a > "$_sm_dir/a/dup"
	echo b > "$_sm_dir/b/dup"
	mkfs_refuses dup "a duplicate name" "$_sm_dir/a/dup" "$_sm_dir/b/dup"

	mkfs_refuses unreadable "an unreadable input" "$_sm_dir/small" "$_sm_dir/no-such-file"

	# A good image: exactly FSSIZE blocks; a name of exactly DIRSIZ is fine.
	_sm_ok=$(printf "%0${_sm_dirsiz}d" 0 | tr 0 k)
	head -c 300000 /dev/zero > "$_sm_dir/$_sm_ok"
	rm -f "$_sm_dir"/out.img*
	if ! "$MKFS" "$_sm_dir/out.img" "$_sm_dir/small" "$_sm_dir/$_sm_ok" "$_sm_dir/a/dup" > "$_sm_dir/good.out" 2>&1; then
		fail "mkfs: good image refused: $(head -n 1 "$_sm_dir/good.out")"
	elif [ ! -f "$_sm_dir/out.img" ]; then
		fail "mkfs: good image: exit 0 but no $_sm_dir/out.img"
	elif [ "$(wc -c < "$_sm_dir/out.img")" -ne $((_sm_fssize * _sm_bsize)) ]; then
		fail "mkfs: good image is $(wc -c < "$_sm_dir/out.img") bytes, not FSSIZE*BSIZE"
	elif [ "$(ls "$_sm_dir" | grep -c '^out\.img')" -ne 1 ]; then
		fail "mkfs: good image left a temporary file"
	else
		pass "mkfs: builds a good image of FSSIZE*BSIZE bytes"
	fi
	rm -rf "$_sm_dir/many" "$_sm_dir/huge" "$_sm_dir/big" "$_sm_dir/out.img"
}

# poke IMG OFFSET OCTAL...: write the bytes (printf octal escapes) at
# OFFSET of IMG, in place.
poke() {
	_pk_img=$1 _pk_off=$2
	shift 2
	printf "$*" | dd of="$_pk_img" bs=1 seek="$_pk_off" conv=notrunc status=none
}

# fsck_finds ID WHAT IMG PATTERN: fsck must call IMG damaged (exit 1), on
# a line matching PATTERN, without crashing.
fsck_finds() {
	"$FSCK" -q "$3" > "$TESTDIR/fsck/$1.out" 2>&1
	_ff_st=$?
	if [ $_ff_st -gt 2 ]; then
		fail "fsck: $2: fsck itself crashed (status $_ff_st)"
	elif [ $_ff_st -ne 1 ]; then
		fail "fsck: $2: exit $_ff_st, want 1 (damaged): $(head -n 1 "$TESTDIR/fsck/$1.out")"
	elif ! grep -q -e "$4" "$TESTDIR/fsck/$1.out"; then
		fail "fsck: $2: no line says /$4/: $(head -n 1 "$TESTDIR/fsck/$1.out")"
	else
		pass "fsck: $2: $(grep -m 1 -e "$4" "$TESTDIR/fsck/$1.out" | sed 's/^fsck: [^:]*: //')"
	fi
}

# suite_fuzz: a short fuzzing campaign (labs/grade/lib.sh's fuzz_campaign;
# `make fuzz` runs the long one). The seed is fixed, so that a red check
# replays; CHECK_FUZZ_SEED and CHECK_FUZZ_CALLS change it.
suite_fuzz() {
	fuzz_campaign "fuzz-cpus$S_CPUS" "$S_CPUS" "${CHECK_FUZZ_SEED:-20211207}" \
		"${CHECK_FUZZ_CALLS:-15000}" 3 3 240
}

# suite_watchdog: the hung-task watchdog names a task held in D past its
# timeout, once, with a kernel backtrace that is the real one: racetest
# 400 holds its main thread in create_io_thread()'s race window (state D)
# for 4 s, against a timeout of 1 s; the trace's addresses, looked up in
# kernel.elf, pass through create_io_thread().
suite_watchdog() {
	_sw_run=watchdog-cpus$S_CPUS
	_sw_knob=/proc/sys/kernel/hung_task_timeout_secs
	_sw_img=$(fresh_image "$_sw_run") || { fail "watchdog: no image $IMG"; return; }
	qemu_start "$_sw_run" "$S_CPUS" "$_sw_img" 240 || { fail "watchdog: could not start QEMU"; return; }
	if ! qemu_send "echo 1 > $_sw_knob" 60 || ! qemu_send 'racetest 400' 30; then
		fail_log "watchdog: $Q_REASON"
		qemu_stop
		return
	fi
	if qemu_wait_match '^INFO: task racetest:[0-9]+ blocked for more than 1 seconds\.$' 60; then
		pass "watchdog: names racetest, held in D for 4 s, after its 1 s timeout"
	else
		fail_log "watchdog: no \"INFO: task racetest:N blocked for more than 1 seconds.\" line: $Q_REASON"
	fi
	qemu_wait_prompt 60
	_sw_trace=$(tr -d '\r' < "$Q_LOG" | sed -n '/^INFO: task racetest:/,/^[^ C]/p' |
		sed -n 's/^ \[<\([0-9a-f]*\)>\]$/0x\1/p')
	_sw_fns=$(echo "$_sw_trace" | "${TOOLPREFIX}addr2line" -f -i -e "build/$ARCH/kernel.elf" 2>/dev/null |
		grep -v ':' | sort -u | tr '\n' ' ')
	case " $_sw_fns " in
	*" create_io_thread "*) pass "watchdog: its call trace ($(echo "$_sw_trace" | wc -l) frames) passes through create_io_thread" ;;
	*) fail_log "watchdog: the call trace does not pass through create_io_thread (functions: ${_sw_fns:-none})" ;;
	esac
	_sw_n=$(log_count '^INFO: task racetest:')
	[ "$_sw_n" = 1 ] && pass "watchdog: one report for one sleep" ||
		fail_log "watchdog: $_sw_n reports for one sleep in D, want 1"
	if qemu_send "echo 0 > $_sw_knob" 30 && qemu_send poweroff 30 && qemu_wait_exit 30; then
		pass "watchdog: poweroff ends QEMU with status 0"
	else
		fail_log "watchdog: poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
	fi
	qemu_stop
}

# suite_fsck: every image the suites left behind is clean (logcrash's
# after its recovery boot); then damaged copies of fs.img get a clear
# report and exit 1, never a crash of fsck itself.
FSCK=${FSCK:-build/fsck}
suite_fsck() {
	if [ ! -x "$FSCK" ]; then
		fail "fsck: $FSCK not built (run make)"
		return
	fi
	for _sf_img in "$IMG" "$TESTDIR"/*.img; do
		case $_sf_img in *-xv6*.img | "$TESTDIR/*.img") continue ;; esac
		if _sf_out=$("$FSCK" "$_sf_img" 2>&1); then
			pass "fsck: $(basename "$_sf_img") clean"
		else
			fail "fsck: $(basename "$_sf_img"): $(echo "$_sf_out" | head -n 3 | tr '\n' ' ')"
		fi
	done
	_sf_d=$TESTDIR/fsck
	rm -rf "$_sf_d" && mkdir -p "$_sf_d" || return
	# Where inodes 2 and 3 (README.md and the first program) sit.
	_sf_istart=$(od -A n -t u4 -j $((1024 + 24)) -N 4 "$IMG" | tr -d ' ')
	_sf_i2=$((_sf_istart * 1024 + 2 * 64)) _sf_i3=$((_sf_istart * 1024 + 3 * 64))
	_sf_c=$_sf_d/c.img
	cp "$IMG" "$_sf_c" && truncate -s 102400 "$_sf_c"
	fsck_finds truncated "an image cut to 100 blocks" "$_sf_c" truncated
	: > "$_sf_c"
	fsck_finds empty "an empty file" "$_sf_c" "not a tasklab image"
	head -c $((1024 * 1024)) /dev/zero | tr '\000' '\245' > "$_sf_c"
	fsck_finds garbage "1 MiB of garbage" "$_sf_c" "magic"
	cp "$IMG" "$_sf_c" && poke "$_sf_c" $((1024 + 24)) '\377\377\377\177'
	fsck_finds badsuper "a superblock with a wild inode start" "$_sf_c" "superblock"
	cp "$IMG" "$_sf_c"
	head -c $((8 * 1024)) /dev/zero | tr '\000' '\377' |
		dd of="$_sf_c" bs=1024 seek="$_sf_istart" conv=notrunc status=none
	fsck_finds badinodes "inode blocks of all ones" "$_sf_c" "no type"
	cp "$IMG" "$_sf_c"
	dd if="$IMG" of="$_sf_c" bs=1 skip=$((_sf_i2 + 12)) seek=$((_sf_i3 + 12)) count=4 conv=notrunc status=none
	fsck_finds crossed "two inodes sharing a block" "$_sf_c" "is in inode 2 and in inode 3"
	cp "$IMG" "$_sf_c" && poke "$_sf_c" $((_sf_i2 + 6)) '\005\000'
	fsck_finds nlink "a wrong link count" "$_sf_c" "inode 2: nlink 5"
	cp "$IMG" "$_sf_c" && poke "$_sf_c" "$_sf_i2" '\000\000'
	fsck_finds freenamed "a directory entry naming a free inode" "$_sf_c" "which is free"
	cp "$IMG" "$_sf_c" && poke "$_sf_c" $((_sf_i2 + 8)) '\000\000\000\000'
	fsck_finds size "a file with blocks past its size" "$_sf_c" "past the end"
	rm -f "$_sf_c"
}


# suite_serial: the second serial line, /ttyS1, carries bytes both ways
# between a guest program and the host. QEMU joins it to a TCP port;
# build/serialcheck sends 16 KiB through it, every byte value, and
# checks that each comes back from serialecho in the guest. A machine
# started without the line says ENODEV.
suite_serial() {
	_ss_img=$(fresh_image serial) || { fail "serial: no image $IMG"; return; }
	qemu_start serial-none "$S_CPUS" "$_ss_img" 120 || { fail "serial: could not start QEMU"; return; }
	if qemu_send 'cat /ttyS1' 60 && qemu_wait_line 'cat: /ttyS1: No such device' 30; then
		pass "serial: without the line, reading /ttyS1 says No such device (ENODEV)"
	else
		fail_log "serial: without the line, cat /ttyS1 should say 'cat: /ttyS1: No such device': $Q_REASON"
	fi
	qemu_stop
	# A port that is free now, from the kernel (serialcheck -p).
	_ss_port=$(build/serialcheck -p) || { fail "serial: no free TCP port"; return; }
	export SERIAL2_PORT=$_ss_port
	qemu_start serial "$S_CPUS" "$_ss_img" 300
	_ss_r=$?
	unset SERIAL2_PORT
	[ $_ss_r = 0 ] || { fail "serial: could not start QEMU"; return; }
	if ! qemu_send 'serialecho 16384 &' 60 || ! qemu_wait_match 'serialecho: ready$' 60; then
		fail_log "serial: serialecho 16384 did not start: $Q_REASON"
		qemu_stop
		return
	fi
	if _ss_out=$(build/serialcheck "$_ss_port" 16384); then
		pass "serial: $_ss_out (port $_ss_port)"
	else
		fail_log "serial: ${_ss_out:-serialcheck printed nothing} (port $_ss_port)"
	fi
	if qemu_wait_match 'serialecho: 16384 bytes echoed$' 60; then
		pass "serial: serialecho in the guest saw the 16384 bytes go round"
	else
		fail_log "serial: serialecho did not print '16384 bytes echoed': $Q_REASON"
	fi
	# More than the guest's 4096-byte receive buffer, sent while nobody
	# reads: the line must hold the host back (throttle), not drop bytes.
	if ! qemu_send 'serialecho -w 200 16384 &' 60 || ! qemu_poll 60 -n 2 -E -e 'serialecho: ready$'; then
		fail_log "serial: serialecho -w 200 16384 did not start: $Q_REASON"
	elif _ss_out=$(build/serialcheck "$_ss_port" 16384 16384); then
		pass "serial: 16384 bytes sent at once while the guest waits 2 s: none lost ($_ss_out)"
	else
		fail_log "serial: 16384 bytes sent at once while the guest does not read: ${_ss_out:-serialcheck printed nothing}"
	fi
	qemu_stop
}

# suite_badimage: an image whose superblock or log header mkfs would not
# write stops the boot with a panic that says so, before anything traps
# on a block past the disk.
suite_badimage() {
	_sb_d=$TESTDIR/fsck
	mkdir -p "$_sb_d"
	cp "$IMG" "$_sb_d/badsuper.img" && poke "$_sb_d/badsuper.img" $((1024 + 24)) '\377\377\377\177'
	badimage_says "a wild inode start in the superblock" "$_sb_d/badsuper.img" \
		'^kernel panic: fs: bad superblock: .*inodes from block 2147483647'
	# A committed log of one block, which it names as block 2^31-1.
	cp "$IMG" "$_sb_d/badlog.img" && poke "$_sb_d/badlog.img" 2048 '\001\000\000\000\377\377\377\177'
	badimage_says "a log header naming a block past the disk" "$_sb_d/badlog.img" \
		'^kernel panic: log: corrupt header: entry 0 names block 2147483647'
	rm -f "$_sb_d/badsuper.img" "$_sb_d/badlog.img"
}

# badimage_says WHAT IMG REGEX: booting IMG ends in a panic line matching REGEX.
badimage_says() {
	qemu_start "badimage" 1 "$2" 60 || { fail "badimage: could not start QEMU"; return; }
	if qemu_wait_match "$3" 30; then
		pass "badimage: $1: the boot stops, saying so"
	else
		fail_log "badimage: $1: no panic line matching /$3/: $Q_REASON"
	fi
	qemu_stop
}

# On a branch of one's own whose kernel/ is not the baseline's (a
# student's fix: the labs have you work on branches deny, hide, embrace,
# ...), the matrix suite cannot hold: it checks that every lab's
# grader FAILS on this tree. Say so and skip it; everything else runs.
NOT_BASELINE=""
_br=$(git symbolic-ref -q --short HEAD 2>/dev/null)
if [ -n "$_br" ] && [ "$_br" != main ] && git rev-parse -q --verify main > /dev/null 2>&1 &&
	! git diff --quiet main -- kernel/ 2> /dev/null; then
	NOT_BASELINE=$_br
	echo "note: kernel/ on branch $_br is not the baseline (branch main): the matrix"
	echo "  and report suites, which need the baseline, are skipped. To grade your fix: make grade LAB=name"
fi

# Run the suites in order, each closing with "-- NAME: N s", its time
# (filtered by $ONLY, an ERE on the names; with
# SKIP_SHARED set, as tools/check-all.sh does for all but the first
# architecture, without the suites that do not depend on it).
set -f
IFS='
'
for _line in $SUITES; do
	unset IFS
	set -- $_line
	set +f
	S_NAME=$1 S_CPUS=$2
	shift 2
	if [ -n "$ONLY" ] && ! echo "$S_NAME" | grep -q -x -E -e "$ONLY"; then
		continue
	fi
	if [ -n "$SKIP_SHARED" ] && { [ "$S_NAME" = figures ] || [ "$S_NAME" = hints ]; }; then
		echo "== $S_NAME: run once, with the first architecture"
		continue
	fi
	if { [ "$S_NAME" = matrix ] || [ "$S_NAME" = report ] || [ "$S_NAME" = gdb-traced ]; } && [ -n "$NOT_BASELINE" ]; then
		echo "== $S_NAME: skipped (kernel/ on branch $NOT_BASELINE is not the baseline)"
		continue
	fi
	if [ "$S_CPUS" = host ]; then
		suite_header "$S_NAME" host
	else
		suite_header "$S_NAME" "$ARCH, CPUS=$S_CPUS"
	fi
	_t0=$(date +%s)
	"$@"
	echo "-- $S_NAME: $(($(date +%s) - _t0)) s"
done
unset IFS
set +f

echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

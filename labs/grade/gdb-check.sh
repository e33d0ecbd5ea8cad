#!/bin/sh
# labs/grade/gdb-check.sh: real GDB on tasklab processes. gdb-multiarch
# on the host, in batch mode, talks to user/gdbserver in the guest over
# the second serial line (/ttyS1, a TCP port of QEMU's).
#
#   1. gdbserver /ttyS1 threads 8: a breakpoint (printf, once all 1+8
#      threads run) hits; bt shows main below it; info threads lists the
#      9 threads by name; another thread's bt shows its function and
#      ends at __clone_thread, the outermost frame; stepi
#      moves the pc; next moves to another line; continue lets it run
#      (it prints its "ready" line); Ctrl-C (a SIGINT to GDB) stops all
#      9 threads; detach lets the program run on (ps shows 9 threads in
#      S or R: the SIGINT was not passed on).
#      Then gdbserver --attach to `sh -c 'sleep 100000; exit 3'`: GDB
#      sees its end with "exited with code 03" (the tracer hears first).
#   2. The baseline's I/O threads: gdbserver --multi, and GDB's
#      `attach PID` of uringcp -l -a never returns: gdbserver warns
#      "Cannot attach to lwp N: Operation not permitted (1)" pass after
#      pass (bounded here by a timeout); with --gdb15 the first such
#      thread is an error that GDB reports, and gdbserver lets go.
#   3. Bad input (build/rspfuzz, tools/rspfuzz.c): garbage, bad checksums,
#      oversized, cut and malformed packets, a client that vanishes
#      mid-packet: gdbserver answers as the protocol says, and the
#      program runs on after the detach.
#   4. With IO_REGS=zeroed or copied, on a kernel whose I/O threads can
#      be traced (the embrace or followups series), only this part:
#      attach returns and info threads lists iou-mgr and iou-wrk at
#      0x0000000000000000 in ?? (); their registers follow the model
#      (attach_traced below); detach lets the copy go on.
# One PASS/FAIL line per check, then "N passed, N failed".
#
#   sh labs/grade/gdb-check.sh         (ARCH and CPUS as for make check)
#   IO_REGS=zeroed IMG=... BIN=... HOSTBIN=... sh labs/grade/gdb-check.sh
#                                      in a tree with such a kernel; IMG,
#                                      BIN (user programs with symbols) and
#                                      HOSTBIN (serialcheck) default to this
#                                      tree's build/

cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh

IMG=${IMG:-build/$ARCH/fs.img}
CPUS=${CPUS:-3}
RUN=gdb-check${IO_REGS:+-$IO_REGS}-cpus$CPUS
BIN=${BIN:-build/$ARCH/user/bin}
HOSTBIN=${HOSTBIN:-build}
. labs/grade/lib-gdb.sh

# mark: remember how long the log is; wait_new ERE SECS [COUNT]: wait
# for COUNT (1) lines matching ERE after the mark.
mark() {
	MARK=$(wc -l < "$Q_LOG")
}

wait_new() {
	qemu_poll "$2" -a "$MARK" -n "${3:-1}" -E -e "$1"
}

# since_mark: the log after the mark, carriage returns removed.
since_mark() {
	tail -n +"$((MARK + 1))" "$Q_LOG" | tr -d '\r'
}

# has OUT ERE: does GDB's output OUT have a line matching ERE?
has() {
	grep -q -E -e "$2" "$1"
}

# kill_job PID WHAT: SIGKILL the background job PID (its command line
# WHAT) and wait until the shell reports it killed: a gdbserver still
# alive would read what GDB sends the next one.
kill_job() {
	mark
	qemu_send "kill -9 $1" 30 || return 1
	for _kj in 1 2 3 4 5 6 7 8 9 10; do
		qemu_send 'echo' 30
		wait_new "Killed +$2\$" 5 && return 0
	done
	return 1
}

# job_pid: the pid of the job started after the mark, from the shell's
# "[N] PID" line (a ps would be slow to read with gdbserver's warnings
# pouring onto the console).
job_pid() {
	since_mark | sed -n 's/.*\[[0-9]*\] \([0-9][0-9]*\)$/\1/p' | head -n 1
}

# pid_of NAME: the pid of the process NAME, from ps in the guest.
pid_of() {
	_po_start=$(wc -l < "$Q_LOG")
	qemu_send 'ps' 30 && qemu_wait_prompt 60 || return 1
	tail -n +"$((_po_start + 1))" "$Q_LOG" | tr -d '\r' |
		awk -v n="$1" '$NF == n && $1 ~ /^[0-9]+$/ { print $1; exit }'
}

# child_of PID: the pid of PID's child (from /proc): timeout's GDB. A
# SIGINT to timeout itself would reach GDB twice (timeout passes it on,
# then sends it to its process group), and a second Ctrl-C makes GDB
# give up on the target.
child_of() {
	awk -v p="$1" '$4 == p { print $1; exit }' /proc/[0-9]*/stat 2>/dev/null
}

# Part 1: a program started under gdbserver. GDB runs in the background:
# once the program prints its ready line (GDB's second continue), the
# grader sends GDB a SIGINT, as Ctrl-C at its terminal would, and GDB
# stops the program with a Ctrl-C on the line.
launch() {
	mark
	qemu_send "gdbserver /ttyS1 threads 8 &" 60 && wait_new 'Remote debugging using /ttyS1$' 60 ||
		{ fail_log "gdb-check: gdbserver /ttyS1 threads 8 did not start: $Q_REASON"; return 1; }
	_l_out=$TESTDIR/$RUN.launch.out
	(GB_EXEC=exec; gdb_batch "$_l_out" 180 -ex 'break printf' -ex continue -ex bt -ex 'info threads' \
		-ex 'thread 5' -ex bt -ex 'thread 1' -ex 'print/x $pc' -ex stepi -ex 'print/x $pc' \
		-ex next -ex 'delete' -ex continue -ex 'info threads' -ex detach "$BIN/threads") &
	_l_gdb=$!
	if qemu_wait_match 'threads: pid [0-9]+ ready \(1\+8 threads\)$' 120; then
		pass "gdb-check: continue lets the program run on (it prints its ready line)"
	else
		fail_log "gdb-check: after continue, threads never printed its ready line: $Q_REASON"
	fi
	_l_gdbc=$(child_of "$_l_gdb")
	kill -INT "${_l_gdbc:-$_l_gdb}" 2>/dev/null
	wait "$_l_gdb"
	_l_rc=$?
	# What GDB printed before the Ctrl-C, and after it.
	sed '/received signal SIGINT/,$d' "$_l_out" > "$_l_out.1"
	sed -n '/received signal SIGINT/,$p' "$_l_out" > "$_l_out.2"
	has "$_l_out.1" '^Thread 1 "threads" hit Breakpoint 1, printf \(' &&
		pass "gdb-check: break printf hits in thread 1 (1+8 threads running)" ||
		fail_log "gdb-check: break printf did not hit (gdb status $_l_rc; output: $_l_out)"
	has "$_l_out.1" '^#1 +0x[0-9a-f]+ in main \(.*threads\.c:[0-9]+$' &&
		pass "gdb-check: bt shows main (threads.c) below printf" ||
		fail_log "gdb-check: bt did not show \"#1 ... in main (...) at user/threads.c:N\" (output: $_l_out)"
	_l_n=$(grep -c -E '^[* ] +[0-9]+ +Thread [0-9]+ "threads" ' "$_l_out.1")
	[ "$_l_n" = 9 ] && pass "gdb-check: info threads lists 9 threads named \"threads\"" ||
		fail_log "gdb-check: info threads lists $_l_n threads named \"threads\", want 9 (output: $_l_out)"
	has "$_l_out.1" '^#1 +0x[0-9a-f]+ in sleeper \(' &&
		pass "gdb-check: thread 5's bt shows sleeper" ||
		fail_log "gdb-check: thread 5's bt did not show sleeper (output: $_l_out)"
	_l_after=$(awk '/^#[0-9]+ .* in __clone_thread \(\)$/ { getline; print; f = 1; exit } END { if (!f) print "none" }' "$_l_out.1")
	case $_l_after in
	none) fail_log "gdb-check: thread 5's bt did not reach __clone_thread (output: $_l_out)" ;;
	'#'*) fail_log "gdb-check: thread 5's bt goes on past __clone_thread, the outermost frame: \"$_l_after\" (output: $_l_out)" ;;
	*) pass "gdb-check: thread 5's bt ends at __clone_thread, the thread's outermost frame" ;;
	esac
	_l_pc=$(sed -n 's/^\$[0-9]* = \(0x[0-9a-f]*\)$/\1/p' "$_l_out.1" | tr '\n' ' ')
	set -- $_l_pc
	[ $# = 2 ] && [ "$1" != "$2" ] && pass "gdb-check: stepi moves the pc ($1 -> $2)" ||
		fail_log "gdb-check: stepi did not move the pc (print/x \$pc gave: ${_l_pc:-nothing}; output: $_l_out)"
	has "$_l_out.1" '^2(49|5[0-9])[[:space:]]' &&
		pass "gdb-check: next goes on to a later line of printf" ||
		fail_log "gdb-check: next did not print a later line of printf.c (output: $_l_out)"
	has "$_l_out.2" '^Thread [0-9]+ "threads" received signal SIGINT, Interrupt\.$' &&
		pass "gdb-check: Ctrl-C stops the running program: $(grep -m 1 'received signal SIGINT' "$_l_out.2")" ||
		fail_log "gdb-check: Ctrl-C (SIGINT to GDB while it continues) did not stop the program (gdb status $_l_rc; output: $_l_out)"
	_l_n=$(grep -c -E '^[* ] +[0-9]+ +Thread [0-9]+ "threads" .* in ' "$_l_out.2")
	[ "$_l_n" = 9 ] && pass "gdb-check: after Ctrl-C every thread is stopped: info threads shows the 9 with their frames" ||
		fail_log "gdb-check: after Ctrl-C info threads shows $_l_n threads with frames, want 9 (output: $_l_out)"
	if has "$_l_out.2" '^\[Inferior 1 \(Remote target\) detached\]$'; then
		pass "gdb-check: detach"
	else
		fail_log "gdb-check: no \"[Inferior 1 (Remote target) detached]\" (output: $_l_out)"
		_l_gs=$(job_pid)
		[ -n "$_l_gs" ] && kill_job "$_l_gs" 'gdbserver /ttyS1 threads 8'
	fi
	_l_pid=$(pid_of threads)
	mark
	qemu_send "ps -T -p $_l_pid" 30 && wait_new "^ +$_l_pid +[0-9]+ +[A-Za-z] " 30 9
	_l_run=$(since_mark | awk -v p="$_l_pid" '$1 == p && ($3 == "S" || $3 == "R") { n++ } END { print n + 0 }')
	[ "$_l_run" = 9 ] && pass "gdb-check: ps -T shows its 9 threads in S or R after detach (the SIGINT was not passed on)" ||
		fail_log "gdb-check: ps -T shows ${_l_run} of 9 threads of ${_l_pid:-threads (gone)} in S or R after detach"
	qemu_send "kill -9 $_l_pid" 30
}

# Part 1b: the end of an attached process, with its exit code. gdbserver
# --attach takes `sh -c 'sleep 100000; exit 3'` (not its child: the
# shell's); the grader ends the sleep, and on GDB's continue the shell
# takes its SIGCHLD (reported and passed on) and exits 3. GDB must say
# so: gdbserver hears of the end first, as a tracer, with the status.
attach_exit() {
	mark
	qemu_send "sh -c 'sleep 100000; exit 3' &" 30 && wait_new '\[[0-9]+\] [0-9]+$' 30
	_x_sh=$(job_pid)
	_x_sleep=""
	for _x_try in 1 2 3 4 5 6 7 8 9 10; do
		_x_sleep=$(pid_of sleep) && [ -n "$_x_sleep" ] && break
		sleep 1
	done
	[ -n "$_x_sh" ] && [ -n "$_x_sleep" ] ||
		{ fail_log "gdb-check: sh -c 'sleep 100000; exit 3' did not start (sh ${_x_sh:-?}, sleep ${_x_sleep:-?})"; return 1; }
	mark
	qemu_send "gdbserver --attach /ttyS1 $_x_sh &" 30 && wait_new 'Remote debugging using /ttyS1$' 60 ||
		{ fail_log "gdb-check: gdbserver --attach /ttyS1 $_x_sh did not start: $Q_REASON"; return 1; }
	_x_gs=$(job_pid)
	qemu_send "kill $_x_sleep" 30
	_x_out=$TESTDIR/$RUN.exit.out
	gdb_batch "$_x_out" 120 -ex continue "$BIN/sh"
	_x_rc=$?
	if has "$_x_out" '^\[Inferior 1 \((process [0-9]+|Remote target)\) exited with code 03\]$'; then
		pass "gdb-check: an attached process's exit reaches GDB with its code: $(grep -m 1 'exited with code' "$_x_out")"
	else
		fail_log "gdb-check: after attach, sh -c '...; exit 3' should end as \"[Inferior 1 (process $_x_sh) exited with code 03]\" (gdb status $_x_rc; output: $_x_out)"
		[ -n "$_x_gs" ] && kill_job "$_x_gs" "gdbserver --attach /ttyS1 $_x_sh"
		qemu_send "kill -9 $_x_sh" 30
	fi
	qemu_send 'echo' 30 && qemu_wait_prompt 30
}

# start_copy: start `uringcp -l -a big out &`, a copy that goes on for
# ever with io-wq workers; COPY_PID is its pid. False if it did not start.
start_copy() {
	qemu_send 'mkbig big 400000' 60 && qemu_wait_prompt 120
	qemu_send 'uringcp -l -a big out &' 30
	COPY_PID=""
	for _sc_try in 1 2 3 4 5 6 7 8 9 10; do
		COPY_PID=$(pid_of uringcp) && [ -n "$COPY_PID" ] && break
		sleep 1
	done
	[ -n "$COPY_PID" ] || { fail_log "gdb-check: uringcp -l -a big out did not start"; return 1; }
}

# Part 2: the attach loop on the baseline's I/O threads, and --gdb15.
attach_loop() {
	start_copy || return 1
	_a_pid=$COPY_PID
	mark
	qemu_send 'gdbserver --multi /ttyS1 &' 30 && wait_new 'Remote debugging using /ttyS1$' 60 ||
		{ fail_log "gdb-check: gdbserver --multi did not start: $Q_REASON"; return 1; }
	_a_out=$TESTDIR/$RUN.attach.out
	# In a subshell that becomes timeout (GB_EXEC): its pid is the one to kill.
	(GB_EXEC=exec; gdb_batch "$_a_out" 600 -m -ex "attach $_a_pid" -ex 'info threads' -ex detach "$BIN/uringcp") &
	_a_gdb=$!
	# Wait for warnings over several passes, then end GDB: it would wait for ever.
	_a_re='^gdbserver: Cannot attach to lwp [0-9]+: Operation not permitted \(1\)$'
	wait_new "$_a_re" 60 6
	_a_waited=$?
	kill "$_a_gdb" 2>/dev/null
	wait "$_a_gdb"
	_a_w=$(since_mark | grep -c -E -e "$_a_re")
	_a_tids=$(since_mark | sed -n 's/^gdbserver: Cannot attach to lwp \([0-9]*\): .*/\1/p' |
		sort | uniq -c | awk '$1 >= 2 { print $2 }' | tr '\n' ' ')
	if [ "$_a_waited" = 0 ] && [ -n "$_a_tids" ] && ! has "$_a_out" '^\* +1 '; then
		pass "gdb-check: attach $_a_pid never returns: gdbserver warned $_a_w times, for lwps ${_a_tids}again and again"
	else
		fail_log "gdb-check: attach $_a_pid on the baseline should loop: $_a_w warnings, lwps warned twice: ${_a_tids:-none} (output: $_a_out)"
	fi
	_a_gs=$(job_pid)
	[ -n "$_a_gs" ] && kill_job "$_a_gs" 'gdbserver --multi /ttyS1'
	mark
	qemu_send 'gdbserver --multi --gdb15 /ttyS1 &' 30 && wait_new 'Remote debugging using /ttyS1$' 60 ||
		{ fail_log "gdb-check: gdbserver --multi --gdb15 did not start: $Q_REASON"; return 1; }
	_a_out=$TESTDIR/$RUN.gdb15.out
	gdb_batch "$_a_out" 120 -m -ex "attach $_a_pid" "$BIN/uringcp"
	_a_rc=$?
	_a_w=$(since_mark | grep -c -E -e "$_a_re")
	if [ "$_a_rc" != 124 ] && [ "$_a_w" = 1 ]; then
		pass "gdb-check: --gdb15: attach fails at the first I/O thread: $(grep -v '^warning' "$_a_out" | tail -n 1)"
	else
		fail_log "gdb-check: --gdb15: attach should fail at once with one warning; gdb status $_a_rc, $_a_w warnings (output: $_a_out)"
	fi
	_a_gs=$(job_pid)
	[ -n "$_a_gs" ] && kill_job "$_a_gs" 'gdbserver --multi --gdb15 /ttyS1'
	qemu_send "kill -9 $_a_pid" 30 && qemu_wait_prompt 30
}

# Part 3: bad input. build/rspfuzz sends gdbserver garbage, bad checksums,
# oversized and cut packets and malformed requests (seeded), each round
# followed by a '?' that must get a proper reply; then it vanishes
# mid-packet, comes back, and detaches. The program must run on.
packet_fuzz() {
	mark
	qemu_send "gdbserver /ttyS1 threads 2 &" 60 && wait_new 'Remote debugging using /ttyS1$' 60 ||
		{ fail_log "gdb-check: gdbserver /ttyS1 threads 2 did not start: $Q_REASON"; return 1; }
	_p_out=$TESTDIR/$RUN.rspfuzz.out
	timeout 600 build/rspfuzz "$PORT" "${RSPFUZZ_SEED:-20211207}" "${RSPFUZZ_ROUNDS:-150}" > "$_p_out" 2>&1
	while read -r _p_verdict _p_rest; do
		case $_p_verdict in
		PASS) pass "gdb-check: $_p_rest" ;;
		FAIL) fail_log "gdb-check: $_p_rest (output: $_p_out)" ;;
		esac
	done < "$_p_out"
	grep -q -E '^[0-9]+ passed, [0-9]+ failed$' "$_p_out" ||
		fail_log "gdb-check: rspfuzz ended without its closing line (output: $_p_out)"
	wait_new 'threads: pid [0-9]+ ready \(1\+2 threads\)$' 60 &&
		pass "gdb-check: after the fuzz and the detach, the program runs on" ||
		fail_log "gdb-check: the program never printed its ready line after the detach: $Q_REASON"
	_p_pid=$(since_mark | sed -n 's/^threads: pid \([0-9]*\) ready.*/\1/p' | head -n 1)
	[ -n "$_p_pid" ] && qemu_send "kill -9 $_p_pid" 30 && qemu_wait_prompt 30
}

# Part 4, on a kernel whose I/O threads can be traced (IO_REGS set: the
# embrace series, or followups): GDB's `attach PID` of uringcp -l -a
# returns, info threads lists iou-mgr and iou-wrk by name, each at
# "0x0000000000000000 in ?? ()" (no user code to show), and detach lets
# the copy go on. What GDB reads in their registers is the kernel's
# register model: IO_REGS=zeroed (5.12: all zero, as for a kernel
# thread; on x86_64 cs too) or copied (x86_64 from 5.13: the creator's
# registers with only ip and sp zeroed, so cs is the user code segment).
attach_traced() {
	start_copy || return 1
	_t_pid=$COPY_PID
	# Its I/O threads come with its first requests: wait for a worker.
	for _t_try in 1 2 3 4 5 6 7 8 9 10; do
		mark
		qemu_send "ps -T -p $_t_pid" 30 && qemu_wait_prompt 30
		since_mark | grep -q -E " iou-wrk-$_t_pid\$" && break
		sleep 1
	done
	mark
	qemu_send 'gdbserver --multi /ttyS1 &' 30 && wait_new 'Remote debugging using /ttyS1$' 60 ||
		{ fail_log "gdb-check: gdbserver --multi did not start: $Q_REASON"; return 1; }
	_t_out=$TESTDIR/$RUN.traced.out
	_t_cs="" _t_csfmt=""
	[ "$ARCH" = x86_64 ] && _t_cs=', (long)$cs' _t_csfmt=' %lx'
	gdb_batch "$_t_out" 180 -m -ex "attach $_t_pid" -ex 'info threads' \
		-ex "thread apply all -ascending -q printf \"regs %d %lx %lx$_t_csfmt\\n\", \$_thread, (long)\$pc, (long)\$sp$_t_cs" \
		-ex detach "$BIN/uringcp"
	_t_rc=$?
	_t_w=$(since_mark | grep -c -E '^gdbserver: Cannot attach to lwp ')
	if [ "$_t_rc" = 0 ] && has "$_t_out" '^\* +1 +Thread ' && [ "$_t_w" = 0 ]; then
		pass "gdb-check: attach $_t_pid returns, with no warning: every thread is traced"
	else
		fail_log "gdb-check: attach $_t_pid should return with every thread traced; gdb status $_t_rc, $_t_w warnings (output: $_t_out)"
		return 1
	fi
	for _t_name in iou-mgr iou-wrk; do
		has "$_t_out" "^ +[0-9]+ +Thread [0-9.]+ \"$_t_name-$_t_pid\" +0x0000000000000000 in \\?\\? \\(\\)\$" &&
			pass "gdb-check: info threads lists \"$_t_name-$_t_pid\" at 0x0000000000000000 in ?? ()" ||
			fail_log "gdb-check: info threads should list \"$_t_name-$_t_pid\" at \"0x0000000000000000 in ?? ()\" (output: $_t_out)"
	done
	io_regs "$_t_out"
	has "$_t_out" '^\[Inferior 1 \(Remote target\) detached\]$' &&
		pass "gdb-check: detach" ||
		fail_log "gdb-check: no \"[Inferior 1 (Remote target) detached]\" after attach $_t_pid (output: $_t_out)"
	_t_gs=$(job_pid)
	[ -n "$_t_gs" ] && kill_job "$_t_gs" 'gdbserver --multi /ttyS1'
	io_bytes "$_t_pid"
	_t_io0=$IOB
	sleep 2
	io_bytes "$_t_pid"
	if [ -n "$IOB" ] && [ -n "$_t_io0" ] && [ "$IOB" -gt "$_t_io0" ]; then
		pass "gdb-check: after detach the copy goes on (its I/O moved from $_t_io0 to $IOB bytes)"
	else
		fail_log "gdb-check: after detach the copy should go on: its I/O stood at ${_t_io0:-?}, then ${IOB:-?} bytes"
	fi
	qemu_send "kill -9 $_t_pid" 30 && qemu_wait_prompt 30
}

# io_regs OUT: the registers GDB read ("regs ID PC SP [CS]" lines, the
# thread names from info threads) are the register model's (IO_REGS):
# pc and sp 0 in every I/O thread, and on x86_64 cs 0 (zeroed) or the
# main thread's (copied).
io_regs() {
	sed -n 's/^[* ] *\([0-9][0-9]*\) *Thread [0-9.]* "\([^"]*\)".*/\1 \2/p' "$1" > "$TESTDIR/$RUN.names"
	grep -E '^regs [0-9]+ ' "$1" | awk 'NR == FNR { name[$1] = $2; next }
		{ print name[$2] == "" ? "?" : name[$2], $3, $4, $5 }' "$TESTDIR/$RUN.names" - > "$TESTDIR/$RUN.regs"
	_ir_main=$(awk '$1 == "uringcp" { print $2, $4; exit }' "$TESTDIR/$RUN.regs")
	set -- $_ir_main
	_ir_pc=$1 _ir_cs=$2
	_ir_n=$(grep -c '^iou-' "$TESTDIR/$RUN.regs")
	_ir_bad=$(awk '$1 ~ /^iou-/ && ($2 != "0" || $3 != "0") { printf " %s(pc %s, sp %s)", $1, $2, $3 }' "$TESTDIR/$RUN.regs")
	if [ "$_ir_n" -ge 2 ] && [ -z "$_ir_bad" ] && [ -n "$_ir_pc" ] && [ "$_ir_pc" != 0 ]; then
		pass "gdb-check: pc and sp read 0 in the $_ir_n I/O threads (no user stack to show); the main thread's pc is 0x$_ir_pc"
	else
		fail_log "gdb-check: pc and sp should read 0 in every I/O thread, not in the main thread; $_ir_n I/O threads,${_ir_bad:- main pc ${_ir_pc:-none}} (output: $1)"
	fi
	[ "$ARCH" = x86_64 ] || return 0
	if [ "$IO_REGS" = zeroed ]; then
		_ir_want=0 _ir_what="0, as in a kernel thread's zeroed registers (Linux 5.12)"
	else
		_ir_want=$_ir_cs _ir_what="the main thread's, 0x$_ir_cs, copied from their creator (Linux 5.13)"
	fi
	_ir_bad=$(awk -v w="$_ir_want" '$1 ~ /^iou-/ && $4 != w { printf " %s(cs %s)", $1, $4 }' "$TESTDIR/$RUN.regs")
	if [ -n "$_ir_cs" ] && [ "$_ir_cs" != 0 ] && [ -z "$_ir_bad" ]; then
		pass "gdb-check: cs in the I/O threads is $_ir_what"
	else
		fail_log "gdb-check: cs in the I/O threads should be $_ir_what; main cs ${_ir_cs:-none},${_ir_bad:- }(output: $1)"
	fi
}

# io_bytes PID: IOB = the bytes PID has read and written (rchar + wchar
# of /proc/PID/io); empty if it is gone.
io_bytes() {
	mark
	qemu_send "cat /proc/$1/io" 30 && wait_new "^wchar: +[0-9]+" 30
	IOB=$(since_mark | awk '$1 == "rchar:" || $1 == "wchar:" { b += $2; s = 1 } END { if (s) print b }')
}

main() {
	case $IO_REGS in
	"" | zeroed | copied) ;;
	*) fail "gdb-check: IO_REGS=$IO_REGS: want zeroed or copied"; return ;;
	esac
	command -v "$GDB" > /dev/null || { fail "gdb-check: no $GDB (apt-get install gdb-multiarch)"; return; }
	mkdir -p "$TESTDIR"
	cp --sparse=always "$IMG" "$TESTDIR/$RUN.img" || { fail "gdb-check: no image $IMG (run make)"; return; }
	PORT=$($HOSTBIN/serialcheck -p) || { fail "gdb-check: no free TCP port ($HOSTBIN/serialcheck)"; return; }
	export SERIAL2_PORT=$PORT
	qemu_start "$RUN" "$CPUS" "$TESTDIR/$RUN.img" 600
	_m_r=$?
	unset SERIAL2_PORT
	[ $_m_r = 0 ] || { fail "gdb-check: could not start QEMU"; return; }
	qemu_wait_prompt 60 || { fail_log "gdb-check: no shell prompt: $Q_REASON"; return; }
	if [ -n "$IO_REGS" ]; then
		attach_traced
	else
		launch
		attach_exit
		packet_fuzz
		attach_loop
	fi
	if qemu_send poweroff 30 && qemu_wait_exit 30; then
		pass "gdb-check: poweroff ends QEMU with status 0"
	else
		fail_log "gdb-check: poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
	fi
}

main
qemu_stop
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

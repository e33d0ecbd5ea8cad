#!/bin/sh
# labs/demo.sh: `make demo`, the whole story in a few minutes, unattended,
# for a workshop screen. POSIX sh.
#
#   1. builds the three fixes of March 2021 from their patch series, and
#      embrace's first version (v1), each in a scratch copy of this tree:
#      build/demo/deny, build/demo/hide, build/demo/embrace-v1,
#      build/demo/embrace (make apply-solution LAB=... DEST=...);
#   2. boots the baseline (this tree's kernel, Linux 5.12-rc3's bug) and
#      shows, with the bug report's program `uringcp -l -a big out`, the
#      debugger's endless attach loop and the I/O threads spinning in a
#      stopped process;
#   3. boots each fix and measures the same things;
#   4. prints a table of what it measured, one row per kernel, and checks
#      it against what history says each fix did.
#
# Everything printed about a kernel was measured in that run. ARCH and
# CPUS as for make qemu. The serial logs stay in build/demo/*/build/ARCH/
# test/demo-row.log and build/ARCH/test/demo-row.log.
#
# Internally, `sh labs/demo.sh --row NAME FILE` measures one kernel (the
# tree it is run in) and appends its table row to FILE; the main run calls
# it in each tree.

cd "$(dirname "$0")/.." || exit 1
ARCH=${ARCH:-riscv64}
MAKE=${MAKE:-make}
CPUS=${CPUS:-3}
export ARCH MAKE CPUS
TOP=$(pwd)
DEMO=build/demo

# say TEXT: one line of narration.
say() {
	printf '%s\n' "$*"
}

# ------------------------------------------------------------ one row

# measure_row NAME FILE: boot this tree's kernel, measure, append to FILE
# one line "NAME|attach|ps|stop|kill|stopkill" (cells in words).
measure_row() {
	ROW=$1 RESULTS=$2
	RUN=demo-row
	STOP_SECS=5
	. labs/grade/lib.sh
	. labs/grade/lib-uring.sh
	VERBOSE_ROW=""
	[ "$ROW" = baseline ] && VERBOSE_ROW=yes

	# show FILE REGEX [N]: print up to N (default 8) lines of FILE that
	# match REGEX, as guest output.
	show() {
		grep -E -e "$2" "$1" | sed 's/^\$ //' | head -n "${3:-8}" | sed 's/^/      | /'
	}

	uring_boot "$CPUS" || { echo "$ROW|boot failed|?|?|?|?" >> "$RESULTS"; qemu_stop; return 1; }
	start_copy '-l -a big out' || { echo "$ROW|no I/O threads|?|?|?|?" >> "$RESULTS"; qemu_stop; return 1; }
	say "    uringcp -l -a big out is running as PID $PID."

	# ps shows workers?
	get_nthreads "$PID"
	NALL=$NTHREADS
	get_threads "$PID"
	NIO=$(echo "$THREADS" | awk '$3 ~ /^iou-/' | wc -l)
	MGR=$(echo "$THREADS" | awk '$3 ~ /^iou-mgr-/ { print $1 }' | head -n 1)
	if [ "$NIO" -gt 0 ]; then
		PSCELL="yes ($NIO I/O threads)"
	else
		PSCELL="no (0 of $((NALL - 1)) I/O threads)"
	fi
	say "    ps -T lists $(echo "$THREADS" | awk 'NF' | wc -l) of its $NALL threads (/proc/$PID/status counts $NALL):"
	show "$OUT" "^ *$PID +[0-9]+ " 8

	# The debugger, under iowatch: a debugger that waits for a stop that
	# never comes (embrace v1) is ended once the process does no I/O.
	MG_OK=yes
	run_mgdb "$PID" "-p $PID -n 5 -batch -ex \"info threads\" -ex detach" || MG_OK=no
	NWARN=$(grep -c 'Cannot attach' "$OUT")
	NLISTED=$(grep -c -E '^[* ] [0-9]+ +LWP [0-9]+ ' "$OUT")
	if [ "$MG_OK" = no ]; then
		ATTCELL="no (waits forever)"
		say "    mgdb -p $PID waits forever for its threads to stop; iowatch ends it:"
		show "$OUT" '^iowatch: |^\[New LWP|^Attaching' 4
	elif [ "$NWARN" -gt 0 ] || grep -q 'giving up' "$OUT"; then
		ATTCELL="no (loops)"
		say "    mgdb -p $PID (GDB 10's attach, bounded to 5 passes): $NWARN warnings, then it gives up:"
		show "$OUT" '^warning: Cannot attach|^mgdb: giving up' "$([ -n "$VERBOSE_ROW" ] && echo 7 || echo 2)"
	elif [ "$NLISTED" -ge "$NALL" ]; then
		ATTCELL="yes (all $NLISTED threads)"
		say "    mgdb -p $PID attaches to all $NLISTED threads, I/O threads included, and detaches:"
		show "$OUT" '^[* ] [0-9]+ +LWP ' 6
	else
		ATTCELL="yes (sees $NLISTED of $NALL)"
		say "    mgdb -p $PID attaches at once, but sees only $NLISTED of the $NALL threads:"
		show "$OUT" '^[* ] [0-9]+ +LWP ' 6
	fi

	# STOP: is the parent told, and does anything burn CPU?
	stop_copy "$PID"
	# The process's %CPU over 2 s (its /proc/PID/stat: every thread,
	# hidden or not). After a stop, I/O threads may first finish the
	# requests already queued: look up to four times for it to settle.
	i=0
	while :; do
		run_cmd "top -b -n 1 -d 2 -p $PID" 30
		PCT=$(awk '$1 == p && $2 ~ /^[A-Z]$/ { v = $3 } END { printf "%d", v }' p="$PID" "$OUT")
		i=$((i + 1))
		[ "$PCT" -le 10 ] || [ $i -ge 4 ] && break
	done
	if [ "$STOPPED" = yes ] && [ "$PCT" -le 10 ]; then
		STOPCELL="yes (${PCT}% CPU)"
		say "    kill -STOP $PID: the parent is told it stopped; the process uses ${PCT}% CPU."
	else
		STOPCELL="no (spins, ${PCT}% CPU)"
		[ "$STOPPED" = yes ] && STOPCELL="no (${PCT}% CPU)"
		if [ "$STOPPED" = yes ]; then
			say "    kill -STOP $PID: the parent is told it stopped,"
		else
			say "    kill -STOP $PID: in $STOP_SECS s the parent is not told it stopped ($STOP_DETAIL),"
		fi
		say "    and the stopped process uses ${PCT}% CPU. Per thread (top -H):"
		get_io_cpu "$PID"
		grep -E "^ *$PID +[0-9]+ " "$OUT.last" | head -n 6 | sed 's/^/      | /'
	fi
	run_cmd "kill -CONT $PID" 20
	run_cmd 'sleep 1' 10

	# kill -9 to an I/O thread's tid. Where ps cannot show the I/O
	# threads, the manager's tid is PID+1: it is the first thread the
	# copy's first request creates, and nothing else starts meanwhile.
	WHO="iou-mgr-$PID"
	if [ -z "$MGR" ]; then
		MGR=$((PID + 1))
		WHO="iou-mgr-$PID, hidden from ps"
	fi
	run_cmd "kill -9 $MGR" 20
	KOUT=$OUT
	KFROM=$CMD_FROM
	if grep -q "No such process" "$KOUT"; then
		KILLCELL="refused (ESRCH)"
		say "    kill -9 $MGR ($WHO) is refused; the program lives on:"
		show "$KOUT" '^kill: ' 1
		ALIVE=yes
	elif wait_end "$PID" 5 && [ -n "$(line_after "$KFROM" "$WS""PID $PID (killed|exited)")" ]; then
		# A dying process with spinning threads may take a while: wait
		# for its end by event (as long as it makes progress).
		KILLCELL="kills the whole app"
		say "    kill -9 $MGR ($WHO) kills the whole program:"
		line_after "$KFROM" "$WS""PID $PID (killed|exited)" | sed 's/.*waitstop:/waitstop:/; s/^/      | /'
		ALIVE=no
	else
		KILLCELL="accepted, but the program lives on"
		say "    kill -9 $MGR ($WHO) is accepted, but the program does not end: $Q_REASON"
		ALIVE=yes
	fi

	# STOP then KILL, on a fresh copy if the last one is gone. A kernel
	# on which the process cannot die (embrace v1) is shown stuck, its
	# threads in D, for as long as kill_copy waits: 15 s without progress.
	if [ "$ALIVE" = no ]; then
		run_cmd 'sleep 1' 10
		start_copy '-l -a big out' || { echo "$ROW|$ATTCELL|$PSCELL|$STOPCELL|$KILLCELL|?" >> "$RESULTS"; qemu_stop; return 1; }
		say "    A new copy for the last test: PID $PID."
	fi
	stop_copy "$PID"
	if kill_copy "$PID" 15; then
		get_nthreads "$PID"
		await_memfree
		if [ "$NTHREADS" = 0 ] && [ "$MEMFREE" = "$MEM0" ]; then
			SKCELL="clean"
			say "    kill -STOP then kill -9 $PID: every thread ends, MemFree is back to $MEM0 kB."
		else
			SKCELL="leaks $(( (MEM0 - ${MEMFREE:-0}) / 4 )) pages"
			say "    kill -STOP then kill -9 $PID: it ended, but MemFree is ${MEMFREE:-?} kB, not $MEM0 kB."
		fi
	else
		get_threads "$PID"
		SKCELL="hangs ($(echo "$THREADS" | awk 'NF { printf "%s %s, ", $1, $2 }' | sed 's/, $//'))"
		say "    kill -STOP then kill -9 $PID: it does not end: 15 s without progress; ps -T:"
		show "$OUT" "^ *$PID +[0-9]+ " 6
		say "    (a thread in D cannot be killed: only a reboot ends it; this demo powers off)"
	fi
	echo "$ROW|$ATTCELL|$PSCELL|$STOPCELL|$KILLCELL|$SKCELL" >> "$RESULTS"
	qemu_send poweroff 30 && qemu_wait_exit 30
	qemu_stop
}

if [ "$1" = --row ]; then
	measure_row "$2" "$3"
	exit
fi

# ------------------------------------------------------------ the story

T0=$(date +%s)
RESULTS=$TOP/$DEMO/results-$ARCH.txt
mkdir -p "$DEMO"
: > "$RESULTS"

say "=================================================================="
say " tasklab demo: GDB, io_uring and the I/O threads of Linux 5.12"
say " ($ARCH, CPUS=$CPUS; every figure below is measured in this run)"
say "=================================================================="
say ""
say "In Linux 5.12 io_uring's workers became I/O threads: threads of the"
say "program's own process that never run its code. Late on 19 March"
say "2021 (UTC) Stefan Metzmacher reported that gdb --pid on an io_uring program"
say "never finished attaching, and that kill -STOP made its I/O threads"
say "spin at 100% CPU. Three fixes were tried within a week:"
say "  deny     (5.12-rc4)  refuse signals to I/O threads, leave them out"
say "                       of group stops"
say "  hide     (proposed)  take them out of the thread group and /proc"
say "  embrace  (5.12-rc5)  let them take signals like any thread"
say ""

say "--- Building: this tree is the baseline; each fix is its patch series"
say "    applied to a scratch copy (make apply-solution LAB=... DEST=...)."
if ! $MAKE -s --no-print-directory ARCH="$ARCH" all > "$DEMO/build-baseline-$ARCH.log" 2>&1; then
	say "demo: the baseline does not build (see $DEMO/build-baseline-$ARCH.log)"
	exit 1
fi
if command -v git > /dev/null 2>&1 && [ -d .git ] && ! git diff --quiet HEAD -- kernel 2>/dev/null; then
	say "    (note: kernel/ differs from git HEAD: the baseline row measures your changes)"
fi
for s in deny hide embrace-v1 embrace; do
	t=$(date +%s)
	if ! $MAKE -s --no-print-directory apply-solution LAB=$s DEST="$DEMO/$s" FROM=. > "$DEMO/build-$s-$ARCH.log" 2>&1 ||
		! $MAKE -s --no-print-directory -j2 -C "$DEMO/$s" ARCH="$ARCH" all >> "$DEMO/build-$s-$ARCH.log" 2>&1; then
		say "demo: solutions/$s does not apply or build (see $DEMO/build-$s-$ARCH.log)"
		exit 1
	fi
	n=$(grep -c "^applied solutions/$s/" "$DEMO/build-$s-$ARCH.log")
	n_all=$(grep -c '^applied' "$DEMO/build-$s-$ARCH.log")
	if [ "$n" = "$n_all" ]; then
		say "    $s: $n patches applied, built in $(($(date +%s) - t)) s"
	else
		say "    $s: $n patches on deny's $((n_all - n)), built in $(($(date +%s) - t)) s"
	fi
done
say ""

say "--- The baseline (Linux 5.12-rc3): the bug"
sh labs/demo.sh --row baseline "$RESULTS"
say ""
say "--- deny (5.12-rc4): check_kill_permission() refuses signals to I/O"
say "    threads; task_set_jobctl_pending() leaves them out of group stops"
(cd "$DEMO/deny" && sh labs/demo.sh --row deny "$RESULTS")
say ""
say "--- hide (proposed 2021-03-25, not merged): same_thread_group() is false"
say "    for I/O threads, first_tid() skips them in /proc/PID/task"
(cd "$DEMO/hide" && sh labs/demo.sh --row hide "$RESULTS")
say ""
say "--- embrace v1 (posted 25 March 2021): the first version of embrace;"
say "    Metzmacher's tests found a spin on STOP, a debugger that waits"
say "    forever, and, after STOP then KILL, a process stuck in D"
(cd "$DEMO/embrace-v1" && sh labs/demo.sh --row embrace-v1 "$RESULTS")
say ""
say "--- embrace (5.12-rc5): I/O threads call get_signal() in their loops,"
say "    can be traced, and exit by themselves on a fatal signal"
(cd "$DEMO/embrace" && sh labs/demo.sh --row embrace "$RESULTS")
say ""

# The table, and whether it agrees with history.
EXPECT="baseline|no|yes|no|kills the whole app|clean
deny|no|yes|yes|refused|clean
hide|yes|no|yes|refused|clean
embrace-v1|no|yes|no|kills the whole app|hangs
embrace|yes|yes|yes|kills the whole app|clean"
say "--- What was measured ($ARCH, CPUS=$CPUS)"
say ""
awk -F'|' '
	BEGIN {
		h[1] = "kernel"; h[2] = "debugger attaches"; h[3] = "ps shows workers"
		h[4] = "STOP stops, no spin"; h[5] = "kill -9 to a worker tid"; h[6] = "STOP then KILL"
		for (i = 1; i <= 6; i++) w[i] = length(h[i])
	}
	{ n++; for (i = 1; i <= 6; i++) { c[n, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
	END {
		line = ""; sep = ""
		for (i = 1; i <= 6; i++) {
			line = line sprintf("%-" w[i] "s", h[i]) (i < 6 ? " | " : "")
			sep = sep sprintf("%" w[i] "s", "") (i < 6 ? "-+-" : "")
		}
		gsub(/ /, "-", sep); gsub(/-\+-/, "-+-", sep)
		print line; print sep
		for (r = 1; r <= n; r++) {
			line = ""
			for (i = 1; i <= 6; i++) line = line sprintf("%-" w[i] "s", c[r, i]) (i < 6 ? " | " : "")
			sub(/ +$/, "", line)
			print line
		}
	}' "$RESULTS"
say ""

# Compare each cell's first words with history.
BAD=$(echo "$EXPECT" | while IFS='|' read -r name a p s k sk; do
	got=$(grep "^$name|" "$RESULTS")
	[ -n "$got" ] || { echo "  $name: not measured"; continue; }
	echo "$got" | awk -F'|' -v n="$name" -v a="$a" -v p="$p" -v s="$s" -v k="$k" -v sk="$sk" '
		function chk(col, want, what) { if (index($col, want) != 1) printf "  %s, %s: measured \"%s\", history says \"%s\"\n", n, what, $col, want }
		{ chk(2, a, "debugger attaches"); chk(3, p, "ps shows workers"); chk(4, s, "STOP stops")
		  chk(5, k, "kill to a worker tid"); chk(6, sk, "STOP then KILL") }'
done)
if [ -z "$BAD" ]; then
	say "This agrees with the history of March 2021: deny stopped the spin but"
	say "left the debugger looping; hide let the debugger attach by hiding the"
	say "threads from ps and top too (why it was not merged); embrace's first"
	say "version spun on STOP, left the debugger waiting, and could leave a"
	say "process that no signal ends; embrace as merged for 5.12-rc5 made"
	say "every column right, and a kill -9 to an I/O thread's tid kills the"
	say "whole program again, as for any thread."
else
	say "This does NOT agree with the history of March 2021:"
	echo "$BAD"
fi
say ""
say "demo: done in $(($(date +%s) - T0)) s (logs: build/$ARCH/test/demo-row.log, $DEMO/*/build/$ARCH/test/demo-row.log)"
[ -z "$BAD" ]

#!/bin/sh
# labs/grade/bench.sh: `make bench`. Prints the machine, then each figure as
# the median of $RUNS runs (default 5), with every run's value.
#
# To add a figure: write a sample_NAME function that measures one run and
# sets SAMPLE (in milliseconds, or the figure's own unit) and returns 0 (or
# returns 1 on failure), then add a `figure` line in figures() below.
# Figures measured inside the guest come from the `bench` program (user/
# bench.c), one boot per run: see guest_figures.

cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh
. labs/grade/lib-gdb.sh

RUNS=${RUNS:-5}
Q_POLL=0.01                      # look at the log every 10 ms
IMG=build/$ARCH/fs.img
SCRATCH=""                       # copy of the tree for clean builds
BENCH_FAILED=0

trap 'qemu_stop; [ -z "$SCRATCH" ] || rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# now_ms: wall-clock milliseconds.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# machine: one line each for the CPUs and QEMU.
machine() {
	_model=$(sed -n 's/^\(model name\|uarch\|cpu model\|Model\)[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
	_qemu=$($MAKE -s --no-print-directory qemu-cmd ARCH="$ARCH" CPUS=1 FSIMG=x | awk '{ print $1 }')
	echo "machine: $(nproc) CPUs, ${_model:-unknown CPU model}"
	echo "qemu:    $($_qemu --version 2>/dev/null | head -n 1)"
	echo "arch:    $ARCH; each figure is the median of $RUNS runs"
}

# sample_build: one clean build of kernel + fs.img with make -j2, in a copy
# of the tree (without build/ and .git) so the developer's build is untouched.
sample_build() {
	if [ -z "$SCRATCH" ]; then
		SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/tasklab-bench.XXXXXX") || return 1
		for _f in ./* ./.[!.]*; do
			case $_f in ./build | ./.git | './.[!.]*') continue ;; esac
			cp -r "$_f" "$SCRATCH/" || return 1
		done
	fi
	$MAKE -s --no-print-directory -C "$SCRATCH" clean > /dev/null 2>&1
	_t0=$(now_ms)
	if ! $MAKE --no-print-directory -C "$SCRATCH" -j2 all > "$TESTDIR/bench-build.log" 2>&1; then
		echo "bench: the build failed; see $TESTDIR/bench-build.log" >&2
		return 1
	fi
	SAMPLE=$(($(now_ms) - _t0))
}

# sample_boot CPUS: QEMU start to the first "$ " prompt, polling every 10 ms.
sample_boot() {
	cp --sparse=always "$IMG" "$TESTDIR/bench-boot.img" || return 1
	qemu_start "bench-boot-cpus$1" "$1" "$TESTDIR/bench-boot.img" 60 || return 1
	if ! qemu_poll 30 -F -e '$ '; then
		echo "bench: no prompt ($Q_REASON); see $Q_LOG" >&2
		qemu_stop
		return 1
	fi
	SAMPLE=$(($(date +%s%N) / 1000000 - Q_T0 / 1000000))
	qemu_send poweroff 10 && qemu_wait_exit 10 || qemu_stop
}

# figure LABEL UNIT FUNCTION [ARGS...]: run FUNCTION $RUNS times and print a
# row: the label, the median and every run. UNIT is s or ms (samples in ms).
figure() {
	_label=$1 _unit=$2
	shift 2
	_all=""
	_i=1
	while [ $_i -le "$RUNS" ]; do
		[ -t 2 ] && printf '  (%s: run %d/%d)\r' "$_label" $_i "$RUNS" >&2
		SAMPLE=""
		"$@" && [ -n "$SAMPLE" ] || { _all=""; break; }
		_all="$_all $SAMPLE"
		_i=$((_i + 1))
	done
	[ -t 2 ] && printf '%70s\r' '' >&2
	row "$_label" "$_unit" "$_all"
}

# guest_bench CPUS: boot, run `bench`, and set G_SYSCALL, G_SIGNAL and
# G_THREAD to its figures (ns per operation, each the median of its own
# runs). Returns 1 if the run failed.
guest_bench() {
	cp --sparse=always "$IMG" "$TESTDIR/bench-guest.img" || return 1
	qemu_start "bench-guest-cpus$1" "$1" "$TESTDIR/bench-guest.img" 180 || return 1
	if ! qemu_send bench 30 || ! qemu_wait_line 'bench: done' 120; then
		echo "bench: the bench program did not finish ($Q_REASON); see $Q_LOG" >&2
		qemu_stop
		return 1
	fi
	G_SYSCALL=$(guest_value syscall)
	G_SIGNAL=$(guest_value signal)
	G_THREAD=$(guest_value thread)
	G_CLOCK=$(tr -d '\r' < "$Q_LOG" | sed -n 's/^bench: clock: //p' | head -n 1)
	qemu_send poweroff 10 && qemu_wait_exit 10 || qemu_stop
	[ -n "$G_SYSCALL" ] && [ -n "$G_SIGNAL" ] && [ -n "$G_THREAD" ]
}

# guest_value NAME: the ns/op figure NAME in the bench program's output.
guest_value() {
	tr -d '\r' < "$Q_LOG" | sed -n "s/^$1 *\([0-9][0-9]*\) ns\/op .*/\1/p" | head -n 1
}

# guest_figures CPUS: run the bench program in $RUNS boots and print a row
# for each of its figures: the median over boots, every boot's value.
guest_figures() {
	_gf_sys="" _gf_sig="" _gf_thr=""
	_i=1
	while [ $_i -le "$RUNS" ]; do
		[ -t 2 ] && printf '  (bench program, CPUS=%s: run %d/%d)\r' "$1" $_i "$RUNS" >&2
		if ! guest_bench "$1"; then
			_gf_sys="" _gf_sig="" _gf_thr=""
			break
		fi
		_gf_sys="$_gf_sys $G_SYSCALL"
		_gf_sig="$_gf_sig $G_SIGNAL"
		_gf_thr="$_gf_thr $G_THREAD"
		_i=$((_i + 1))
	done
	[ -t 2 ] && printf '%70s\r' '' >&2
	row "null syscall (getppid), CPUS=$1" ns "$_gf_sys"
	row "signal round trip (to self), CPUS=$1" ns "$_gf_sig"
	row "thread create + join, CPUS=$1" ns "$_gf_thr"
	[ -z "$_gf_sys" ] || echo "  (ns per operation, each boot's value the median of its own runs; clock: $G_CLOCK)"
}

# row LABEL UNIT "VALUES": print a figure's row: the label, the median of
# the values and every value, sorted. UNIT is s or ms (values in ms), or
# another unit shown as is (ns). No values: the row says "failed".
# Sets LAST_MEDIAN (empty if failed), for target().
row() {
	_label=$1 _unit=$2 _all=$3
	LAST_MEDIAN=""
	if [ -z "$_all" ]; then
		printf '%-40s %7s\n' "$_label" "failed"
		BENCH_FAILED=1
		return
	fi
	echo "$_all" | tr ' ' '\n' | grep . | sort -n | awk -v label="$_label" -v unit="$_unit" '
		function show(v) { return unit == "s" ? sprintf("%.2f", v / 1000) : sprintf("%d", v) }
		{ v[NR] = $1 }
		END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			runs = ""
			for (i = 1; i <= NR; i++) runs = runs " " show(v[i])
			printf "%-40s %7s %-2s  (runs, sorted:%s)\n", label, show(m), unit, runs
		}'
	LAST_MEDIAN=$(echo "$_all" | tr ' ' '\n' | grep . | sort -n |
		awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }')
}

# sample_mgdb: boot, start `threads 8` (1+8 threads), and let mgdb attach
# to all of them and detach 200 times (mgdb -r); SAMPLE is microseconds
# per attach + detach.
sample_mgdb() {
	cp --sparse=always "$IMG" "$TESTDIR/bench-mgdb.img" || return 1
	qemu_start bench-mgdb 1 "$TESTDIR/bench-mgdb.img" 120 || return 1
	_pid=""
	if qemu_send 'threads 8 &' 30 && qemu_wait_for 'ready (1+8 threads)' 30; then
		_pid=$(tr -d '\r' < "$Q_LOG" | sed -n 's/.*threads: pid \([0-9][0-9]*\) ready.*/\1/p' | head -n 1)
	fi
	if [ -z "$_pid" ] || ! qemu_send "mgdb -p $_pid -r 200" 30 || ! qemu_wait_for 'us each' 90; then
		echo "bench: mgdb did not finish ($Q_REASON); see $Q_LOG" >&2
		qemu_stop
		return 1
	fi
	SAMPLE=$(tr -d '\r' < "$Q_LOG" | sed -n 's/.*: \([0-9][0-9]*\) us each.*/\1/p' | head -n 1)
	qemu_send poweroff 10 && qemu_wait_exit 10 || qemu_stop
	[ -n "$SAMPLE" ]
}

# sample_gdb: boot with the second serial line, start `threads 8` (1+8
# threads) and `gdbserver --multi /ttyS1`, and time one real GDB session
# on the host: connect, attach PID, info threads, detach (gdb-multiarch
# -batch, its own start included); SAMPLE is milliseconds. Beside
# mgdb's figure: the same work, plus GDB and the remote protocol over a
# serial line.
sample_gdb() {
	command -v "$GDB" > /dev/null || { echo "bench: no $GDB (apt-get install gdb-multiarch)" >&2; return 1; }
	PORT=$(build/serialcheck -p) || { echo "bench: no free TCP port (build/serialcheck)" >&2; return 1; }
	cp --sparse=always "$IMG" "$TESTDIR/bench-gdb.img" || return 1
	SERIAL2_PORT=$PORT
	export SERIAL2_PORT
	qemu_start bench-gdb 1 "$TESTDIR/bench-gdb.img" 120
	_sg_r=$?
	unset SERIAL2_PORT
	[ "$_sg_r" = 0 ] || return 1
	_pid=""
	if qemu_send 'threads 8 &' 30 && qemu_wait_for 'ready (1+8 threads)' 30; then
		_pid=$(tr -d '\r' < "$Q_LOG" | sed -n 's/.*threads: pid \([0-9][0-9]*\) ready.*/\1/p' | head -n 1)
	fi
	if [ -z "$_pid" ] || ! qemu_send 'gdbserver --multi /ttyS1 &' 30 ||
		! qemu_wait_for 'Remote debugging using /ttyS1' 30; then
		echo "bench: threads 8 or gdbserver did not start ($Q_REASON); see $Q_LOG" >&2
		qemu_stop
		return 1
	fi
	_sg_out=$TESTDIR/bench-gdb.out
	_t0=$(now_ms)
	gdb_batch "$_sg_out" 120 -m -ex "attach $_pid" -ex 'info threads' -ex detach "build/$ARCH/user/bin/threads"
	SAMPLE=$(($(now_ms) - _t0))
	if [ "$(grep -c -E '^[* ] +[0-9]+ +Thread [0-9]+ "threads" ' "$_sg_out")" != 9 ] ||
		! grep -q '^\[Inferior 1 (Remote target) detached\]$' "$_sg_out"; then
		echo "bench: GDB did not list 9 threads and detach; see $_sg_out" >&2
		qemu_stop
		return 1
	fi
	qemu_send poweroff 10 && qemu_wait_exit 10 || qemu_stop
}

# uring_figures: one boot running uringbench (uringcp against cat on a
# 4 MiB file, medians of its own runs); prints its rows.
uring_figures() {
	cp --sparse=always "$IMG" "$TESTDIR/bench-uring.img" || return 1
	qemu_start bench-uring 2 "$TESTDIR/bench-uring.img" 600 || return 1
	if ! qemu_send uringbench 30 || ! qemu_wait_for 'uringbench: ms ' 500; then
		echo "bench: uringbench did not finish ($Q_REASON); see $Q_LOG" >&2
		qemu_stop
		BENCH_FAILED=1
		return 1
	fi
	tr -d '\r' < "$Q_LOG" | sed -n '/^uringbench: [0-9]* bytes/,/^uringcp\/cat/p' | sed 's/^/  /'
	_ms=$(tr -d '\r' < "$Q_LOG" | sed -n 's/^uringbench: ms //p' | tail -n 1)
	set -- $_ms   # cat-to-file MS uringcp MS uringcp-a MS bytes N
	target "uringcp not slower than cat-to-file" "${4:-}" -le "${2:-}"
	qemu_send poweroff 10 && qemu_wait_exit 10 || qemu_stop
}

# sample_smallwr KERNEL: boot KERNEL (tasklab, or xv6: the xv6-riscv tree
# built by xv6_build) at CPUS=1 and run smallwr (user/smallwr.c, the same
# program for both: 512 write()s of 1 KiB); SAMPLE is 1 KiB writes per
# second, timed from the host from the command typed to "smallwr: done".
sample_smallwr() {
	_sw_img=$TESTDIR/bench-smallwr-$1.img
	if [ "$1" = xv6 ]; then
		cp "$XV6B/fs.img" "$_sw_img" || return 1
		QEMU_OVERRIDE="$QEMU_XV6 -drive file=$_sw_img,if=none,format=raw,id=x0 -device virtio-blk-device,drive=x0,bus=virtio-mmio-bus.0"
	else
		cp --sparse=always "$IMG" "$_sw_img" || return 1
	fi
	qemu_start "bench-smallwr-$1" 1 "$_sw_img" 120
	_sw_st=$?
	QEMU_OVERRIDE=""
	[ $_sw_st = 0 ] || return 1
	if ! qemu_wait_prompt 60; then
		echo "bench: $1: no prompt ($Q_REASON); see $Q_LOG" >&2
		qemu_stop
		return 1
	fi
	_sw_t0=$(now_ms)
	if ! qemu_send smallwr 10 || ! qemu_wait_line 'smallwr: done' 90; then
		echo "bench: $1: smallwr did not finish ($Q_REASON); see $Q_LOG" >&2
		qemu_stop
		return 1
	fi
	SAMPLE=$((512 * 1000 / ($(now_ms) - _sw_t0)))
	qemu_stop
}

# xv6_build DIR: a copy of the xv6-riscv tree DIR in $TESTDIR/xv6, with
# user/smallwr.c added as a program (built with XV6 defined), built; sets
# XV6B and QEMU_XV6 (xv6's own QEMU options, but the disk).
xv6_build() {
	XV6B=$(pwd)/$TESTDIR/xv6
	rm -rf "$XV6B" && mkdir -p "$XV6B" && cp -R "$1"/. "$XV6B"/ || return 1
	{ echo '#define XV6 1'; cat user/smallwr.c; } > "$XV6B/user/smallwr.c"
	sed -i 's|^UPROGS=\\$|UPROGS=\\\n\t$U/_smallwr\\|' "$XV6B/Makefile"
	if ! $MAKE -C "$XV6B" kernel/kernel fs.img > "$TESTDIR/bench-xv6-build.log" 2>&1; then
		echo "bench: xv6 from $1 does not build; see $TESTDIR/bench-xv6-build.log" >&2
		return 1
	fi
	QEMU_XV6="qemu-system-riscv64 -machine virt -bios none -kernel $XV6B/kernel/kernel -m 128M -smp 1 -nographic -global virtio-mmio.force-legacy=false"
}

# smallwr_figures: the small-write figure for tasklab, and with XV6=DIR
# (riscv64) for xv6-riscv too, the two kernels' runs interleaved so that
# both see the same machine noise; then the target (not slower than xv6).
smallwr_figures() {
	_sw_t="" _sw_x=""
	if [ -n "${XV6:-}" ] && [ "$ARCH" = riscv64 ] && ! xv6_build "$XV6"; then
		XV6=""
	fi
	_i=1
	while [ $_i -le "$RUNS" ]; do
		[ -t 2 ] && printf '  (smallwr: run %d/%d)\r' $_i "$RUNS" >&2
		sample_smallwr tasklab || { _sw_t=""; break; }
		_sw_t="$_sw_t $SAMPLE"
		if [ -n "${XV6:-}" ] && [ "$ARCH" = riscv64 ]; then
			sample_smallwr xv6 || { _sw_x=""; XV6=""; }
			_sw_x="$_sw_x $SAMPLE"
		fi
		_i=$((_i + 1))
	done
	[ -t 2 ] && printf '%70s\r' '' >&2
	row "small writes (512 x 1 KiB), CPUS=1" writes/s "$_sw_t"
	_sw_tm=$LAST_MEDIAN
	# Where the time goes: smallwr's own figures from /proc/diskstats and
	# /proc/interrupts.
	tr -d '\r' < "$TESTDIR/bench-smallwr-tasklab.log" 2>/dev/null |
		sed -n 's/^smallwr: \(disk\|a write\): \(.*\)$/  (tasklab, last run, \1: \2)/p'
	if [ -n "${XV6:-}" ] && [ "$ARCH" = riscv64 ]; then
		row "  the same, xv6-riscv ($XV6)" writes/s "$_sw_x"
		target "small writes at least as fast as xv6-riscv's" "$LAST_MEDIAN" -le "$_sw_tm"
	else
		echo "  target not measured: small writes at least as fast as xv6-riscv's (make bench XV6=DIR, riscv64)"
	fi
}

# target WHAT A OP B: one line saying whether a target set by the issues
# is met: whether the integer comparison A OP B (-le, -ge) holds.
target() {
	if [ -z "$2" ] || [ -z "$4" ]; then
		echo "  target not measured: $1"
	elif [ "$2" "$3" "$4" ]; then
		echo "  target met: $1"
	else
		echo "  TARGET MISSED: $1"
	fi
}

# wanted WORDS: whether ONLY (unset: everything) names one of WORDS, the
# words of a figure's label: `ONLY=boot make bench` runs the boot figures.
wanted() {
	[ -z "${ONLY:-}" ] && return 0
	case " $* " in *" $ONLY "*) return 0 ;; esac
	return 1
}

# figures: every figure, in order. Add new figures here.
figures() {
	wanted build && figure "clean build, kernel + fs.img (-j2)" s sample_build
	if wanted boot; then
		figure "boot to first prompt, CPUS=1" ms sample_boot 1
		_boot1=$LAST_MEDIAN
		figure "boot to first prompt, CPUS=3" ms sample_boot 3
		# Medians of a noisy host: "not slower" allows 10%.
		target "boot at CPUS=3 not slower than at CPUS=1 (within 10%)" \
			"$LAST_MEDIAN" -le "${_boot1:+$((_boot1 * 11 / 10))}"
	fi
	wanted guest syscall signal thread && guest_figures 1
	wanted mgdb && figure "mgdb attach + detach, 1+8 threads" us sample_mgdb
	wanted gdb && figure "GDB attach + info threads + detach, 1+8" ms sample_gdb
	wanted smallwr writes && smallwr_figures
	if wanted uringcp uring cat; then
		echo "uringcp against cat-to-file, 4 MiB, CPUS=2 (one boot; uringbench's medians):"
		uring_figures
	fi
}

machine
if ! $MAKE -s --no-print-directory all ARCH="$ARCH" > "$TESTDIR/bench-make.log" 2>&1; then
	echo "bench: make all failed; see $TESTDIR/bench-make.log" >&2
	exit 1
fi
echo
printf '%-40s %7s\n' "figure" "median"
figures
[ "$BENCH_FAILED" = 0 ]

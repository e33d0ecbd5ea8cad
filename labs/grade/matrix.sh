#!/bin/sh
# labs/grade/matrix.sh: proves that the lab graders judge behaviour, by
# running them against kernels whose verdict is known: each grader must
# pass with its reference series (and with the series that build on it),
# and fail on the baseline, on the strategies that do not meet its lab,
# and on every known-wrong fix of its lab (solutions/mutants/). The
# grader of lab 01 goes the other way: it passes on the baseline and
# fails once the bug is fixed.
#
#   sh labs/grade/matrix.sh            the cells that prove each grader (make check)
#   FULL=1 sh labs/grade/matrix.sh     every cell below, for $ARCH (make matrix)
#   QUICK=1 sh labs/grade/matrix.sh    only the cells marked quick (a first look)
#   ONLY=ERE sh labs/grade/matrix.sh   only graders (or trees) matching ERE
#   JOBS=N                             cells run N at a time (default 2)
#
# Each tree is this tree with its series applied (make apply-solution
# FROM=.), in build/matrix-ARCH/NAME. The series change only kernel/, so a tree
# builds only its kernel and boots this tree's fs.img. A cell expected to
# fail runs its grader with FAIL_FAST=1 (it ends at its first FAIL).
#
# One PASS/FAIL line per cell, in the order of the table (each cell's
# outcome against its expectation), then the table itself, then "N passed,
# N failed". Each grader's output: build/matrix-ARCH/out/GRADER@TREE.

cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh

TOP=$(pwd)
M=build/matrix-$ARCH          # one tree per series, per architecture: the two run side by side
R=$M/out
JOBS=${JOBS:-2}
GRADERS="reproduce deny hide embrace followups vhost"

# The cells: GRADER TREE EXPECT LEVEL [WHY]. EXPECT is pass or fail, or
# ARCH:VERDICT,... where the verdict differs by port (on riscv64 the
# followups series changes nothing: Linux 5.13 left riscv's I/O threads
# with zeroed registers, so there embrace already behaves as followups,
# and followups-pc-only is followups); "skip" leaves a cell out on a
# port. LEVEL is "quick" for the cells QUICK=1 runs; "-" for the other
# cells that prove a grader both ways (its reference and second designs
# pass, the baseline and every known-wrong fix fail), which make check
# runs too; "full" for the cells only make matrix (FULL=1) runs: the
# other strategies, and the series built on a reference. WHY, for
# a wrong fix, is an ERE that the grader's first FAIL line must match: the
# grader must reject it for the behaviour it breaks, not by chance.
#
# Two wrong fixes have no cell, because no grader can see them fail here:
# embrace with the mask still set after creation (the signal that picks
# the new thread in the window stays queued for the process, and the
# thread's get_signal() clears its stray TIF_SIGPENDING, so nothing
# spins and the main thread still gets the signal); and the posted v2
# loop, "if (get_signal(&ksig)) continue;", which loses a signal only
# where one is taken that is not a stop or a kill: chapter 04 makes that
# an exercise instead.
CELLS="
reproduce baseline pass quick
reproduce embrace fail quick
deny deny pass quick
deny deny-alt pass -
deny baseline fail quick
deny hide fail full
deny embrace fail full
deny mutants/deny-stop-only fail - born during a stop
deny mutants/deny-kill-path fail - tgkill
hide hide pass quick
hide hide-alt pass -
hide baseline fail quick
hide deny fail full
hide embrace fail full
hide mutants/hide-listing-only fail - cannot be opened|still shows the hidden
hide mutants/hide-cputime-filtered fail - ticks
hide mutants/hide-stops-at-io-thread fail - user threads
embrace embrace pass quick
embrace embrace-alt pass -
embrace followups pass full
embrace baseline fail quick
embrace deny fail full
embrace hide fail full
embrace embrace-v1 fail -
embrace mutants/embrace-no-sqpoll fail - SQPOLL
embrace mutants/embrace-nothing-blocked fail - sigdeliver
embrace mutants/embrace-keeps-kill-refusal fail - an I/O thread of
embrace mutants/embrace-ret-first fail - never came|STOP
embrace mutants/embrace-do-exit fail - did not end|did not finish|kill -9
followups followups pass quick
followups followups-alt x86_64:pass,riscv64:skip -
followups baseline fail quick
followups embrace x86_64:fail,riscv64:pass -
followups mutants/followups-pc-only x86_64:fail,riscv64:skip - rsp
vhost vhost pass quick
vhost vhost-alt pass -
vhost baseline fail quick
vhost embrace fail full
vhost mutants/vhost-no-signals fail - STOP
vhost mutants/vhost-fatal-ignored fail - kill -9
vhost mutants/vhost-exit-skips-cleanup fail - kill -9
"

# expect_of SPEC: the verdict SPEC gives for $ARCH (pass, fail or skip).
expect_of() {
	case "$1" in
	*:*) echo "$1" | tr ',' '\n' | sed -n "s/^$ARCH://p" ;;
	*) echo "$1" ;;
	esac
}

# cells: the cells to run, one "GRADER TREE EXPECT [WHY]" a line.
cells() {
	echo "$CELLS" | while read -r g t e q why; do
		[ -n "$g" ] || continue
		[ -n "$QUICK" ] && [ "$q" != quick ] && continue
		[ -z "$FULL" ] && [ "$q" = full ] && continue
		if [ -n "$ONLY" ] && ! echo "$g $t" | grep -q -E -e "$ONLY"; then
			continue
		fi
		e=$(expect_of "$e")
		[ "$e" = skip ] || echo "$g $t $e $why"
	done
}

# tree_dir TREE: where TREE is built ("baseline" is this tree).
tree_dir() {
	if [ "$1" = baseline ]; then echo "$TOP"; else echo "$M/$1"; fi
}

# build_tree TREE: apply its series to a copy of this tree and build its
# kernel. The copy starts with this tree's kernel objects (cp -p keeps
# their times, and the copied sources keep theirs), so make rebuilds only
# what the series' patches touch. False (after a FAIL line) if that does
# not work.
build_tree() {
	_bt_log=$R/build-$(echo "$1" | tr / _).log
	if ! $MAKE -s --no-print-directory apply-solution LAB="$1" DEST="$M/$1" FROM=. > "$_bt_log" 2>&1; then
		fail "$1: make apply-solution LAB=$1 failed (log: $_bt_log)"
		return 1
	fi
	mkdir -p "$M/$1/build/$ARCH"
	cp -Rp "build/$ARCH/kernel" "build/$ARCH/kernel.elf" "$M/$1/build/$ARCH/"
	if ! $MAKE -s --no-print-directory -j2 -C "$M/$1" ARCH="$ARCH" "build/$ARCH/kernel.elf" >> "$_bt_log" 2>&1; then
		fail "$1: the tree with solutions/$1 applied does not build (log: $_bt_log)"
		return 1
	fi
}

# run_cell GRADER TREE EXPECT: run the grader in the tree's directory on
# this tree's image; its output goes to $R/GRADER@TREE.
run_cell() {
	_rc_out=$TOP/$R/$1@$(echo "$2" | tr / _)
	_rc_ff=""
	_rc_stop=${STOP_SECS:-60}
	if [ "$3" = fail ]; then
		_rc_ff=1
		_rc_stop=12
	fi
	# A cell that must fail need not wait a minute for a stop that never
	# comes (STOP_SECS): 12 s is plenty for a kernel that does stop.
	(cd "$(tree_dir "$2")" && ARCH=$ARCH MAKE=$MAKE LOGWAIT=$LOGWAIT CPUS=${CPUS:-3} FAIL_FAST=$_rc_ff \
		STOP_SECS=$_rc_stop IMG="$TOP/build/$ARCH/fs.img" sh "labs/grade/$1.sh") < /dev/null > "$_rc_out" 2>&1
}

# judge GRADER TREE EXPECT [WHY]: one PASS/FAIL line for a finished cell;
# its verdict (pass, fail, none) goes to $R/GRADER@TREE.verdict. A cell
# expected to fail for WHY must fail first at a line matching WHY.
judge() {
	_j_out=$R/$1@$(echo "$2" | tr / _)
	_j_first=$(grep -E '^FAIL ' "$_j_out" | head -n 1 | sed -E 's/ \(log: [^)]*\)$//' | cut -c 6-200)
	_j_why=$4
	_j_secs=$(cat "$_j_out.secs" 2>/dev/null || echo "?")
	_j_ok=""
	if ! log_counts "$_j_out"; then
		_j_v=none
		fail "$1 grader on $2: printed no closing line (output: $_j_out)"
	elif [ "$R_FAIL" = 0 ] && [ "$R_PASS" -gt 0 ]; then
		_j_v=pass
		[ "$3" = pass ] && _j_ok=yes
		if [ "$3" = pass ]; then
			pass "$1 grader on $2: passes ($R_PASS checks, $_j_secs s)"
		else
			fail "$1 grader on $2: should fail, but all $R_PASS checks passed (output: $_j_out)"
		fi
	else
		_j_v=fail
		if [ "$3" != fail ]; then
			fail "$1 grader on $2: should pass: $R_PASS passed, $R_FAIL failed, first: $_j_first (output: $_j_out)"
		elif [ -n "$_j_why" ] && ! echo "$_j_first" | grep -q -E -e "$_j_why"; then
			_j_v=other
			fail "$1 grader on $2: fails, but not at the behaviour this fix breaks (want a FAIL matching /$_j_why/), first: $_j_first (output: $_j_out)"
		else
			_j_ok=yes
			pass "$1 grader on $2: fails as it must ($_j_secs s): $_j_first"
		fi
	fi
	echo "$_j_v $3 $_j_ok" > "$_j_out.verdict"
}

# table: the verdicts, a row per tree and a column per grader. A cell
# reads "pass" or "fail" as expected, "PASS!", "FAIL!" or "OTHER!" (failed
# at another behaviour than the one the wrong fix breaks) against its
# expectation, "-" if not run. Rows are indented, so that make check
# (check.sh shows a script's indented lines) prints the table too.
table() {
	echo
	printf '  %-36s' "tree \\ grader"
	for g in $GRADERS; do printf ' %-9s' "$g"; done
	echo
	cells | awk '{ print $2 }' | awk '!seen[$0]++' | while read -r t; do
		printf '  %-36s' "$t"
		for g in $GRADERS; do
			_t_v=$R/$g@$(echo "$t" | tr / _).verdict
			if [ -f "$_t_v" ]; then
				read -r got want ok < "$_t_v"
				if [ -n "$ok" ]; then
					printf ' %-9s' "$got"
				else
					printf ' %-9s' "$(echo "$got" | tr a-z A-Z)!"
				fi
			else
				printf ' %-9s' -
			fi
		done
		echo
	done
	echo
}

suite_header "matrix" "$ARCH, CPUS=${CPUS:-3}, ${JOBS} at a time"
mkdir -p "$R"
rm -f "$R"/*.verdict "$R"/*.secs "$R"/built.*
if ! $MAKE -s --no-print-directory ARCH="$ARCH" all > "$R/build-baseline.log" 2>&1; then
	fail "the baseline does not build (log: $R/build-baseline.log)"
	echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
	exit 1
fi

# builder: build every tree the cells need, one after the other, in the
# order the lanes will want them, while the lanes already run the cells
# of the trees that are ready. Each tree's outcome goes to $R/built.TREE
# (renamed into place, so a lane never reads half of it): "ok", or the
# FAIL line that build_tree printed.
builder() {
	for _b_t in $(awk '$2 != "baseline" { print $2 }' "$R/order" | awk '!seen[$0]++'); do
		_b_f=$R/built.$(echo "$_b_t" | tr / _)
		if _b_msg=$(build_tree "$_b_t"); then
			echo ok > "$_b_f.new"
		else
			echo "$_b_msg" > "$_b_f.new"
		fi
		mv "$_b_f.new" "$_b_f"
	done
}

# tree_state TREE: "ok" if TREE is built (the baseline always is),
# "broken" if it failed to build, "wait" if the builder is not there yet.
tree_state() {
	[ "$1" = baseline ] && { echo ok; return; }
	_ts_f=$R/built.$(echo "$1" | tr / _)
	if [ ! -f "$_ts_f" ]; then echo wait
	elif [ "$(cat "$_ts_f")" = ok ]; then echo ok
	else echo broken
	fi
}

# lane: run cells until none is left, each time the first one in
# $R/order whose tree is built and that no other lane has claimed yet
# (mkdir is atomic): a lane that drew short cells takes more of them.
# The costliest graders' cells come first in $R/order, so that no lane
# is left with a long one at the end; the baseline's cells run while the
# builder makes the other trees. Each cell's seconds go to
# $R/GRADER@TREE.secs.
lane() {
	while :; do
		_ln=0
		_ln_wait=""
		while read -r g t e why; do
			_ln=$((_ln + 1))
			[ -d "$R/claim.$_ln" ] && continue
			_ln_s=$(tree_state "$t")
			[ "$_ln_s" = wait ] && { _ln_wait=yes; continue; }
			mkdir "$R/claim.$_ln" 2>/dev/null || continue
			[ "$_ln_s" = ok ] || continue
			_ln_t0=$(date +%s)
			run_cell "$g" "$t" "$e"
			echo $(($(date +%s) - _ln_t0)) > "$R/$g@$(echo "$t" | tr / _).secs"
			continue 2
		done < "$R/order"
		[ -n "$_ln_wait" ] || break
		sleep 1
	done
}

cells > "$R/cells"
awk '{ r = index("embrace deny followups hide reproduce", $1); printf "%03d %s\n", r, $0 }' "$R/cells" |
	sort -s -k1,1n | cut -c 5- > "$R/order"
rm -rf "$R"/claim.*
builder &
_lane=0
while [ "$_lane" -lt "$JOBS" ]; do
	lane &
	_lane=$((_lane + 1))
done
wait
for t in $(awk '$2 != "baseline" { print $2 }' "$R/order" | awk '!seen[$0]++'); do
	[ "$(tree_state "$t")" = broken ] && fail "$(sed 's/^FAIL //' "$R/built.$(echo "$t" | tr / _)")"
done
while read -r g t e why; do
	[ "$(tree_state "$t")" = ok ] || continue
	judge "$g" "$t" "$e" "$why"
done < "$R/cells"
table
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

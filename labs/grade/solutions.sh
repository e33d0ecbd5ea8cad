#!/bin/sh
# labs/grade/solutions.sh: proves that the graders of labs 01-05 judge
# behaviour: each must fail on the baseline kernel (this tree) and pass
# with its reference series.
#
# For each strategy S in deny, hide, embrace, followups:
#   - applies solutions/S (and the series it builds on) to a scratch copy,
#     build/solutions-check/S (make apply-solution LAB=S DEST=...), builds
#     it for $ARCH, runs labs/grade/S.sh there, and expects it to pass
#     (a closing line with 0 failed);
#   - runs labs/grade/S.sh on this tree, the baseline, and expects at
#     least one FAIL (with FAIL_FAST=1, so the grader stops at the first).
# Then the other way round for lab 01: labs/grade/reproduce.sh must pass
# on the baseline and fail on the embrace copy.
#
# One PASS/FAIL line per (strategy, expectation), then "N passed, N
# failed"; exits non-zero on a failure. Each grader's output is kept in
# build/$ARCH/test/solutions-S-{series,baseline}.out. ONLY='deny|hide'
# runs just those strategies (and lab 01 only if ONLY matches reproduce).
#
#   sh labs/grade/solutions.sh          (ARCH and CPUS as for make check)

cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh

TOP=$(pwd)
SCRATCH=build/solutions-check
BUILT=" "       # the series built in this run, " deny hide "

# counts_of FILE: set R_PASS and R_FAIL from FILE's last closing line,
# and FIRST_FAIL to its first FAIL line (shortened); false if it has none.
counts_of() {
	FIRST_FAIL=$(grep -E '^FAIL ' "$1" | head -n 1 | sed -E 's/ \(log: [^)]*\)$//' | cut -c 6-150)
	log_counts "$1"
}

# grade DIR LAB OUTFILE [FAST]: run labs/grade/LAB.sh of the tree DIR,
# output to OUTFILE; with FAST, ask it to stop at its first failure
# (FAIL_FAST=1: the graders of labs 02-05 honour it).
grade() {
	if [ -n "$4" ]; then
		# Only the baseline runs this way: a stop it never reports need
		# not be waited for as long as a slow but correct one.
		(cd "$1" && ARCH=$ARCH MAKE=$MAKE CPUS=${CPUS:-3} FAIL_FAST=1 STOP_SECS=10 \
			sh "labs/grade/$2.sh") > "$3" 2>&1
	else
		(cd "$1" && ARCH=$ARCH MAKE=$MAKE CPUS=${CPUS:-3} sh "labs/grade/$2.sh") > "$3" 2>&1
	fi
}

# expect_pass DIR LAB WHAT: LAB's grader must pass in DIR.
expect_pass() {
	_ep_out=$TESTDIR/solutions-$2-$4.out
	grade "$1" "$2" "$_ep_out"
	if ! counts_of "$_ep_out"; then
		fail "$2: the grader on $3 printed no closing line (output: $_ep_out)"
	elif [ "$R_FAIL" = 0 ] && [ "$R_PASS" -gt 0 ]; then
		pass "$2: the grader passes on $3 ($R_PASS passed, 0 failed)"
	else
		fail "$2: the grader should pass on $3: $R_PASS passed, $R_FAIL failed, first: $FIRST_FAIL (output: $_ep_out)"
	fi
}

# expect_fail DIR LAB WHAT: LAB's grader must fail (at least once) in DIR.
expect_fail() {
	_ef_out=$TESTDIR/solutions-$2-$4.out
	grade "$1" "$2" "$_ef_out" 1
	if ! counts_of "$_ef_out"; then
		fail "$2: the grader on $3 printed no closing line (output: $_ef_out)"
	elif [ "$R_FAIL" -gt 0 ]; then
		pass "$2: the grader fails on $3 ($R_FAIL failed, first: $FIRST_FAIL)"
	else
		fail "$2: the grader should fail on $3, but all $R_PASS checks passed (output: $_ef_out)"
	fi
}

# build_series S: apply solutions/S to $SCRATCH/S and build it for $ARCH.
# False (after a FAIL line) if that does not work.
build_series() {
	_bs_dir=$SCRATCH/$1
	_bs_log=$TESTDIR/solutions-$1-build.log
	if ! $MAKE -s --no-print-directory apply-solution LAB="$1" DEST="$_bs_dir" > "$_bs_log" 2>&1; then
		fail "$1: make apply-solution LAB=$1 failed (log: $_bs_log)"
		return 1
	fi
	if ! $MAKE -s --no-print-directory -j2 -C "$_bs_dir" ARCH="$ARCH" all >> "$_bs_log" 2>&1; then
		fail "$1: the tree with solutions/$1 applied does not build (log: $_bs_log)"
		return 1
	fi
}

# selected NAME: is NAME chosen by $ONLY (an ERE; empty: everything)?
selected() {
	[ -z "$ONLY" ] || echo "$1" | grep -q -x -E -e "$ONLY"
}

if ! $MAKE -s --no-print-directory ARCH="$ARCH" all > "$TESTDIR/solutions-baseline-build.log" 2>&1; then
	fail "the baseline does not build (log: $TESTDIR/solutions-baseline-build.log)"
	echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
	exit 1
fi

for s in deny hide embrace followups; do
	selected "$s" || continue
	suite_header "solutions: $s" "$ARCH, CPUS=${CPUS:-3}"
	if build_series "$s"; then
		BUILT="$BUILT $s "
		expect_pass "$SCRATCH/$s" "$s" "solutions/$s" series
	fi
	expect_fail "$TOP" "$s" "the baseline" baseline
done

if selected reproduce; then
	suite_header "solutions: reproduce" "$ARCH, CPUS=${CPUS:-3}"
	expect_pass "$TOP" reproduce "the baseline" baseline
	case "$BUILT" in
	*" embrace "*) EMBRACE_OK=yes ;;
	*) build_series embrace && EMBRACE_OK=yes ;;
	esac
	[ "$EMBRACE_OK" = yes ] && expect_fail "$SCRATCH/embrace" reproduce "solutions/embrace" series
fi

echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

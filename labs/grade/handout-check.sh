#!/bin/sh
# labs/grade/handout-check.sh: make check's handout suite. Builds the
# student edition (make handout) in a scratch directory and shows that
#   - it holds no reference solution, wrong fix, instructor's guide or
#     edition marker, and is a git repository with one clean commit;
#   - nothing in it points at a file it lacks: every path of this tree
#     that its text names is in it, and every markdown link resolves;
#   - it builds and boots (its own mkfs and boot suites pass);
#   - its deny grader fails on its baseline and passes once the reference
#     series, from this tree, is applied to it.
# One PASS/FAIL line per check, then "N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
RUN=handout
. labs/grade/lib.sh

TOP=$(pwd)
H=$TOP/$TESTDIR/handout
D=$TOP/$TESTDIR/handout-check
rm -rf "$D" && mkdir -p "$D" || exit 1

if ! $MAKE -s --no-print-directory handout DEST="$H" > "$D/make.out" 2>&1; then
	fail "make handout DEST=$H failed (output: $D/make.out)"
	echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
	exit 1
fi
pass "make handout: $(tail -n 1 "$D/make.out")"

# 1. What it must not hold.
leaks=""
for p in solutions labs/instructor labs/grade/matrix.sh labs/grade/report-check.sh labs/grade/handout-check.sh tools/handout.sh; do
	[ -e "$H/$p" ] && leaks="$leaks $p"
done
if [ -z "$leaks" ]; then
	pass "no solutions/, mutants, labs/instructor/, matrix or handout tooling in the student edition"
else
	fail "the student edition holds what it must not:$leaks"
fi
marks=$(cd "$H" && git grep -n -I -E '^[[:space:]]*(#|<!--) (>>>|<<<) (full|student|patch-hint)|^[[:space:]]*<<< student -->' | head -n 3)
if [ -z "$marks" ]; then
	pass "no edition marker is left in any file"
else
	fail "edition markers left in the student edition: $marks"
fi
# The chapters' "Hint 3: the patch" is left out unless HINTS=patch.
nfull=$(cat labs/0*.md | grep -c 'Hint 3: the patch')
nstud=$(cat "$H"/labs/0*.md | grep -c 'Hint 3: the patch')
HP=$TOP/$TESTDIR/handout-hints
if [ "$nfull" -gt 0 ] && [ "$nstud" = 0 ] &&
	$MAKE -s --no-print-directory handout DEST="$HP" HINTS=patch > "$D/make-hints.out" 2>&1 &&
	[ "$(cat "$HP"/labs/0*.md | grep -c 'Hint 3: the patch')" = "$nfull" ] &&
	! (cd "$HP" && git grep -q -I -E '^[[:space:]]*<!-- (>>>|<<<) patch-hint'); then
	pass "the $nfull patch hints are left out, and kept (all $nfull, markers gone) with HINTS=patch"
else
	fail "patch hints: want $nfull in the full edition, none in the student edition ($nstud), all with HINTS=patch (output: $D/make-hints.out)"
fi
rm -rf "$HP"
if [ "$(git -C "$H" rev-list --count HEAD 2>/dev/null)" = 1 ] && [ -z "$(git -C "$H" status --porcelain)" ]; then
	pass "a git repository, branch $(git -C "$H" symbolic-ref --short HEAD), one commit, nothing uncommitted"
else
	fail "the student edition should be a git repository with one clean commit"
fi

# 2. Nothing points at a file it lacks. Paths under the tree's top
# folders that the text names and this tree has must be in the handout;
# relative markdown links must resolve.
(cd "$H" && git grep -h -o -I -E '(^|[^A-Za-z0-9_./-])(kernel|user|labs|tools|mkfs|solutions)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' ) | sed 's@^[^a-z]@@' |
	sort -u > "$D/paths"
missing=""
while read -r p; do
	[ -e "$TOP/$p" ] || continue          # not a path of this tree (a Linux path, say)
	[ -e "$H/$p" ] || missing="$missing $p"
done < "$D/paths"
if [ -z "$missing" ]; then
	pass "every path of the tree named in the student edition is in it ($(wc -l < "$D/paths") names looked at)"
else
	fail "the student edition names paths it lacks:$missing"
fi
badlinks=""
for md in $(cd "$H" && git ls-files '*.md'); do
	for l in $(grep -o -E '\]\([^)# ]+' "$H/$md" | sed 's/^](//'); do
		case $l in http:* | https:* | mailto:*) continue ;; esac
		[ -e "$(dirname "$H/$md")/$l" ] || badlinks="$badlinks $md:$l"
	done
done
if [ -z "$badlinks" ]; then
	pass "every relative markdown link in the student edition resolves"
else
	fail "markdown links that resolve to nothing:$badlinks"
fi

# 3. It builds and boots, with its own check.
(cd "$H" && ONLY='mkfs|boot' ARCH=$ARCH MAKE=$MAKE $MAKE -s --no-print-directory check-arch) > "$D/check.out" 2>&1
if tail -n 1 "$D/check.out" | grep -q -E '^[1-9][0-9]* passed, 0 failed$'; then
	pass "its own make check (mkfs and boot suites): $(tail -n 1 "$D/check.out")"
else
	fail "the student edition's make check (mkfs, boot) did not pass (output: $D/check.out)"
fi

# show_fails OUT...: what went wrong in each OUT, indented so that make check
# shows it: its FAIL lines, or its last lines if it has none.
show_fails() {
	for _o in "$@"; do
		if grep -q "^FAIL " "$_o" 2>/dev/null; then grep -E "^FAIL |^  " "$_o" | sed "s/^/  | /"; else show_tail "$_o"; fi
	done
}

# 4. Its grader judges: fails on the baseline, passes with the series.
(cd "$H" && FAIL_FAST=1 CPUS=$CPUS ARCH=$ARCH $MAKE -s --no-print-directory grade LAB=deny) > "$D/grade-baseline.out" 2>&1
if [ $? -ne 0 ] && grep -q '^FAIL ' "$D/grade-baseline.out"; then
	pass "its make grade LAB=deny fails on its baseline: $(grep -m 1 '^FAIL ' "$D/grade-baseline.out" | cut -c 1-100)"
else
	fail "its make grade LAB=deny should fail on the baseline (output: $D/grade-baseline.out)"
	show_fails "$D/grade-baseline.out"
fi
if (cd "$H" && sh "$TOP/tools/apply-solution.sh" deny .) > "$D/apply.out" 2>&1 &&
   (cd "$H" && CPUS=$CPUS ARCH=$ARCH $MAKE -s --no-print-directory grade LAB=deny) > "$D/grade-deny.out" 2>&1; then
	pass "with solutions/deny applied from the full tree, its make grade LAB=deny passes: $(tail -n 1 "$D/grade-deny.out")"
else
	fail "with solutions/deny applied, the student edition's deny grader should pass (output: $D/apply.out, $D/grade-deny.out)"
	show_fails "$D/apply.out" "$D/grade-deny.out"
	echo "  (the grader's serial log: $D/deny.log)"
fi
# The grader's serial log goes with the edition's build/: keep a copy.
cp "$H/build/$ARCH/test/deny.log" "$D/deny.log" 2>/dev/null
rm -rf "$H/build"

echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

#!/bin/sh
# labs/grade/report-check.sh: make check's report suite. The graders'
# output as CI systems and Gradescope read it:
#   - every grader output the matrix left (build/matrix-ARCH/out), passing
#     and failing, turned into JUnit XML that validates against
#     labs/grade/junit.xsd and into a results.json that
#     labs/grade/gradescope.jq accepts, with the same checks and verdicts;
#   - hard cases: a run cut off before its closing line, a closing line
#     that disagrees, markup characters and a console's stray bytes;
#   - the GitHub workflow's steps, run (its `make grade FORMAT=junit` on
#     the baseline, FAIL_FAST: a failed check in valid XML);
#   - the Gradescope bundle (make gradescope LAB=deny): run_autograder in
#     a scratch directory with a submission of the deny series gets every
#     point; one whose kernel does not build, and one with no kernel/,
#     get a clear failed check.
# Run after the matrix suite. One PASS/FAIL line per check, then
# "N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
RUN=report
. labs/grade/lib.sh

M=build/matrix-$ARCH
D=$TESTDIR/report
rm -rf "$D" && mkdir -p "$D" || exit 1
XSD=labs/grade/junit.xsd

# convert FORMAT INPUT OUTPUT: report.awk on INPUT.
convert() {
	LC_ALL=C awk -v format="$1" -v lab=t -v arch="$ARCH" -v secs=1 -f labs/grade/report.awk "$2" > "$3"
}

# valid_junit FILE / valid_gradescope FILE: the file is well formed for its reader.
valid_junit() { xmllint --noout --schema "$XSD" "$1" 2>/dev/null; }
valid_gradescope() { jq -e -f labs/grade/gradescope.jq "$1" > /dev/null 2>&1; }

# junit_count FILE XPATH: how many nodes XPATH selects in FILE.
junit_count() { xmllint --xpath "count($2)" "$1" 2>/dev/null; }

# ---------------------------------------------------------------- 1. the matrix's outputs
nout=0 bad=""
for out in "$M"/out/*@*; do
	case $out in *.secs | *.verdict | "$M/out/*@*") continue ;; esac
	name=$(basename "$out")
	npass=$(grep -c '^PASS ' "$out") nfail=$(grep -c '^FAIL ' "$out")
	grep -q -E "$CLOSING" "$out" || nfail=$((nfail + 1))
	convert junit "$out" "$D/$name.xml" && convert gradescope "$out" "$D/$name.json" || { bad="$bad $name(awk)"; continue; }
	nout=$((nout + 1))
	if ! valid_junit "$D/$name.xml"; then
		bad="$bad $name(xml)"
	elif [ "$(junit_count "$D/$name.xml" //testcase)" != $((npass + nfail)) ] ||
	     [ "$(junit_count "$D/$name.xml" //testcase/failure)" != "$nfail" ]; then
		bad="$bad $name(xml-counts)"
	fi
	if ! valid_gradescope "$D/$name.json"; then
		bad="$bad $name(json)"
	elif [ "$(jq '[.tests[] | select(.status == "passed")] | length' "$D/$name.json")" != "$npass" ] ||
	     [ "$(jq '[.tests[] | select(.status == "failed")] | length' "$D/$name.json")" != "$nfail" ]; then
		bad="$bad $name(json-counts)"
	fi
done
if [ "$nout" -eq 0 ]; then
	fail "matrix outputs: none in $M/out (run the matrix suite first)"
elif [ -z "$bad" ]; then
	pass "matrix outputs: $nout grader runs, each as JUnit XML valid against $XSD and a results.json gradescope.jq accepts, same checks and verdicts"
else
	fail "matrix outputs: wrong or invalid report for:$bad (files: $D)"
fi

# ---------------------------------------------------------------- 2. hard cases
printf '== t (x)\nPASS one\nPASS two\nFAIL three\n  | tail of the log\n' > "$D/cut.out"
convert gradescope "$D/cut.out" "$D/cut.json"
if valid_gradescope "$D/cut.json" &&
   [ "$(jq -r '.tests[-1].status + " " + .tests[-1].name' "$D/cut.json")" = 'failed the grader ran to its end: no closing "N passed, N failed" line (it was killed or crashed)' ] &&
   [ "$(jq '.score' "$D/cut.json")" = 2 ] && [ "$(jq '.tests | length' "$D/cut.json")" = 4 ]; then
	pass "a run cut off before its closing line: one more failed check says so (2 of 4 points)"
else
	fail "a run cut off before its closing line should gain a failed check 'the grader ran to its end' (got $D/cut.json)"
fi
printf 'PASS one\n2 passed, 0 failed\n' > "$D/lie.out"
convert junit "$D/lie.out" "$D/lie.xml"
if valid_junit "$D/lie.xml" && [ "$(junit_count "$D/lie.xml" //testcase/failure)" = 1 ] &&
   grep -q 'closing line says 2 passed, 0 failed, but it printed 1 PASS and 0 FAIL lines' "$D/lie.xml"; then
	pass "a closing line that disagrees with the lines above it is a failed check"
else
	fail "a closing line that disagrees with the PASS/FAIL lines should be a failed check (got $D/lie.xml)"
fi
printf 'PASS a & b <c> "d" '"'"'e'"'"' f\\g\ttab\nFAIL stray \377\376 bytes \001 and caf\303\251\n  | <panic> & more\n1 passed, 1 failed\n' > "$D/odd.out"
convert junit "$D/odd.out" "$D/odd.xml"
convert gradescope "$D/odd.out" "$D/odd.json"
if valid_junit "$D/odd.xml" && valid_gradescope "$D/odd.json" &&
   [ "$(jq -r '.tests[0].name' "$D/odd.json")" = "$(printf 'a & b <c> "d" '"'"'e'"'"' f\\g\ttab')" ] &&
   [ "$(xmllint --xpath 'string(//testcase[1]/@name)' "$D/odd.xml")" = "01 a & b <c> \"d\" 'e' f\\g tab" ] &&
   [ "$(xmllint --xpath 'string(//failure)' "$D/odd.xml")" = '  | <panic> & more' ]; then
	pass "markup characters, backslashes, tabs and a console's stray bytes: both reports valid, the text kept"
else
	fail "markup characters or stray bytes broke a report or changed its text ($D/odd.xml, $D/odd.json)"
fi

# ---------------------------------------------------------------- 3. the GitHub workflow
# Its run steps, as they stand in the file, with this port's ARCH, OUT
# in the scratch directory, no sudo (make check runs as a user who has
# the packages), and FAIL_FAST=1: on the baseline the grade step must
# fail and still write valid JUnit XML with the failure in it.
WF=labs/classroom/github-grade.yml
LAB_WF=$(sed -n 's/^  LAB: *//p' "$WF")
nrun=0 badrun=""
sed -n 's/^ *- run: *//p' "$WF" > "$D/steps"
while read -r cmd; do
	cmd=$(echo "$cmd" | sed "s/^sudo //; s/\$LAB/$LAB_WF/g; s/\$ARCH/$ARCH/g; s|OUT=grade.xml|OUT=$D/grade.xml|")
	nrun=$((nrun + 1))
	case $cmd in
	"make "*) ;;
	*) badrun="$badrun [$cmd: not a make command]"; continue ;;
	esac
	FAIL_FAST=1 CPUS=$CPUS sh -c "$cmd" > "$D/step$nrun.out" 2>&1
	st=$?
	case $cmd in
	*FORMAT=junit*)
		if [ $st -ne 0 ] && valid_junit "$D/grade.xml" && [ "$(junit_count "$D/grade.xml" //testcase/failure)" -ge 1 ] &&
		   grep -q "^report: junit results in $D/grade.xml" "$D/step$nrun.out"; then
			pass "workflow step '$cmd' on the baseline: exit $st, JUnit XML valid, $(junit_count "$D/grade.xml" //testcase) checks with the failure"
		else
			fail "workflow step '$cmd' on the baseline should fail and write valid XML with the failure (exit $st; output: $D/step$nrun.out)"
		fi ;;
	*) [ $st -eq 0 ] || badrun="$badrun [$cmd: exit $st, output $D/step$nrun.out]" ;;
	esac
done < "$D/steps"
if [ "$nrun" -ge 2 ] && [ -z "$badrun" ]; then
	pass "$WF: its $nrun run steps are make commands of this tree and run as make check runs them"
else
	fail "$WF: steps that do not run:$badrun ($nrun steps)"
fi

# ---------------------------------------------------------------- 5. the Gradescope bundle
# autograde NAME SUBMISSION-DIR: run_autograder in $D/NAME as Gradescope
# would, with SUBMISSION-DIR's contents as the submission.
autograde() {
	_ag=$D/$1
	rm -rf "$_ag" && mkdir -p "$_ag/submission" "$_ag/results" || return 1
	cp -a "$BUNDLE" "$_ag/source" || return 1
	[ -n "$2" ] && { cp -a "$2/." "$_ag/submission/" || return 1; }
	(cd "$_ag" && AUTOGRADER_ROOT=$(pwd) sh source/run_autograder > results/stdout 2>&1)
}

BUNDLE=build/gradescope/deny-$ARCH
if CPUS=$CPUS ARCH=$ARCH $MAKE -s --no-print-directory gradescope LAB=deny > "$D/bundle.out" 2>&1 &&
   [ -x "$BUNDLE/setup.sh" ] && [ -x "$BUNDLE/run_autograder" ] && [ -f "$BUNDLE/tree/labs/grade/deny.sh" ] &&
   [ ! -e "$BUNDLE/tree/solutions" ]; then
	pass "make gradescope LAB=deny: setup.sh, run_autograder, lab.conf and the course tree (no solutions/) in $BUNDLE"
else
	fail "make gradescope LAB=deny did not make the bundle (output: $D/bundle.out)"
fi
if [ ! -d "$M/deny/kernel" ]; then
	fail "Gradescope, deny series: no tree $M/deny (run the matrix suite first)"
else
	autograde right "$M/deny"
	R=$D/right/results/results.json
	if valid_gradescope "$R" && [ "$(jq '.score' "$R")" = "$(jq '.tests | length' "$R")" ] &&
	   [ "$(jq '.tests | length' "$R")" -ge 10 ]; then
		pass "Gradescope, a submission of the deny series: every point ($(jq '.score' "$R") of $(jq '.tests | length' "$R"))"
	else
		fail "Gradescope, a submission of the deny series should get every point (results: $R, stdout: $D/right/results/stdout)"
	fi
	mkdir -p "$D/broken-sub" && cp -a "$M/deny/kernel" "$D/broken-sub/" &&
		echo 'this is not C;' >> "$D/broken-sub/kernel/main.c"
	autograde broken "$D/broken-sub"
	R=$D/broken/results/results.json
	if valid_gradescope "$R" && [ "$(jq -r '.tests[0].name' "$R")" = "the kernel builds (make all ARCH=$ARCH)" ] &&
	   jq -r '.tests[0].output' "$R" | grep -q 'main.c'; then
		pass "Gradescope, a kernel that does not compile: a failed check 'the kernel builds' with the compiler's message"
	else
		fail "Gradescope, a kernel that does not compile: want the failed check 'the kernel builds' with the error (results: $R)"
	fi
fi
autograde empty ""
R=$D/empty/results/results.json
if valid_gradescope "$R" && [ "$(jq -r '.tests[0].name' "$R")" = "the submission holds a tasklab tree with kernel/" ]; then
	pass "Gradescope, a submission without kernel/: a failed check that says so"
else
	fail "Gradescope, a submission without kernel/: want a failed check naming kernel/ (results: $R)"
fi
rm -rf "$D"/right/work "$D"/broken/work "$D"/empty/work "$D"/*/submission "$D/broken-sub"

echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

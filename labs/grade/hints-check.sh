#!/bin/sh
# labs/grade/hints-check.sh: the graduated hints of chapters 02 to 05.
# Each step that changes the kernel has three hints, each a <details>
# block: "Hint 1: where to look", "Hint 2: what to change" and "Hint 3:
# the patch". Hint 3 quotes the reference solution and sits alone between
#   <!-- >>> patch-hint -->   and   <!-- <<< patch-hint -->
# so that an edition for students can leave it out. For each chapter this
# checks, one line each:
#   - the patch-hint markers: well formed, balanced, and neither nested in
#     a full or student block of tools/handout.sh nor holding one;
#   - every Hint 3 block, and nothing else, between a pair of markers;
#   - every Hint 1 followed by a Hint 2 and a Hint 3 before the next
#     Hint 1, for as many steps as the chapter has code to write, each
#     hint in a <details> block of its own;
#   - every diff line of a Hint 3 (a line that starts with + or -, but
#     not +++ or ---) occurs in one of the chapter's solution patches, so
#     that a hint cannot go stale when a patch changes;
#   - the rest of each quoted diff (file headers, @@ lines, context lines)
#     occurs there too, and each Hint 3 holds at least one whole hunk;
#   - the chapter's "Reference solution" section names those series.
# TOP=dir checks another copy of the tree (its labs/ and solutions/).
# One PASS/FAIL line per check, then "N passed, N failed"; exit 1 if any
# check failed. No QEMU, no build: it reads files only.

TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

# chapter:series...:steps. The series are those whose patches the
# chapter's Hint 3 blocks may quote; steps is how many steps of the
# chapter change the kernel, and so have hints.
CHAPTERS='02-deny.md:deny:2
03-hide.md:hide:2
04-embrace.md:embrace:5
05-followups.md:embrace-v1 followups:1'

out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

echo "$CHAPTERS" | while IFS=: read -r chap series steps; do
	md=$TOP/labs/$chap
	if [ ! -f "$md" ]; then
		echo "FAIL $chap: no such file $md"
		continue
	fi
	missing=""
	set --
	for s in $series; do
		n=0
		for p in "$TOP/solutions/$s"/*.patch; do
			[ -f "$p" ] || continue
			set -- "$@" "$p"
			n=$((n + 1))
		done
		[ "$n" -gt 0 ] || missing="$missing $s"
	done
	if [ -n "$missing" ]; then
		echo "FAIL $chap: no patches in solutions/ for series:$missing"
		continue
	fi
	# The patch files first (their diff lines are collected), the chapter last.
	LC_ALL=C awk -v chap="$chap" -v md="$md" -v series="$series" -v steps="$steps" '
	function ind(s) { match(s, /^[ ]*/); return RLENGTH }
	function problem(kind, msg) { nprob[kind]++; if (nprob[kind] <= 3) text[kind] = text[kind] (nprob[kind] > 1 ? "; " : "") msg }
	function report(kind, okmsg) {
		if (!nprob[kind]) print "PASS " chap ": " okmsg
		else print "FAIL " chap ": " text[kind] (nprob[kind] > 3 ? "; and " nprob[kind] - 3 " more" : "")
	}
	function where() { return "step " step " (line " FNR ")" }
	function sdir(join,   n, f, i, s) {
		n = split(series, f, " "); s = ""
		for (i = 1; i <= n; i++) s = s (i > 1 ? " " join " " : "") "solutions/" f[i] "/"
		return s
	}
	# A line of Hint 3 code, its block indentation removed.
	function code(l) {
		if (l == "") l = " "   # a blank context line, written without its space
		if (l ~ /^(--- a\/|\+\+\+ b\/)/) { nhead++; kind = "rest" }
		else if (l ~ /^@@ /) { nhunk++; kind = "rest" }
		else if (l ~ /^(diff --git |index )/) kind = "rest"
		else if (l ~ /^[-+]/) { ndiff++; kind = "diff" }
		else if (l ~ /^ /) kind = "rest"
		else { problem("rest", where() ": \"" l "\" is not a line of a diff"); return }
		if (!(l in have))
			problem(kind, "hint 3 of " where() ": \"" l "\" is in no patch of " sdir("or"))
	}
	function end_hint3() {
		if (!nhead || !nhunk || !ndiff)
			problem("rest", "hint 3 of step " step " (line " h3line ") holds no whole hunk: it needs --- a/ and +++ b/ file headers, an @@ line and + or - lines")
		inh3 = 0; fence = 0
		if (inph) phdone = 1
	}

	FILENAME != md {
		if (FNR == 1) indiff = 0
		if ($0 ~ /^diff --git /) indiff = 1
		if (indiff) have[$0] = 1
		next
	}

	# ---- the chapter
	/^[0-9]+\. / { step = $0; sub(/\..*/, "", step) }
	/^## / { inref = ($0 ~ /^## Reference solution/) }
	inref { refs = refs "\n" $0 }

	# Code inside a Hint 3 block.
	inh3 && fence {
		if ($0 ~ /^[ ]*```/) { fence = 0; next }
		l = $0; n = ind(l); if (n > find) n = find
		code(substr(l, n + 1))
		next
	}
	inh3 && /^[ ]*```/ { fence = 1; find = ind($0); next }
	inh3 && /^[ ]*<\/details>[ ]*$/ { depth--; end_hint3(); next }
	inh3 {
		if ($0 != "" && ind($0) >= h3ind + 4) code(substr($0, h3ind + 5))
		else if ($0 ~ /patch-hint|<details>|<summary>/)
			problem("place", "line " FNR ": hint 3 of step " step " (line " h3line ") is not closed by </details> before this line")
		next
	}

	# Edition markers of tools/handout.sh, and ours.
	/patch-hint/ {
		if ($0 ~ /^[ ]*<!-- >>> patch-hint -->[ ]*$/) {
			if (inph) problem("marks", "line " FNR ": a patch-hint block opens inside another, opened at line " phline)
			if (infull || instud) problem("marks", "line " FNR ": a patch-hint block opens inside a " (infull ? "full" : "student") " block")
			inph = 1; phline = FNR; phfirst = 1; phdone = 0
		} else if ($0 ~ /^[ ]*<!-- <<< patch-hint -->[ ]*$/) {
			if (!inph) problem("marks", "line " FNR ": a patch-hint block closes that was never opened")
			else if (!phdone) problem("place", "the patch-hint block of lines " phline "-" FNR " holds no whole Hint 3 block")
			inph = 0
		} else
			problem("marks", "line " FNR ": a patch-hint marker must be alone on its line, as <!-- >>> patch-hint --> or <!-- <<< patch-hint -->")
		next
	}
	/^[ ]*<!-- >>> full/ || /^[ ]*<!-- >>> student/ {
		if (inph) problem("marks", "line " FNR ": a full or student block opens inside the patch-hint block of line " phline)
		if ($0 ~ /full/) infull = 1; else instud = 1
	}
	/^[ ]*<!-- <<< full/ { if (inph) problem("marks", "line " FNR ": a full block closes inside the patch-hint block of line " phline); infull = 0 }
	/^[ ]*<<< student -->/ { if (inph) problem("marks", "line " FNR ": a student block closes inside the patch-hint block of line " phline); instud = 0 }

	# Inside a patch-hint block: its Hint 3 and nothing else.
	inph && $0 !~ /^[ ]*$/ {
		if (phdone) problem("place", "line " FNR ": the patch-hint block of line " phline " holds more than its Hint 3 block")
		else if (phfirst && $0 !~ /<summary>Hint 3/) problem("place", "line " FNR ": the patch-hint block of line " phline " must start with its Hint 3 block")
		phfirst = 0
	}

	# The hints and their <details> blocks.
	/<summary>/ && /Hint/ {
		n = $0; sub(/^.*<summary>Hint /, "", n); sub(/[^0-9].*/, "", n); n = n + 0
		want = n == 1 ? "where to look" : n == 2 ? "what to change" : n == 3 ? "the patch" : ""
		if (want == "" || $0 !~ ("^[ ]*<details><summary>Hint " n ": " want "</summary>[ ]*$")) {
			problem("seq", "line " FNR ": a hint must open as <details><summary>Hint N: TITLE</summary>, N 1 to 3, each with its own title: " \
			    "where to look, what to change, the patch")
			if ($0 ~ /<details>/) depth++
			next
		}
		if (n == 1) {
			if (last == 1 || last == 2) problem("seq", "step " laststep ": Hint 1 is not followed by Hint 2 and Hint 3 before the next Hint 1 (" where() ")")
			nsets++; laststep = step
		} else if (last != n - 1)
			problem("seq", where() ": Hint " n " does not follow a Hint " n - 1)
		last = n
		if (depth) problem("seq", where() ": Hint " n " opens inside another <details> block")
		depth++
		if (n == 3) {
			if (!inph) problem("place", "hint 3 of " where() " is not between <!-- >>> patch-hint --> and <!-- <<< patch-hint -->")
			inh3 = 1; h3ind = ind($0); h3line = FNR; fence = 0; nhead = nhunk = ndiff = 0
		}
		next
	}
	/<details>/ { if (depth) problem("seq", "line " FNR ": a <details> block opens inside another"); depth++ }
	/<\/details>/ { depth--; if (depth < 0) { problem("seq", "line " FNR ": </details> closes no block"); depth = 0 } }

	END {
		if (inh3) problem("place", "hint 3 of step " step " (line " h3line ") is never closed by </details>")
		if (inph) problem("marks", "the patch-hint block opened at line " phline " is never closed")
		if (last == 1 || last == 2) problem("seq", "step " laststep ": Hint 1 is not followed by Hint 2 and Hint 3")
		if (depth > 0) problem("seq", depth " <details> block(s) never closed")
		if (nsets != steps) problem("seq", nsets " step(s) with hints, expected " steps " (one per step that changes the kernel)")
		n = split(series, f, " "); miss = ""
		for (i = 1; i <= n; i++) if (index(refs, "solutions/" f[i] "/") == 0) miss = miss " solutions/" f[i] "/"
		if (miss != "") problem("ref", "the Reference solution section does not name" miss)

		report("marks", "patch-hint markers alone on their lines, balanced, not nested with each other or with full/student blocks")
		report("place", "every Hint 3 block, and nothing else, between <!-- >>> patch-hint --> and <!-- <<< patch-hint -->")
		report("seq", nsets " step(s) with Hint 1, Hint 2 and Hint 3 in that order, each in its own <details> block, as expected")
		report("diff", "every + and - line of the Hint 3 blocks occurs in a patch of " sdir("or"))
		report("rest", "the file headers, @@ lines and context lines of the Hint 3 blocks occur there too, and each holds a whole hunk")
		report("ref", "the Reference solution section names " sdir("and"))
	}' "$@" "$md"
done > "$out"

cat "$out"
npass=$(grep -c '^PASS ' "$out")
nfail=$(grep -c '^FAIL ' "$out")
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ] && [ "$npass" -gt 0 ]

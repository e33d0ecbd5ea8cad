#!/bin/sh
# tools/handout.sh DEST: `make handout [DEST=dir] [WITH="series ..."]`.
# The student edition of this tree, as a new git repository in DEST
# (default build/handout) that an instructor can push to a course
# organisation: the baseline kernel, the labs, the graders and the tools,
# without the reference solutions (solutions/), the known-wrong fixes
# (solutions/mutants/), the instructor's guide (labs/instructor/) and
# what needs them (the matrix, the demo). WITH names series to release
# to students (say, embrace-v1 for chapter 05 once lab 02 is due); the
# series each builds on comes with it.
#
# Text that only the full edition may hold is marked where it stands:
#   # >>> full [SERIES...]   ...   # <<< full        (sh, make, C)
#   <!-- >>> full [SERIES...] -->  ...  <!-- <<< full -->   (markdown)
# is left out, unless one of the SERIES named is released; and
#   <!-- >>> student [SERIES...]  ...  <<< student -->
# a comment in the full edition, is the student edition's text there,
# unless one of the SERIES named is released (the full text is, then).
# A chapter's "Hint 3: the patch" sits between
#   <!-- >>> patch-hint -->   ...   <!-- <<< patch-hint -->
# and is left out too, unless HINTS=patch: an instructor chooses whether
# students may see the reference patch, step by step, in the chapter.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
with=${WITH:-}
hints=${HINTS:-}
case $hints in
"" | patch) ;;
*) echo "handout: HINTS=$hints: want HINTS=patch (keep the patch hints) or nothing" >&2; exit 2 ;;
esac

# series_and_bases NAME...: each series and, after it, the ones it applies on.
series_and_bases() {
	for s in "$@"; do
		[ -f "$top/solutions/$s/series" ] || { echo "handout: no series solutions/$s" >&2; exit 2; }
		echo "$s"
		b=$(sed -n 's/^# applies on: *//p' "$top/solutions/$s/series")
		[ "$b" = baseline ] || series_and_bases "$b"
	done
}
released=$(series_and_bases $with | sort -u | tr '\n' ' ')

# keep PATH: true if PATH belongs in the student edition.
keep() {
	case $1 in
	solutions/mutants/* | labs/instructor/* | labs/grade/matrix.sh | labs/grade/report-check.sh | \
	labs/grade/handout-check.sh | labs/grade/hints-check.sh | tools/handout.sh | labs/demo.sh | \
	labs/demo-transcript.md) return 1 ;;
	solutions/*/*)
		s=${1#solutions/}; s=${s%%/*}
		case " $released " in *" $s "*) return 0 ;; esac
		return 1 ;;
	solutions/*) return 1 ;;
	esac
	return 0
}

# filter: stdin to stdout, with the full edition's blocks left out (but
# those of a released series) and the student edition's blocks opened.
filter() {
	awk -v released=" $released " -v hints="$hints" '
	function released_block(line,   n, f, i) {
		sub(/-->.*/, "", line)
		n = split(line, f, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (f[i] != "" && f[i] != "full" && f[i] != "student" && f[i] != ">>>" && f[i] != "#" && f[i] != "<!--" &&
			    index(released, " " f[i] " "))
				return 1
		return 0
	}
	hint && /^[ \t]*<!-- <<< patch-hint -->/ { hint = 0; next }
	hint { next }
	/^[ \t]*<!-- >>> patch-hint -->/ { if (hints != "patch") hint = 1; next }
	/^[ \t]*<!-- <<< patch-hint -->/ { next }
	drop && /^[ \t]*(#|<!--) <<< full/ { drop = 0; next }
	drop { next }
	/^[ \t]*(#|<!--) >>> full/ { if (!released_block($0)) drop = 1; next }
	/^[ \t]*(#|<!--) <<< full/ { next }
	skip && /^[ \t]*<<< student -->/ { skip = 0; next }
	skip { next }
	/^[ \t]*<!-- >>> student/ { if (released_block($0)) skip = 1; next }
	/^[ \t]*<<< student -->/ { next }
	{ print }
	END { if (drop || skip || hint) { print "handout: a block is never closed" > "/dev/stderr"; exit 1 } }'
}

rm -rf "$dest"
mkdir -p "$dest"
cd "$top"
git ls-files --cached --others --exclude-standard | while read -r f; do
	keep "$f" || continue
	[ -f "$f" ] || continue
	mkdir -p "$dest/$(dirname "$f")"
	if grep -q -I -E '^[[:space:]]*(#|<!--) >>> (full|student|patch-hint)' "$f" 2>/dev/null; then
		filter < "$f" > "$dest/$f" || { echo "handout: in $f" >&2; exit 1; }
		chmod --reference="$f" "$dest/$f"
	else
		cp -p "$f" "$dest/$f"
	fi
done
from=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cd "$dest"
git init -q -b main
git add -A
git -c user.name=tasklab -c user.email=tasklab@localhost commit -q \
	-m "tasklab, student edition (from $from${released:+; series released: ${released% }}${hints:+; patch hints kept})"
echo "handout: $dest (branch main, $(git ls-files | wc -l) files${released:+; series: ${released% }})"

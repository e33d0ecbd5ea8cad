#!/bin/sh
# tools/check-all.sh: `make check` (and `make bench`) for several
# architectures. Runs `make TARGET-arch ARCH=a` for each a in $ARCHS, one
# after the other. For check, each architecture's closing line is shown as
# "ARCH: N passed, N failed" and the run closes with the total,
# "N passed, N failed"; exits non-zero if anything failed (an architecture
# whose run ends without a closing line counts as one failure).
#
# Environment (set by the Makefile): ARCHS, MAKE, TARGET (check or bench).

MAKE=${MAKE:-make}
TARGET=${TARGET:-check}
set -- $ARCHS
if [ $# -eq 1 ]; then
	exec $MAKE -s --no-print-directory "$TARGET-arch" ARCH="$1"
fi

mkdir -p build
total_pass=0 total_fail=0 status=0
for a in $ARCHS; do
	if [ "$TARGET" = bench ]; then
		$MAKE -s --no-print-directory bench-arch ARCH="$a" || status=1
		echo
		continue
	fi
	rm -f "build/check-$a.counts"
	$MAKE -s --no-print-directory check-arch ARCH="$a" 2>&1 |
		awk -v arch="$a" -v out="build/check-$a.counts" '
			/^[0-9]+ passed, [0-9]+ failed$/ {
				print arch ": " $0; fflush(); print $1, $3 > out; next
			}
			{ print; fflush() }'
	if [ -s "build/check-$a.counts" ]; then
		read p f < "build/check-$a.counts"
	else
		echo "FAIL $a: make check-arch ended without a closing line"
		p=0 f=1
	fi
	rm -f "build/check-$a.counts"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
done
[ "$TARGET" = bench ] && exit $status
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]

#!/bin/sh
# tools/check-all.sh: `make check` (and `make matrix`, `make bench`) for
# several architectures: `make TARGET-arch ARCH=a` for each a in $ARCHS.
#
# bench runs them one after the other (its figures need a quiet machine).
# check and matrix build every architecture first, one after the other,
# then run them side by side, each into its own file,
# build/TARGET-ARCH.out: the first one's lines are shown as they come, the
# others' once it is done, so that no two runs' lines interleave. Each
# architecture's closing line is shown as "ARCH: N passed, N failed", and
# the run closes with the total, "N passed, N failed"; exits non-zero if
# anything failed (an architecture whose run ends without a closing line
# counts as one failure).
#
# Environment (set by the Makefile): ARCHS, MAKE, TARGET (check, matrix
# or bench).

MAKE=${MAKE:-make}
TARGET=${TARGET:-check}
set -- $ARCHS
if [ $# -eq 1 ]; then
	exec $MAKE -s --no-print-directory "$TARGET-arch" ARCH="$1"
fi

mkdir -p build
if [ "$TARGET" = bench ]; then
	status=0
	for a in $ARCHS; do
		$MAKE -s --no-print-directory bench-arch ARCH="$a" || status=1
		echo
	done
	exit $status
fi

# Build first, one architecture at a time: the runs share build/mkfs.
for a in $ARCHS; do
	# deps first, on its own: the toolchain is probed when make starts, so a
	# compiler that deps installs is seen only by the make after it.
	if ! { $MAKE -s --no-print-directory deps ARCH="$a" &&
		$MAKE -s --no-print-directory all ARCH="$a"; }; then
		echo "FAIL $a: the build failed"
		echo "0 passed, 1 failed"
		exit 1
	fi
done

# Then run them side by side; PIDS holds "arch:pid" words. The suites
# that do not depend on the architecture (the figures, the hints) run
# with the first one only (SKIP_SHARED for the others).
PIDS=""
SKIP_SHARED=""
for a in $ARCHS; do
	SKIP_SHARED=$SKIP_SHARED $MAKE -s --no-print-directory "$TARGET-arch" ARCH="$a" > "build/$TARGET-$a.out" 2>&1 &
	PIDS="$PIDS $a:$!"
	SKIP_SHARED=1
done

# show ARCH PID: ARCH's lines, as they come until its run (PID) ends,
# its closing line as "ARCH: N passed, N failed"; sets P and F from it.
# (sed -u: line by line; awk would read the pipe in blocks.)
show() {
	tail -n +1 --pid="$2" -f "build/$TARGET-$1.out" |
		sed -u -E "s/^([0-9]+ passed, [0-9]+ failed)\$/$1: \\1/"
	_last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "build/$TARGET-$1.out" | tail -n 1)
	if [ -n "$_last" ]; then
		set -- $_last
		P=$1 F=$3
	else
		echo "FAIL $1: make $TARGET-arch ended without a closing line"
		P=0 F=1
	fi
}

total_pass=0 total_fail=0
for ap in $PIDS; do
	show "${ap%%:*}" "${ap#*:}"
	total_pass=$((total_pass + P))
	total_fail=$((total_fail + F))
done
wait
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]

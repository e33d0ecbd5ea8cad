#!/bin/sh
# tools/run.sh [-c CPUS] [-t SECS] COMMAND...: boot a fresh copy of fs.img
# headless, type each COMMAND at a prompt, print the console, power off.
# For developers: `make && sh tools/run.sh 'uringtests forkclose'`.
# ARCH as for make (riscv64 by default). Exits non-zero if QEMU did not
# come back to a prompt within SECS (default 120) per command.
# SERIAL2_PORT=N in the environment joins the second serial line (/ttyS1)
# to TCP port N on localhost (see kernel/serial.c).
cd "$(dirname "$0")/.." || exit 1
. labs/grade/lib.sh
CPUS=2 SECS=120
while getopts c:t: o; do
	case $o in
	c) CPUS=$OPTARG ;;
	t) SECS=$OPTARG ;;
	*) echo "usage: tools/run.sh [-c CPUS] [-t SECS] COMMAND..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
IMG=$TESTDIR/run-$$.img          # one per run: runs may overlap
cp --sparse=always "build/$ARCH/fs.img" "$IMG" || exit 1
qemu_start "run-$$" "$CPUS" "$IMG" $((SECS * ($# + 1))) || exit 1
st=0
for c in "$@"; do
	qemu_send "$c" "$SECS" || { st=1; break; }
done
[ $st = 0 ] && qemu_wait_prompt "$SECS" || st=1
[ $st = 0 ] && qemu_send poweroff 10 && qemu_wait_exit 10 || qemu_stop
tr -d '\r' < "$Q_LOG"
rm -f "$IMG" "$Q_LOG"
[ $st = 0 ] || echo "tools/run.sh: $Q_REASON" >&2
exit $st

# labs/grade/lib-gdb.sh: real GDB (gdb-multiarch) on the host, talking to
# user/gdbserver in the guest over the second serial line. Sourced after
# lib.sh by gdb-check.sh and bench.sh; PORT is the line's TCP port.

GDB=${GDB:-gdb-multiarch}
case $ARCH in
riscv64) GDBARCH=riscv:rv64 ;;
*) GDBARCH=i386:x86-64 ;;
esac

# gdb_batch OUT SECS [-m] ARGS...: run GDB in batch mode, connected to the
# guest's gdbserver (-m: target extended-remote), with ARGS (its -ex
# commands and the program file); its output goes to OUT. Returns GDB's
# status (124 if SECS ran out). With GB_EXEC=exec, in a subshell, the
# subshell becomes timeout.
gdb_batch() {
	_gb_out=$1 _gb_secs=$2
	shift 2
	_gb_target=remote
	[ "$1" = -m ] && { _gb_target=extended-remote; shift; }
	$GB_EXEC timeout "$_gb_secs" "$GDB" -nx -batch -ex 'set confirm off' -ex 'set remotetimeout 30' \
		-ex "set architecture $GDBARCH" \
		-ex "target $_gb_target localhost:$PORT" "$@" > "$_gb_out" 2>&1 < /dev/null
}

#!/bin/sh
# labs/grade/check.sh: `make check`, every test suite for $ARCH.
# Prints "== SUITE (...)" as each suite starts, one PASS/FAIL line per check,
# and closes with "N passed, N failed"; exits non-zero on any failure.
# Logs: build/$ARCH/test/*.log. ONLY='usertests|boot' runs just those suites.

cd "$(dirname "$0")/../.." || exit 1
. labs/grade/lib.sh

IMG=build/$ARCH/fs.img
MKFS=${MKFS:-build/mkfs}
HOSTCC=${HOSTCC:-cc}
BOOT_CPUS=${CPUS:-3}

# The suites, one a line: NAME CPUS FUNCTION [ARGS...] ("host": no QEMU).
# To add one, add a line; a test program that prints PASS/FAIL lines and
# the closing line needs only `suite_program PROGRAM SECS`.
SUITES="
mkfs       host        suite_mkfs
boot       $BOOT_CPUS  suite_boot
usertests  1           suite_program usertests 180
usertests  3           suite_program usertests 180
logcrash   $BOOT_CPUS  suite_logcrash
"

# fresh_image NAME: copy the built image to $TESTDIR/NAME.img; print its path.
fresh_image() {
	cp --sparse=always "$IMG" "$TESTDIR/$1.img" && echo "$TESTDIR/$1.img"
}

# suite_program PROGRAM SECS: boot a fresh image, run PROGRAM, count its results.
suite_program() {
	_sp_run=$S_NAME-cpus$S_CPUS
	_sp_img=$(fresh_image "$_sp_run") || { fail "$_sp_run: no image $IMG"; return; }
	run_test_program "$_sp_run" "$S_CPUS" "$_sp_img" "$1" "$2"
}

# suite_boot: the shell comes up, pipes work, the image holds init, poweroff ends QEMU.
suite_boot() {
	_sb_run=boot-cpus$S_CPUS
	_sb_img=$(fresh_image "$_sb_run") || { fail "boot: no image $IMG"; return; }
	qemu_start "$_sb_run" "$S_CPUS" "$_sb_img" 120 || { fail "boot: could not start QEMU"; return; }
	if qemu_wait_for '$ ' 60; then
		pass "boot: shell prompt"
	else
		fail_log "boot: no shell prompt: $Q_REASON"
		qemu_stop
		return
	fi
	qemu_send 'echo hello | cat' 10 && qemu_wait_line hello 20 &&
		pass "boot: echo hello | cat prints hello" ||
		fail_log "boot: echo hello | cat did not print hello: $Q_REASON"
	qemu_send 'ls | grep init | wc' 20 && qemu_wait_match '^ *1 +[0-9]+ +[0-9]+( .*)?$' 20 &&
		pass "boot: ls | grep init | wc counts 1 line" ||
		fail_log "boot: ls | grep init | wc did not print a count of 1 line: $Q_REASON"
	if qemu_send poweroff 20 && qemu_wait_exit 20; then
		pass "boot: poweroff ends QEMU with status 0"
	else
		fail_log "boot: poweroff did not end QEMU with status 0 (status ${Q_STATUS:-none})"
	fi
	qemu_stop
}

# suite_logcrash: boot 1 cuts the power inside a commit (QEMU exits 3);
# boot 2, on the same image, recovers the log and checks the files.
suite_logcrash() {
	_sl_run=logcrash-cpus$S_CPUS
	_sl_img=$(fresh_image "$_sl_run") || { fail "logcrash: no image $IMG"; return; }
	qemu_start "$_sl_run-boot1" "$S_CPUS" "$_sl_img" 120 || { fail "logcrash: could not start QEMU"; return; }
	if ! qemu_send 'logcrash write' 60; then
		fail_log "logcrash: boot 1: $Q_REASON"
	else
		qemu_wait_exit 60
		if [ "$Q_STATUS" = 3 ]; then
			pass "logcrash: boot 1 powered off inside a commit (QEMU exit 3)"
		else
			fail_log "logcrash: boot 1 should end QEMU with status 3 inside a commit, got ${Q_STATUS:-none}"
		fi
	fi
	qemu_stop
	run_test_program "$_sl_run-boot2" "$S_CPUS" "$_sl_img" 'logcrash verify' 90
}

# mkfs_refuses ID WHAT ARGS...: mkfs out.img ARGS must fail with a message that
# names the offending file (the last ARG), leaving
# neither out.img nor a temporary file.
mkfs_refuses() {
	_mr_id=$1 _mr_case=$2
	shift 2
	_mr_dir=$TESTDIR/mkfs
	rm -f "$_mr_dir"/out.img*
	"$MKFS" "$_mr_dir/out.img" "$@" > "$_mr_dir/$_mr_id.out" 2>&1
	_mr_rc=$?
	eval "_mr_file=\${$#}"
	if [ $_mr_rc -eq 0 ]; then
		fail "mkfs: $_mr_case: accepted (exit 0)"
	elif ! grep -q -F -e "$_mr_file" "$_mr_dir/$_mr_id.out"; then
		fail "mkfs: $_mr_case: message does not name $_mr_file: $(sed -n '1s/^mkfs: //p' "$_mr_dir/$_mr_id.out")"
	elif [ -n "$(ls "$_mr_dir" | grep '^out\.img')" ]; then
		fail "mkfs: $_mr_case: left $(ls "$_mr_dir" | grep '^out\.img' | tr '\n' ' ')"
	else
		pass "mkfs: refuses $_mr_case: $(sed -n '1s/^mkfs: //p' "$_mr_dir/$_mr_id.out")"
	fi
}

# suite_mkfs: the host tool refuses what cannot fit and builds a good image.
suite_mkfs() {
	_sm_dir=$TESTDIR/mkfs
	rm -rf "$_sm_dir"
	mkdir -p "$_sm_dir/many" "$_sm_dir/a" "$_sm_dir/b"
	echo small > "$_sm_dir/small"
	if [ ! -x "$MKFS" ]; then
		fail "mkfs: $MKFS not built (run make)"
		return
	fi
	# The limits, from the format header itself.
	printf '%s\n' '#include <stdio.h>' '#include <stdint.h>' \
		'typedef uint16_t u16; typedef uint32_t u32;' '#include "kernel/fs_format.h"' \
		'int main(void) { printf("%lu %d %d %d %d\n", (unsigned long)MAXFILE, BSIZE, FSSIZE, NINODES, DIRSIZ); return 0; }' |
		"$HOSTCC" -I. -x c -o "$_sm_dir/limits" - && set -- $("$_sm_dir/limits") || {
		fail "mkfs: cannot read the limits from kernel/fs_format.h"
		return
	}
	_sm_maxfile=$1 _sm_bsize=$2 _sm_fssize=$3 _sm_ninodes=$4 _sm_dirsiz=$5

	truncate -s $((_sm_maxfile * _sm_bsize + 1)) "$_sm_dir/big"
	mkfs_refuses toobig "a file over MAXFILE blocks" "$_sm_dir/big"

	truncate -s $((_sm_fssize * _sm_bsize)) "$_sm_dir/huge"
	mkfs_refuses nofit "files larger than the free data blocks" "$_sm_dir/small" "$_sm_dir/huge"

	_sm_i=0
	while [ $_sm_i -lt $((_sm_ninodes - 1)) ]; do
		: > "$_sm_dir/many/f$_sm_i"
		_sm_i=$((_sm_i + 1))
	done
	mkfs_refuses toomany "more files than inodes" "$_sm_dir"/many/f*

	_sm_long=$(printf "%0$((_sm_dirsiz + 1))d" 0 | tr 0 n)
	echo x > "$_sm_dir/$_sm_long"
	mkfs_refuses longname "a name longer than DIRSIZ" "$_sm_dir/small" "$_sm_dir/$_sm_long"

	echo a > "$_sm_dir/a/dup"
	echo b > "$_sm_dir/b/dup"
	mkfs_refuses dup "a duplicate name" "$_sm_dir/a/dup" "$_sm_dir/b/dup"

	mkfs_refuses unreadable "an unreadable input" "$_sm_dir/small" "$_sm_dir/no-such-file"

	# A good image: exactly FSSIZE blocks; a name of exactly DIRSIZ is fine.
	_sm_ok=$(printf "%0${_sm_dirsiz}d" 0 | tr 0 k)
	head -c 300000 /dev/zero > "$_sm_dir/$_sm_ok"
	rm -f "$_sm_dir"/out.img*
	if ! "$MKFS" "$_sm_dir/out.img" "$_sm_dir/small" "$_sm_dir/$_sm_ok" "$_sm_dir/a/dup" > "$_sm_dir/good.out" 2>&1; then
		fail "mkfs: good image refused: $(head -n 1 "$_sm_dir/good.out")"
	elif [ ! -f "$_sm_dir/out.img" ]; then
		fail "mkfs: good image: exit 0 but no $_sm_dir/out.img"
	elif [ "$(wc -c < "$_sm_dir/out.img")" -ne $((_sm_fssize * _sm_bsize)) ]; then
		fail "mkfs: good image is $(wc -c < "$_sm_dir/out.img") bytes, not FSSIZE*BSIZE"
	elif [ "$(ls "$_sm_dir" | grep -c '^out\.img')" -ne 1 ]; then
		fail "mkfs: good image left a temporary file"
	else
		pass "mkfs: builds a good image of FSSIZE*BSIZE bytes"
	fi
	rm -rf "$_sm_dir/many" "$_sm_dir/huge" "$_sm_dir/big" "$_sm_dir/out.img"
}

# Run the suites in order (filtered by $ONLY, an ERE on the names).
set -f
IFS='
'
for _line in $SUITES; do
	unset IFS
	set -- $_line
	set +f
	S_NAME=$1 S_CPUS=$2
	shift 2
	if [ -n "$ONLY" ] && ! echo "$S_NAME" | grep -q -x -E -e "$ONLY"; then
		continue
	fi
	if [ "$S_CPUS" = host ]; then
		suite_header "$S_NAME" host
	else
		suite_header "$S_NAME" "$ARCH, CPUS=$S_CPUS"
	fi
	"$@"
done
unset IFS
set +f

echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]

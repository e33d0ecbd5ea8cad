#!/bin/sh
# tools/deps.sh: `make deps`. Checks the tools a build and a QEMU run need and,
# when something is missing, installs the Debian/Ubuntu packages (as root with
# apt-get) or prints the one command that would. Silent when all is present.
#
# Environment (set by the Makefile):
#   ARCH        riscv64 or x86_64
#   PKGS        the Debian packages for ARCH (DEPS_PKGS in the Makefile)
#   TOOLPREFIX  cross-compiler prefix the Makefile chose (empty if none found)
#   HOSTCC      the host compiler for mkfs (default cc)

ARCH=${ARCH:-riscv64}
HOSTCC=${HOSTCC:-cc}
QEMU_MIN_MAJOR=7
QEMU_MIN_MINOR=2
HOST_PKGS="gcc libc6-dev libxml2-utils jq zip chromium imagemagick fonts-dejavu-core"
# mkfs is host C; the grade reports are checked with xmllint and jq; zip
# packs a Gradescope bundle; the figures are rendered with headless
# Chromium, in DejaVu, and the pictures measured with ImageMagick.

missing=""    # what is missing, for the message
fatal=""      # problems an install cannot fix

# arch_setup: the compiler candidates and QEMU binary for $ARCH.
# To add an architecture, add a case here (and its DEPS_PKGS in the Makefile).
arch_setup() {
	case $ARCH in
	riscv64)
		CROSS_GCCS="riscv64-unknown-elf-gcc riscv64-linux-gnu-gcc riscv64-elf-gcc riscv64-none-elf-gcc"
		QEMU=qemu-system-riscv64
		QEMU_PKG=qemu-system-misc ;;
	x86_64)
		# The host compiler on an x86_64 host; elsewhere a cross compiler.
		if [ "$(uname -m)" = x86_64 ]; then
			CROSS_GCCS="$HOSTCC"
		else
			CROSS_GCCS="x86_64-linux-gnu-gcc x86_64-elf-gcc"
		fi
		QEMU=qemu-system-x86_64
		QEMU_PKG=qemu-system-x86 ;;
	*)
		echo "deps: ARCH=$ARCH is not supported" >&2
		exit 1 ;;
	esac
}

# have CMD: true if CMD is on PATH.
have() {
	command -v "$1" >/dev/null 2>&1
}

# check_cross: a compiler for the kernel and user programs.
check_cross() {
	if [ -n "$TOOLPREFIX" ]; then
		have "${TOOLPREFIX}gcc" && return
		fatal="$fatal
  TOOLPREFIX=$TOOLPREFIX, but ${TOOLPREFIX}gcc is not on PATH"
		return
	fi
	for g in $CROSS_GCCS; do
		have "$g" && return
	done
	missing="$missing $ARCH-compiler"
}

# check_host_cc: a host C compiler that can build mkfs (headers included).
check_host_cc() {
	if ! have "$HOSTCC"; then
		missing="$missing host-cc($HOSTCC)"
	elif ! printf '#include <stdio.h>\nint main(void) { return 0; }\n' |
	     "$HOSTCC" -x c -o /dev/null - >/dev/null 2>&1; then
		missing="$missing host-C-headers"
	fi
}

# check_qemu: QEMU for $ARCH, version QEMU_MIN_MAJOR.QEMU_MIN_MINOR or newer.
check_qemu() {
	if ! have "$QEMU"; then
		missing="$missing $QEMU"
		return
	fi
	v=$("$QEMU" --version 2>/dev/null |
	    sed -n '1s/.*version \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p')
	set -- $v
	if [ $# -ne 2 ]; then
		echo "deps: warning: cannot read the version of $QEMU; tasklab needs $QEMU_MIN_MAJOR.$QEMU_MIN_MINOR or newer" >&2
	elif [ "$1" -lt $QEMU_MIN_MAJOR ] ||
	     { [ "$1" -eq $QEMU_MIN_MAJOR ] && [ "$2" -lt $QEMU_MIN_MINOR ]; }; then
		fatal="$fatal
  $QEMU is version $1.$2 ($(command -v "$QEMU")); tasklab needs $QEMU_MIN_MAJOR.$QEMU_MIN_MINOR or newer.
  Debian 12 and Ubuntu 23.04 or later ship it ($QEMU_PKG); on older
  releases build QEMU from source or use a newer distribution."
	fi
}

# check_report_tools: xmllint and jq (make check validates the grade
# reports with them), zip (make gradescope packs the bundle), chromium
# and ImageMagick's identify and convert (make check renders the figures).
check_report_tools() {
	for t in xmllint jq zip chromium identify convert; do
		have "$t" || missing="$missing $t"
	done
}

# check_all: fill $missing (installable) and $fatal (not fixable by installing).
check_all() {
	missing=""
	fatal=""
	check_cross
	check_host_cc
	check_qemu
	check_report_tools
}

# install: install the packages with apt-get as root, else say how and fail.
install() {
	pkgs="$HOST_PKGS $PKGS"
	if [ "$(id -u)" = 0 ] && have apt-get; then
		echo "deps: missing:$missing; installing: $pkgs"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update && apt-get install -y --no-install-recommends $pkgs || {
			echo "deps: apt-get failed" >&2
			exit 1
		}
		return
	fi
	echo "deps: missing:$missing" >&2
	if have apt-get; then
		echo "deps: run:  sudo apt-get install -y --no-install-recommends $pkgs" >&2
	else
		echo "deps: install the equivalents of these Debian packages: $pkgs" >&2
	fi
	exit 1
}

arch_setup
check_all
if [ -n "$missing" ]; then
	install
	check_all
	if [ -n "$missing" ]; then
		echo "deps: still missing after the install:$missing" >&2
		exit 1
	fi
fi
if [ -n "$fatal" ]; then
	echo "deps: cannot build or run tasklab for $ARCH:$fatal" >&2
	exit 1
fi
if ! have gdb-multiarch; then
	echo "deps: note: gdb-multiarch not found (only needed for make qemu-gdb)" >&2
fi
exit 0

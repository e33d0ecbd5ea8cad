#!/bin/bash
# Gradescope runs this once, as root, when it builds the autograder's
# image (choose the Ubuntu 24.04 base image: tasklab needs QEMU 7.2 or
# newer). It installs what the course tree's `make deps` names, for the
# lab's architecture, from the tree's own package list.
set -e
cd "${AUTOGRADER_ROOT:-/autograder}/source"
. ./lab.conf
command -v make >/dev/null || { apt-get update && apt-get install -y --no-install-recommends make; }
make -C tree deps ARCH="$ARCH"

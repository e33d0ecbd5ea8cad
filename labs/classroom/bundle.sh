#!/bin/sh
# labs/classroom/bundle.sh LAB: `make gradescope LAB=name`. A Gradescope
# autograder for one lab, in build/gradescope/LAB-ARCH/ (and a .zip beside it
# if zip is installed), laid out as Gradescope documents: setup.sh and
# run_autograder at the top, lab.conf (LAB, ARCH, CPUS), and tree/, this
# tree's tracked files without the reference solutions and the
# instructor's guide (a student edition has neither).

cd "$(dirname "$0")/../.." || exit 1
LAB=$1
ARCH=${ARCH:-riscv64}
[ -f "labs/grade/$LAB.sh" ] || { echo "bundle.sh: no grader labs/grade/$LAB.sh" >&2; exit 2; }
B=build/gradescope/$LAB-$ARCH
rm -rf "$B" "$B.zip"
mkdir -p "$B/tree" || exit 1
cp labs/classroom/gradescope/setup.sh labs/classroom/gradescope/run_autograder "$B/" || exit 1
chmod +x "$B/setup.sh" "$B/run_autograder"
printf 'LAB=%s\nARCH=%s\nCPUS=%s\n' "$LAB" "$ARCH" "${CPUS:-3}" > "$B/lab.conf"
guide=instructor    # labs/$guide/: the instructor's guide
git ls-files --cached --others --exclude-standard | grep -v -E "^(solutions|labs/$guide)/" | tar -cf - -T - | tar -xf - -C "$B/tree" || exit 1
if command -v zip >/dev/null; then
	(cd "$B" && zip -q -r "../$LAB-$ARCH.zip" .) || exit 1
	echo "gradescope: $B.zip (upload it as the autograder; base image Ubuntu 24.04)"
else
	echo "gradescope: $B/ (zip is not installed: zip the folder's contents, not the folder)"
fi

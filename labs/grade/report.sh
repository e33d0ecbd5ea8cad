#!/bin/sh
# labs/grade/report.sh LAB: `make grade LAB=name FORMAT=junit|gradescope
# [OUT=file]`. Runs labs/grade/LAB.sh as plain `make grade` does, its
# lines shown as they come and kept in build/ARCH/grade/LAB.out, then
# writes them as FORMAT (labs/grade/report.awk) to OUT, by default
# build/ARCH/grade/LAB.xml (junit) or LAB.json (gradescope). Exits with
# the grader's status. Without FORMAT it is the grader alone.

cd "$(dirname "$0")/../.." || exit 1
LAB=$1
ARCH=${ARCH:-riscv64}
case ${FORMAT:-} in
"") exec sh "labs/grade/$LAB.sh" ;;
junit) ext=xml ;;
gradescope) ext=json ;;
*) echo "report.sh: FORMAT is junit or gradescope, not '$FORMAT'" >&2; exit 2 ;;
esac
DIR=build/$ARCH/grade
OUT=${OUT:-$DIR/$LAB.$ext}
RAW=$DIR/$LAB.out
mkdir -p "$DIR" "$(dirname "$OUT")" || exit 2
t0=$(date +%s)
{ sh "labs/grade/$LAB.sh" 2>&1; echo $? > "$RAW.rc"; } | tee "$RAW"
st=$(cat "$RAW.rc" 2>/dev/null || echo 1)
rm -f "$RAW.rc"
LC_ALL=C awk -v format="$FORMAT" -v lab="$LAB" -v arch="$ARCH" -v secs=$(($(date +%s) - t0)) \
	-f labs/grade/report.awk "$RAW" > "$OUT.tmp" && mv -f "$OUT.tmp" "$OUT" || exit 2
echo "report: $FORMAT results in $OUT"
exit "$st"

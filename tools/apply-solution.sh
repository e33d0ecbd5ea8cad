#!/bin/sh
# apply-solution.sh NAME DIR [FROM]: apply the reference patch series
# solutions/NAME to a tree at DIR with patch -p1, after the series it
# applies on ("# applies on:" in its series file), as history did.
#
# Unless DIR is ".", DIR is made afresh first from the baseline: the
# commit FROM (default: branch main, where kernel/ is the 5.12-rc3
# baseline) exported with git archive, so that a student's own edits to
# kernel/ do not get in the way; FROM=. copies this tree as it is (make
# check does, to test uncommitted work). DIR=. applies to this tree.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
name=$1 dir=$2 from=${3:-main}

# apply_series NAME: the series NAME builds on, then NAME's patches.
# (sh has no local variables: everything is recomputed from $1.)
apply_series() {
  if [ ! -f "$top/solutions/$1/series" ]; then
    echo "apply-solution: no series solutions/$1 (the series here: $(cd "$top" && ls solutions 2>/dev/null | grep -v mutants | tr '\n' ' '))" >&2
    exit 2
  fi
  base=$(sed -n 's/^# applies on: *//p' "$top/solutions/$1/series")
  [ "$base" = baseline ] || apply_series "$base"
  for p in $(grep -v '^#' "$top/solutions/$1/series"); do
    if ! patch -p1 -s -N -d "$dir" < "$top/solutions/$1/$p"; then
      echo "apply-solution: solutions/$1/$p does not apply to $dir" >&2
      exit 1
    fi
    echo "applied solutions/$1/$p"
  done
}

# copy_baseline: DIR afresh, from FROM.
copy_baseline() {
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ "$from" = . ]; then
    (cd "$top" && tar cf - --exclude=./build --exclude=./.git .) | tar xf - -C "$dir"
  elif ! git -C "$top" rev-parse -q --verify "$from^{commit}" > /dev/null; then
    echo "apply-solution: there is no commit '$from' to take the baseline from" >&2
    echo "  (the baseline is branch main; give FROM=<branch or commit>, or FROM=. for this tree as it is)" >&2
    exit 2
  else
    git -C "$top" archive "$from" | tar xf - -C "$dir"
    echo "baseline: $from ($(git -C "$top" rev-parse --short "$from"))"
  fi
}

[ "$dir" = . ] || copy_baseline
apply_series "$name"

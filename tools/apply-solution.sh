#!/bin/sh
# apply-solution.sh NAME DIR: apply the reference patch series
# solutions/NAME to the tree at DIR with patch -p1, after the series it
# applies on ("# applies on:" in its series file), as history did.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$2

# apply_series NAME: the series NAME builds on, then NAME's patches.
# (sh has no local variables: everything is recomputed from $1.)
apply_series() {
  if [ ! -f "$top/solutions/$1/series" ]; then
    echo "apply-solution: no series solutions/$1 (try deny, hide, embrace)" >&2
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

apply_series "$1"

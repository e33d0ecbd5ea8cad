#!/bin/sh
# labs/grade/figures-check.sh: checks every figure of the workbook,
# labs/figures/*.svg. For each one:
#   xml         it is well-formed XML (xmllint --noout);
#   title       it has a non-empty <title> and a non-empty <desc> (the
#               alt text a screen reader reads);
#   size        its width is at most 1000 px and it has a viewBox of the
#               same width and height;
#   fonts       no font-size below 11;
#   render      headless Chromium draws it: a PNG of the figure's size, not
#               blank, whose last 4 rows and last 4 columns hold nothing but
#               the background colour (nothing drawn past the edge);
#   referenced  some chapter or README in labs/*.md shows it, as
#               figures/NAME.svg.
# One "PASS name: ..." or "FAIL name: what was wrong" line per check, then
# "N passed, N failed" alone on the last line; exit status 1 if anything
# failed, 2 if a tool is missing. Screenshots go to build/figures/.
#
# Needs these Debian packages: libxml2-utils (xmllint), chromium, and
# imagemagick (identify, convert); coreutils, grep, sed and awk.
#
#   sh labs/grade/figures-check.sh [FIGURE.svg ...]
# (default: every labs/figures/*.svg; a FIGURE is a path from the top of
# the tree, or an absolute one)

cd "$(dirname "$0")/../.." || exit 2
OUT=build/figures
mkdir -p "$OUT" || exit 2
TOP=$(pwd)
PROFILE=$TOP/$OUT/chromium-profile   # Chromium's scratch profile, ours alone

npass=0
nfail=0
pass() { echo "PASS $1: $2"; npass=$((npass + 1)); }
fail() { echo "FAIL $1: $2"; nfail=$((nfail + 1)); }

missing=""
for tool in xmllint chromium identify convert timeout; do
	command -v "$tool" > /dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	echo "figures-check: missing:$missing (apt-get install -y libxml2-utils chromium imagemagick)" >&2
	exit 2
fi

if [ $# -gt 0 ]; then
	figs="$*"
else
	figs=$(ls labs/figures/*.svg 2> /dev/null)
fi
if [ -z "$figs" ]; then
	fail figures "no labs/figures/*.svg found"
fi

# The string value of an XPath expression over the figure, namespaces ignored.
xval() {
	xmllint --xpath "string($2)" "$1" 2> /dev/null
}

# chromium_pids: the Chromium processes running with our profile (the
# ones this script started), not zombies, and not this awk, whose own
# arguments hold the profile too.
chromium_pids() {
	ps -eo pid=,stat=,args= | awk -v prof="--user-data-dir=$PROFILE" \
		'index($0, prof) && $2 !~ /^Z/ && $3 ~ /chrom/ { print $1 }'
}

# reap_chromium: once the browser has exited, its helper processes
# (zygote, renderer, GPU, utility) end when they see it gone, which on a
# loaded machine takes a moment: wait for that, 10 s at most. End any
# still running then, by pid, and print how many there were.
reap_chromium() {
	for _rc_try in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		[ -z "$(chromium_pids)" ] && { echo 0; return; }
		sleep 0.5
	done
	n=0
	for p in $(chromium_pids); do
		kill "$p" 2> /dev/null && n=$((n + 1))
	done
	echo "$n"
}

for f in $figs; do
	name=$(basename "$f")
	base=${name%.svg}
	case $f in
	/*) abs=$f ;;
	*) abs=$TOP/$f ;;
	esac

	# xml
	if err=$(xmllint --noout "$f" 2>&1); then
		pass "$name" "well-formed XML"
	else
		fail "$name" "not well-formed XML: $(echo "$err" | head -n 1)"
		continue   # nothing else can be read from it
	fi

	# title and desc
	title=$(xval "$f" '/*[local-name()="svg"]/*[local-name()="title"]' | tr -s ' \n\t' ' ' | sed 's/^ //; s/ $//')
	desc=$(xval "$f" '/*[local-name()="svg"]/*[local-name()="desc"]' | tr -s ' \n\t' ' ' | sed 's/^ //; s/ $//')
	if [ -n "$title" ] && [ -n "$desc" ]; then
		pass "$name" "title \"$title\", desc of $(echo "$desc" | wc -w) words"
	elif [ -z "$title" ]; then
		fail "$name" "no <title> (or an empty one) as a child of <svg>"
	else
		fail "$name" "no <desc> (or an empty one) as a child of <svg>: the alt text"
	fi

	# size and viewBox
	w=$(xval "$f" '/*/@width' | sed 's/px$//')
	h=$(xval "$f" '/*/@height' | sed 's/px$//')
	vb=$(xval "$f" '/*/@viewBox' | tr -s ', ' '  ')
	size_ok=yes
	case "$w$h" in
	'' | *[!0-9]*) size_ok=no ;;
	esac
	if [ "$size_ok" = no ]; then
		fail "$name" "width \"$w\" and height \"$h\" must both be whole numbers of pixels"
	elif [ "$w" -gt 1000 ]; then
		fail "$name" "$w px wide: at most 1000"
	elif [ -z "$vb" ]; then
		fail "$name" "no viewBox"
	elif [ "$vb" != "0 0 $w $h" ]; then
		fail "$name" "viewBox \"$vb\" is not \"0 0 $w $h\": it would be scaled"
	else
		pass "$name" "${w}x$h, viewBox 0 0 $w $h"
	fi

	# fonts: font-size="N", font-size: N (in a style) and font: N (shorthand)
	small=$(grep -o -E 'font-size *(= *"|: *)[0-9.]+|font *: *[^;"]*[0-9.]+px' "$f" |
		grep -o -E '[0-9.]+(px)?$' | sed 's/px$//' |
		awk '$1 < 11 { printf "%s%s", sep, $1; sep = ", " }')
	nsizes=$(grep -c -E 'font-size' "$f")
	if [ -n "$small" ]; then
		fail "$name" "font sizes below 11: $small"
	elif [ "$nsizes" -eq 0 ]; then
		fail "$name" "no font-size anywhere: the browser's default may be below 11"
	else
		pass "$name" "every font-size is 11 or more"
	fi

	# render
	png=$OUT/$base.png
	rm -f "$png"
	if [ "$size_ok" = yes ]; then
		timeout -k 5 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--user-data-dir="$PROFILE" --no-first-run --disable-crash-reporter \
			--screenshot="$TOP/$png" --window-size="$w,$h" "file://$abs" \
			> "$OUT/$base.chromium.log" 2>&1
		rc=$?
		left=$(reap_chromium)
		if [ ! -s "$png" ]; then
			fail "$name" "Chromium wrote no screenshot (exit $rc; log: $OUT/$base.chromium.log)"
		elif [ "$left" -gt 0 ]; then
			fail "$name" "$left Chromium process(es) still running 10 s after the screenshot (ended now)"
		else
			got=$(identify -format '%wx%h' "$png" 2> /dev/null)
			colours=$(identify -format '%k' "$png" 2> /dev/null)
			bg=$(convert "$png" -crop 1x1+0+0 +repage -format '%[pixel:p{0,0}]' info: 2> /dev/null)
			bottom=$(convert "$png" -gravity south -crop "${w}x4+0+0" +repage -unique-colors -format '%w %[pixel:p{0,0}]' info: 2> /dev/null)
			right=$(convert "$png" -gravity east -crop "4x${h}+0+0" +repage -unique-colors -format '%w %[pixel:p{0,0}]' info: 2> /dev/null)
			if [ "$got" != "${w}x$h" ]; then
				fail "$name" "screenshot is $got, not ${w}x$h ($png)"
			elif [ -z "$colours" ] || [ "$colours" -lt 16 ]; then
				fail "$name" "screenshot looks blank: ${colours:-no} colours ($png)"
			elif [ "$bottom" != "1 $bg" ]; then
				fail "$name" "something is drawn in the last 4 rows, or the background is not $bg there: cut off at the bottom? ($png)"
			elif [ "$right" != "1 $bg" ]; then
				fail "$name" "something is drawn in the last 4 columns, or the background is not $bg there: cut off at the right? ($png)"
			else
				pass "$name" "renders: $png, $got, $colours colours, clear bottom and right edges"
			fi
		fi
	else
		fail "$name" "not rendered: no usable width and height"
	fi

	# referenced from the workbook
	users=$(grep -l -F "figures/$name" labs/*.md 2> /dev/null | tr '\n' ' ' | sed 's/ $//')
	if [ -n "$users" ]; then
		pass "$name" "shown in $users"
	else
		fail "$name" "not used: no labs/*.md shows figures/$name (labs/figures/README.md says where it goes)"
	fi
done

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]

# labs/grade/report.awk: a grader's output as a CI system reads it.
#   awk -v format=junit|gradescope -v lab=NAME -v arch=ARCH -v secs=N \
#       -f labs/grade/report.awk GRADER-OUTPUT > FILE
# Each "PASS msg" / "FAIL msg" line is one test, numbered in order; the
# indented lines after a FAIL (the log's tail) are its output. A run
# that never printed its closing "N passed, N failed" line, or whose
# closing line disagrees with the lines above it, gains one failed test
# saying so: a grader killed halfway must not read as a clean pass.
# JUnit XML (GitHub Actions, GitLab CI, Jenkins) or Gradescope's
# results.json (one point a check). Run with LC_ALL=C: bytes, not
# characters, so that a console's stray bytes become '?'.

{ sub(/\r$/, "") }
/^== / { next }
/^PASS / { add(1, substr($0, 6)); next }
/^FAIL / { add(0, substr($0, 6)); next }
/^[0-9]+ passed, [0-9]+ failed$/ { closed = 1; said_pass = $1; said_fail = $3; cur = 0; next }
/^  / && cur > 0 { out[cur] = out[cur] $0 "\n"; next }
{ cur = 0; rest = rest $0 "\n" }

# add(OK, MSG): one test.
function add(ok, m) {
	n++
	pass[n] = ok
	msg[n] = m
	out[n] = ""
	npass += ok
	cur = n
}

# xml(S): S with XML's five special characters escaped and the control
# characters XML 1.0 forbids dropped.
function xml(s) {
	gsub(/&/, "\\&amp;", s)
	gsub(/</, "\\&lt;", s)
	gsub(/>/, "\\&gt;", s)
	gsub(/"/, "\\&quot;", s)
	gsub(/'/, "\\&apos;", s)
	gsub(/[\001-\010\013\014\016-\037\177]/, "", s)
	gsub(/[\200-\377]/, "?", s)     # a console's stray bytes: never invalid UTF-8
	return s
}

# json(S): S as a JSON string, quotes included (char by char: what a
# backslash means in gsub()'s replacement differs between awks).
function json(s,   i, c, r) {
	r = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" || c == "\"")
			r = r "\\" c
		else if (c == "\n")
			r = r "\\n"
		else if (c == "\t")
			r = r "\\t"
		else if (c ~ /[\200-\377]/)
			r = r "?"
		else if (c !~ /[\001-\037\177]/)
			r = r c
	}
	return "\"" r "\""
}

function junit(   i, f) {
	f = n - npass
	printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	printf "<testsuites name=\"tasklab\" tests=\"%d\" failures=\"%d\" time=\"%d\">\n", n, f, secs
	printf "  <testsuite name=\"%s (%s)\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\" time=\"%d\">\n", xml(lab), xml(arch), n, f, secs
	for (i = 1; i <= n; i++) {
		printf "    <testcase classname=\"tasklab.%s.%s\" name=\"%02d %s\"", xml(lab), xml(arch), i, xml(msg[i])
		if (pass[i]) {
			printf "/>\n"
			continue
		}
		printf ">\n      <failure message=\"%s\">%s</failure>\n    </testcase>\n", xml(msg[i]), xml(out[i])
	}
	printf "    <system-out>%s</system-out>\n", xml(rest)
	printf "  </testsuite>\n</testsuites>\n"
}

function gradescope(   i) {
	printf "{\n  \"score\": %d,\n  \"execution_time\": %d,\n", npass, secs
	printf "  \"output\": %s,\n", json(sprintf("%s (%s): %d of %d checks passed.", lab, arch, npass, n))
	printf "  \"tests\": [\n"
	for (i = 1; i <= n; i++) {
		printf "    { \"number\": \"%d\", \"name\": %s, \"score\": %d, \"max_score\": 1,\n", i, json(msg[i]), pass[i]
		printf "      \"status\": \"%s\", \"output\": %s }%s\n", pass[i] ? "passed" : "failed",
			json(pass[i] ? "" : "FAIL " msg[i] "\n" out[i]), i < n ? "," : ""
	}
	printf "  ]\n}\n"
}

END {
	if (!closed)
		add(0, "the grader ran to its end: no closing \"N passed, N failed\" line (it was killed or crashed)")
	else if (said_pass != npass || said_fail != n - npass)
		add(0, "the grader ran to its end: its closing line says " said_pass " passed, " said_fail " failed, but it printed " npass " PASS and " n - npass " FAIL lines")
	if (format == "junit")
		junit()
	else if (format == "gradescope")
		gradescope()
	else {
		print "report.awk: format is junit or gradescope, not '" format "'" > "/dev/stderr"
		exit 2
	}
}

# labs/grade/gradescope.jq: true when the input is a results.json as
# Gradescope's autograder specification describes it and as report.awk
# means it: a test list, each test with a name, a number, a score of 0 or
# 1 out of a max_score of 1, a status that agrees with its score and an
# output string, and a total score that is the sum of the tests'.
# make check: jq -e -f labs/grade/gradescope.jq results.json
(.tests | type == "array" and length > 0)
and (.score | type == "number")
and (.execution_time | type == "number")
and (.output | type == "string")
and ([.tests[] |
      (.name | type == "string" and length > 0)
      and (.number | type == "string")
      and (.max_score == 1)
      and (.score == 0 or .score == 1)
      and ((.status == "passed" and .score == 1) or (.status == "failed" and .score == 0))
      and (.output | type == "string")] | all)
and (.score == ([.tests[].score] | add))

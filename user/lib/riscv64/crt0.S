# Program entry: exec leaves argc in a0 and argv in a1.
# Clear the frame pointer so backtraces end here, run main, exit with its value.
.text
.global _start
_start:
	li s0, 0
	li ra, 0
	call main
	call exit
1:	j 1b

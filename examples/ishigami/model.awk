#!/usr/bin/awk -f
# model.awk - the Ishigami function (a = 7, b = 0.1) as a stand-in for a
# workflow: reads a design.tsv, writes metrics.tsv (run, y).
#   y = sin(x1) + a sin(x2)^2 + b x3^4 sin(x1)
BEGIN { FS = OFS = "\t"; a = 7; b = 0.1 }
/^#/ { next }
!header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; print "run", "y"; next }
{
	x1 = $col["x1"]; x2 = $col["x2"]; x3 = $col["x3"]
	printf "%s\t%.17g\n", $col["run"], sin(x1) + a * sin(x2)^2 + b * x3^4 * sin(x1)
}

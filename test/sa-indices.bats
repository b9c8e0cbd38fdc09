#!/usr/bin/env bats
# sa-indices: known answers (the project's scientific acceptance tests),
# every option, and refusal of bad input.
load common

bats_require_minimum_version 1.5.0

ISHIGAMI=$TOP/share/spaces/ishigami.tsv
DATA=$BATS_TEST_DIRNAME/data/indices

# --- helpers ---------------------------------------------------------------

# get FILE ROW COLUMN: the value of COLUMN in the row whose first field is
# ROW, in the table of an indices file (comments skipped)
get() {
	body "$1" | awk -F'\t' -v row="$2" -v col="$3" '
	    NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
	    c && $1 == row { print $c; found = 1 }
	    END { exit !found }'
}

# get2 FILE P_I P_J COLUMN: a value of the second-order table
get2() {
	body "$1" | awk -F'\t' -v a="$2" -v b="$3" -v col="$4" '
	    NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
	    c && $1 == a && $2 == b { print $c; found = 1 }
	    END { exit !found }'
}

# column FILE NAME: the values of column NAME, one a line
column() {
	body "$1" | awk -F'\t' -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++)
	    if ($i == name) c = i; next } c { print $c }'
}

# meta FILE KEY: value of KEY on the '#method=' metadata line
meta() {
	sed -n '/^#method=/{s/^#//;p;q;}' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# near VALUE WANT TOL [WHAT]: VALUE is a finite number within TOL of WANT
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
		if (a !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/)
			exit 1
		d = a - b
		exit !((d < 0 ? -d : d) <= t) }' ||
		fail "${4:-value} is '$1', expected $2 +- $3"
}

# less VALUE LIMIT [WHAT]: VALUE is a finite number below LIMIT
less() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/)
			exit 1
		exit !(a + 0 < b + 0) }' ||
		fail "${3:-value} is '$1', expected below $2"
}

# ishigami N [SA-SAMPLE OPTIONS...]: a VBD design d.tsv and its outputs y.tsv
ishigami() {
	local n=$1
	shift
	sa-sample -m vbd -n "$n" "$@" "$ISHIGAMI" > d.tsv
	sa-testfn ishigami d.tsv > y.tsv
}

# mixed_moat [SA-SAMPLE OPTIONS...]: a MOAT design d.tsv of the mixed space
# and the outputs y.tsv of y = 3 g - 2 c + 5 l + 0.5 e
mixed_moat() {
	sa-sample -m moat -r 10 -s 3 "$@" "$DATA/mixed.tsv" > d.tsv
	sa-testfn linear 3,-2,5,0.5 d.tsv > y.tsv
}

# png FILE: FILE exists and starts with the PNG signature
png() {
	assert [ -s "$1" ]
	assert_equal "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" \
	    89504e470d0a1a0a
}

# pngsize FILE: the width and height of the PNG FILE, "W H"
pngsize() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

# sensible FILE: FILE is a PNG of 400 to 2000 pixels each way, and over 8 KB
sensible() {
	local w h
	png "$1"
	read -r w h <<< "$(pngsize "$1")"
	assert [ "$w" -ge 400 ] && assert [ "$w" -le 2000 ]
	assert [ "$h" -ge 400 ] && assert [ "$h" -le 2000 ]
	assert [ "$(stat -c %s "$1")" -gt 8000 ]
}

# refuse CODE MESSAGE ARGS...: see refuse_run in common.bash
refuse() {
	refuse_run sa-indices "$@"
}

# --- known answers (scientific acceptance tests) ---------------------------

@test "vbd: Ishigami (a=7, b=0.1), N=8192, sobol base: S1 and ST within 0.02 of the analytic values" {
	ishigami 8192 --base sobol
	run sa-indices -m vbd -o i.tsv d.tsv y.tsv
	assert_success
	assert_output ''
	assert_equal "$(body i.tsv | head -n 1)" $'param\tS1\tS1_conf\tST\tST_conf'
	assert_equal "$(column i.tsv param | tr '\n' ' ')" "x1 x2 x3 "
	near "$(get i.tsv x1 S1)" 0.3139 0.02 "S1(x1)"
	near "$(get i.tsv x2 S1)" 0.4424 0.02 "S1(x2)"
	near "$(get i.tsv x3 S1)" 0 0.02 "S1(x3)"
	near "$(get i.tsv x1 ST)" 0.5576 0.02 "ST(x1)"
	near "$(get i.tsv x2 ST)" 0.4424 0.02 "ST(x2)"
	near "$(get i.tsv x3 ST)" 0.2437 0.02 "ST(x3)"
	assert_equal "$(meta i.tsv method)" vbd
	assert_equal "$(meta i.tsv runs)" 40960
	assert_equal "$(meta i.tsv resamples)" 100
}

@test "vbd: Sobol G (a=0,1,4.5,9,99,99,99,99), 8 params on 0..1, N=8192: S1 within 0.02 of the analytic values" {
	printf 'name\ttype\tvalues\tdefault\n' > g.tsv
	for i in 1 2 3 4 5 6 7 8; do
		printf 'x%d\treal\t0..1\t0.5\n' "$i" >> g.tsv
	done
	sa-sample -m vbd -n 8192 g.tsv > d.tsv
	sa-testfn sobolg 0,1,4.5,9,99,99,99,99 d.tsv > y.tsv
	sa-indices -m vbd d.tsv y.tsv > i.tsv
	want=(0.7162 0.1790 0.0237 0.0072 0 0 0 0)
	for i in 1 2 3 4 5 6 7 8; do
		near "$(get i.tsv x$i S1)" "${want[i - 1]}" 0.02 "S1(x$i)"
	done
	assert_equal "$(meta i.tsv runs)" 81920
}

@test "moat: linear model on a grid int, a real range, a list and an enum 4,8: mu = coef*(hi-lo) within 1e-9, sigma ~0" {
	mixed_moat
	sa-indices -m moat d.tsv y.tsv > i.tsv
	assert_equal "$(body i.tsv | head -n 1)" \
	    $'param\tmu\tmu_star\tsigma\tmu_star_conf\teffects'
	assert_equal "$(column i.tsv effects | sort -u)" 10
	# g int 10:5:30 (coef 3), c real 0..2 (coef -2), l list 0.5..2
	# (coef 5, last - first), e enum 4,8 (coef 0.5)
	near "$(get i.tsv g mu)" 60 1e-9 "mu(g)"
	near "$(get i.tsv c mu)" -4 1e-9 "mu(c)"
	near "$(get i.tsv l mu)" 7.5 1e-9 "mu(l)"
	near "$(get i.tsv e mu)" 2 1e-9 "mu(e)"
	near "$(get i.tsv g mu_star)" 60 1e-9 "mu*(g)"
	near "$(get i.tsv c mu_star)" 4 1e-9 "mu*(c)"
	for p in g c l e; do
		near "$(get i.tsv $p sigma)" 0 1e-9 "sigma($p)"
		near "$(get i.tsv $p mu_star_conf)" 0 1e-9 "mu_star_conf($p)"
	done
	assert_equal "$(meta i.tsv trajectories)" 10
	assert_equal "$(meta i.tsv dropped)" 0
	assert_equal "$(meta i.tsv resamples)" 1000
}

@test "moat: the exact linear effects hold on 2, 3 and 6 levels (-p)" {
	for p in 2 3 6; do
		mixed_moat -p "$p"
		sa-indices -m moat d.tsv y.tsv > i.tsv
		near "$(get i.tsv g mu)" 60 1e-9 "mu(g), p=$p"
		near "$(get i.tsv c mu)" -4 1e-9 "mu(c), p=$p"
		near "$(get i.tsv l mu)" 7.5 1e-9 "mu(l), p=$p"
		near "$(get i.tsv e mu)" 2 1e-9 "mu(e), p=$p"
		for q in g c l e; do
			near "$(get i.tsv $q sigma)" 0 1e-9 "sigma($q), p=$p"
		done
	done
}

@test "moat: an --optimize design and a design with a --reference run give the same exact effects" {
	sa-sample -m moat -r 12 --optimize 4 -s 3 "$DATA/mixed.tsv" > o.tsv
	sa-testfn linear 3,-2,5,0.5 o.tsv > oy.tsv
	sa-indices -m moat o.tsv oy.tsv > i.tsv
	near "$(get i.tsv g mu)" 60 1e-9 "mu(g)"
	near "$(get i.tsv e mu)" 2 1e-9 "mu(e)"
	assert_equal "$(meta i.tsv trajectories)" 4
	sa-sample -m moat -r 4 --reference "$DATA/mixed.tsv" > r.tsv
	sa-testfn linear 3,-2,5,0.5 r.tsv > ry.tsv
	sa-indices -m moat r.tsv ry.tsv > j.tsv
	assert_equal "$(meta j.tsv runs)" 20
	near "$(get j.tsv l mu)" 7.5 1e-9 "mu(l)"
	near "$(get j.tsv c mu)" -4 1e-9 "mu(c)"
}

@test "vbd: a --reference run is not analyzed and its result may be absent" {
	ishigami 64
	sa-indices -m vbd d.tsv y.tsv > a.tsv
	sa-sample -m vbd -n 64 --reference "$ISHIGAMI" > r.tsv
	assert_equal "$(body r.tsv | tail -n 1)" $'320\t0\t0\t0'
	sa-testfn ishigami r.tsv > ry.tsv
	sa-indices -m vbd r.tsv ry.tsv > b.tsv
	assert_equal "$(body a.tsv)" "$(body b.tsv)"
	assert_equal "$(meta b.tsv runs)" 320
	sed '$d' ry.tsv > ry2.tsv
	sa-indices -m vbd r.tsv ry2.tsv > c.tsv
	assert_equal "$(body a.tsv)" "$(body c.tsv)"
}

@test "vbd --second-order --s2: Ishigami S2(x1,x3) = 0.2437 +- 0.05, other pairs 0 +- 0.05 (N=8192)" {
	ishigami 8192 --second-order
	run sa-indices -m vbd --s2 s2.tsv -o i.tsv d.tsv y.tsv
	assert_success
	assert_equal "$(body s2.tsv | head -n 1)" $'param_i\tparam_j\tS2\tS2_conf'
	assert_equal "$(body s2.tsv | wc -l)" 4
	near "$(get2 s2.tsv x1 x3 S2)" 0.2437 0.05 "S2(x1,x3)"
	near "$(get2 s2.tsv x1 x2 S2)" 0 0.05 "S2(x1,x2)"
	near "$(get2 s2.tsv x2 x3 S2)" 0 0.05 "S2(x2,x3)"
	assert_equal "$(meta s2.tsv order)" 2
	grep -q '^#sa-indices ' s2.tsv
	# the first-order table is still right with the BA blocks present
	near "$(get i.tsv x1 S1)" 0.3139 0.02 "S1(x1)"
	near "$(get i.tsv x3 ST)" 0.2437 0.02 "ST(x3)"
	assert_equal "$(meta i.tsv runs)" 65536
	no_temp_files
}

# --- warnings: indices not to be trusted (sa-indices(1) WARNINGS) --------------

# small_ishigami: a VBD design of Ishigami with 8 base samples (a random
# base, seed 237) whose estimates break each bound: d.tsv, y.tsv
small_ishigami() {
	sa-sample -m vbd -n 8 -s 237 --base mc --second-order "$ISHIGAMI" > d.tsv
	sa-testfn ishigami d.tsv > y.tsv
}

@test "vbd warnings: n = 8 breaks each bound, beyond its interval or (S1 > ST) within: stderr and #warning lines, with the base samples needed" {
	small_ishigami
	run -0 --separate-stderr sa-indices -m vbd --s2 s2.tsv -o i.tsv d.tsv y.tsv
	assert_output ''
	w='sa-indices: warning:'
	assert_equal "${stderr_lines[0]}" "$w S1 sums to 1.67 ± 0.63, above 1 beyond its interval: too few base samples (n = 8); about n = 2048 would narrow the intervals to ± 0.05"
	assert_equal "${stderr_lines[1]}" "$w S1 > ST for x1: 1.26 ± 0.48 against 0.56 ± 0.18, beyond their intervals (ST bounds S1): too few base samples (n = 8); about n = 1024 would narrow the intervals to ± 0.05"
	# S1 above ST is impossible: said even within the intervals, as noise
	assert_equal "${stderr_lines[2]}" "$w S1 > ST for x2: 0.483 ± 0.43 against 0.24 ± 0.34, within their intervals (sampling noise: the intervals are too wide to tell) (ST bounds S1): too few base samples (n = 8); about n = 1024 would narrow the intervals to ± 0.05"
	assert_equal "${stderr_lines[3]}" "$w ST of x2 is 0.24 ± 0.34, an interval wider than the index: too few base samples (n = 8); about n = 64 would narrow it to half the index"
	assert_equal "${stderr_lines[4]}" "$w S1 of x3 is -0.0701 ± 0.18, an interval wider than the index: too few base samples (n = 8); about n = 256 would narrow it to half the index"
	assert_equal "${stderr_lines[5]}" "$w S2 of x1 and x2 is -1.32 ± 0.52, below 0 beyond its interval: too few base samples (n = 8); about n = 1024 would narrow the intervals to ± 0.05"
	assert_equal "${stderr_lines[6]}" "$w S2 of x1 and x3 is -0.774 ± 0.45, below 0 beyond its interval: too few base samples (n = 8); about n = 1024 would narrow the intervals to ± 0.05"
	assert_equal "${#stderr_lines[@]}" 7
	# the same lines in the file, after the metadata line, before the header
	assert_equal "$(sed -n 's/^#warning: /sa-indices: warning: /p' i.tsv)" "$stderr"
	assert_equal "$(sed -n '4p' i.tsv | cut -c 1-9)" '#warning:'
	assert_equal "$(grep -v '^#' i.tsv | head -n 1)" $'param\tS1\tS1_conf\tST\tST_conf'
	# the S2 file has the S2 ones only
	assert_equal "$(grep -c '^#warning: S2 of' s2.tsv)" 2
	assert_equal "$(grep -c '^#warning:' s2.tsv)" 2
	# and the table is as without warnings: the rows read back
	near "$(get i.tsv x1 S1)" 1.2573 0.001 "S1(x1)"
}

@test "vbd warnings: -r 0 (no intervals): only the plain breaks, without the base samples needed" {
	small_ishigami
	run -0 --separate-stderr sa-indices -m vbd -r 0 --s2 s2.tsv -o i.tsv d.tsv y.tsv
	assert_equal "${stderr_lines[0]}" "sa-indices: warning: S1 sums to 1.67 (no interval), above 1: too few base samples (n = 8) or chance; without intervals (fewer than 2 resamples) there is no telling how many would do"
	refute [ -n "$(printf '%s\n' "${stderr_lines[@]}" | grep 'wider than')" ]
	assert_equal "$(grep -c '^#warning:' i.tsv)" "${#stderr_lines[@]}"
}

@test "vbd warnings: none for Ishigami with n = 4096 and second order, on stderr or in either file" {
	ishigami 4096 --second-order
	run -0 --separate-stderr sa-indices -m vbd --s2 s2.tsv -o i.tsv d.tsv y.tsv
	assert_equal "$stderr" ''
	run -1 grep -c '^#warning' i.tsv s2.tsv
	assert_output $'i.tsv:0\ns2.tsv:0'
}

@test "moat with one trajectory: sigma and the interval are NaN, and a warning says why (stderr, #warning); two trajectories: none" {
	sa-sample -m moat -r 1 -s 3 "$DATA/mixed.tsv" > d.tsv
	sa-testfn linear 3,-2,5,0.5 d.tsv > y.tsv
	run -0 --separate-stderr sa-indices -m moat -o i.tsv d.tsv y.tsv
	assert_equal "$stderr" "sa-indices: warning: sigma is undefined with one trajectory: mu* alone ranks the parameters, without an interval; sample 2 trajectories or more (10 or more is usual)"
	assert_equal "$(grep '^#warning:' i.tsv)" "#warning: ${stderr#sa-indices: warning: }"
	assert_equal "$(column i.tsv sigma | sort -u)" NaN
	sa-sample -m moat -r 2 -s 3 "$DATA/mixed.tsv" > d.tsv
	sa-testfn linear 3,-2,5,0.5 d.tsv > y.tsv
	run -0 --separate-stderr sa-indices -m moat -o i.tsv d.tsv y.tsv
	assert_equal "$stderr" ''
	run -1 grep '^#warning' i.tsv
}

@test "moat --allow-missing leaving parameters one effect of two: the one-trajectory warning" {
	sa-sample -m moat -r 2 -s 3 "$DATA/mixed.tsv" > d.tsv
	sa-testfn linear 3,-2,5,0.5 d.tsv | awk '$1 != 1' > y.tsv
	run -0 --separate-stderr sa-indices -m moat --allow-missing -o i.tsv d.tsv y.tsv
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[1]%%:*}" sa-indices
	assert_regex "${stderr_lines[1]}" '^sa-indices: warning: sigma is undefined with one trajectory'
	# run 1 is in the effects of steps 1 and 2 of trajectory 0
	assert_equal "$(meta i.tsv trajectories)" 2
	assert_equal "$(meta i.tsv dropped)" 2
	assert_equal "$(column i.tsv effects | sort | tr '\n' ' ')" "1 1 2 2 "
}

@test "corr: linear model: pearson/src signs right, |src| ordered as coef*range, tiny p-values for influential inputs" {
	# effects coef * range: a 3*1 = 3, b -0.5*10 = -5, c 1*2 = 2, d 0*4 = 0
	sa-sample -m lhs -n 300 -s 5 "$DATA/linear.tsv" > d.tsv
	sa-testfn linear 3,-0.5,1,0 d.tsv > y.tsv
	sa-indices -m corr d.tsv y.tsv > i.tsv
	assert_equal "$(body i.tsv | head -n 1)" "$(printf 'param\tpearson\tpearson_p\tspearman\tspearman_p\tpcc\tpcc_p\tprcc\tprcc_p\tsrc\tsrc_p\tsrrc\tsrrc_p')"
	for m in pearson spearman pcc prcc src srrc; do
		less 0 "$(get i.tsv a $m)" "$m(a)"
		less "$(get i.tsv b $m)" 0 "$m(b)"
		less 0 "$(get i.tsv c $m)" "$m(c)"
	done
	# |src| order b > a > c > d, and src = coef * sd(x) / sd(y) sums to R^2 = 1
	sb=$(get i.tsv b src) sa=$(get i.tsv a src) sc=$(get i.tsv c src)
	sd=$(get i.tsv d src)
	less "$sa" "${sb#-}" "src(a) vs |src(b)|"
	less "$sc" "$sa" "src(c) vs src(a)"
	near "$sd" 0 1e-9 "src(d)"
	near "$(awk -v a="$sa" -v b="$sb" -v c="$sc" 'BEGIN { print a*a + b*b + c*c }')" 1 0.01 "sum of src^2"
	assert_equal "$(meta i.tsv r2)" 1.0000
	for p in a b c; do
		less "$(get i.tsv $p src_p)" 1e-10 "src_p($p)"
		less "$(get i.tsv $p pcc_p)" 1e-10 "pcc_p($p)"
		less "$(get i.tsv $p pearson_p)" 1e-4 "pearson_p($p)"
	done
	near "$(get i.tsv d pcc)" 0 1e-9 "pcc(d)"
	assert_equal "$(meta i.tsv used)" 300
	assert_equal "$(meta i.tsv dropped)" 0
}

@test "corr: works on a moat design too (any design with params=)" {
	mixed_moat
	run sa-indices -m corr d.tsv y.tsv
	assert_success
	assert_line --partial 'used=50 dropped=0'
}

# --- reproducibility ---------------------------------------------------------

@test "same seed gives the same bytes (vbd with --percentile and --s2, moat)" {
	ishigami 256 --second-order
	sa-indices -m vbd -s 7 --percentile --s2 s2.tsv d.tsv y.tsv > a.tsv
	mv s2.tsv s2a.tsv
	sa-indices -m vbd -s 7 --percentile --s2 s2.tsv d.tsv y.tsv > b.tsv
	cmp a.tsv b.tsv
	cmp s2a.tsv s2.tsv
	sa-indices -m vbd d.tsv y.tsv > c.tsv
	sa-indices -m vbd d.tsv y.tsv > e.tsv
	cmp c.tsv e.tsv
	assert_equal "$(meta c.tsv seed)" 1
	cp "$DATA/moat2.tsv" "$DATA/tiles.tsv" .
	sa-indices -m moat -s 3 moat2.tsv tiles.tsv > m1.tsv
	sa-indices -m moat -s 3 moat2.tsv tiles.tsv > m2.tsv
	cmp m1.tsv m2.tsv
}

@test "a different seed changes the confidence columns only (vbd S1_conf ST_conf and bounds; moat mu_star_conf)" {
	ishigami 256
	sa-indices -m vbd --percentile -s 1 d.tsv y.tsv > a.tsv
	sa-indices -m vbd --percentile --seed 2 d.tsv y.tsv > b.tsv
	assert_equal "$(meta b.tsv seed)" 2
	for c in param S1 ST; do
		assert_equal "$(column a.tsv $c)" "$(column b.tsv $c)"
	done
	for c in S1_conf ST_conf S1_lo S1_hi ST_lo ST_hi; do
		run awk 'NR == FNR { v[FNR] = $0; next } v[FNR] == $0 { bad = 1 }
		    END { exit bad }' <(column a.tsv $c) <(column b.tsv $c)
		assert_success
	done
	sa-indices -m moat -s 1 "$DATA/moat2.tsv" "$DATA/tiles.tsv" > m1.tsv
	sa-indices -m moat -s 99 "$DATA/moat2.tsv" "$DATA/tiles.tsv" > m2.tsv
	for c in param mu mu_star sigma; do
		assert_equal "$(column m1.tsv $c)" "$(column m2.tsv $c)"
	done
	assert_not_equal "$(column m1.tsv mu_star_conf)" \
	    "$(column m2.tsv mu_star_conf)"
}

@test "distinct seeds give distinct intervals: -s 0 vs -s 4357; a seed beyond the range is a usage error (2)" {
	# GSL's mt19937 maps seed 0 to its default 4357: that must not show
	ishigami 256
	sa-indices -m vbd -s 0 d.tsv y.tsv > a.tsv
	sa-indices -m vbd -s 4357 d.tsv y.tsv > b.tsv
	assert_not_equal "$(column a.tsv S1_conf)" "$(column b.tsv S1_conf)"
	assert_equal "$(meta a.tsv seed)" 0
	refuse 2 "-s '18446744073709551616'" -m vbd -s 18446744073709551616 d.tsv y.tsv
}

# --- options -------------------------------------------------------------------

@test "-m and --method are the same; a missing method is a usage error (2)" {
	mixed_moat
	sa-indices -m moat d.tsv y.tsv > a.tsv
	sa-indices --method moat d.tsv y.tsv > b.tsv
	assert_equal "$(body a.tsv)" "$(body b.tsv)"
	refuse 2 'no method given' d.tsv y.tsv
	assert_output --partial "Try 'sa-indices --help'"
}

@test "--aggregate mean (the default) over tiles: hand-computed mu, mu*, sigma" {
	run sa-indices -m moat -o i.tsv "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_success
	assert_output ''
	assert_equal "$(meta i.tsv aggregate)" mean
	assert_equal "$(meta i.tsv metric)" score
	# per-run means 3 1 1.5 0 4 5: EE(b) 2, 4; EE(a) -0.5, 1
	near "$(get i.tsv a mu)" 0.25 1e-12 "mu(a)"
	near "$(get i.tsv a mu_star)" 0.75 1e-12 "mu*(a)"
	near "$(get i.tsv a sigma)" 1.0606601717798212 1e-12 "sigma(a)"
	near "$(get i.tsv b mu)" 3 1e-12 "mu(b)"
	near "$(get i.tsv b mu_star)" 3 1e-12 "mu*(b)"
	near "$(get i.tsv b sigma)" 1.4142135623730951 1e-12 "sigma(b)"
	sa-indices -m moat --aggregate mean "$DATA/moat2.tsv" "$DATA/tiles.tsv" > j.tsv
	assert_equal "$(body i.tsv)" "$(body j.tsv)"
}

@test "--aggregate median over tiles: hand-computed mu, mu*, sigma" {
	sa-indices -m moat --aggregate median "$DATA/moat2.tsv" "$DATA/tiles.tsv" > i.tsv
	assert_equal "$(meta i.tsv aggregate)" median
	# per-run medians 2 0 1.5 0 3 5: EE(b) 2, 3; EE(a) -1.5, 2
	near "$(get i.tsv a mu)" 0.25 1e-12 "mu(a)"
	near "$(get i.tsv a mu_star)" 1.75 1e-12 "mu*(a)"
	near "$(get i.tsv a sigma)" 2.4748737341529163 1e-12 "sigma(a)"
	near "$(get i.tsv b mu)" 2.5 1e-12 "mu(b)"
	near "$(get i.tsv b sigma)" 0.7071067811865476 1e-12 "sigma(b)"
}

@test "--aggregate sum over tiles: hand-computed mu, mu*, sigma" {
	sa-indices -m moat --aggregate sum "$DATA/moat2.tsv" "$DATA/tiles.tsv" > i.tsv
	assert_equal "$(meta i.tsv aggregate)" sum
	# per-run sums 9 3 4.5 0 12 15: EE(b) 6, 12; EE(a) -1.5, 3
	near "$(get i.tsv a mu)" 0.75 1e-12 "mu(a)"
	near "$(get i.tsv a mu_star)" 2.25 1e-12 "mu*(a)"
	near "$(get i.tsv a sigma)" 3.1819805153394638 1e-12 "sigma(a)"
	near "$(get i.tsv b mu)" 9 1e-12 "mu(b)"
	near "$(get i.tsv b sigma)" 4.242640687119285 1e-12 "sigma(b)"
}

@test "seg-run results (run tile status dice jaccard objects seconds): a run with an error tile is missing, dice is the default metric; moat drops only the effects that touch it" {
	run -1 sa-indices -m moat -o i.tsv "$DATA/moat2.tsv" "$DATA/results.tsv"
	assert_output --partial "dice: 1 runs have a failed tile besides results: counted as missing"
	assert_output --partial "results.tsv: 1 of 6 runs have no dice result: 5 (see --allow-missing)"
	run -0 --separate-stderr sa-indices -m moat --allow-missing -o i.tsv "$DATA/moat2.tsv" "$DATA/results.tsv"
	assert_equal "$(meta i.tsv metric)" dice
	[[ $stderr == *"results.tsv: runs without a result: 1; dropped 1 of 4 elementary effects (those touching one)"* ]] ||
	    fail "stderr: $stderr"
	# per-run dice 0.9 0.6 0.6 0.4 0.8 -: EE(b) 0.3, 0.4; EE(a) 0 (the
	# other, of runs 4 and 5, dropped)
	near "$(get i.tsv a mu)" 0 1e-9 "mu(a)"
	near "$(get i.tsv a mu_star)" 0 1e-9 "mu*(a)"
	assert_equal "$(get i.tsv a sigma)" NaN
	assert_equal "$(get i.tsv a effects)" 1
	near "$(get i.tsv b mu)" 0.35 1e-9 "mu(b)"
	near "$(get i.tsv b sigma)" 0.07071067811865475 1e-9 "sigma(b)"
	assert_equal "$(get i.tsv b effects)" 2
	assert_equal "$(meta i.tsv trajectories)" 2
	assert_equal "$(meta i.tsv dropped)" 1
}

@test "--metric jaccard chooses that column of a seg-run results file" {
	sa-indices -m moat --allow-missing --metric jaccard "$DATA/moat2.tsv" "$DATA/results.tsv" > i.tsv
	assert_equal "$(meta i.tsv metric)" jaccard
	# per-run jaccard .75 .25 .5 .25 .5 -: EE(b) .5, .25; EE(a) -.25
	near "$(get i.tsv a mu)" -0.25 1e-12 "mu(a)"
	near "$(get i.tsv a mu_star)" 0.25 1e-12 "mu*(a)"
	near "$(get i.tsv b mu)" 0.375 1e-12 "mu(b)"
	near "$(get i.tsv b sigma)" 0.1767766952966369 1e-12 "sigma(b)"
	sa-indices -m moat --allow-missing --metric seconds "$DATA/moat2.tsv" "$DATA/results.tsv" > s.tsv
	assert_equal "$(meta s.tsv metric)" seconds
}

@test "--metric: the only metric column is used whatever its name" {
	mixed_moat
	sa-indices -m moat d.tsv y.tsv > i.tsv
	assert_equal "$(meta i.tsv metric)" y
	sed 's/^run\ty$/run\tscore/' y.tsv > s.tsv
	sa-indices -m moat d.tsv s.tsv > j.tsv
	assert_equal "$(meta j.tsv metric)" score
	assert_equal "$(body i.tsv)" "$(body j.tsv)"
}

@test "--metric: several metric columns and none is dice: exit 1 asking for --metric" {
	mixed_moat
	awk -F'\t' -v OFS='\t' '/^#/ { print; next } $1 == "run" { print $1, "p", "q"; next }
	    { print $1, $2, sprintf("%.17g", -$2) }' y.tsv > pq.tsv
	refuse 1 'pq.tsv: 2 metric columns and none is '"'dice'"': choose one with --metric' -m moat d.tsv pq.tsv
	sa-indices -m moat --metric q d.tsv pq.tsv > i.tsv
	near "$(get i.tsv g mu)" -60 1e-9 "mu(g) of q"
}

@test "--metric: a metrics file with no metric column: exit 1" {
	printf 'run\ttile\tstatus\n0\tt1\tok\n' > y.tsv
	refuse 1 'y.tsv: no metric column' -m moat "$DATA/moat2.tsv" y.tsv
}

@test "--metric NAME not in the header: exit 1" {
	refuse 1 "results.tsv: no column 'area' in the header" -m moat --metric area "$DATA/moat2.tsv" "$DATA/results.tsv"
}

@test "-r 0: confidence columns (and percentile bounds) are NaN, the indices unchanged" {
	ishigami 256
	sa-indices -m vbd d.tsv y.tsv > a.tsv
	sa-indices -m vbd -r 0 --percentile d.tsv y.tsv > b.tsv
	assert_equal "$(meta b.tsv resamples)" 0
	assert_equal "$(column a.tsv S1)" "$(column b.tsv S1)"
	assert_equal "$(column a.tsv ST)" "$(column b.tsv ST)"
	for c in S1_conf ST_conf S1_lo S1_hi ST_lo ST_hi; do
		assert_equal "$(column b.tsv $c | sort -u)" NaN
	done
	mixed_moat
	sa-indices -m moat --resamples 0 d.tsv y.tsv > m.tsv
	assert_equal "$(meta m.tsv resamples)" 0
	assert_equal "$(column m.tsv mu_star_conf | sort -u)" NaN
	near "$(get m.tsv g mu)" 60 1e-9 "mu(g)"
}

@test "-r 1: vbd conf is NaN (no spread of one replicate), percentile bounds are that replicate" {
	ishigami 256
	sa-indices -m vbd -r 1 --percentile d.tsv y.tsv > i.tsv
	assert_equal "$(column i.tsv S1_conf | sort -u)" NaN
	assert_equal "$(column i.tsv S1_lo)" "$(column i.tsv S1_hi)"
	assert_equal "$(column i.tsv ST_lo)" "$(column i.tsv ST_hi)"
}

@test "-r N sets the number of resamples; 1000000 is the limit" {
	ishigami 64
	sa-indices -m vbd -r 50 d.tsv y.tsv > i.tsv
	assert_equal "$(meta i.tsv resamples)" 50
	refuse 2 "-r '1000001': a whole number from 0 to 1000000" -m vbd -r 1000001 d.tsv y.tsv
}

@test "--conf 0.5 scales the vbd and moat half-widths by z(0.75)/z(0.975)" {
	ishigami 256
	sa-indices -m vbd d.tsv y.tsv > a.tsv
	sa-indices -m vbd --conf 0.5 d.tsv y.tsv > b.tsv
	assert_equal "$(meta b.tsv conf)" 0.5
	for p in x1 x2 x3; do
		for c in S1_conf ST_conf; do
			near "$(awk -v a="$(get a.tsv $p $c)" -v b="$(get b.tsv $p $c)" \
			    'BEGIN { printf "%.17g\n", b / a }')" 0.3441337471077892 1e-9 "$c($p) ratio"
		done
	done
	assert_equal "$(column a.tsv S1)" "$(column b.tsv S1)"
	sa-indices -m moat "$DATA/moat2.tsv" "$DATA/tiles.tsv" > m1.tsv
	sa-indices -m moat --conf 0.5 "$DATA/moat2.tsv" "$DATA/tiles.tsv" > m2.tsv
	near "$(awk -v a="$(get m1.tsv b mu_star_conf)" -v b="$(get m2.tsv b mu_star_conf)" \
	    'BEGIN { printf "%.17g\n", b / a }')" 0.3441337471077892 1e-9 "mu_star_conf(b) ratio"
}

@test "--percentile adds S1_lo S1_hi ST_lo ST_hi with lo <= index <= hi (Ishigami N=8192)" {
	ishigami 8192
	sa-indices -m vbd --percentile d.tsv y.tsv > i.tsv
	assert_equal "$(body i.tsv | head -n 1)" \
	    "$(printf 'param\tS1\tS1_conf\tST\tST_conf\tS1_lo\tS1_hi\tST_lo\tST_hi')"
	for p in x1 x2 x3; do
		for s in S1 ST; do
			lo=$(get i.tsv $p ${s}_lo) v=$(get i.tsv $p $s)
			hi=$(get i.tsv $p ${s}_hi)
			less "$lo" "$v" "${s}_lo($p)"
			less "$v" "$hi" "${s}_hi($p)"
			# a 95% interval is about as wide as twice the normal half-width
			near "$(awk -v l="$lo" -v h="$hi" -v c="$(get i.tsv $p ${s}_conf)" \
			    'BEGIN { print (h - l) / (2 * c) }')" 1 0.3 "$s($p) width ratio"
		done
	done
	sa-indices -m vbd d.tsv y.tsv > j.tsv
	assert_equal "$(body j.tsv | cut -f1-5)" "$(body i.tsv | cut -f1-5)"
}

@test "--percentile with --s2 adds S2_lo S2_hi to the second-order table" {
	ishigami 512 --second-order
	sa-indices -m vbd --percentile --s2 s2.tsv d.tsv y.tsv > i.tsv
	assert_equal "$(body s2.tsv | head -n 1)" \
	    "$(printf 'param_i\tparam_j\tS2\tS2_conf\tS2_lo\tS2_hi')"
	less "$(get2 s2.tsv x1 x3 S2_lo)" "$(get2 s2.tsv x1 x3 S2_hi)" "S2_lo(x1,x3)"
}

@test "--allow-missing: moat drops the elementary effects that touch a missing run, no more, and says how many" {
	cp "$DATA/moat2.tsv" "$DATA/results.tsv" .
	# run 4 fails too: of trajectory 3-4-5 both effects go, of 0-1-2 none
	sed 's/^4\tt2\tok\t/4\tt2\terror\t/' results.tsv > r.tsv
	refuse 1 'r.tsv: 2 of 6 runs have no dice result: 4, 5 (see --allow-missing)' -m moat moat2.tsv r.tsv
	run sa-indices -m moat --allow-missing -o i.tsv moat2.tsv r.tsv
	assert_success
	assert_output --partial 'r.tsv: runs without a result: 2; dropped 2 of 4 elementary effects'
	assert_output --partial 'sigma is undefined with one trajectory'
	assert_equal "$(meta i.tsv dropped)" 2
	# trajectory 0-1-2 alone: EE(a) 0, EE(b) 0.3; one effect has no spread
	near "$(get i.tsv a mu)" 0 1e-12 "mu(a)"
	near "$(get i.tsv b mu)" 0.3 1e-12 "mu(b)"
	assert_equal "$(column i.tsv sigma | sort -u)" NaN
	assert_equal "$(column i.tsv mu_star_conf | sort -u)" NaN
	assert_equal "$(column i.tsv effects | sort -u)" 1
	# runs 1 and 4: every effect touches one (a trajectory's middle run)
	sed 's/^1\tt2\tok\t/1\tt2\terror\t/' r.tsv | sed '/^5\t/d' > s.tsv
	printf '5\tt1\tok\t0.3\t0.1\t1\t1\n5\tt2\tok\t0.3\t0.1\t1\t1\n' >> s.tsv
	refuse 1 'no elementary effect left: every one touches a run without a result' -m moat --allow-missing moat2.tsv s.tsv
	# a parameter may lose all its effects and keep NaN measures while the
	# other has some: run 2 alone misses: EE(a) of 0-1-2 goes, EE(b) stays
	sed 's/^2\tt2\tok\t/2\tt2\terror\t/' "$DATA/results.tsv" | sed '/^5\t/d' > t.tsv
	printf '5\tt1\tok\t0.3\t0.1\t1\t1\n5\tt2\tok\t0.3\t0.1\t1\t1\n' >> t.tsv
	sa-indices -m moat --allow-missing -o j.tsv moat2.tsv t.tsv 2> /dev/null
	assert_equal "$(get j.tsv a effects)" 1
	assert_equal "$(get j.tsv b effects)" 2
}

@test "--max-missing SHARE: refuses when more runs than the share miss, analyzes otherwise (implies --allow-missing)" {
	cp "$DATA/moat2.tsv" "$DATA/results.tsv" .
	# one run of six missing: 16.7 %
	refuse 1 'results.tsv: 1 of 6 runs (16.7 %) have no dice result, more than --max-missing 0.1 allows: 5' -m moat --max-missing 0.1 moat2.tsv results.tsv
	run -0 sa-indices -m moat --max-missing 0.2 -o i.tsv moat2.tsv results.tsv
	assert_equal "$(meta i.tsv dropped)" 1
	refuse 2 "--max-missing '1.5'" -m moat --max-missing 1.5 moat2.tsv results.tsv
}

@test "--allow-missing: corr drops runs without a result and says how many" {
	sa-sample -m lhs -n 40 -s 5 "$DATA/linear.tsv" > d.tsv
	sa-testfn linear 3,-0.5,1,0 d.tsv | sed '/^7\t/d; /^12\t/d' > y.tsv
	refuse 1 'y.tsv: 2 of 40 runs have no y result: 7, 12 (see --allow-missing)' -m corr d.tsv y.tsv
	run sa-indices -m corr --allow-missing -o i.tsv d.tsv y.tsv
	assert_success
	assert_output --partial 'y.tsv: '
	assert_output --regexp 'dropped.* 2|dropped 2'
	assert_equal "$(meta i.tsv used)" 38
	assert_equal "$(meta i.tsv dropped)" 2
	less "$(get i.tsv b src)" 0 "src(b)"
}

@test "--plot: vbd draws a PNG (bar chart), no S2 heatmap without --s2, no plot temporaries left" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	ishigami 256
	run sa-indices -m vbd --plot p.png -o i.tsv d.tsv y.tsv
	assert_success
	sensible p.png
	assert [ -s i.tsv ]
	assert_equal "$(ls -A)" "$(printf 'd.tsv\ni.tsv\np.png\ny.tsv')"
}

@test "--plot with --s2: vbd draws the bars and the S2 heatmap (-s2 before .png)" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	ishigami 256 --second-order
	run sa-indices -m vbd --s2 s2.tsv --plot p.png -o i.tsv d.tsv y.tsv
	assert_success
	sensible p.png
	sensible p-s2.png
	# k(k-1)/2 pairs of the 3 parameters
	assert_equal "$(body s2.tsv | awk 'NR > 1' | wc -l)" 3
	assert_equal "$(ls -A)" "$(printf 'd.tsv\ni.tsv\np-s2.png\np.png\ns2.tsv\ny.tsv')"
}

@test "--plot: moat draws the bars of mu* (m.png) and the mu*-sigma plane (m-plane.png)" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	run sa-indices -m moat --plot m.png "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_success
	sensible m.png
	sensible m-plane.png
	assert_equal "$(ls -A)" "$(printf 'm-plane.png\nm.png')"
}

@test "--plot: moat, a name without .png gets -plane appended; a device takes both plots" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	run sa-indices -m moat --plot m "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_success
	png m
	png m-plane
	rm m m-plane
	run sa-indices -m moat --plot /dev/null -o i.tsv "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_success
	assert [ -c /dev/null ]
	assert_equal "$(ls -A)" i.tsv
}

@test "--plot: gnuplot failing on the second plot leaves neither plot, no output, no temporaries" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	mkdir fake
	printf '#!/bin/sh
[ -e "%s/fake/once" ] && exit 3
touch "%s/fake/once"
exec "%s" "$@"
' \
	    "$PWD" "$PWD" "$(command -v gnuplot)" > fake/gnuplot
	chmod +x fake/gnuplot
	PATH=$PWD/fake:$PATH run sa-indices -m moat --plot m.png -o i.tsv \
	    "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_failure 1
	assert_output --partial 'm-plane.png: gnuplot failed (exit 3)'
	assert_equal "$(ls -A)" fake
	rm fake/once
	ishigami 64 --second-order
	PATH=$PWD/fake:$PATH run sa-indices -m vbd --s2 s2.tsv --plot p.png \
	    -o i.tsv d.tsv y.tsv
	assert_failure 1
	assert_output --partial 'p-s2.png: gnuplot failed (exit 3)'
	assert_equal "$(ls -A)" "$(printf 'd.tsv\nfake\ny.tsv')"
}

@test "--plot with warnings: vbd bars and S2 heatmap drawn (uncertain marked), moat with one trajectory: the plane of mu* alone, gnuplot silent" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	small_ishigami
	run -0 --separate-stderr sa-indices -m vbd --s2 s2.tsv --plot p.png -o i.tsv d.tsv y.tsv
	sensible p.png
	sensible p-s2.png
	refute [ -n "$(printf '%s\n' "${stderr_lines[@]}" | grep -v '^sa-indices: warning: ')" ]
	sa-sample -m moat -r 1 -s 3 "$DATA/mixed.tsv" > m.tsv
	sa-testfn linear 3,-2,5,0.5 m.tsv > my.tsv
	run -0 --separate-stderr sa-indices -m moat --plot m.png -o mi.tsv m.tsv my.tsv
	assert_equal "${#stderr_lines[@]}" 1
	sensible m.png
	sensible m-plane.png
}

@test "--plot: corr draws a PNG" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	sa-sample -m lhs -n 40 -s 5 "$DATA/linear.tsv" > d.tsv
	sa-testfn linear 3,-0.5,1,0 d.tsv > y.tsv
	run sa-indices -m corr --plot c.png d.tsv y.tsv
	assert_success
	sensible c.png
	assert_equal "$(ls -A)" "$(printf 'c.png\nd.tsv\ny.tsv')"
}

@test "--plot: the PNG gets the umask's permissions, like the -o output" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	umask 022
	sa-indices -m moat --plot m.png -o i.tsv "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_equal "$(stat -c %a i.tsv)" 644
	assert_equal "$(stat -c %a m.png)" 644
	assert_equal "$(stat -c %a m-plane.png)" 644
}

@test "--plot: a failing gnuplot gives exit 1, no PNG, no output, no temporaries" {
	mkdir fake
	printf '#!/bin/sh\nexit 3\n' > fake/gnuplot
	chmod +x fake/gnuplot
	PATH=$PWD/fake:$PATH run sa-indices -m moat --plot m.png -o i.tsv \
	    "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_failure 1
	assert_output --partial 'm.png: gnuplot failed (exit 3)'
	assert_equal "$(ls -A)" fake
}

# bats test_tags=fast
@test "--plot: gnuplot killed by a signal is a system failure: exit 3, nothing left" {
	mkdir fake
	printf '#!/bin/sh\nkill -KILL $$\n' > fake/gnuplot
	chmod +x fake/gnuplot
	PATH=$PWD/fake:$PATH run sa-indices -m moat --plot m.png -o i.tsv \
	    "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_failure 3
	assert_line 'sa-indices: m.png: gnuplot was killed by signal 9'
	assert_equal "$(ls -A)" fake
}

@test "--plot: a failing gnuplot without -o writes nothing to stdout" {
	mkdir fake
	printf '#!/bin/sh\nexit 3\n' > fake/gnuplot
	chmod +x fake/gnuplot
	PATH=$PWD/fake:$PATH run --separate-stderr sa-indices -m moat --plot m.png \
	    "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_failure 1
	assert [ "${stderr#*m.png: gnuplot failed (exit 3)}" != "$stderr" ]
	# today the whole table is on stdout although the run failed
	assert_output ''
}

@test "--plot into a missing directory: exit 1, -o output not left behind" {
	refuse 1 'nodir/p.png: cannot create a temporary file' -m moat --plot nodir/p.png "$DATA/moat2.tsv" "$DATA/tiles.tsv"
}

@test "--plot: a file name with a quote and \$(touch PWNED) is written, and runs nothing" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	run sa-indices -m moat --plot "q'\$(touch PWNED)%d\".png" -o i.tsv \
	    "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_success
	png "q'\$(touch PWNED)%d\".png"
	png "q'\$(touch PWNED)%d\"-plane.png"
	assert [ ! -e PWNED ]
	assert_equal "$(ls -A)" "$(printf '%s\n' i.tsv "q'\$(touch PWNED)%d\"-plane.png" "q'\$(touch PWNED)%d\".png")"
}

# evil DESIGN METRICS: a corr design of parameters named a"b, p%d'q and
# $(id>PWNED), and a linear output of them
evil() {
	{
		printf '#method=corr n=30 k=3 params=a"b,p%%d'"'"'q,$(id>PWNED)\n'
		printf 'run\ta"b\tp%%d'"'"'q\t$(id>PWNED)\n'
		for i in $(seq 0 29); do
			printf '%d\t%d\t%d\t%d\n' $i $((i % 7)) $((i * 3 % 11)) $((i * 5 % 13))
		done
	} > "$1"
	{
		printf 'run\ty\n'
		for i in $(seq 0 29); do
			printf '%d\t%d\n' $i $((i % 7 * 2 + i * 3 % 11))
		done
	} > "$2"
}

@test "--plot: parameter names with quotes, percent signs and \$(...) plot as they are" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	evil d.tsv y.tsv
	run sa-indices -m corr --plot c.png -o i.tsv d.tsv y.tsv
	assert_success
	png c.png
	assert_equal "$(column i.tsv param | paste -sd' ')" "a\"b p%d'q \$(id>PWNED)"
	assert [ ! -e PWNED ]
	assert_equal "$(ls -A)" "$(printf 'c.png\nd.tsv\ni.tsv\ny.tsv')"
}

@test "--plot: a run killed while gnuplot runs leaves no plot, no output, no temporaries" {
	mkdir fake
	printf '#!/bin/sh\nexec sleep 30\n' > fake/gnuplot
	chmod +x fake/gnuplot
	PATH=$PWD/fake:$PATH sa-indices -m moat --plot m.png -o i.tsv \
	    "$DATA/moat2.tsv" "$DATA/tiles.tsv" 3>&- &
	pid=$!
	for _ in $(seq 50); do
		ls -A | grep -q '^\.m\.png\.plot\.tmp\.' && break
		sleep 0.1
	done
	run ls -A
	assert_output --partial '.m.png.plot.tmp.'
	kill -TERM "$pid"
	wait "$pid" || true
	assert_equal "$(ls -A)" fake
}

@test "-o/--output writes atomically the same rows as stdout, no temporaries" {
	ishigami 256
	run --separate-stderr sa-indices -m vbd d.tsv y.tsv
	assert_success
	stdout=$output
	run sa-indices -m vbd -o i.tsv d.tsv y.tsv
	assert_success
	assert_output ''
	assert_equal "$(body i.tsv)" "$(grep -v '^#' <<< "$stdout")"
	grep -q '^#command line: sa-indices -m vbd -o i.tsv d.tsv y.tsv$' i.tsv
	printf 'old\n' > j.tsv
	sa-indices -m vbd --output j.tsv d.tsv y.tsv
	assert_equal "$(body j.tsv)" "$(body i.tsv)"
	sa-indices -m vbd -o - d.tsv y.tsv > k.tsv
	assert_equal "$(body k.tsv)" "$(body i.tsv)"
	no_temp_files
}

@test "-o killed by SIGTERM mid-run leaves neither the output nor a temporary" {
	ishigami 8192
	printf 'keep\n' > i.tsv
	sa-indices -m vbd -r 1000000 -o i.tsv d.tsv y.tsv 2> /dev/null &
	pid=$!
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid" || status=$?
	assert_equal "$status" 143
	assert_equal "$(cat i.tsv)" keep
	no_temp_files
}

@test "-o a directory: exit 1; -o /dev/full, stdout on /dev/full: exit 3 (I/O); with the reason" {
	mkdir dir
	run sa-indices -m moat -o dir "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_failure 1
	assert_output --partial 'dir: '
	assert_equal "$(ls -A dir)" ''
	run sa-indices -m moat -o /dev/full "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_failure 3
	assert_output --partial '/dev/full: write error'
	run sh -c 'sa-indices -m moat "$1" "$2" > /dev/full' sh "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_failure 3
	assert_output --partial 'write error'
	no_temp_files
}

# bats test_tags=fast
@test "-o /dev/null is written in place" {
	run sa-indices -m moat -o /dev/null "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_success
	assert [ -c /dev/null ]
}

# bats test_tags=fast
@test "-o into a missing directory: exit 1" {
	run sa-indices -m moat -o nodir/i.tsv "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_failure 1
	assert_output --partial 'nodir/i.tsv: cannot create output'
}

@test "--s2 and -o naming the same file: exit 2, nothing left" {
	ishigami 64 --second-order
	refuse 2 'i.tsv: named twice as an output' -m vbd --s2 i.tsv -o i.tsv d.tsv y.tsv
	assert [ ! -e i.tsv ]
}

@test "--s2 - is refused while the first-order table also goes to stdout (one header per file)" {
	ishigami 64 --second-order
	# today stdout gets two tables, two header lines (param..., param_i...)
	run sa-indices -m vbd --s2 - d.tsv y.tsv
	assert_failure 2
	refute_line --partial $'param_i\tparam_j'
}

@test "-h and --help print the usage on stdout and exit 0" {
	for h in -h --help; do
		run --separate-stderr sa-indices $h
		assert_success
		assert_output --partial 'Usage: sa-indices -m METHOD [options]'
		assert_output --partial '--allow-missing'
		assert_output --partial 'bootstrap resamples [moat 1000; the others 100]'
		assert_output --partial 'harmonics of the spectrum [10]'
		assert_output --partial "slices of each parameter's range [10]"
		assert_output --partial '[0.95]'
		assert_equal "$stderr" ''
	done
}

@test "--version prints the tool and version on stdout" {
	run --separate-stderr sa-indices --version
	assert_success
	assert_output --regexp '^sa-indices \(sareuse\) [0-9]+\.[0-9]+'
	assert_equal "$stderr" ''
}

@test "'-' reads the design from stdin" {
	mixed_moat
	sa-indices -m moat d.tsv y.tsv > a.tsv
	run sa-indices -m moat -o b.tsv - y.tsv < d.tsv
	assert_success
	assert_equal "$(body a.tsv)" "$(body b.tsv)"
}

@test "'-' reads the metrics from stdin" {
	ishigami 128
	sa-indices -m vbd d.tsv y.tsv > a.tsv
	run sa-indices -m vbd -o b.tsv d.tsv - < y.tsv
	assert_success
	assert_equal "$(body a.tsv)" "$(body b.tsv)"
}

@test "errors in stdin name it '<stdin>' with line and column" {
	mixed_moat
	sed 's/^4\t.*/4\tabc/' y.tsv > bad.tsv
	line=$(grep -n $'^4\t' bad.tsv | cut -d: -f1)
	run sa-indices -m moat d.tsv - < bad.tsv
	assert_failure 1
	assert_output --partial "<stdin>:$line: column y: 'abc' is not a number"
}

# --- bad input -----------------------------------------------------------------

@test "missing design or metrics file: exit 1 naming it" {
	refuse 1 'nope.tsv: No such file or directory' -m moat nope.tsv "$DATA/tiles.tsv"
	refuse 1 'none.tsv: No such file or directory' -m moat "$DATA/moat2.tsv" none.tsv
}

@test "empty design, empty metrics, comments only: exit 1" {
	: > empty.tsv
	printf '#only a comment\n' > comments.tsv
	refuse 1 'empty.tsv: empty file, expected a header line' -m moat empty.tsv "$DATA/tiles.tsv"
	refuse 1 'empty.tsv: empty file, expected a header line' -m moat "$DATA/moat2.tsv" empty.tsv
	refuse 1 'comments.tsv: no header line (only comments)' -m moat "$DATA/moat2.tsv" comments.tsv
}

@test "a design with a header but no runs: exit 1" {
	grep -v '^[0-9]' "$DATA/moat2.tsv" > norows.tsv
	refuse 1 'norows.tsv: no runs' -m moat norows.tsv "$DATA/tiles.tsv"
}

@test "wrong method for the design: vbd on a moat design, moat on a vbd design: exit 1" {
	mixed_moat
	refuse 1 'd.tsv: a moat design cannot be analyzed with -m vbd' -m vbd d.tsv y.tsv
	ishigami 64
	refuse 1 'd.tsv: a vbd design cannot be analyzed with -m moat' -m moat d.tsv y.tsv
}

@test "a design without params= metadata (hand-made) is refused: exit 1" {
	printf 'run\ta\tb\n0\t1\t2\n1\t2\t3\n' > h.tsv
	printf 'run\ty\n0\t1\n1\t2\n' > y.tsv
	refuse 1 'h.tsv: no varied parameters in the metadata' -m corr h.tsv y.tsv
}

@test "design rows not matching the metadata: last row deleted (count), middle row deleted (sequence, line and column)" {
	mixed_moat
	head -n -1 d.tsv > short.tsv
	refuse 1 'short.tsv: 49 runs, but its metadata describe 50' -m moat short.tsv y.tsv
	sed '/^5\t/d' d.tsv > gap.tsv
	line=$(grep -n $'^6\t' gap.tsv | cut -d: -f1)
	refuse 1 "gap.tsv:$line: column run: run 6 out of sequence, expected 5" -m moat gap.tsv y.tsv
	ishigami 64
	head -n -1 d.tsv > vshort.tsv
	refuse 1 'vshort.tsv: 319 runs, but its metadata describe 320' -m vbd vshort.tsv y.tsv
}

@test "a design whose trajectory step changes two parameters is not a MOAT design: exit 1" {
	cp "$DATA/moat2.tsv" "$DATA/tiles.tsv" .
	# run 1 = (1,0) -> (0,0): step 0->1 changes both columns
	sed 's/^1\t1\t0$/1\t0\t0/' moat2.tsv > bad.tsv
	refuse 1 'bad.tsv: trajectory 0, step 1 changes 2 parameters: not a MOAT design' -m moat bad.tsv tiles.tsv
}

@test "a moat design with an off-grid default in a trajectory: exit 1 naming run and parameter" {
	# nuclei's G2 default 45 is a valid value but not a level of 2:2:40
	sa-sample -m moat -r 2 "$SPACE" > n.tsv
	awk -F'\t' -v OFS='\t' '$1 == "0" { $8 = 45 } 1' n.tsv > d.tsv
	assert_equal "$(body d.tsv | head -n 1 | cut -f8)" G2
	sa-testfn linear 1 d.tsv > y.tsv
	refuse 1 'd.tsv: run 0: G2 = 45 is not one of its values: not a MOAT design' -m moat d.tsv y.tsv
}

@test "metrics with a run not in the design: exit 1 naming line and column" {
	mixed_moat
	printf '50\t1\n' >> y.tsv
	line=$(wc -l < y.tsv)
	refuse 1 "y.tsv:$line: column run: run 50 is not in the design (runs 0..49)" -m moat d.tsv y.tsv
	sed -i '$d' y.tsv
	printf -- '-1\t1\n' >> y.tsv
	refuse 1 "y.tsv:$line: column run: run -1 is not in the design" -m moat d.tsv y.tsv
}

@test "metrics without a run column: exit 1" {
	printf 'id\ty\n0\t1\n' > y.tsv
	refuse 1 "y.tsv: no column 'run' in the header" -m moat "$DATA/moat2.tsv" y.tsv
}

@test "a repeated run without a tile column: exit 1 naming line and column" {
	mixed_moat
	printf '3\t1\n' >> y.tsv
	line=$(wc -l < y.tsv)
	refuse 1 "y.tsv:$line: column run: run 3 appears twice (no tile column to aggregate over)" -m moat d.tsv y.tsv
}

@test "a repeated run and tile: exit 1 naming line and column" {
	cp "$DATA/tiles.tsv" t.tsv
	printf '2\tt1\t9\n' >> t.tsv
	line=$(wc -l < t.tsv)
	refuse 1 "t.tsv:$line: column tile: run 2 and tile t1 appear twice" -m moat "$DATA/moat2.tsv" t.tsv
	# an error row counts too: a tile is there once, whatever its status
	cp "$DATA/results.tsv" r.tsv
	printf '1\tt2\tok\t0.5\t0.5\t3\t1\n' >> r.tsv
	refuse 1 "column tile: run 1 and tile t2 appear twice" -m moat "$DATA/moat2.tsv" r.tsv
}

@test "a results file with an unknown status: exit 1 naming line and column" {
	sed 's/^2\tt2\tok\t/2\tt2\tfailed\t/' "$DATA/results.tsv" > r.tsv
	line=$(grep -n $'^2\tt2\t' r.tsv | cut -d: -f1)
	refuse 1 "r.tsv:$line: column status: 'failed' is not ok" -m moat "$DATA/moat2.tsv" r.tsv
}

@test "a non-numeric metric: exit 1 naming line and column" {
	mixed_moat
	sed 's/^4\t.*/4\tabc/' y.tsv > bad.tsv
	line=$(grep -n $'^4\t' bad.tsv | cut -d: -f1)
	refuse 1 "bad.tsv:$line: column y: 'abc' is not a number" -m moat d.tsv bad.tsv
	sed 's/^4\t.*/4\t1.5x/' y.tsv > bad2.tsv
	refuse 1 "bad2.tsv:$line: column y: '1.5x' is not a number" -m moat d.tsv bad2.tsv
}

@test "a NaN or infinite metric: exit 1 naming line and column" {
	mixed_moat
	line=$(grep -n $'^4\t' y.tsv | cut -d: -f1)
	for v in NaN nan inf -Inf 1e999; do
		sed "s/^4\t.*/4\t$v/" y.tsv > bad.tsv
		run sa-indices -m moat d.tsv bad.tsv
		assert_failure 1
		assert_output --partial "bad.tsv:$line: column y: '$v' is"
	done
	sed 's/^4\t.*/4\tNaN/' y.tsv > nan.tsv
	refuse 1 "nan.tsv:$line: column y: 'NaN' is not finite" -m moat d.tsv nan.tsv
	# a NaN in an ok row of a results file is refused too
	sed 's/^2\tt1\tok\t0.5/2\tt1\tok\tNaN/' "$DATA/results.tsv" > r.tsv
	refuse 1 "column dice: 'NaN' is not finite" -m moat "$DATA/moat2.tsv" r.tsv
}

@test "a metrics row of the wrong width: exit 1 naming the line" {
	mixed_moat
	printf '39\t1\t2\n' >> y.tsv
	line=$(wc -l < y.tsv)
	refuse 1 "y.tsv:$line: 3 fields, expected 2 (row too long)" -m moat d.tsv y.tsv
}

@test "missing runs with vbd: exit 1 listing them; --allow-missing drops the blocks that hold one, and the indices are those of the other blocks" {
	ishigami 64
	sed '/^4\t/d; /^70\t/d' y.tsv > m.tsv
	refuse 1 'm.tsv: 2 of 320 runs have no y result: 4, 70 (see --allow-missing)' -m vbd d.tsv m.tsv
	run -0 --separate-stderr sa-indices -m vbd --allow-missing -o i.tsv d.tsv m.tsv
	assert_equal "${stderr_lines[0]}" "sa-indices: m.tsv: runs without a result: 2; dropped 2 of 64 blocks"
	assert_equal "$(meta i.tsv blocks)" 62
	assert_equal "$(meta i.tsv dropped)" 2
	# the same indices as a design of the other 62 blocks (5 runs each:
	# blocks 0 and 14 dropped), renumbered
	awk -F'\t' -v OFS='\t' '/^#method=/ { sub(/ n=64 /, " n=62 ") }
	    /^#/ || $1 == "run" { print; next }
	    { b = int($1 / 5); if (b == 0 || b == 14) next; $1 = n++; print }' d.tsv > d62.tsv
	awk -F'\t' -v OFS='\t' '/^#/ || $1 == "run" { print; next }
	    { b = int($1 / 5); if (b == 0 || b == 14) next; $1 = n++; print }' y.tsv > y62.tsv
	sa-indices -m vbd -o j.tsv d62.tsv y62.tsv
	assert_equal "$(body i.tsv)" "$(body j.tsv)"
	sa-indices -m vbd --allow-missing -o full.tsv d.tsv y.tsv
	assert_equal "$(meta full.tsv dropped)" 0
}

@test "missing runs with moat without --allow-missing: exit 1 listing them" {
	mixed_moat
	sed '/^4\t/d; /^17\t/d' y.tsv > m.tsv
	refuse 1 'm.tsv: 2 of 50 runs have no y result: 4, 17 (see --allow-missing)' -m moat d.tsv m.tsv
}

@test "many missing runs: the list stops at 20 with '...'" {
	ishigami 64
	awk '/^#/ || $1 == "run" || $1 >= 30' y.tsv > m.tsv
	refuse 1 'm.tsv: 30 of 320 runs have no y result: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 ...' -m vbd d.tsv m.tsv
}

@test "constant output with vbd: exit 1 'constant'" {
	ishigami 64
	awk -F'\t' -v OFS='\t' '/^#/ || $1 == "run" { print; next } { print $1, 0.5 }' y.tsv > c.tsv
	refuse 1 'c.tsv: the output is constant: no variance to apportion' -m vbd d.tsv c.tsv
	ishigami 64 --second-order
	awk -F'\t' -v OFS='\t' '/^#/ || $1 == "run" { print; next } { print $1, 0.5 }' y.tsv > c.tsv
	refuse 1 'c.tsv: the output is constant' -m vbd --s2 s2.out d.tsv c.tsv
}

# bats test_tags=fast
@test "corr: a constant design column is refused naming the parameter and the design" {
	sa-sample -m lhs -n 30 "$DATA/linear.tsv" > l.tsv
	# c (third parameter) held at 0 in every run
	awk -F'\t' -v OFS='\t' '/^#/ || $1 == "run" { print; next } { $4 = 0; print }' l.tsv > d.tsv
	sa-testfn linear 3,-0.5,1,0 d.tsv > y.tsv
	run sa-indices -m corr d.tsv y.tsv
	assert_failure 1
	assert_output --partial 'constant'
	# today: "y.tsv: input 2 is constant" (0-based index, metrics blamed)
	assert_output --regexp "d\.tsv: .*(parameter|input|column) '?c'? is constant"
}

@test "corr: fewer than k+3 runs: exit 1" {
	sa-sample -m lhs -n 5 "$DATA/linear.tsv" > d.tsv
	sa-testfn linear 3,-0.5,1,0 d.tsv > y.tsv
	refuse 1 'need at least 7 runs for partial correlations, have 5' -m corr d.tsv y.tsv
}

@test "constant output with corr: exit 1" {
	sa-sample -m lhs -n 20 "$DATA/linear.tsv" > d.tsv
	sa-testfn linear 0 d.tsv > c.tsv
	refuse 1 'c.tsv: output is constant' -m corr d.tsv c.tsv
}

@test "unknown method: exit 2" {
	refuse 2 "-m 'sobol': not moat, vbd, corr, efast, rbd_fast, pawn or delta" -m sobol "$DATA/moat2.tsv" "$DATA/tiles.tsv"
}

@test "--aggregate with a bad value: exit 2" {
	refuse 2 "--aggregate 'mode': not mean, median or sum" -m moat --aggregate mode "$DATA/moat2.tsv" "$DATA/tiles.tsv"
}

@test "--conf outside (0, 1): exit 2" {
	ishigami 64
	refuse 2 "--conf '1.5': a level in (0, 1)" -m vbd --conf 1.5 d.tsv y.tsv
	refuse 2 "--conf '0': a level in (0, 1)" -m vbd --conf 0 d.tsv y.tsv
	refuse 2 "--conf '1': a level in (0, 1)" -m vbd --conf 1 d.tsv y.tsv
	refuse 2 "--conf 'high'" -m vbd --conf high d.tsv y.tsv
}

@test "-r negative or not a number: exit 2" {
	ishigami 64
	refuse 2 "-r '-1': a whole number from 0 to 1000000" -m vbd -r -1 d.tsv y.tsv
	refuse 2 "-r '2.5'" -m vbd -r 2.5 d.tsv y.tsv
	refuse 2 "-r 'many'" -m vbd -r many d.tsv y.tsv
}

@test "-s negative or not a number: exit 2" {
	ishigami 64
	refuse 2 "-s '-3'" -m vbd -s -3 d.tsv y.tsv
	refuse 2 "-s 'x'" -m vbd -s x d.tsv y.tsv
}

@test "--s2 or --percentile without vbd: exit 2" {
	refuse 2 '--s2 and --percentile go with -m vbd' -m moat --s2 s2.out "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	refuse 2 '--s2 and --percentile go with -m vbd' -m corr --percentile "$DATA/moat2.tsv" "$DATA/tiles.tsv"
}

@test "--s2 on a design made without --second-order: exit 1, no S2 file" {
	ishigami 64
	refuse 1 'd.tsv: --s2 needs a design made with --second-order' -m vbd --s2 s2.out d.tsv y.tsv
}

@test "--allow-missing with vbd: every block holds a missing run: exit 1" {
	ishigami 4
	awk '$1 % 5 != 2' y.tsv > m.tsv
	refuse 1 'm.tsv: no complete block left: each has a run without a result' -m vbd --allow-missing d.tsv m.tsv
}

@test "wrong number of arguments: exit 2" {
	refuse 2 'expected DESIGN.tsv and METRICS.tsv, got 0 arguments' -m moat
	refuse 2 'expected DESIGN.tsv and METRICS.tsv, got 1 arguments' -m moat "$DATA/moat2.tsv"
	refuse 2 'expected DESIGN.tsv and METRICS.tsv, got 3 arguments' -m moat "$DATA/moat2.tsv" "$DATA/tiles.tsv" "$DATA/tiles.tsv"
}

@test "both inputs '-': exit 2" {
	refuse 2 'only one of DESIGN.tsv and METRICS.tsv can be stdin' -m moat - -
}

@test "an unknown option: exit 2" {
	refuse 2 "'--bogus'" -m moat --bogus "$DATA/moat2.tsv" "$DATA/tiles.tsv"
	assert_output --partial "Try 'sa-indices --help'"
}

@test "an option without its value: exit 2" {
	refuse 2 "needs a value" "$DATA/moat2.tsv" "$DATA/tiles.tsv" -m
	refuse 2 "needs a value" -m moat "$DATA/moat2.tsv" "$DATA/tiles.tsv" --conf
}

@test "a design whose first column is not run: exit 1 naming file and line" {
	mixed_moat
	sed 's/^run\t/id\t/' d.tsv > norun.tsv
	line=$(grep -n $'^id\t' norun.tsv | cut -d: -f1)
	refuse 1 "norun.tsv:$line: the first column must be 'run', not 'id'" -m moat norun.tsv y.tsv
}

@test "a design value off the domain: exit 1 naming line and column" {
	mixed_moat
	# g is int 10:5:30: 17 is off the grid
	awk -F'\t' -v OFS='\t' '$1 == "3" { $2 = 17 } 1' d.tsv > off.tsv
	line=$(grep -n $'^3\t' off.tsv | cut -d: -f1)
	refuse 1 "off.tsv:$line: column g: 17 is off the domain int 10:5:30 (default 20)" -m moat off.tsv y.tsv
	# l is the list 0.5,1,1.5,2: 1.25 is not one of its values
	awk -F'\t' -v OFS='\t' '$1 == "6" { $4 = 1.25 } 1' d.tsv > off2.tsv
	line=$(grep -n $'^6\t' off2.tsv | cut -d: -f1)
	refuse 1 "off2.tsv:$line: column l: 1.25 is off the domain real 0.5,1,1.5,2 (default 1)" -m moat off2.tsv y.tsv
	# c is real 0..2: 2.5 is beyond the range
	awk -F'\t' -v OFS='\t' '$1 == "9" { $3 = 2.5 } 1' d.tsv > off3.tsv
	line=$(grep -n $'^9\t' off3.tsv | cut -d: -f1)
	refuse 1 "off3.tsv:$line: column c: 2.5 is off the domain real 0..2" -m moat off3.tsv y.tsv
}

@test "a non-numeric design value: exit 1 naming line and column" {
	mixed_moat
	awk -F'\t' -v OFS='\t' '$1 == "2" { $5 = "eight" } 1' d.tsv > bad.tsv
	line=$(grep -n $'^2\t' bad.tsv | cut -d: -f1)
	refuse 1 "bad.tsv:$line: column e: 'eight' is not a number" -m moat bad.tsv y.tsv
}

@test "efast: Ishigami's S1 and ST within eFAST's truncation of the analytic ones; intervals; --s2 refused; a missing run refused, or with --allow-missing its parameter's indices lost and said" {
	sa-sample -m efast -n 1000 -s 5 -o d.tsv "$ISHIGAMI"
	sa-testfn ishigami d.tsv > y.tsv
	run -0 sa-indices -m efast -o i.tsv --plot i.png d.tsv y.tsv
	grep -q '^#method=efast metric=y aggregate=mean runs=3000 resamples=100 conf=0.95 seed=1 blocks=3 dropped=0$' i.tsv
	assert_equal "$(grep -v '^#' i.tsv | head -n 1)" $'param\tS1\tS1_conf\tST\tST_conf'
	# analytic: S1 0.3139 0.4424 0, ST 0.5576 0.4424 0.2437; eFAST
	# with M = 4 harmonics leaves a little of each spectrum out
	near "$(get i.tsv x1 S1)" 0.3139 0.02 "S1(x1)"
	near "$(get i.tsv x2 S1)" 0.4424 0.02 "S1(x2)"
	near "$(get i.tsv x3 S1)" 0 0.02 "S1(x3)"
	near "$(get i.tsv x1 ST)" 0.5576 0.03 "ST(x1)"
	near "$(get i.tsv x2 ST)" 0.4424 0.03 "ST(x2)"
	near "$(get i.tsv x3 ST)" 0.2437 0.03 "ST(x3)"
	awk -F'\t' '!/^#/ && $1 != "param" && !($3 > 0 && $3 < 0.1 && $5 > 0 && $5 < 0.1) { exit 1 }' i.tsv ||
	    fail "an interval out of (0, 0.1)"
	[ "$(head -c 4 i.png | tail -c 3)" = PNG ]
	# the same bytes again (the bootstrap is seeded)
	sa-indices -m efast -o j.tsv d.tsv y.tsv
	assert_equal "$(body j.tsv)" "$(body i.tsv)"
	# the design's settings alone are read: its rows are the curves
	# they define
	grep '^#' d.tsv > settings.tsv
	grep -v '^#' d.tsv | head -n 1 >> settings.tsv
	sa-indices -m efast -o k.tsv settings.tsv y.tsv
	assert_equal "$(body k.tsv)" "$(body i.tsv)"
	refuse 2 "--s2 and --percentile go with -m vbd" -m efast --s2 s2.tsv d.tsv y.tsv
	awk '$1 != 7' y.tsv > gap.tsv
	refuse 1 "gap.tsv: 1 of 3000 runs have no y result: 7 (see --allow-missing)" -m efast d.tsv gap.tsv
	# run 7 is in x1's block: x1's indices lost, the others' as before
	run -0 --separate-stderr sa-indices -m efast --allow-missing -o g.tsv d.tsv gap.tsv
	assert_equal "$stderr" "sa-indices: gap.tsv: runs without a result: 1; the blocks of x1 lack some: their S1 and ST are lost (NaN)"
	assert_equal "$(get g.tsv x1 S1)" NaN
	assert_equal "$(get g.tsv x1 ST_conf)" NaN
	assert_equal "$(get g.tsv x2 S1)" "$(get i.tsv x2 S1)"
	assert_equal "$(get g.tsv x3 ST)" "$(get i.tsv x3 ST)"
	assert_equal "$(meta g.tsv blocks)" 2
	assert_equal "$(meta g.tsv dropped)" 1
	# a vbd design is not one
	sa-sample -m vbd -n 8 -o v.tsv "$ISHIGAMI"
	refuse 1 "a vbd design cannot be analyzed with -m efast" -m efast v.tsv y.tsv
}

# --- RBD-FAST, PAWN and delta: of any design ------------------------------

@test "rbd_fast: Ishigami on its random balance design (n = 4000): S1 within 0.03 of the analytic values; on an lhs design too; intervals; seeded bytes; the plot" {
	sa-sample -m rbd_fast -n 4000 -s 5 -o d.tsv "$ISHIGAMI"
	grep -q '^#method=rbd_fast n=4000 k=3 params=x1,x2,x3 seed=5$' d.tsv
	assert_equal "$(grep -vc '^#' d.tsv)" 4001
	sa-testfn ishigami d.tsv > y.tsv
	run -0 sa-indices -m rbd_fast -o i.tsv --plot i.png d.tsv y.tsv
	grep -q '^#method=rbd_fast metric=y aggregate=mean runs=4000 resamples=100 conf=0.95 seed=1 used=4000 dropped=0 M=10$' i.tsv
	assert_equal "$(body i.tsv | head -n 1)" $'param\tS1\tS1_conf'
	near "$(get i.tsv x1 S1)" 0.3139 0.03 "S1(x1)"
	near "$(get i.tsv x2 S1)" 0.4424 0.03 "S1(x2)"
	near "$(get i.tsv x3 S1)" 0 0.03 "S1(x3)"
	awk -F'\t' '!/^#/ && $1 != "param" && !($3 > 0 && $3 < 0.1) { exit 1 }' i.tsv ||
	    fail "an interval out of (0, 0.1)"
	png i.png
	sa-indices -m rbd_fast -o j.tsv d.tsv y.tsv
	assert_equal "$(body j.tsv)" "$(body i.tsv)"
	# any design: an lhs one
	sa-sample -m lhs -n 4000 -s 2 -o l.tsv "$ISHIGAMI"
	sa-testfn ishigami l.tsv > ly.tsv
	sa-indices -m rbd_fast -o l.idx l.tsv ly.tsv
	near "$(get l.idx x1 S1)" 0.3139 0.03 "lhs S1(x1)"
	near "$(get l.idx x2 S1)" 0.4424 0.03 "lhs S1(x2)"
}

@test "-j: efast's and rbd_fast's bootstraps and pawn's parameters give the same bytes on 1, 2 and 5 threads, the bootstraps' draws in chunks too (3000 replicates of 2000); -j with other methods, or 0, refused" {
	sa-sample -m efast -n 600 -s 5 -o e.tsv "$ISHIGAMI"
	sa-testfn ishigami e.tsv > ey.tsv
	sa-sample -m rbd_fast -n 4000 -s 5 -o r.tsv "$ISHIGAMI"
	sa-testfn ishigami r.tsv > ry.tsv
	sa-indices -m efast -o e.idx e.tsv ey.tsv
	sa-indices -m rbd_fast -r 3000 -o r.idx r.tsv ry.tsv
	for j in 1 2 5; do
		sa-indices -m efast -j $j -o e$j.idx e.tsv ey.tsv
		assert_equal "$(body e$j.idx)" "$(body e.idx)"
		sa-indices -m rbd_fast --threads $j -r 3000 -o r$j.idx r.tsv ry.tsv
		assert_equal "$(body r$j.idx)" "$(body r.idx)"
	done
	awk -F'\t' '!/^#/ && $1 != "param" && !($3 > 0 && $3 < 0.1) { exit 1 }' r.idx ||
	    fail "an interval out of (0, 0.1)"
	sa-indices -m pawn -o p.idx r.tsv ry.tsv
	for j in 1 2 5; do
		sa-indices -m pawn -j $j -o p$j.idx r.tsv ry.tsv
		assert_equal "$(body p$j.idx)" "$(body p.idx)"
	done
	refuse 2 "-j goes with -m efast, rbd_fast or pawn (the other analyses run on one thread)" -m delta -j 2 r.tsv ry.tsv
	refuse 2 "-j '0': a whole number from 1 to 1024" -m efast -j 0 e.tsv ey.tsv
}

@test "a design of 30,000 rows (9 MB, two windows) read on threads: the indices of the strict reader; a comment, a blank line, CRLF rows read as before; a wrong row deep inside named at its line" {
	printf 'name\ttype\tvalues\tdefault\n' > cube.tsv
	for i in $(seq 1 15); do printf 'x%d\treal\t0..1\t0.5\n' "$i"; done >> cube.tsv
	sa-sample -m lhs -n 30000 -s 4 -o d.tsv cube.tsv
	[ "$(stat -c %s d.tsv)" -gt 8388608 ]
	sa-testfn sobolg 0,1,4.5,9,99,99,99,99,99,99,99,99,99,99,99 d.tsv > y.tsv
	sa-indices -m pawn -o i.idx d.tsv y.tsv
	head=$(grep -c '^#' d.tsv)	# the header is line head + 1, run r line head + 2 + r
	# one processor: the strict reader alone
	if command -v taskset > /dev/null; then
		taskset -c 0 sa-indices -m pawn -o one.idx d.tsv y.tsv
		assert_equal "$(body one.idx)" "$(body i.idx)"
	fi
	# what the strict reader takes: a comment, a blank line, CRLF
	sed '20000a\
# a note' d.tsv > c.tsv
	sed '25000a\
' d.tsv > b.tsv
	sed 's/$/\r/' d.tsv > crlf.tsv
	for f in c b crlf; do
		sa-indices -m pawn -o $f.idx $f.tsv y.tsv
		assert_equal "$(body $f.idx)" "$(body i.idx)"
	done
	# what it refuses, at its line: deep in the second window too
	awk -F'\t' -v OFS='\t' '$1 == 29000 { $3 = 1.5 } { print }' d.tsv > off.tsv
	refuse 1 "off.tsv:$((head + 2 + 29000)): column x2: 1.5 is off the domain real 0..1 (default 0.5)" -m pawn off.tsv y.tsv
	awk -F'\t' -v OFS='\t' '$1 == 15000 { $1 = 15001 } { print }' d.tsv > seq.tsv
	refuse 1 "seq.tsv:$((head + 2 + 15000)): column run: run 15001 out of sequence, expected 15000" -m pawn seq.tsv y.tsv
	awk -F'\t' -v OFS='\t' '$1 == 100 { NF = 10 } { print }' d.tsv > short.tsv
	refuse 1 "short.tsv:$((head + 2 + 100)): 10 fields, expected 16 (row too short)" -m pawn short.tsv y.tsv
	awk -F'\t' -v OFS='\t' '$1 == 7000 { $5 = $5 "X" } { print }' d.tsv | sed 's/X/\x0/' > nul.tsv
	refuse 1 "nul.tsv:$((head + 2 + 7000)): NUL byte in line: not a text file" -m pawn nul.tsv y.tsv
}

@test "rbd_fast: the design's points lie on the curve, each parameter in its own order; -M sets the harmonics; too few runs refused" {
	sa-sample -m rbd_fast -n 42 -s 3 -o d.tsv "$DATA/linear.tsv"
	# every column holds the same 40 values of the curve, in different orders
	a=$(body d.tsv | awk -F'\t' 'NR > 1 { print $2 }')
	c=$(body d.tsv | awk -F'\t' 'NR > 1 { print $4 }')
	assert_equal "$(sort -g <<< "$a" | awk '{ printf "%.6f\n", ($1 - 0) / 1 }')" \
	    "$(sort -g <<< "$c" | awk '{ printf "%.6f\n", ($1 + 1) / 2 }')"
	[ "$a" != "$(sort -g <<< "$a")" ] || fail "a's values in curve order"
	sa-testfn linear 3,-0.5,1,0 d.tsv > y.tsv
	sa-indices -m rbd_fast -M 4 -r 0 -o i.tsv d.tsv y.tsv
	assert_equal "$(meta i.tsv M)" 4
	assert_equal "$(get i.tsv a S1_conf)" NaN
	sa-indices -m rbd_fast --harmonics 4 -r 0 -o j.tsv d.tsv y.tsv
	assert_equal "$(body j.tsv)" "$(body i.tsv)"
	awk '$1 != 39' y.tsv > gap.tsv
	refuse 1 "d.tsv and gap.tsv: RBD-FAST with M = 10 harmonics needs at least 42 runs, not 41" \
	    -m rbd_fast --allow-missing d.tsv gap.tsv
	refuse 2 "-M goes with -m rbd_fast" -m vbd -M 4 d.tsv y.tsv
	refuse 2 "-M '0': a whole number from 1 to 1000" -m rbd_fast -M 0 d.tsv y.tsv
	run -1 sa-sample -m rbd_fast -n 41 "$DATA/linear.tsv"
	assert_output --partial "rbd_fast: -n 41: its analysis needs at least 42 runs"
}

@test "pawn: y = a on an lhs design: a's median distance 0.7 and maximum 0.9 of the ten slices, the others near 0; the statistics beside; --slices; no bootstrap" {
	sa-sample -m lhs -n 2000 -s 5 -o d.tsv "$DATA/linear.tsv"
	sa-testfn linear 1,0,0,0 d.tsv > y.tsv
	run -0 sa-indices -m pawn -o i.tsv --plot i.png d.tsv y.tsv
	grep -q '^#method=pawn metric=y aggregate=mean runs=2000 used=2000 dropped=0 slices=10$' i.tsv
	assert_equal "$(body i.tsv | head -n 1)" $'param\tpawn\tminimum\tmean\tmaximum\tCV'
	# slice s of a's range holds y in [s/10, (s+1)/10): its distance from
	# all of y is max(s/10, 1 - (s+1)/10), 0.5 to 0.9
	near "$(get i.tsv a pawn)" 0.7 0.01 "pawn(a)"
	near "$(get i.tsv a minimum)" 0.5 0.01 "minimum(a)"
	near "$(get i.tsv a maximum)" 0.9 0.01 "maximum(a)"
	near "$(get i.tsv a mean)" 0.7 0.01 "mean(a)"
	for p in b c d; do less "$(get i.tsv $p maximum)" 0.1 "maximum($p)"; done
	png i.png
	sa-indices -m pawn --slices 5 -o j.tsv d.tsv y.tsv
	assert_equal "$(meta j.tsv slices)" 5
	# five slices: 0.8 0.6 0.4 0.6 0.8... at most 0.8, median 0.6
	near "$(get j.tsv a pawn)" 0.6 0.01 "pawn(a), 5 slices"
	refuse 2 "-r: pawn has no bootstrap" -m pawn -r 10 d.tsv y.tsv
	refuse 2 "--slices goes with -m pawn" -m delta --slices 5 d.tsv y.tsv
	refuse 2 "--slices '1': a whole number from 2 to 1000" -m pawn --slices 1 d.tsv y.tsv
}

@test "delta: y = 3 a + c on an lhs design: S1 of a and c within 0.03 of 9/13 and 4/13, delta ranked the same, b and d near 0; -r 0 gives delta-hat without intervals; the plot" {
	sa-sample -m lhs -n 3000 -s 5 -o d.tsv "$DATA/linear.tsv"
	sa-testfn linear 3,0,1,0 d.tsv > y.tsv
	run -0 sa-indices -m delta -o i.tsv --plot i.png d.tsv y.tsv
	grep -q '^#method=delta metric=y aggregate=mean runs=3000 resamples=100 conf=0.95 seed=1 used=3000 dropped=0 classes=15$' i.tsv
	assert_equal "$(body i.tsv | head -n 1)" $'param\tdelta\tdelta_conf\tS1\tS1_conf'
	# y = 3 a + c: var 9/12 + 4/12, S1 9/13 = 0.6923 and 4/13 = 0.3077
	near "$(get i.tsv a S1)" 0.6923 0.03 "S1(a)"
	near "$(get i.tsv c S1)" 0.3077 0.03 "S1(c)"
	near "$(get i.tsv b S1)" 0 0.01 "S1(b)"
	less "$(get i.tsv c delta)" "$(get i.tsv a delta)" "delta(c) vs delta(a)"
	less "$(get i.tsv b delta)" "$(get i.tsv c delta)" "delta(b) vs delta(c)"
	less "$(get i.tsv d delta)" 0.05 "delta(d)"
	less 0 "$(get i.tsv a delta_conf)" "delta_conf(a)"
	png i.png
	sa-indices -m delta -r 0 -o h.tsv d.tsv y.tsv
	assert_equal "$(get h.tsv a delta_conf)" NaN
	assert_equal "$(get h.tsv a S1)" "$(get i.tsv a S1)"
	# the bias reduction: delta = 2 delta-hat - the replicates' mean, below delta-hat
	less "$(get i.tsv d delta)" "$(get h.tsv d delta)" "delta(d) vs delta-hat(d)"
	sa-testfn linear 0,0,0,0 d.tsv > c.tsv
	refuse 1 "d.tsv and c.tsv: all 3000 outputs are equal" -m delta d.tsv c.tsv
}

@test "rbd_fast, pawn and delta take any design: a MOAT one, a VBD one; --allow-missing drops the runs without a result and says so" {
	mixed_moat
	for m in rbd_fast pawn delta; do
		run -0 sa-indices -m $m -o "$m.tsv" d.tsv y.tsv
		assert_equal "$(meta "$m.tsv" used)" 50
	done
	awk '$1 != 3 && $1 != 17' y.tsv > gap.tsv
	refuse 1 "gap.tsv: 2 of 50 runs have no y result: 3, 17 (see --allow-missing)" -m pawn d.tsv gap.tsv
	run -0 --separate-stderr sa-indices -m delta --allow-missing -o g.tsv d.tsv gap.tsv
	assert_equal "$stderr" "sa-indices: gap.tsv: runs without a result, dropped: 2"
	assert_equal "$(meta g.tsv used)" 48
	assert_equal "$(meta g.tsv dropped)" 2
	ishigami 64
	for m in rbd_fast pawn delta; do
		run -0 sa-indices -m $m -o "$m.tsv" d.tsv y.tsv
		assert_equal "$(meta "$m.tsv" used)" 320
	done
}

@test "a grown design (sa-sample --extend): the indices of a fresh design of N, and the change of each index from the design it grew from (grown_from, INDEX_change)" {
	sa-sample -m vbd --base halton -n 256 -o small.tsv "$ISHIGAMI"
	sa-sample --extend small.tsv -n 512 -o grown.tsv
	sa-sample -m vbd --base halton -n 512 -o fresh.tsv "$ISHIGAMI"
	sa-testfn ishigami grown.tsv > y.tsv
	sa-testfn ishigami small.tsv > ys.tsv
	sa-indices -m vbd -o g.tsv grown.tsv y.tsv
	sa-indices -m vbd -o f.tsv fresh.tsv y.tsv
	sa-indices -m vbd -o s.tsv small.tsv ys.tsv
	assert_equal "$(meta g.tsv grown_from)" 256
	assert_equal "$(body g.tsv | head -n 1)" $'param\tS1\tS1_conf\tST\tST_conf\tS1_change\tST_change'
	# the same indices as the fresh design's, to the byte
	assert_equal "$(body g.tsv | cut -f 1-5)" "$(body f.tsv)"
	# each change is the index now less the small design's
	for p in x1 x2 x3; do
		for i in S1 ST; do
			near "$(get g.tsv $p ${i}_change)" \
			    "$(awk -v a="$(get g.tsv $p $i)" -v b="$(get s.tsv $p $i)" 'BEGIN { printf "%.17g", a - b }')" 1e-15 "$i change of $p"
		done
	done
	# the analyses of given data: the first 256 blocks' runs
	sa-indices -m delta -o d.tsv grown.tsv y.tsv
	sa-indices -m delta -o ds.tsv small.tsv ys.tsv
	assert_equal "$(body d.tsv | head -n 1)" $'param\tdelta\tdelta_conf\tS1\tS1_conf\tdelta_change\tS1_change'
	near "$(get d.tsv x2 S1_change)" "$(awk -v a="$(get d.tsv x2 S1)" -v b="$(get ds.tsv x2 S1)" 'BEGIN { printf "%.17g", a - b }')" 1e-15 "delta's S1 change of x2"
	sa-sample -m mc -n 300 -s 2 -o m.tsv "$ISHIGAMI"
	sa-sample --extend m.tsv -n 600 -o m2.tsv
	sa-testfn ishigami m2.tsv > my.tsv
	sa-indices -m corr -o c.tsv m2.tsv my.tsv
	assert_equal "$(body c.tsv | head -n 1 | cut -f 14-)" $'pearson_change\tspearman_change\tpcc_change\tprcc_change\tsrc_change\tsrrc_change'
	# an ungrown design has no change columns
	run -1 grep -q _change f.tsv
}

@test "vbd of groups: Ishigami with x1 and x3 one group: S1 = S1(x1) + S1(x3) + S13 = 0.5576 and ST the same, x2 0.4424, within 0.02 (N = 4096); the rows named by the groups; S2 of the pair" {
	awk -F'\t' -v OFS='\t' '/^#/ { print; next } $1 == "name" { print $0, "group"; next }
	    { print $0, ($1 == "x2" ? "-" : "g13") }' "$ISHIGAMI" > g.tsv
	sa-sample -m vbd -n 4096 --second-order -o d.tsv g.tsv
	sa-testfn ishigami d.tsv > y.tsv
	sa-indices -m vbd --s2 s2.tsv -o i.tsv d.tsv y.tsv
	assert_equal "$(body i.tsv | cut -f 1 | tr '\n' ' ')" "param g13 x2 "
	near "$(get i.tsv g13 S1)" 0.5576 0.02 "S1(g13)"
	near "$(get i.tsv g13 ST)" 0.5576 0.02 "ST(g13)"
	near "$(get i.tsv x2 S1)" 0.4424 0.02 "S1(x2)"
	near "$(get i.tsv x2 ST)" 0.4424 0.02 "ST(x2)"
	near "$(get2 s2.tsv g13 x2 S2)" 0 0.03 "S2(g13, x2)"
	# the analyses of given data still take each parameter
	sa-indices -m corr -o c.tsv d.tsv y.tsv
	assert_equal "$(body c.tsv | cut -f 1 | tr '\n' ' ')" "param x1 x2 x3 "
}

@test "moat of groups: y = 3 a + c with a and b one group: the group's mu* 3 (each member's |dy/du|, b's through a's move), sigma undefined, c's mu 1 and sigma 0; the rows named by the groups" {
	printf 'name\ttype\tvalues\tdefault\tgroup\na\treal\t0..1\t0.5\tab\nb\treal\t0..1\t0.5\tab\nc\treal\t0..1\t0.5\t-\n' > g.tsv
	sa-sample -m moat -r 20 -o d.tsv g.tsv
	sa-testfn linear 3,0,1 d.tsv > y.tsv
	sa-indices -m moat -o i.tsv d.tsv y.tsv 2> /dev/null
	assert_equal "$(body i.tsv | cut -f 1 | tr '\n' ' ')" "param ab c "
	near "$(get i.tsv ab mu_star)" 3 1e-9 "mu*(ab)"
	assert_equal "$(get i.tsv ab sigma)" NaN
	assert_equal "$(get i.tsv ab effects)" 20
	near "$(get i.tsv c mu)" 1 1e-9 "mu(c)"
	near "$(get i.tsv c sigma)" 0 1e-9 "sigma(c)"
}

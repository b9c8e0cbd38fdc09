#!/usr/bin/env bats
# sa-sample: every method, every option, and refusal of bad input.
load common

bats_require_minimum_version 1.5.0

ISHIGAMI=$TOP/share/spaces/ishigami.tsv
NUCLEI_PARAMS=B,G,R,T1,T2,G1,G2,minSize,maxSize,minSizePl,minSizeSeg,maxSizeSeg,FillHoles,MorphRecon,Watershed
NUCLEI_HEADER=$'run\tB\tG\tR\tT1\tT2\tG1\tG2\tminSize\tmaxSize\tminSizePl\tminSizeSeg\tmaxSizeSeg\tFillHoles\tMorphRecon\tWatershed'
NUCLEI_DEFAULTS=$'220\t220\t220\t5\t4\t80\t45\t11\t1000\t30\t21\t1000\t4\t8\t8'

# --- helpers ---------------------------------------------------------------

# mkspace FILE ROW...: a space.tsv with the standard header and these rows
mkspace() {
	local f=$1
	shift
	printf 'name\ttype\tvalues\tdefault\n' > "$f"
	printf '%s\n' "$@" >> "$f"
}

# rows FILE: number of runs (non-comment lines after the header)
rows() {
	body "$1" | tail -n +2 | wc -l
}

# meta FILE KEY: value of KEY on the '#method=' metadata line
meta() {
	sed -n '/^#method=/{s/^#//;p;q;}' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# header_of SPACE: the design header a space should give
header_of() {
	awk -F'\t' '/^#/ || $1 == "name" { next } { printf "\t%s", $1 }
	    END { printf "\n" }' "$1" | sed 's/^/run/'
}

# numbered FILE: runs are numbered 0..n-1 in order
numbered() {
	run awk -F'\t' '/^#/ || $1 == "run" { next }
	    $1 != n++ { print "line " NR ": run " $1 ", expected " n - 1; exit 1 }' "$1"
	assert_success
}

# in_domain DESIGN SPACE [DEFAULT_OK]: every value lies on its parameter's
# values (grid, range or list; the default too when DEFAULT_OK is 1)
in_domain() {
	run awk -F'\t' -v defok="${3:-0}" '
	function abs(x) { return x < 0 ? -x : x }
	function ok(p, v,   a, n, i, x) {
		if (defok && v + 0 == def[p] + 0)
			return 1
		if (vals[p] ~ /:.*:/) {
			split(vals[p], a, ":")
			if (v < a[1] - 1e-9 || v > a[3] + 1e-9)
				return 0
			x = (v - a[1]) / a[2]
			return abs(x - int(x + 0.5)) < 1e-6
		}
		if (vals[p] ~ /\.\./) {
			split(vals[p], a, "\\.\\.")
			if (type[p] == "int" && v != int(v))
				return 0
			return v >= a[1] && v <= a[2]
		}
		n = split(vals[p], a, ",")
		for (i = 1; i <= n; i++)
			if (v + 0 == a[i] + 0)
				return 1
		return 0
	}
	FNR == NR { if ($0 !~ /^#/ && $1 != "name") { type[$1] = $2
		vals[$1] = $3; def[$1] = $4 }; next }
	/^#/ { next }
	$1 == "run" { for (i = 2; i <= NF; i++) col[i] = $i; next }
	{ for (i = 2; i <= NF; i++) if (!ok(col[i], $i)) {
		printf "run %s: %s=%s is off %s\n", $1, col[i], $i, vals[col[i]]
		bad = 1 } }
	END { exit bad }' "$2" "$1"
	assert_success
}

# check_design FILE SPACE ROWS METHOD K PARAMS: the common shape of a design
check_design() {
	local f=$1 space=$2 n=$3 method=$4 k=$5 params=$6
	assert_equal "$(rows "$f")" "$n"
	assert_equal "$(body "$f" | head -n 1)" "$(header_of "$space")"
	numbered "$f"
	assert_equal "$(meta "$f" method)" "$method"
	assert_equal "$(meta "$f" k)" "$k"
	assert_equal "$(meta "$f" params)" "$params"
	assert_equal "$(meta "$f" seed)" 1
	in_domain "$f" "$space"
}

# distinct FILE: number of distinct parameter sets
distinct() {
	body "$1" | tail -n +2 | cut -f2- | sort -u | wc -l
}

# column FILE NAME: the values of column NAME, one a line
column() {
	body "$1" | awk -F'\t' -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++)
	    if ($i == name) c = i; next } { print $c }'
}

# moat_ok FILE K: consecutive rows of each trajectory differ in exactly one
# column, and each of the K varied columns changes exactly once
moat_ok() {
	run awk -F'\t' -v g="$(($2 + 1))" '
	/^#/ || $1 == "run" { next }
	{
		i = $1 % g
		if (i > 0) {
			d = 0
			for (c = 2; c <= NF; c++)
				if ($c != prev[c]) { d++; ch[c]++ }
			if (d != 1) { print "run " $1 ": " d " columns changed"; bad = 1 }
		}
		for (c = 2; c <= NF; c++)
			prev[c] = $c
		if (i == g - 1) {
			m = 0
			for (c in ch) {
				m++
				if (ch[c] != 1) { print "run " $1 ": column " c \
				    " changed " ch[c] " times"; bad = 1 }
			}
			if (m != g - 1) { print "run " $1 ": " m " columns changed, " \
			    "expected " g - 1; bad = 1 }
			for (c in ch)
				delete ch[c]
		}
	}
	END { exit bad }' "$1"
	assert_success
}

# vbd_ok FILE [SECOND_ORDER]: each block is A, AB_1..AB_k, [BA_1..BA_k,] B,
# where AB_j is A with column j (of params=) taken from B, BA_j the reverse
vbd_ok() {
	run awk -F'\t' -v so="${2:-0}" '
	function check(   j, c, want) {
		for (j = 1; j <= k; j++)
			for (c = 2; c <= NF; c++) {
				want = c == vc[j] ? row[g - 1, c] : row[0, c]
				if (row[j, c] != want) { bad = 1
					printf "block ending at run %d: AB_%d column %d is %s, " \
					    "expected %s\n", $1, j, c, row[j, c], want }
				if (!so)
					continue
				want = c == vc[j] ? row[0, c] : row[g - 1, c]
				if (row[k + j, c] != want) { bad = 1
					printf "block ending at run %d: BA_%d column %d is %s, " \
					    "expected %s\n", $1, j, c, row[k + j, c], want }
			}
	}
	/^#method=/ { for (i = 1; i <= split($0, w, " "); i++)
		if (w[i] ~ /^params=/) k = split(substr(w[i], 8), pn, ",") }
	/^#/ { next }
	$1 == "run" { for (c = 2; c <= NF; c++) idx[$c] = c
		for (j = 1; j <= k; j++) vc[j] = idx[pn[j]]
		g = so ? 2 * k + 2 : k + 2; next }
	{ for (c = 2; c <= NF; c++) row[$1 % g, c] = $c
	  if ($1 % g == g - 1) check(); last = $1 }
	END { if ((last + 1) % g) { print "incomplete block"; bad = 1 }; exit bad }
	' "$1"
	assert_success
}

# refuse CODE MESSAGE ARGS...: see refuse_run in common.bash
refuse() {
	refuse_run sa-sample "$@"
}

# --- normal use of every method ------------------------------------------

@test "mc: n rows, header, metadata and values on the grid (nuclei, ishigami)" {
	sa-sample -m mc -n 40 "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 40 mc 15 "$NUCLEI_PARAMS"
	assert_equal "$(meta d.tsv n)" 40
	sa-sample -m mc -n 30 "$ISHIGAMI" > i.tsv
	check_design i.tsv "$ISHIGAMI" 30 mc 3 x1,x2,x3
}

@test "lhs: n rows, header, metadata and values on the grid (nuclei, ishigami)" {
	sa-sample -m lhs -n 40 "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 40 lhs 15 "$NUCLEI_PARAMS"
	assert_equal "$(meta d.tsv n)" 40
	sa-sample -m lhs -n 30 "$ISHIGAMI" > i.tsv
	check_design i.tsv "$ISHIGAMI" 30 lhs 3 x1,x2,x3
}

# bats test_tags=fast
@test "lhs: each of the n strata of a continuous parameter is hit exactly once" {
	sa-sample -m lhs -n 50 -s 3 "$ISHIGAMI" > d.tsv
	run awk -F'\t' '/^#/ || $1 == "run" { next }
	{ for (c = 2; c <= 4; c++) {
		s = int(($c + 3.141592653589793) / 6.283185307179586 * 50)
		hit[c, s]++ } }
	END { for (c = 2; c <= 4; c++) for (s = 0; s < 50; s++)
		if (hit[c, s] != 1) { print "column " c " stratum " s ": " hit[c, s] + 0; bad = 1 }
	      exit bad }' d.tsv
	assert_success
}

@test "lhs: an int parameter with n values takes each value exactly once for n points" {
	mkspace s.tsv $'y\tint\t1..5\t3' $'x\treal\t0..1\t0.5'
	sa-sample -m lhs -n 5 s.tsv > d.tsv
	assert_equal "$(column d.tsv y | sort -n | tr '\n' ' ')" "1 2 3 4 5 "
}

@test "halton: n rows, header, metadata and values on the grid (nuclei, ishigami)" {
	sa-sample -m halton -n 40 "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 40 halton 15 "$NUCLEI_PARAMS"
	sa-sample -m halton -n 30 "$ISHIGAMI" > i.tsv
	check_design i.tsv "$ISHIGAMI" 30 halton 3 x1,x2,x3
}

@test "hammersley: n rows, header, metadata and values on the grid (nuclei, ishigami)" {
	sa-sample -m hammersley -n 40 "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 40 hammersley 15 "$NUCLEI_PARAMS"
	sa-sample -m hammersley -n 30 "$ISHIGAMI" > i.tsv
	check_design i.tsv "$ISHIGAMI" 30 hammersley 3 x1,x2,x3
}

@test "hammersley: the first coordinate is i/n" {
	mkspace s.tsv $'x\treal\t0..1\t0.5' $'y\treal\t0..1\t0.5'
	sa-sample -m hammersley -n 4 s.tsv > d.tsv
	assert_equal "$(column d.tsv x | tr '\n' ' ')" "0 0.25 0.5 0.75 "
}

@test "sobol: n rows, header, metadata and values on the grid (nuclei, ishigami)" {
	sa-sample -m sobol -n 40 "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 40 sobol 15 "$NUCLEI_PARAMS"
	sa-sample -m sobol -n 30 "$ISHIGAMI" > i.tsv
	check_design i.tsv "$ISHIGAMI" 30 sobol 3 x1,x2,x3
}

@test "random: n distinct rows on the grid (nuclei, ishigami)" {
	sa-sample -m random -n 60 "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 60 random 15 "$NUCLEI_PARAMS"
	assert_equal "$(distinct d.tsv)" 60
	sa-sample -m random -n 30 "$ISHIGAMI" > i.tsv
	check_design i.tsv "$ISHIGAMI" 30 random 3 x1,x2,x3
	assert_equal "$(distinct i.tsv)" 30
}

@test "random: can draw every set of a small space, all distinct" {
	mkspace s.tsv $'a\tint\t1:1:3\t2' $'b\tenum\t4,8\t4'
	sa-sample -m random -n 6 s.tsv > d.tsv
	assert_equal "$(rows d.tsv)" 6
	assert_equal "$(distinct d.tsv)" 6
}

@test "random: refuses more distinct sets than the space holds" {
	mkspace s.tsv $'a\tint\t1:1:3\t2' $'b\tenum\t4,8\t4'
	refuse 1 "the space has only 6" -m random -n 7 s.tsv
	assert_output --partial "s.tsv"
}

@test "grid: complete factorial, rows = product of value counts (nuclei with --fix)" {
	local fix=() p
	for p in R=210 T2=3 G1=5 G2=2 minSize=2 maxSize=900 minSizePl=5 \
	    minSizeSeg=2 maxSizeSeg=900 MorphRecon=4 Watershed=4; do
		fix+=(--fix "$p")
	done
	sa-sample -m grid "${fix[@]}" "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 352 grid 4 B,G,T1,FillHoles
	assert_equal "$(distinct d.tsv)" 352
	assert_equal "$(meta d.tsv n)" 352
	assert_equal "$(column d.tsv T1 | sort -un | wc -l)" 11
}

@test "grid: continuous ranges get -p levels, ends included (ishigami)" {
	sa-sample -m grid -p 4 "$ISHIGAMI" > d.tsv
	check_design d.tsv "$ISHIGAMI" 64 grid 3 x1,x2,x3
	assert_equal "$(distinct d.tsv)" 64
	assert_equal "$(meta d.tsv p)" 4
	assert_equal "$(column d.tsv x3 | sort -u | wc -l)" 4
	assert_equal "$(column d.tsv x1 | sort -g | head -n 1)" -3.141592653589793
	assert_equal "$(column d.tsv x1 | sort -g | tail -n 1)" 3.141592653589793
}

@test "grid: a 0.1-step grid prints values as written (0.3, not 0.30000000000000004)" {
	mkspace s.tsv $'x\treal\t0:0.1:1\t0.5'
	sa-sample -m grid s.tsv > d.tsv
	assert_equal "$(column d.tsv x | tr '\n' ' ')" \
	    "0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1 "
}

@test "grid: beyond 1e7 runs is refused without --force (usage error)" {
	# 16 x 16 x 20 x 13 x 13 x 13 = 11,248,640 runs
	refuse 2 "--force" -m grid --fix B=220 --fix G=220 --fix R=220 \
	    --fix T1=5 --fix T2=4 --fix minSize=11 --fix FillHoles=4 \
	    --fix MorphRecon=8 --fix Watershed=8 "$SPACE"
	assert_output --partial "more than 1e+07"
}

@test "grid: beyond 1e9 runs is refused even with --force (usage error)" {
	refuse 2 "too many" -m grid --force "$SPACE"
}

@test "grid: --force lets a small grid through unchanged" {
	sa-sample -m grid -p 3 "$ISHIGAMI" > a.tsv
	sa-sample -m grid -p 3 --force "$ISHIGAMI" > b.tsv
	assert_equal "$(rows b.tsv)" 27
	assert_equal "$(body b.tsv)" "$(body a.tsv)"
}

@test "moat: r*(k+1) rows, metadata r and p (nuclei, ishigami)" {
	sa-sample -m moat -r 3 "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 48 moat 15 "$NUCLEI_PARAMS"
	assert_equal "$(meta d.tsv r)" 3
	assert_equal "$(meta d.tsv p)" 4
	sa-sample -m moat -r 5 "$ISHIGAMI" > i.tsv
	check_design i.tsv "$ISHIGAMI" 20 moat 3 x1,x2,x3
}

@test "moat: consecutive rows of a trajectory differ in one column, each parameter once" {
	sa-sample -m moat -r 10 "$SPACE" > d.tsv
	moat_ok d.tsv 15
	sa-sample -m moat -r 10 -s 9 "$ISHIGAMI" > i.tsv
	moat_ok i.tsv 3
}

@test "moat: a 2-valued enum jumps between its two values, a 4-value grid by 2 levels" {
	sa-sample -m moat -r 10 "$SPACE" > d.tsv
	run awk -F'\t' '/^#/ || $1 == "run" { next }
	$1 % 16 && $14 != p14 && !($14 + p14 == 12 && $14 != 6) { print "run " $1 ": FillHoles " p14 " -> " $14; bad = 1 }
	$1 % 16 && $2 != p2 && ($2 - p2 != 20 && p2 - $2 != 20) { print "run " $1 ": B " p2 " -> " $2; bad = 1 }
	{ p14 = $14; p2 = $2 }
	END { exit bad }' d.tsv
	assert_success
}

@test "moat: a continuous range takes exactly its 4 Morris levels (ishigami, no rounding drift)" {
	sa-sample -m moat -r 40 "$ISHIGAMI" > d.tsv
	local x
	for x in x1 x2 x3; do
		assert_equal "$(column d.tsv "$x" | sort -u | wc -l)" 4
	done
}

@test "moat: -p sets the levels of a continuous range (p=6: exactly 6 values, jump 3/5 of the range)" {
	mkspace s.tsv $'x\treal\t0..10\t5' $'y\treal\t0..10\t5'
	sa-sample -m moat -r 20 -p 6 s.tsv > d.tsv
	assert_equal "$(meta d.tsv p)" 6
	run bash -c "grep -v '^#' d.tsv | tail -n +2 | cut -f2,3 | tr '\t' '\n' | sort -un"
	assert_output "$(printf '%s\n' 0 2 4 6 8 10)"
	run awk -F'\t' '/^#/ || $1 == "run" { next }
	$1 % 3 { d = ($2 - x) + ($3 - y); if (d != 6 && d != -6) { print "run " $1 ": jump " d; bad = 1 } }
	{ x = $2; y = $3 } END { exit bad }' d.tsv
	assert_success
}

@test "moat: --optimize K keeps K trajectories, not simply the first K" {
	sa-sample -m moat -r 12 --optimize 4 "$SPACE" > o.tsv
	assert_equal "$(rows o.tsv)" 64
	assert_equal "$(meta o.tsv r)" 4
	assert_equal "$(meta o.tsv candidates)" 12
	moat_ok o.tsv 15
	in_domain o.tsv "$SPACE"
	sa-sample -m moat -r 12 "$SPACE" > all.tsv
	refute [ "$(body o.tsv)" = "$(body all.tsv | head -n 65)" ]
	# every kept trajectory is one of the 12 drawn
	body all.tsv | tail -n +2 | cut -f2- | sort -u > drawn
	body o.tsv | tail -n +2 | cut -f2- | sort -u > kept
	assert_equal "$(comm -23 kept drawn)" ""
}

# bats test_tags=fast
@test "moat: --optimize is deterministic" {
	sa-sample -m moat -r 12 --optimize 4 "$SPACE" > a.tsv
	sa-sample -m moat -r 12 --optimize 4 "$SPACE" > b.tsv
	cmp a.tsv b.tsv
}

@test "moat: --optimize K > r is a usage error (exit 2)" {
	refuse 2 "--optimize 5" -m moat -r 3 --optimize 5 "$SPACE"
}

@test "moat: --optimize without -m moat is a usage error" {
	refuse 2 "--optimize goes with -m moat" -m lhs --optimize 2 "$SPACE"
}

@test "vbd: N*(k+2) rows, metadata base, second_order, skip (nuclei, ishigami)" {
	sa-sample -m vbd -n 4 "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 68 vbd 15 "$NUCLEI_PARAMS"
	assert_equal "$(meta d.tsv n)" 4
	assert_equal "$(meta d.tsv base)" sobol
	assert_equal "$(meta d.tsv second_order)" 0
	assert_equal "$(meta d.tsv skip)" 16
	sa-sample -m vbd -n 100 "$ISHIGAMI" > i.tsv
	check_design i.tsv "$ISHIGAMI" 500 vbd 3 x1,x2,x3
	assert_equal "$(meta i.tsv skip)" 128
}

@test "vbd: AB_j equals A except column j, which equals B's (nuclei, ishigami)" {
	sa-sample -m vbd -n 8 "$SPACE" > d.tsv
	vbd_ok d.tsv
	sa-sample -m vbd -n 16 "$ISHIGAMI" > i.tsv
	vbd_ok i.tsv
}

@test "vbd: --second-order gives N*(2k+2) rows with BA_j blocks" {
	sa-sample -m vbd -n 4 --second-order "$SPACE" > d.tsv
	check_design d.tsv "$SPACE" 128 vbd 15 "$NUCLEI_PARAMS"
	assert_equal "$(meta d.tsv second_order)" 1
	vbd_ok d.tsv 1
	sa-sample -m vbd -n 8 --second-order "$ISHIGAMI" > i.tsv
	assert_equal "$(rows i.tsv)" 64
	vbd_ok i.tsv 1
}

@test "vbd: --base mc, lhs, halton, hammersley, sobol each give valid blocks" {
	local b
	for b in mc lhs halton hammersley sobol; do
		sa-sample -m vbd -n 6 --base "$b" "$SPACE" > "$b.tsv"
		check_design "$b.tsv" "$SPACE" 102 vbd 15 "$NUCLEI_PARAMS"
		assert_equal "$(meta "$b.tsv" base)" "$b"
		vbd_ok "$b.tsv"
	done
	assert_equal "$(meta mc.tsv skip)" ""
	refute [ "$(body mc.tsv)" = "$(body lhs.tsv)" ]
	refute [ "$(body halton.tsv)" = "$(body sobol.tsv)" ]
}

@test "vbd: an unknown --base is a usage error" {
	refuse 2 "--base 'foo'" -m vbd --base foo "$SPACE"
}

@test "vbd: --base sobol with k > 20 is refused naming GSL's limit" {
	local i rows=()
	for i in $(seq 1 21); do
		rows+=("p$i"$'\treal\t0..1\t0.5')
	done
	mkspace k21.tsv "${rows[@]}"
	refuse 1 "GSL's Sobol limit of 40 (k <= 20)" -m vbd -n 4 k21.tsv
	assert_output --partial "k21.tsv"
	sa-sample -m vbd -n 2 --base halton k21.tsv > d.tsv
	assert_equal "$(rows d.tsv)" 46
}

@test "vbd: --second-order without -m vbd is a usage error" {
	refuse 2 "--second-order goes with -m vbd" -m lhs --second-order "$SPACE"
}

@test "parameters with a single value are held, not varied" {
	mkspace s.tsv $'a\tint\t5:1:5\t5' $'x\treal\t0..1\t0.5' \
	    $'e\tenum\t3\t3' $'y\tint\t1,2,3\t2'
	local m
	for m in mc lhs sobol random; do
		sa-sample -m "$m" -n 6 s.tsv > d.tsv
		assert_equal "$(meta d.tsv k)" 2
		assert_equal "$(meta d.tsv params)" x,y
		assert_equal "$(column d.tsv a | sort -u)" 5
		assert_equal "$(column d.tsv e | sort -u)" 3
	done
	sa-sample -m moat -r 3 s.tsv > d.tsv
	assert_equal "$(rows d.tsv)" 9
	moat_ok d.tsv 2
	sa-sample -m vbd -n 2 s.tsv > d.tsv
	assert_equal "$(rows d.tsv)" 8
	vbd_ok d.tsv
	sa-sample -m grid -p 3 s.tsv > d.tsv
	assert_equal "$(rows d.tsv)" 9
}

@test "a space where nothing varies gives n identical rows with every unit-cube method" {
	mkspace s.tsv $'a\tint\t5:1:5\t5' $'e\tenum\t3\t3'
	local m
	for m in mc lhs sobol halton hammersley; do
		run sa-sample -m "$m" -n 3 s.tsv
		assert_success
		assert_output --partial $'2\t5\t3'
	done
}

# --- --fix -----------------------------------------------------------------

@test "--fix holds a column constant and removes it from params and k" {
	sa-sample -m lhs -n 20 --fix T1=6.5 --fix FillHoles=8 "$SPACE" > d.tsv
	assert_equal "$(meta d.tsv k)" 13
	assert_equal "$(meta d.tsv params)" \
	    B,G,R,T2,G1,G2,minSize,maxSize,minSizePl,minSizeSeg,maxSizeSeg,MorphRecon,Watershed
	assert_equal "$(column d.tsv T1 | sort -u)" 6.5
	assert_equal "$(column d.tsv FillHoles | sort -u)" 8
	assert_equal "$(body d.tsv | head -n 1)" "$NUCLEI_HEADER"
	in_domain d.tsv "$SPACE"
}

@test "--fix works with moat and vbd (k shrinks, structure holds)" {
	sa-sample -m moat -r 4 --fix B=230 "$SPACE" > m.tsv
	assert_equal "$(rows m.tsv)" 60
	assert_equal "$(meta m.tsv k)" 14
	assert_equal "$(column m.tsv B | sort -u)" 230
	moat_ok m.tsv 14
	sa-sample -m vbd -n 3 --fix B=230 --fix G=210 "$SPACE" > v.tsv
	assert_equal "$(rows v.tsv)" 45
	assert_equal "$(meta v.tsv k)" 13
	vbd_ok v.tsv
}

@test "--fix accepts the off-grid default (G2=45) and numbers written differently (220.0)" {
	sa-sample -m mc -n 5 --fix G2=45 --fix B=220.0 "$SPACE" > d.tsv
	assert_equal "$(column d.tsv G2 | sort -u)" 45
	assert_equal "$(column d.tsv B | sort -u)" 220
}

@test "--fix with an unknown name is a usage error" {
	refuse 2 "no parameter nope" -m lhs -n 3 --fix nope=3 "$SPACE"
}

@test "--fix with a value off the domain is a usage error naming the domain" {
	refuse 2 "'215' is not a value of B (int 210:10:240, default 220)" \
	    -m lhs -n 3 --fix B=215 "$SPACE"
	refuse 2 "is not a value of FillHoles" -m lhs -n 3 --fix FillHoles=6 "$SPACE"
	refuse 2 "'abc' is not a value of B" -m lhs -n 3 --fix B=abc "$SPACE"
}

@test "--fix without NAME=VALUE is a usage error" {
	refuse 2 "--fix 'B': expected NAME=VALUE" -m lhs -n 3 --fix B "$SPACE"
	refuse 2 "--fix '=3': expected NAME=VALUE" -m lhs -n 3 --fix =3 "$SPACE"
}

# --- --reference -----------------------------------------------------------

@test "--reference alone: one run with the defaults, off-grid G2=45 included" {
	sa-sample --reference "$SPACE" > d.tsv
	assert_equal "$(body d.tsv)" "$NUCLEI_HEADER"$'\n0\t'"$NUCLEI_DEFAULTS"
	assert_equal "$(meta d.tsv method)" reference
	assert_equal "$(meta d.tsv k)" 0
	assert_equal "$(meta d.tsv reference)" 0
	in_domain d.tsv "$SPACE" 1
}

# bats test_tags=fast
@test "--reference alone honours --fix" {
	sa-sample --reference --fix G2=10 "$SPACE" > d.tsv
	assert_equal "$(column d.tsv G2)" 10
	assert_equal "$(column d.tsv B)" 220
}

@test "--reference with a method adds the defaults as the last run, reference=RUN" {
	sa-sample -m lhs -n 5 --reference "$SPACE" > d.tsv
	assert_equal "$(rows d.tsv)" 6
	assert_equal "$(meta d.tsv reference)" 5
	assert_equal "$(body d.tsv | tail -n 1)" $'5\t'"$NUCLEI_DEFAULTS"
	numbered d.tsv
	sa-sample -m lhs -n 5 "$SPACE" > plain.tsv
	assert_equal "$(body d.tsv | head -n 6)" "$(body plain.tsv)"
	in_domain d.tsv "$SPACE" 1
}

@test "--reference with moat, vbd, grid: reference is the last run number" {
	sa-sample -m moat -r 2 --reference "$SPACE" > m.tsv
	assert_equal "$(rows m.tsv)" 33
	assert_equal "$(meta m.tsv reference)" 32
	assert_equal "$(body m.tsv | tail -n 1)" $'32\t'"$NUCLEI_DEFAULTS"
	sa-sample -m moat -r 6 --optimize 2 --reference "$SPACE" > o.tsv
	assert_equal "$(rows o.tsv)" 33
	assert_equal "$(meta o.tsv reference)" 32
	sa-sample -m vbd -n 2 --second-order --reference "$ISHIGAMI" > v.tsv
	assert_equal "$(rows v.tsv)" 17
	assert_equal "$(meta v.tsv reference)" 16
	assert_equal "$(body v.tsv | tail -n 1)" $'16\t0\t0\t0'
	sa-sample -m grid -p 2 --reference "$ISHIGAMI" > g.tsv
	assert_equal "$(rows g.tsv)" 9
	assert_equal "$(meta g.tsv reference)" 8
}

@test "--reference with --fix uses the fixed value in the reference run" {
	sa-sample -m mc -n 3 --fix B=240 --reference "$SPACE" > d.tsv
	assert_equal "$(column d.tsv B | sort -u)" 240
}

# --- reproducibility, seeds, -o, stdin -------------------------------------

@test "same seed gives identical bytes for every method" {
	local m
	for m in mc lhs halton hammersley sobol random; do
		sa-sample -m "$m" -n 30 -s 5 "$SPACE" > a.tsv
		sa-sample -m "$m" -n 30 -s 5 "$SPACE" > b.tsv
		cmp a.tsv b.tsv
	done
	sa-sample -m moat -r 5 -s 5 "$SPACE" > a.tsv
	sa-sample -m moat -r 5 -s 5 "$SPACE" > b.tsv
	cmp a.tsv b.tsv
	sa-sample -m vbd -n 5 --base lhs -s 5 "$SPACE" > a.tsv
	sa-sample -m vbd -n 5 --base lhs -s 5 "$SPACE" > b.tsv
	cmp a.tsv b.tsv
}

@test "a different seed gives different rows (mc, lhs, random, moat, vbd lhs)" {
	local m
	for m in "mc -n 20" "lhs -n 20" "random -n 20" "moat -r 3" \
	    "vbd --base lhs -n 4"; do
		sa-sample -m $m -s 1 "$SPACE" > a.tsv
		sa-sample -m $m -s 2 "$SPACE" > b.tsv
		refute [ "$(body a.tsv)" = "$(body b.tsv)" ]
	done
	sa-sample -m mc -n 3 -s 77 "$SPACE" > s.tsv
	assert_equal "$(meta s.tsv seed)" 77
}

@test "distinct seeds, including 0, give distinct designs; seeds past 2^32-2 are refused" {
	sa-sample -m mc -n 10 -s 0 "$ISHIGAMI" > s0.tsv
	sa-sample -m mc -n 10 -s 4357 "$ISHIGAMI" > s4357.tsv
	refute [ "$(body s0.tsv)" = "$(body s4357.tsv)" ]
	sa-sample -m mc -n 10 -s 4294967294 "$ISHIGAMI" > smax.tsv
	refute [ "$(body s0.tsv)" = "$(body smax.tsv)" ]
	run sa-sample -m mc -n 10 -s 4294967295 "$ISHIGAMI"
	assert_failure 2
	assert_output --partial "seeds go from 0 to 4294967294"
}

@test "-o FILE writes what stdout gets, atomically, no temporaries left" {
	sa-sample -m lhs -n 25 "$SPACE" > stdout.tsv
	run sa-sample -m lhs -n 25 -o file.tsv "$SPACE"
	assert_success
	assert_output ''
	assert_equal "$(grep -v '^#command line' file.tsv)" \
	    "$(grep -v '^#command line' stdout.tsv)"
	grep -q '^#command line: sa-sample -m lhs -n 25 -o file.tsv' file.tsv
	no_temp_files
}

@test "-o replaces an existing file, and -o - is stdout" {
	printf 'old\n' > d.tsv
	sa-sample -m mc -n 3 -o d.tsv "$SPACE"
	assert_equal "$(rows d.tsv)" 3
	run --separate-stderr sa-sample -m mc -n 3 -o - "$SPACE"
	assert_success
	assert_equal "$(printf '%s\n' "$output" | grep -vc '^#')" 4
}

@test "-o into a missing directory fails with exit 1 and a message" {
	run sa-sample -m mc -n 3 -o nodir/d.tsv "$SPACE"
	assert_failure 1
	assert_output --partial "nodir/d.tsv"
}

@test "- reads the space from stdin" {
	sa-sample -m lhs -n 5 "$SPACE" > file.tsv
	run --separate-stderr sa-sample -m lhs -n 5 - < "$SPACE"
	assert_success
	assert_equal "$(printf '%s\n' "$output" | grep -v '^#')" "$(body file.tsv)"
	assert_equal "$(printf '%s\n' "$output" | grep '^#method=')" \
	    "$(grep '^#method=' file.tsv)"
}

@test "a bad space on stdin is named <stdin> with its line" {
	mkspace s.tsv $'a\tint\t1:1:3\t2' $'b\tfloat\t1..2\t1'
	run sa-sample -m lhs -n 5 -o d.tsv - < s.tsv
	assert_failure 1
	assert_output --partial "<stdin>:3:"
	assert [ ! -e d.tsv ]
	no_temp_files
}

@test "CRLF line endings are accepted and give the same design" {
	sa-sample -m lhs -n 8 "$SPACE" > lf.tsv
	sed 's/$/\r/' "$SPACE" > crlf.tsv
	run sa-sample -m lhs -n 8 crlf.tsv
	assert_success
	sa-sample -m lhs -n 8 crlf.tsv > out.tsv
	assert_equal "$(body out.tsv)" "$(body lf.tsv)"
	assert_equal "$(grep -c $'\r' out.tsv)" 0
}

@test "comments and blank lines anywhere in the space are skipped" {
	{ echo '# leading'; echo; grep -v '^#' "$ISHIGAMI" | sed '2a# between'; echo; } > s.tsv
	sa-sample -m sobol -n 5 "$ISHIGAMI" > a.tsv
	sa-sample -m sobol -n 5 s.tsv > b.tsv
	assert_equal "$(body b.tsv)" "$(body a.tsv)"
}

# --- help, version, usage errors ---------------------------------------------

@test "-h and --help print usage with the defaults on stdout, exit 0" {
	local h
	for h in -h --help; do
		run --separate-stderr sa-sample "$h"
		assert_success
		assert_equal "$stderr" ""
		assert_output --partial "Usage: sa-sample"
		assert_output --partial "[1000]"
		assert_output --partial "[20]"
		assert_output --partial "[4]"
		assert_output --partial "[1]"
		assert_output --partial "[sobol]"
		assert_output --partial "--second-order"
		assert_output --partial "--optimize"
		assert_output --partial "--reference"
		assert_output --partial "--fix"
		assert_output --partial "--force"
	done
}

@test "--version prints the version on stdout, exit 0" {
	run --separate-stderr sa-sample --version
	assert_success
	assert_equal "$stderr" ""
	assert_output --regexp '^sa-sample \(sareuse\) [0-9]+\.[0-9]+'
}

@test "unknown method is a usage error (exit 2)" {
	refuse 2 "-m 'bogus': not mc, lhs, halton, hammersley, sobol, random, grid, moat, vbd, pso, anneal, tpe, efast or rbd_fast" -m bogus "$SPACE"
	assert_output --partial "--help"
}

@test "-n 0, -n abc, -n 2.5, -r 0, -p 1, -s -1 are usage errors (exit 2)" {
	refuse 2 "-n '0': a whole number from 1 to 1e9" -m lhs -n 0 "$SPACE"
	refuse 2 "-n 'abc': a whole number from 1 to 1e9" -m lhs -n abc "$SPACE"
	refuse 2 "-n '2.5': a whole number from 1 to 1e9" -m lhs -n 2.5 "$SPACE"
	refuse 2 "-r '0': a whole number from 1 to 1e9" -m moat -r 0 "$SPACE"
	refuse 2 "-p '1': a whole number from 2 to 1e9" -m moat -p 1 "$SPACE"
	refuse 2 "-s '-1': seeds go from 0 to 4294967294" -m lhs -s -1 "$SPACE"
}

@test "unknown options are usage errors (exit 2)" {
	refuse 2 "unknown option" -m lhs --bogus "$SPACE"
	assert_output --partial "--bogus"
	refuse 2 "unknown option" -m lhs -x "$SPACE"
}

@test "no method, no space, two spaces are usage errors (exit 2)" {
	refuse 2 "no method given" "$SPACE"
	refuse 2 "no SPACE.tsv given" -m lhs
	refuse 2 "one SPACE.tsv expected, got 2 arguments" -m lhs "$SPACE" "$SPACE"
}

@test "a design too large for any method is a usage error" {
	refuse 2 "too many" -m vbd -n 100000000 "$SPACE"
}

# --- bad space files -------------------------------------------------------

@test "missing space file: exit 1 naming it" {
	refuse 1 "nonexist.tsv: No such file or directory" -m lhs -n 3 nonexist.tsv
}

@test "empty space file: exit 1" {
	: > s.tsv
	refuse 1 "s.tsv: empty file, expected a header line" -m lhs -n 3 s.tsv
}

@test "space file with only comments: exit 1" {
	printf '#one\n#two\n' > s.tsv
	refuse 1 "s.tsv: no header line (only comments)" -m lhs -n 3 s.tsv
}

@test "space file with a header and no parameters: exit 1" {
	mkspace s.tsv
	refuse 1 "s.tsv: no parameters" -m lhs -n 3 s.tsv
}

@test "header missing a column: exit 1 naming the column" {
	printf 'name\ttype\tvalues\na\tint\t1:1:3\n' > s.tsv
	refuse 1 "s.tsv: no column 'default' in the header" -m lhs -n 3 s.tsv
}

@test "header naming a column twice: exit 1" {
	printf 'name\ttype\tvalues\tdefault\tname\na\tint\t1:1:3\t2\ta\n' > s.tsv
	refuse 1 "s.tsv:1: header: column name named twice" -m lhs -n 3 s.tsv
}

@test "row with too few fields: exit 1 naming file:line" {
	mkspace s.tsv $'a\tint\t1:1:3\t2' $'b\tint\t1:1:3'
	refuse 1 "s.tsv:3: 3 fields, expected 4 (row too short)" -m lhs -n 3 s.tsv
}

@test "row with too many fields: exit 1 naming file:line" {
	mkspace s.tsv $'a\tint\t1:1:3\t2\textra'
	refuse 1 "s.tsv:2: 5 fields, expected 4 (row too long)" -m lhs -n 3 s.tsv
}

@test "bad type: exit 1 naming file:line and parameter" {
	mkspace s.tsv $'a\tfloat\t1:1:3\t2'
	refuse 1 "s.tsv:2: column type: parameter a: type 'float' is not int, real or enum" \
	    -m lhs -n 3 s.tsv
}

@test "unparsable numbers in values and default: exit 1 naming file:line" {
	mkspace s.tsv $'a\treal\t1:x:3\t2'
	refuse 1 "s.tsv:2: column values: parameter a: grid '1:x:3': not a number" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t1..3\t2' $'b\treal\t1..3\tabc'
	refuse 1 "s.tsv:3: column default: parameter b: default 'abc': not a number" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\tint\t1,2,x\t2'
	refuse 1 "s.tsv:2: column values: parameter a: list value 'x': not a number" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\tint\t0x10..20\t16'
	refuse 1 "s.tsv:2: column values: parameter a: range '0x10..20': not a number" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t1..3\t'
	refuse 1 "s.tsv:2: column default: parameter a: default '': empty" -m lhs -n 3 s.tsv
}

@test "NaN in values or default: exit 1 naming file:line" {
	mkspace s.tsv $'a\treal\tnan..3\t2'
	refuse 1 "s.tsv:2: column values: parameter a: range 'nan..3': not finite" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t1..3\tNaN'
	refuse 1 "s.tsv:2: column default: parameter a: default 'NaN': not finite" -m lhs -n 3 s.tsv
}

@test "inf in values or default, and 1e400: exit 1 naming file:line" {
	mkspace s.tsv $'a\treal\t1..inf\t2'
	refuse 1 "s.tsv:2: column values: parameter a: range '1..inf': not finite" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t1:1:3\t-Inf'
	refuse 1 "s.tsv:2: column default: parameter a: default '-Inf': not finite" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t1e400..2\t1'
	refuse 1 "s.tsv:2: column values: parameter a: range '1e400..2': out of range" -m lhs -n 3 s.tsv
}

# bats test_tags=fast
@test "space errors name the column (values, default, type) like other reader errors" {
	mkspace s.tsv $'a\treal\t1..3\tabc'
	run sa-sample -m lhs -n 3 s.tsv
	assert_failure 1
	assert_output --partial "s.tsv:2: column default:"
	mkspace s.tsv $'a\treal\tnan..3\t2'
	run sa-sample -m lhs -n 3 s.tsv
	assert_failure 1
	assert_output --partial "s.tsv:2: column values:"
	mkspace s.tsv $'a\tfloat\t1..3\t2'
	run sa-sample -m lhs -n 3 s.tsv
	assert_failure 1
	assert_output --partial "s.tsv:2: column type:"
}

@test "lo:step:hi with hi not on the grid: exit 1" {
	mkspace s.tsv $'a\treal\t1:0.3:2\t1'
	refuse 1 "s.tsv:2: column values: parameter a: grid '1:0.3:2': hi is not lo plus a whole number of steps" \
	    -m lhs -n 3 s.tsv
}

@test "negative or zero step: exit 1" {
	mkspace s.tsv $'a\treal\t1:-1:3\t2'
	refuse 1 "s.tsv:2: column values: parameter a: grid '1:-1:3': step must be positive" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t1:0:3\t2'
	refuse 1 "grid '1:0:3': step must be positive" -m lhs -n 3 s.tsv
}

@test "grid with hi below lo: exit 1" {
	mkspace s.tsv $'a\treal\t3:1:1\t2'
	refuse 1 "s.tsv:2: column values: parameter a: grid '3:1:1': hi is below lo" -m lhs -n 3 s.tsv
}

@test "range with hi <= lo: exit 1" {
	mkspace s.tsv $'a\treal\t3..1\t2'
	refuse 1 "s.tsv:2: column values: parameter a: range '3..1': hi must be above lo" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t3..3\t3'
	refuse 1 "s.tsv:2: column values: parameter a: range '3..3': hi must be above lo" -m lhs -n 3 s.tsv
}

@test "int grid, range or default that is not an integer: exit 1" {
	mkspace s.tsv $'a\tint\t1:0.5:3\t2'
	refuse 1 "s.tsv:2: column values: parameter a: grid '1:0.5:3': an int grid needs integer lo, step and hi" \
	    -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\tint\t1.5..3\t2'
	refuse 1 "s.tsv:2: column values: parameter a: range '1.5..3': an int range needs integer ends" \
	    -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\tint\t1..3\t2.5'
	refuse 1 "s.tsv:2: column default: parameter a: default '2.5' is not an integer" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\tint\t1,2.5\t1'
	refuse 1 "s.tsv:2: column values: parameter a: list value '2.5' is not an integer" -m lhs -n 3 s.tsv
}

@test "duplicate parameter names: exit 1 naming file:line" {
	mkspace s.tsv $'a\tint\t1,2\t2' $'b\tint\t1,2\t2' $'a\tint\t1,2\t2'
	refuse 1 "s.tsv:4: column name: parameter a defined twice" -m lhs -n 3 s.tsv
}

@test "enum default not in its list: exit 1" {
	mkspace s.tsv $'a\tenum\t4,8\t6'
	refuse 1 "s.tsv:2: column default: parameter a: default '6' is not one of the values 4,8" \
	    -m lhs -n 3 s.tsv
}

@test "an enum of words: designs hold the words, every method takes them as levels by position, --fix and --reference take a word" {
	mkspace s.tsv $'method\tenum\totsu,li,$(>x),mean\tli' $'w\tenum\t4,8x\t4' $'s\treal\t0..1\t0.5'
	local m
	for m in mc lhs halton hammersley sobol random; do
		sa-sample -m $m -n 12 -s 2 s.tsv > d.tsv
		# each word of method is one of its four, w's of its two
		assert_equal "$(body d.tsv | awk -F'\t' 'NR > 1 { print $2 }' | grep -cvxF -e otsu -e li -e '$(>x)' -e mean)" 0
		assert_equal "$(body d.tsv | awk -F'\t' 'NR > 1 { print $3 }' | sort -u | tr '\n' ' ')" '4 8x '
	done
	# the strata of lhs: 12 points, 4 words, each word 3 times
	sa-sample -m lhs -n 12 -s 2 s.tsv > d.tsv
	assert_equal "$(body d.tsv | awk -F'\t' 'NR > 1 { print $2 }' | sort | uniq -c | awk '{ print $1 }' | sort -u)" 3
	# moat: method's 4 levels at p = 4, a jump of 2 levels: otsu<->$(>x), li<->mean
	sa-sample -m moat -r 6 -p 4 -s 1 s.tsv > d.tsv
	moat_ok d.tsv 3
	assert_equal "$(body d.tsv | awk -F'\t' 'NR > 2 && $1 % 4 && $2 != p { print (p < $2 ? p " " $2 : $2 " " p) } { p = $2 }' | sort -u | tr '\n' ';')" \
	    '$(>x) otsu;li mean;'
	run sa-sample -m grid -p 2 --fix 'method=$(>x)' s.tsv
	assert_success
	assert_equal "$(body <(echo "$output") | awk -F'\t' 'NR > 1 { print $2 }' | sort -u)" '$(>x)'
	sa-sample --reference s.tsv > r.tsv
	assert_equal "$(body r.tsv | tail -1)" $'0\tli\t4\t0.5'
	# the '#space' lines carry the words; sa-indices reads them as levels:
	# the indices of a design of codes 0 to 3 in the same positions
	grep -q $'^#space\tmethod\tenum\totsu,li,$(>x),mean\tli$' d.tsv
	mkspace c.tsv $'method\tenum\t0,1,2,3\t1' $'w\tenum\t0,1\t0' $'s\treal\t0..1\t0.5'
	sa-sample -m moat -r 6 -p 4 -s 1 c.tsv > dc.tsv
	assert_equal "$(body d.tsv | cut -f4)" "$(body dc.tsv | cut -f4)"
	body dc.tsv | awk -F'\t' -v OFS='\t' 'NR == 1 { print "run", "tile", "status", "dice"; next }
	    { print $1, "t", "ok", $2 * $2 + 3 * $3 + $4 }' > m.tsv
	sa-indices -m moat d.tsv m.tsv > iw.tsv
	sa-indices -m moat dc.tsv m.tsv > ic.tsv
	assert_equal "$(body iw.tsv)" "$(body ic.tsv)"
	[ "$(body iw.tsv | awk -F'\t' '$1 == "method" { print ($3 > 0) }')" = 1 ]
	refuse 2 "--fix method=Otsu: 'Otsu' is not a value of method (enum otsu,li,\$(>x),mean, default li)" \
	    -m mc -n 3 --fix method=Otsu s.tsv
}

@test "an enum of words: a blank, tab, newline or control character, '=', '#', a repeated word or a default off the words refused when the space is read" {
	mkspace s.tsv $'a\tenum\totsu,l i\totsu'
	refuse 1 "s.tsv:2: column values: parameter a: enum word 'l i' has a blank, '=' or '#'" -m mc -n 3 s.tsv
	mkspace s.tsv $'a\tenum\totsu,l\ti\totsu'
	refuse 1 "s.tsv:2: 5 fields, expected 4 (row too long)" -m mc -n 3 s.tsv
	mkspace s.tsv $'a\tenum\totsu,l\ni\totsu'
	refuse 1 "s.tsv:2: 3 fields, expected 4 (row too short)" -m mc -n 3 s.tsv
	mkspace s.tsv $'a\tenum\totsu,l\vi\totsu'
	refuse 1 "s.tsv:2: column values: parameter a: enum word 'l\\x0bi' has a control character" -m mc -n 3 s.tsv
	mkspace s.tsv $'a\tenum\totsu,l\u0085i\totsu'
	refuse 1 "has a C1 control character or a no-break space" -m mc -n 3 s.tsv
	local w
	for w in 'l=i' 'l#i'; do
		mkspace s.tsv "a"$'\tenum\t'"otsu,$w"$'\totsu'
		refuse 1 "s.tsv:2: column values: parameter a: enum word '$w' has a blank, '=' or '#'" -m mc -n 3 s.tsv
	done
	mkspace s.tsv $'a\tenum\totsu,li,otsu\totsu'
	refuse 1 "s.tsv:2: column values: parameter a: enum word 'otsu' repeated" -m mc -n 3 s.tsv
	mkspace s.tsv $'a\tenum\totsu,li\tOtsu'
	refuse 1 "s.tsv:2: column default: parameter a: default 'Otsu' is not one of the words otsu,li" -m mc -n 3 s.tsv
	mkspace s.tsv "a"$'\tenum\t'"otsu,$(printf 'w%.0s' {1..256})"$'\totsu'
	refuse 1 "longer than 255 bytes" -m mc -n 3 s.tsv
	# words are for enums: an int or a real still needs numbers
	mkspace s.tsv $'a\tint\t1,two\t1'
	refuse 1 "s.tsv:2: column values: parameter a: list value 'two'" -m mc -n 3 s.tsv
}

@test "a design with a word its '#space' lines do not have: exit 1 naming file, line and column" {
	mkspace s.tsv $'method\tenum\totsu,li\totsu' $'s\treal\t0..1\t0.5'
	sa-sample -m mc -n 4 -s 1 s.tsv > d.tsv
	sed '/^2\t/s/\t[a-z]*\t/\tsauvola\t/' d.tsv > bad.tsv
	printf 'run\ttile\tstatus\tdice\n0\tt\tok\t1\n1\tt\tok\t1\n2\tt\tok\t1\n3\tt\tok\t1\n' > m.tsv
	run -1 sa-indices -m corr bad.tsv m.tsv
	assert_output --partial "bad.tsv:9: column method: 'sauvola' is not one of the words otsu,li of method"
}

@test "optional columns: notes in any order, kept by best sets and pruned spaces; names reserved for attributes refused" {
	printf 'role\tname\ttype\tvalues\tdefault\tunit\nblur\tsigma\treal\t0.5..3\t1\tpx\ncut\tk\tint\t1:1:3\t2\t-\n' > s.tsv
	sa-sample -m lhs -n 4 -s 1 s.tsv > d.tsv
	assert_equal "$(grep '^#space' d.tsv | cut -f2- | tr '\t\n' ' ;')" 'sigma real 0.5..3 1;k int 1:1:3 2;'
	local col
	for col in dist; do
		printf 'name\ttype\tvalues\tdefault\t%s\nsigma\treal\t0.5..3\t1\tx\n' $col > r.tsv
		refuse 1 "r.tsv:1: column $col: a name reserved for an attribute a later sareuse reads (space(5)): rename the column" \
		    -m mc -n 3 r.tsv
	done
}

@test "bad lists: repeated value, trailing comma, empty: exit 1" {
	mkspace s.tsv $'a\treal\t1,2,2\t2'
	refuse 1 "s.tsv:2: column values: parameter a: list value '2' repeated" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t1,2,\t2'
	refuse 1 "s.tsv:2: column values: parameter a: list '1,2,' has an empty item" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\treal\t\t2'
	refuse 1 "s.tsv:2: column values: parameter a: list '' has an empty item" -m lhs -n 3 s.tsv
}

@test "bad parameter names (reserved, with a space, empty): exit 1" {
	mkspace s.tsv $'run\treal\t1..2\t1'
	refuse 1 "s.tsv:2: column name: parameter run: parameter name 'run' is reserved" -m lhs -n 3 s.tsv
	# the placeholders of command templates (workflow(5))
	for name in tile in out ref threads metrics scratch; do
		mkspace s.tsv "$name"$'\treal\t1..2\t1'
		refuse 1 "s.tsv:2: column name: parameter $name: parameter name '$name' is reserved" -m lhs -n 3 s.tsv
	done
	mkspace s.tsv $'a b\treal\t1..2\t1'
	refuse 1 "parameter name 'a b' has a space" -m lhs -n 3 s.tsv
	mkspace s.tsv $'\treal\t1..2\t1'
	refuse 1 "s.tsv:2: column name: parameter : empty parameter name" -m lhs -n 3 s.tsv
}

@test "a parameter name with a control character (an ESC sequence, DEL) is refused naming file:line (issue 25)" {
	mkspace s.tsv $'a\treal\t1..2\t1' $'\033[31mB\treal\t1..2\t1'
	refuse 1 "sa-sample: s.tsv:3: column name: parameter \\x1b[31mB: parameter name '\\x1b[31mB' has a control character" -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\x7fb\treal\t1..2\t1'
	refuse 1 "s.tsv:2: column name: parameter a\\x7fb: parameter name 'a\\x7fb' has a control character" -m lhs -n 3 s.tsv
}

@test "absurd grid sizes (1:1:1e12, 1..1e12) are refused, not allocated" {
	mkspace s.tsv $'a\tint\t1:1:1e12\t2'
	refuse 1 "s.tsv:2: column values: parameter a: grid '1:1:1e12': 1000000000000 values is too many" \
	    -m lhs -n 3 s.tsv
	mkspace s.tsv $'a\tint\t1..1e12\t2'
	refuse 1 "s.tsv:2: column values: parameter a: range '1..1e12': too many values" -m lhs -n 3 s.tsv
}

@test "a binary file (NUL byte) is refused as not text" {
	mkspace s.tsv $'a\tint\t1:1:3\t2'
	printf 'b\0\tint\t1:1:3\t2\n' >> s.tsv
	refuse 1 "s.tsv:3: NUL byte in line: not a text file" -m lhs -n 3 s.tsv
	printf '\177ELF\002\001\001\000\000\000\n' > bin.tsv
	refuse 1 "bin.tsv:1: NUL byte" -m lhs -n 3 bin.tsv
}

@test "pso, anneal, tpe: round 1 uniform on the values, later rounds from a trials.tsv history, the same again; --within projects onto a pruned space; usage and history errors" {
	for m in pso anneal tpe; do
		run -0 sa-sample -m $m -n 6 -s 3 --round 1 --rounds 3 -o r1.tsv "$SPACE"
		grep -q "^#method=$m n=6 k=15 params=.* round=1 seed=3$" r1.tsv
		assert_equal "$(body r1.tsv | wc -l)" 7
		# scores for round 1: a design of two batches' worth as history
		printf 'run\ttile\tstatus\tdice\tjaccard\tobject_dice\taji\tobjects\tseconds\n' > m1.tsv
		for r in 0 1 2 3 4 5; do
			printf '%s\tt\tok\t0.%s\t0.1\t0.1\t0.1\t3\t1\n' $r $((r + 1)) >> m1.tsv
		done
		sa-trials -o h.tsv r1.tsv m1.tsv
		sa-sample -m $m -n 6 -s 3 --round 2 --rounds 3 --history h.tsv -o r2.tsv "$SPACE"
		sa-sample -m $m -n 6 -s 3 --round 2 --rounds 3 --history h.tsv -o again.tsv "$SPACE"
		assert_equal "$(body r2.tsv)" "$(body again.tsv)"
		grep -q " round=2 seed=3$" r2.tsv
		if [ $m = tpe ]; then	# independent estimators draw other sets
			sa-sample -m $m -n 6 -s 3 --round 2 --rounds 3 --history h.tsv --independent -o ind.tsv "$SPACE"
			assert_equal "$(body ind.tsv | wc -l)" 7
			assert [ "$(body ind.tsv)" != "$(body r2.tsv)" ]
		fi
		# within a pruned space: every value one of its values
		awk -F'\t' -v OFS='\t' '$1 == "G1" { $3 = "5:5:20" } { print }' "$SPACE" > pruned.tsv
		sa-sample -m $m -n 6 -s 3 --round 2 --history h.tsv --within pruned.tsv -o w.tsv "$SPACE"
		col=$(body w.tsv | head -1 | tr '\t' '\n' | grep -nx G1 | cut -d: -f1)
		assert_equal "$(body w.tsv | tail -n +2 | cut -f "$col" | sort -u | grep -cvxE '5|10|15|20')" 0
	done
	# a history written by hand, without #space lines
	printf 'run\tstatus\tmean\tG1\tbatch\n0\tcomplete\t0.5\t10\t1\n1\tfailed\t\t20\t1\n' > hand.tsv
	printf 'name\ttype\tvalues\tdefault\nG1\tint\t5:5:80\t80\n' > g1.tsv
	for m in pso anneal tpe; do
		run -0 sa-sample -m $m -n 2 --round 2 --history hand.tsv g1.tsv
		assert_equal "$(body /dev/stdin <<< "$output" | wc -l)" 3
	done
	# the methods' settings: each with its method, in its range
	run -0 sa-sample -m tpe -n 2 --round 1 --gamma 0.25 --candidates 8 --independent g1.tsv
	run -0 sa-sample -m pso -n 2 --round 1 --inertia 0.5 --c1 1 --c2 2 g1.tsv
	run -0 sa-sample -m anneal -n 2 --round 1 --cooling 0.8 g1.tsv
	run sa-sample -m pso -n 2 --round 1 --gamma 0.25 g1.tsv
	assert_failure 2
	assert_output --partial "--gamma, --candidates and --independent go with -m tpe"
	run sa-sample -m anneal -n 2 --round 1 --independent g1.tsv
	assert_failure 2
	assert_output --partial "--gamma, --candidates and --independent go with -m tpe"
	run sa-sample -m anneal -n 2 --round 1 --cooling 1 g1.tsv
	assert_failure 2
	run sa-sample -m tpe -n 4 "$SPACE"
	assert_failure 2
	assert_output --partial "-m tpe draws a round of a search: give --round"
	run sa-sample -m random -n 4 --round 2 "$SPACE"
	assert_failure 2
	assert_output --partial "--round goes with -m pso, anneal or tpe"
	run sa-sample -m pso -n 4 --round 2 "$SPACE"
	assert_failure 2
	assert_output --partial "a round after the first is drawn from the rounds before: give --history"
	run sa-sample -m pso -n 4 --round 1 --history h.tsv "$SPACE"
	assert_failure 2
	run sa-sample -m pso -n 4 --round 3 --rounds 2 --history h.tsv "$SPACE"
	assert_failure 2
	run sa-sample -m tpe -n 4 --within pruned.tsv "$SPACE"
	assert_failure 2
	# a history without round 2; without a parameter; pso's round 2 of
	# fewer sets than round 1
	run sa-sample -m tpe -n 4 --round 3 --history h.tsv -o x.tsv "$SPACE"
	assert_failure 1
	assert_output "sa-sample: h.tsv: the history lacks a round before the round drawn"
	printf 'name\ttype\tvalues\tdefault\nextra\tint\t1:1:3\t1\n' > other.tsv
	run sa-sample -m tpe -n 4 --round 2 --history h.tsv -o x.tsv other.tsv
	assert_failure 1
	assert_output "sa-sample: h.tsv: no column extra, a parameter of the space"
	assert [ ! -e x.tsv ]
}

@test "efast: a block of n runs a parameter on its search curve (omega_0 for its own parameter), one phase a block; -M; too few runs refused" {
	run -0 sa-sample -m efast -n 65 -s 3 -o d.tsv "$ISHIGAMI"
	grep -q '^#method=efast n=65 k=3 params=x1,x2,x3 M=4 seed=3$' d.tsv
	assert_equal "$(body d.tsv | awk 'NR > 1' | wc -l)" 195
	# block 1 (x2 at omega_0 = 8, x1 and x3 at 1), row t: each value on
	# 1/2 + asin(sin(w 2 pi t / 65 + phi)) / pi, scaled onto [-pi, pi]
	body d.tsv | awk -F'\t' 'NR > 1 && $1 >= 65 && $1 < 130 { print $1 - 65, $2, $3, $4 }' |
	    awk -v pi=3.141592653589793 '
	    function x(w, t, p) { s = sin(w * 2 * pi * t / 65 + p); return -pi + 2 * pi * (0.5 + atan2(s, sqrt(1 - s * s)) / pi) }
	    NR == 1 { u = ($3 + pi) / (2 * pi); a = pi * (u - 0.5); p1 = a; p2 = pi - a }
	    { for (c = 1; c <= 2; c++) { p = c == 1 ? p1 : p2
	        if (abs($2 - x(1, $1, p)) > 1e-9 || abs($3 - x(8, $1, p)) > 1e-9 || abs($4 - x(1, $1, p)) > 1e-9) bad[c]++ } }
	    function abs(v) { return v < 0 ? -v : v }
	    END { exit !(bad[1] == 0 || bad[2] == 0) }' || fail "block 1 is not on its search curves"
	# another seed, other phases; -M 2 is written
	sa-sample -m efast -n 65 -s 4 -o e.tsv "$ISHIGAMI"
	[ "$(body e.tsv)" != "$(body d.tsv)" ]
	sa-sample -m efast -n 17 -M 2 -o m.tsv "$ISHIGAMI"
	grep -q ' M=2 ' m.tsv
	refuse 1 "efast: -n 64: a parameter's block needs more than 4 M^2 = 64 runs (M = 4)" -m efast -n 64 "$ISHIGAMI"
	refuse 2 "-M goes with -m efast" -m vbd -M 3 "$ISHIGAMI"
	refuse 2 "-M '0'" -m efast -M 0 "$ISHIGAMI"
}

@test "rbd_fast: n points of one search curve, 1/2 + asin(sin s)/pi at s = -pi + 2 pi (t + shift)/n, each parameter in its own random order; seeded; too few runs refused" {
	run -0 sa-sample -m rbd_fast -n 50 -s 3 -o d.tsv "$ISHIGAMI"
	grep -q '^#method=rbd_fast n=50 k=3 params=x1,x2,x3 seed=3$' d.tsv
	assert_equal "$(body d.tsv | awk 'NR > 1' | wc -l)" 50
	# each column put back on [0, 1] and sorted: the curve's two branches
	# (x rises, then falls, by 2/n a step of s), interleaved: v[i+2] -
	# v[i] = 2/n throughout, and no two values equal
	for c in 2 3 4; do
		body d.tsv | awk -F'\t' -v c=$c 'NR > 1 { printf "%.17g\n", ($c + 3.141592653589793) / (2 * 3.141592653589793) }' |
		    sort -g | awk '{ v[NR] = $1 } END {
			for (i = 1; i + 2 <= NR; i++) {
				d = v[i + 2] - v[i] - 2 / 50
				if (d > 1e-9 || d < -1e-9 || v[i + 1] == v[i]) exit 1
			}
			exit !(NR == 50 && v[1] >= 0 && v[50] <= 1) }' ||
		    fail "column $c is not the curve's points"
	done
	# the columns' orders differ
	[ "$(body d.tsv | cut -f 2 | head -n 10)" != "$(body d.tsv | cut -f 3 | head -n 10)" ]
	sa-sample -m rbd_fast -n 50 -s 3 -o e.tsv "$ISHIGAMI"
	assert_equal "$(body e.tsv)" "$(body d.tsv)"
	sa-sample -m rbd_fast -n 50 -s 4 -o f.tsv "$ISHIGAMI"
	[ "$(body f.tsv)" != "$(body d.tsv)" ]
	refuse 1 "rbd_fast: -n 41: its analysis needs at least 42 runs" -m rbd_fast -n 41 "$ISHIGAMI"
	refuse 2 "-M goes with -m efast" -m rbd_fast -M 3 "$ISHIGAMI"
}

@test "--extend: an mc, halton, sobol or vbd (halton, mc base) design grown to N is the design of N, its rows first, grown_from in the metadata; a reference run stays last" {
	for m in mc halton sobol "vbd --base halton" "vbd --base mc --second-order"; do
		# shellcheck disable=SC2086
		sa-sample -m $m -n 50 -s 4 --fix x3=1 --reference -o a.tsv "$ISHIGAMI"
		run -0 sa-sample --extend a.tsv -n 120 -o b.tsv
		# shellcheck disable=SC2086
		sa-sample -m $m -n 120 -s 4 --fix x3=1 --reference -o c.tsv "$ISHIGAMI"
		assert_equal "$(body b.tsv)" "$(body c.tsv)"
		grep -q ' grown_from=50 seed=4 reference=' b.tsv || fail "$m: no grown_from"
		assert_equal "$(grep '^#method' b.tsv | sed 's/ grown_from=50//')" "$(grep '^#method' c.tsv)"
		# the old rows are the first ones, the reference run aside
		n=$(($(body a.tsv | wc -l) - 2))
		assert_equal "$(body b.tsv | head -n $((n + 1)))" "$(body a.tsv | head -n $((n + 1)))"
	done
	# sobol base: within the points SALib's rule skips (300 and 512 skip 512)
	sa-sample -m vbd -n 300 -o s.tsv "$ISHIGAMI"
	sa-sample --extend s.tsv -n 512 -o s2.tsv
	sa-sample -m vbd -n 512 -o s3.tsv "$ISHIGAMI"
	assert_equal "$(body s2.tsv)" "$(body s3.tsv)"
}

@test "--extend refuses: designs that cannot grow (saying why), the sobol base past its skip, no more runs (a grown design grows again), an edited design, other options, a space operand, no -n; nothing written" {
	sa-sample -m lhs -n 10 -o l.tsv "$ISHIGAMI"
	refuse 1 "l.tsv: cannot grow a Latin hypercube: its strata are 1/n wide" --extend l.tsv -n 20
	sa-sample -m hammersley -n 10 -o h.tsv "$ISHIGAMI"
	refuse 1 "h.tsv: cannot grow a Hammersley set: its first coordinate is i/n" --extend h.tsv -n 20
	sa-sample -m moat -r 4 -o m.tsv "$ISHIGAMI"
	refuse 1 "m.tsv: cannot grow MOAT trajectories" --extend m.tsv -n 20
	sa-sample -m efast -n 65 -o e.tsv "$ISHIGAMI"
	refuse 1 "e.tsv: cannot grow a Fourier design" --extend e.tsv -n 100
	sa-sample -m vbd -n 512 -o v.tsv "$ISHIGAMI"
	refuse 1 "v.tsv: a vbd design on the sobol base of n = 512 skips 512 points of the sequence, one of n = 1024 skips 1024 (SALib's rule): it cannot grow past n = 512" --extend v.tsv -n 1024
	sa-sample -m mc -n 10 -o a.tsv "$ISHIGAMI"
	refuse 1 "a.tsv: -n 10: the design has n = 10 already" --extend a.tsv -n 10
	# a grown design grows again, from its own n
	sa-sample --extend a.tsv -n 20 -o b.tsv
	sa-sample --extend b.tsv -n 30 -o c.tsv
	sa-sample -m mc -n 30 -o d.tsv "$ISHIGAMI"
	assert_equal "$(body c.tsv)" "$(body d.tsv)"
	grep -q ' grown_from=20 ' c.tsv
	awk -F'\t' -v OFS='\t' '$1 == 5 { $2 = 0.5 } 1' a.tsv > ed.tsv
	refuse 1 "ed.tsv: run 5 is not the one this design's settings draw (edited, or drawn by another version): it cannot grow" --extend ed.tsv -n 20
	grep -v '^#space' a.tsv > ns.tsv
	refuse 1 "ns.tsv: no #space lines" --extend ns.tsv -n 20
	refuse 2 "--extend takes -n and -o only" --extend a.tsv -n 20 -s 3
	refuse 2 "--extend takes no SPACE.tsv" --extend a.tsv -n 20 "$ISHIGAMI"
	refuse 2 "--extend needs -n N" --extend a.tsv
	cp a.tsv keep.tsv
	run -2 sa-sample --extend a.tsv -n 20 -o a.tsv
	cmp a.tsv keep.tsv
}

@test "groups (space column group): a vbd design crosses A and B a group at a time (G + 2 rows a block), groups= in the metadata; it grows; moat moves a group a step, --optimize keeps whole ones of the same draws; lhs told; a bad group word refused" {
	printf 'name\ttype\tvalues\tdefault\tgroup\nx1\treal\t0..1\t0.5\ta\nx2\treal\t0..1\t0.5\t-\nx3\treal\t0..1\t0.5\ta\nx4\treal\t0..1\t0.5\tb\n' > g.tsv
	run -0 sa-sample -m vbd -n 8 --base halton -o d.tsv g.tsv
	grep -q '^#method=vbd n=8 k=4 params=x1,x2,x3,x4 base=halton second_order=0 groups=a:x1+x3,x2:x2,b:x4 seed=1$' d.tsv
	# 8 blocks of A, AB_a, AB_x2, AB_b, B: 5 rows each
	assert_equal "$(body d.tsv | awk 'NR > 1' | wc -l)" 40
	# in each block, AB_g is A with g's columns from B, and nothing else
	body d.tsv | awk -F'\t' 'NR > 1 { r = ($1 % 5); for (j = 2; j <= 5; j++) v[r, j] = $j
	    if (r == 4) {
		for (j = 2; j <= 5; j++) {
			ga = (j == 2 || j == 4) ? v[4, j] : v[0, j]
			gx = (j == 3) ? v[4, j] : v[0, j]
			gb = (j == 5) ? v[4, j] : v[0, j]
			if (v[1, j] != ga || v[2, j] != gx || v[3, j] != gb) bad++
		}
	    } } END { exit bad > 0 }' || fail "an AB row is not A with its group's columns from B"
	# it grows, groups and all
	sa-sample --extend d.tsv -n 16 -o e.tsv
	sa-sample -m vbd -n 16 --base halton -o f.tsv g.tsv
	assert_equal "$(body e.tsv)" "$(body f.tsv)"
	# moat: trajectories of G + 1 points, each step moving a whole group
	run -0 sa-sample -m moat -r 6 -o m.tsv g.tsv
	grep -q ' groups=a:x1+x3,x2:x2,b:x4 ' m.tsv
	assert_equal "$(body m.tsv | awk 'NR > 1' | wc -l)" 24
	body m.tsv | awk -F'\t' 'NR > 1 { t = int($1 / 4); r = $1 % 4
	    if (r > 0) { c = ""; for (j = 2; j <= 5; j++) if ($j != p[j]) c = c (j - 1)
		if (c != "13" && c != "2" && c != "4") bad++; seen[t, c]++ }
	    for (j = 2; j <= 5; j++) p[j] = $j }
	    END { exit bad > 0 }' || fail "a step does not move one whole group"
	# --optimize: 3 of the same 6, whole, in their order (the unit test
	# checks them the most spread, the bench against SALib's choice)
	run -0 sa-sample -m moat -r 6 --optimize 3 -o o.tsv g.tsv
	assert_equal "$(body o.tsv | awk 'NR > 1' | wc -l)" 12
	body m.tsv | awk -F'\t' 'NR > 1 { t = int($1 / 4); $1 = ""; b[t] = b[t] $0 "|" }
	    END { for (t = 0; t < 6; t++) print b[t] }' > cand.txt
	body o.tsv | awk -F'\t' 'NR > 1 { t = int($1 / 4); $1 = ""; b[t] = b[t] $0 "|" }
	    END { for (t = 0; t < 3; t++) print b[t] }' > chosen.txt
	run -0 awk 'NR == FNR { c[$0] = FNR; next } !($0 in c) || c[$0] <= last { exit 1 }
	    { last = c[$0] }' cand.txt chosen.txt
	run -0 sa-sample -m lhs -n 4 -o l.tsv g.tsv
	assert_output "sa-sample: g.tsv: the groups of its group column go with -m vbd and moat; -m lhs draws each parameter alone"
	printf 'name\ttype\tvalues\tdefault\tgroup\nx1\treal\t0..1\t0.5\ta b\n' > bad.tsv
	refuse 1 "bad.tsv:2: column group: 'a b': a group is a word of letters, digits" -m vbd -n 4 bad.tsv
}

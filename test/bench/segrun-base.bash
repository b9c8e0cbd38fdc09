# segrun-base.bash - the part of test/bench/segrun that compares the code
# at SR_BASE (BASE_BIN, built by base_build) with the current one
# (SR_BIN), alternately on the same inputs. Sourced from the benchmark's
# scratch directory, with big.tif, big.png, tiles.list, png.list, wf and
# space set.
rounds=${SR_BENCH_ROUNDS:-5}

# run_with BIN TAG ARGS...: seg-run from BIN, results TAG.r, timings TAG.t,
# the process's user CPU seconds in TAG.cpu
run_with() {
	local bin=$1 tag=$2
	shift 2
	/usr/bin/time -f %U -o "$tag.cpu" "$bin/seg-run" -q --workflow "$wf" \
	    -o "$tag.r" --timings "$tag.t" --force "$@"
}

# tasks TIMINGS: normalization and task seconds; decoded TIMINGS: the
# same plus #read
tasks() {
	awk -F'\t' '!/^#/ && $4 != "task" && $4 != "compare" { s += $6 } END { printf "%.4f", s }' "$1"
}
decoded() {
	awk -F'\t' '/^#read / { sub(/.*seconds=/, ""); s += $0; next }
	    !/^#/ && $4 != "task" && $4 != "compare" { s += $6 } END { printf "%.4f", s }' "$1"
}

# bin_of SIDE: the tools of old (BASE_BIN) or new (SR_BIN)
bin_of() {
	if [ "$1" = old ]; then echo "$BASE_BIN"; else echo "$SR_BIN"; fi
}

# rss BIN ARGS...: peak RSS in MiB of seg-run from BIN
rss() {
	local bin=$1
	shift
	/usr/bin/time -f %M -o rss.kb "$bin/seg-run" -q --workflow "$wf" \
	    -o rss.r --timings rss.t --force "$@"
	awk '{ printf "%.0f", $1 / 1024 }' rss.kb
}

echo
echo "Old ($SR_BASE) against new, alternately, $rounds rounds, one thread, defaults, 4096x4096"
sa-sample --reference -o cref.tsv "$space"
wf-compact -q -o cref.i "$wf" cref.tsv
reuse-merge -a none -o cref.b "$wf" cref.i
one=(--instances cref.i --buckets cref.b --bucket 0)
: > tasks.cmp
: > decoded.cmp
: > tasks-cpu.cmp
: > decoded-cpu.cmp
for ((k = 0; k < rounds; k++)); do
	for side in old new; do
		bin=$(bin_of $side)
		run_with "$bin" $side.tif "${one[@]}" --tiles tiles.list
		echo "$side $(tasks $side.tif.t)" >> tasks.cmp
		echo "$side $(cat $side.tif.cpu)" >> tasks-cpu.cmp
		run_with "$bin" $side.png "${one[@]}" --tiles png.list
		echo "$side $(decoded $side.png.t)" >> decoded.cmp
		echo "$side $(cat $side.png.cpu)" >> decoded-cpu.cmp
	done
done
printf '%-22s ' "tasks (TIFF tile):"; ratio < tasks.cmp
printf '%-22s ' "PNG decoding included:"; ratio < decoded.cmp
# On a machine shared with other work the wall seconds above include the
# time spent waiting for a core, which varies from run to run; the user
# CPU seconds of the process do not (they cover the whole process:
# reading, prefault, normalization and tasks), so their ratio is the
# steadier measure of the code's own speed.
echo "user CPU seconds of the whole process (steadier than wall on a loaded machine):"
printf '%-22s ' "  TIFF tile:"; ratio < tasks-cpu.cmp
printf '%-22s ' "  PNG tile:"; ratio < decoded-cpu.cmp
printf '%-10s %8s %8s %8s %8s\n' task old new old/new base_cost
for task in normalize Seg0 Seg1 Seg2 Seg3 Seg4 Seg5 Seg6; do
	o=$(awk -F'\t' -v t=$task '$4 == t { print $6 }' old.tif.t)
	n=$(awk -F'\t' -v t=$task '$4 == t { print $6 }' new.tif.t)
	printf '%-10s %8.3f %8.3f %8.2f %8s\n' $task "$o" "$n" \
	    "$(awk -v a="$o" -v b="$n" 'BEGIN { print a / b }')" \
	    "$(awk -F'\t' -v t=$task '$2 == t { print $4 }' "$wf")"
done
echo "(per task: the last round; read: $(grep '^#read' old.png.t | sed 's/.*seconds=//' | cut -c1-5) s old, $(grep '^#read' new.png.t | sed 's/.*seconds=//' | cut -c1-5) s new for the PNG)"

echo
echo "Peak RSS (MiB), old against new"
sa-sample -m moat -r 20 -s 7 -o cmoat.tsv "$space"
wf-compact -q -o cmoat.i "$wf" cmoat.tsv
reuse-merge -a rtma -b 8 -o cmoat.b "$wf" cmoat.i
k8=$(awk -F'\t' '!/^#/ && $1 != "bucket" && split($2, a, ",") == 8 { print $1; exit }' cmoat.b)
eight=(--instances cmoat.i --buckets cmoat.b --bucket "$k8" --tiles tiles.list)
# The peak of two paths varies from run to run with how their Seg5 steps
# overlap in time: the rows below are medians (min-max) over the rounds.
# "per extra path" is the 2-path peak less the 1-path peak on the same
# bucket in the same round (what one more active path costs), and less
# the peak of one run alone (the strictest reading of the goal).
: > rss.cmp
for ((k = 0; k < rounds; k++)); do
	for side in old new; do
		bin=$(bin_of $side)
		echo "$side $k one $(rss "$bin" "${one[@]}" --tiles tiles.list)" >> rss.cmp
		echo "$side $k p1 $(rss "$bin" "${eight[@]}" --active-paths 1)" >> rss.cmp
		echo "$side $k p2 $(rss "$bin" "${eight[@]}" --active-paths 2)" >> rss.cmp
	done
done
for side in old new; do
	bin=$(bin_of $side)
	echo "$side 0 p4 $(rss "$bin" "${eight[@]}" --active-paths 4)" >> rss.cmp
	echo "$side 0 one-np $(rss "$bin" "${one[@]}" --tiles tiles.list --no-prefault)" >> rss.cmp
	echo "$side 0 p2-np $(rss "$bin" "${eight[@]}" --active-paths 2 --no-prefault)" >> rss.cmp
done
# stat SIDE KIND [KIND2]: median (min-max) of the rows of SIDE and KIND;
# with KIND2, of the differences KIND - KIND2 in each round
stat() {
	awk -v s="$1" -v a="$2" -v b="${3:-}" "$base_median_awk"'
	    $1 == s && $3 == a { x[$2] = $4 }
	    $1 == s && $3 == b { y[$2] = $4 }
	    END { n = 0
		for (r in x) v[++n] = b == "" ? x[r] : x[r] - y[r]
		med = median(v, n)
		if (n == 1) printf "%.0f", v[1]
		else printf "%.0f (%.0f-%.0f)", med, v[1], v[n] }' rss.cmp
}
# two_one SIDE: the range of the 2-path peaks less the median of one run
# alone
two_one() {
	awk -v s="$1" "$base_median_awk"'
	    $1 == s && $3 == "one" { o[++n] = $4 }
	    $1 == s && $3 == "p2" { t[++m] = $4 }
	    END { med = median(o, n); sort(t, m)
		printf "%.0f-%.0f", t[1] - med, t[m] - med }' rss.cmp
}
printf '%-40s %18s %18s\n' "" old new
printf '%-40s %18s %18s\n' "1 run alone (1 path)" "$(stat old one)" "$(stat new one)"
printf '%-40s %18s %18s\n' "1 path, a bucket of 8" "$(stat old p1)" "$(stat new p1)"
printf '%-40s %18s %18s\n' "2 paths, a bucket of 8" "$(stat old p2)" "$(stat new p2)"
printf '%-40s %18s %18s\n' "per extra path (2 paths - 1, same bucket)" "$(stat old p2 p1)" "$(stat new p2 p1)"
printf '%-40s %18s %18s\n' "2 paths - 1 run alone (median)" "$(two_one old)" "$(two_one new)"
printf '%-40s %18s %18s\n' "4 paths, a bucket of 8 (one run)" "$(stat old p4)" "$(stat new p4)"
printf '%-40s %18s %18s\n' "1 run alone, --no-prefault" "$(stat old one-np)" "$(stat new one-np)"
printf '%-40s %18s %18s\n' "2 paths, a bucket of 8, --no-prefault" "$(stat old p2-np)" "$(stat new p2-np)"
echo "(goals: 1 run alone <= 250 MiB; each extra active path <= 250 MiB more)"

echo
echo "Two active paths on bucket $k8 (8 instances) against two single-path processes on its halves, at once"
# the halves: instances split in two, each row's tasks the distinct task
# prefixes of its instances (the parameter columns 5.. in task order)
awk -F'\t' -v k="$k8" 'FNR == NR { if ($1 == "segment") row[$2] = $0; next }
    /^#/ { next } $1 == "bucket" { print; next }
    $1 == k { n = split($2, a, ","); h = n / 2
	split("5 6 8 10 11 13 15", cut, " ")
	for (j = 0; j < 2; j++) { s = ""; delete seen; t = 0
	    for (i = j * h + 1; i <= (j + 1) * h; i++) {
		s = s (s == "" ? "" : ",") a[i]
		split(row[a[i]], f, "\t")
		for (c = 1; c <= 7; c++) { key = c
		    for (q = 5; q < 5 + cut[c]; q++) key = key SUBSEP f[q]
		    if (!(key in seen)) { seen[key] = 1; t++ } } }
	    printf "%d\t%s\t%s\t%d\t%d\n", j, s, s, t, t } }' cmoat.i cmoat.b > halves.b
: > two.cmp
for ((k = 0; k < rounds; k++)); do
	for side in old new; do	# "old": two processes, "new": two paths
		t0=$EPOCHREALTIME
		if [ $side = old ]; then
			for j in 0 1; do
				"$SR_BIN/seg-run" -q --workflow "$wf" --instances cmoat.i \
				    --buckets halves.b --bucket $j --tiles tiles.list \
				    -o h$j.r --timings h$j.t --force &
			done
			wait
		else
			run_with "$SR_BIN" two "${eight[@]}" --active-paths 2
		fi
		echo "$side $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f", b - a }')" >> two.cmp
	done
done
printf 'wall, two processes ("old") against two paths ("new"): '; ratio < two.cmp
echo "(current code only; goal: within 10 %, i.e. old/new at least 0.91)"

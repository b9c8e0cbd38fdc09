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
		bin=$SR_BIN
		[ $side = old ] && bin=$BASE_BIN
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
printf '%-34s %8s %8s\n' "" old new
for pf in "" --no-prefault; do
	printf '%-34s %8s %8s\n' "1 path, defaults ${pf:-(prefault)}" \
	    "$(rss "$BASE_BIN" "${one[@]}" --tiles tiles.list $pf)" \
	    "$(rss "$SR_BIN" "${one[@]}" --tiles tiles.list $pf)"
	printf '%-34s %8s %8s\n' "2 paths, a bucket of 8 ${pf:-(prefault)}" \
	    "$(rss "$BASE_BIN" "${eight[@]}" --active-paths 2 $pf)" \
	    "$(rss "$SR_BIN" "${eight[@]}" --active-paths 2 $pf)"
done

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

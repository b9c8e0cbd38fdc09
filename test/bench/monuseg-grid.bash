# monuseg-grid.bash - the cached grid of test/bench/prune-monuseg and
# test/bench/search, sourced in a scratch directory: NSUB (nsub)
# MoNuSeg 2018 training tiles of $train, each scored by pixel Dice on
# the full grid of G1 10:10:80, G2 4:4:40, maxSize 900:200:1500 and
# maxSizeSeg 900:300:1500 (960 sets, the other parameters at their
# defaults), computed once by a tune campaign
# and cached under a checksum of what decides a run's Dice (see
# prune-monuseg). Needs top, wf, train, nsub, jobs and tmp; sets
# subjects, npoints, cache and gridsecs; writes full.tsv, space.tsv (the
# four parameters), grid.tsv, sub-I.key (values and Dice) and sub-I.tsv
# (metrics(5) of grid.tsv's runs) per subject; defines look and best.
# shellcheck shell=bash

# the subjects: the tiles of the training set in name order, every
# second one first (so NSUB 12 is six organs, two tiles each), then the
# others (NSUB 23: all of them)
mapfile -t all < <(find "$train" -maxdepth 1 -name '*.png' ! -name '*.mask.png' ! -name '*.labels.png' | sort)
subjects=()
for ((j = 0; j < 2; j++)); do
	for ((i = j; i < ${#all[@]} && ${#subjects[@]} < nsub; i += 2)); do
		subjects+=("${all[i]}")
	done
done
[ "${#subjects[@]}" -eq "$nsub" ] ||
    { echo "prune-monuseg: $train: ${#all[@]} tiles, $nsub subjects wanted" >&2; exit 1; }

# the campaign's space: nuclei.tsv with the four parameters on the grid,
# the others held at their defaults (one value each: a fix setting would
# leave the campaign's check of the grid's size counting their values)
awk -F '\t' -v OFS='\t' '
	/^#/ || $1 == "name" { print; next }
	$1 == "G1" { $3 = "10:10:80" } $1 == "G2" { $3 = "4:4:40" }
	$1 == "maxSize" { $3 = "900:200:1500" } $1 == "maxSizeSeg" { $3 = "900:300:1500" }
	$1 ~ /^(G1|G2|maxSize|maxSizeSeg)$/ { print; next }
	$2 == "enum" { $3 = $4; print; next }
	{ $3 = $4 ":1:" $4; print }' "$top/share/spaces/nuclei.tsv" > full.tsv
# the space the search and sa-prune see: the four parameters
awk -F '\t' '$1 == "name" || $1 ~ /^(G1|G2|maxSize|maxSizeSeg)$/' full.tsv > space.tsv
sa-sample -m grid -o grid.tsv space.tsv
npoints=$(grep -v '^#' grid.tsv | tail -n +2 | wc -l)

# the cache: KEY from what decides a run's Dice
sa-sample -m grid -o design.tsv full.tsv
key=$({
	cd "$top"
	find tools/seg-run.c tools/lib/core tools/lib/image tools/lib/exec -type f \
	    ! -name 'tune.[ch]' | sort | xargs cat
	cat "$wf"
	grep -v '^#' "$tmp/design.tsv"
	printf '%s\n' "${subjects[@]##*/}"
} | sha256sum | cut -c1-16)
cache=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sareuse-bench/prune-monuseg/$key}
mkdir -p "$cache"
if [ ! -s "$cache/results.tsv" ]; then
	mkdir -p "$cache/tiles"
	: > "$cache/tiles/list"
	for f in "${subjects[@]}"; do
		b=$(basename "$f" .png)
		ln -sf "$f" "$cache/tiles/$b.png"
		ln -sf "$train/$b.mask.png" "$cache/tiles/$b.mask.png"
		echo "$b.png" >> "$cache/tiles/list"
	done
	cp full.tsv "$cache/space.tsv"
	cat > "$cache/grid.campaign" <<EOC
# prune-monuseg's knowledge base: every subject on the whole grid
goal = tune
space = space.tsv
workflow = $wf
method = grid
tiles = tiles/list
reference = tiles
reference_suffix = .mask.png
cancel = none
merge = rtma
bucket_size = 40
jobs = $jobs
plot = no
report = no
output = out
EOC
	echo "prune-monuseg: computing the grid ($npoints sets x $nsub tiles) in $cache" >&2
	t0=$(date +%s)
	nice -n 10 sa-campaign -q run "$cache/grid.campaign"
	echo "$(($(date +%s) - t0))" > "$cache/seconds"
	cp "$cache/out/results.tsv" "$cache/.results.tsv.tmp"
	mv "$cache/.results.tsv.tmp" "$cache/results.tsv"
fi
gridsecs=$(cat "$cache/seconds")

# each subject's grid: the four values and the Dice, one file per
# subject (sub-I.tsv, metrics(5) against grid.tsv's runs) and a lookup
# table by the values (sub-I.key)
awk -F '\t' -v OFS='\t' '
	FNR == 1 { file++ }
	/^#/ { next }
	file == 1 && !h1++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
	file == 1 { v[$1] = $c["G1"] ":" $c["G2"] ":" $c["maxSize"] ":" $c["maxSizeSeg"]; next }
	file == 2 && !h2++ { for (i = 1; i <= NF; i++) d[$i] = i; next }
	file == 2 { t = $d["tile"]; sub(/\.png$/, "", t); print t, v[$1], $d["dice"] }' \
    "$cache/out/design.tsv" "$cache/results.tsv" > all.tsv
for i in $(seq 0 $((nsub - 1))); do
	b=$(basename "${subjects[i]}" .png)
	awk -F '\t' -v OFS='\t' -v t="$b" '$1 == t { print $2, $3 }' all.tsv | sort -u > "sub-$i.key"
	[ "$(wc -l < "sub-$i.key")" -eq "$npoints" ] ||
	    { echo "prune-monuseg: $b: $(wc -l < "sub-$i.key") grid points in $cache/results.tsv, $npoints wanted" >&2; exit 1; }
done

# look SUBJECT DESIGN: metrics(5) of DESIGN's runs on SUBJECT (run, dice)
look() {
	awk -F '\t' -v OFS='\t' '
		FNR == 1 { file++ }
		file == 1 { y[$1] = $2; next }
		/^#/ { next }
		!h++ { for (i = 1; i <= NF; i++) c[$i] = i; print "run", "dice"; next }
		{ k = $c["G1"] ":" $c["G2"] ":" $c["maxSize"] ":" $c["maxSizeSeg"]
		  if (!(k in y)) { print "no grid point " k > "/dev/stderr"; exit 1 }
		  print $1, y[k] }' "sub-$1.key" "$2"
}
for i in $(seq 0 $((nsub - 1))); do
	look "$i" grid.tsv > "sub-$i.tsv"
done

# best METRICS: the largest Dice
best() {
	awk -F '\t' '!/^#/ && $1 != "run" && (m == "" || $2 > m) { m = $2 } END { print m }' "$1"
}


# campaign.bash - helpers of the campaign suites (campaign.bats, slurm.bats):
# small tiles cut from MoNuSeg and small campaign files.
MONUSEG=$TOP/test/data/monuseg
# sa-campaign is in $SR_BIN with the tools

# tiles SIZE: tiles/a.png tiles/b.png (crops of two MoNuSeg tiles), their
# masks tiles/a.mask.png ..., and tiles/list; the crops of a size are
# cut once for the test file (its tests run one at a time) and copied
tiles() {
	local size=$1 cache=$BATS_FILE_TMPDIR/tiles-$1
	if [ ! -d "$cache" ]; then
		rm -rf "$cache.tmp"
		mkdir -p "$cache.tmp"
		sa-testimg crop "$MONUSEG/TCGA-21-5784-01Z-00-DX1.png" 0 0 "$size" "$size" "$cache.tmp/a.png"
		sa-testimg crop --mask "$MONUSEG/TCGA-21-5784-01Z-00-DX1.mask.png" 0 0 "$size" "$size" "$cache.tmp/a.mask.png"
		sa-testimg crop "$MONUSEG/TCGA-G9-6362-01Z-00-DX1.png" 100 100 "$size" "$size" "$cache.tmp/b.png"
		sa-testimg crop --mask "$MONUSEG/TCGA-G9-6362-01Z-00-DX1.mask.png" 100 100 "$size" "$size" "$cache.tmp/b.mask.png"
		mv "$cache.tmp" "$cache"
	fi
	mkdir -p tiles
	cp "$cache"/a.png "$cache"/a.mask.png "$cache"/b.png "$cache"/b.mask.png tiles/
	printf '# two crops\na.png\nb.png\n' > tiles/list
}

# campaign FILE [KEY=VALUE | -KEY ...]: a small MOAT campaign (32 runs),
# keys replaced or added (KEY=VALUE) or left out (-KEY)
campaign() {
	local f=$1 kv k
	shift
	cat > "$f" <<EOC
space = $SPACE
workflow = $TOP/share/workflows/nuclei.wf
method = moat
trajectories = 2
seed = 3
tiles = tiles/list
reference = tiles
reference_suffix = .mask.png
merge = rtma
bucket_size = 4
EOC
	for kv in "$@"; do
		case $kv in -*) sed -i "/^${kv#-} = /d" "$f"; continue ;; esac
		k=${kv%%=*}
		sed -i "/^$k = /d" "$f"
		echo "$k = ${kv#*=}" >> "$f"
	done
}


# slide: s.tif, a 780x520 pyramidal TIFF (deflate: lossless, 2 levels)
# with four 260x260 crops of MoNuSeg tiles in a 2x2 block at its top-left
# corner, the right third background; slides.list naming it; and png/,
# the same four crops named as wsi-tiles names the tiles (s_X_Y.png) in
# the table's order, listed in png/list
slide() {
	local f k=0 xy=(0_0 260_0 0_260 260_260)
	mkdir -p png
	for f in "$MONUSEG"/TCGA-21-5784-01Z-00-DX1.png "$MONUSEG"/TCGA-A7-A13E-01Z-00-DX1.png \
	    "$MONUSEG"/TCGA-B0-5698-01Z-00-DX1.png "$MONUSEG"/TCGA-G9-6362-01Z-00-DX1.png; do
		sa-testimg crop "$f" 200 200 260 260 "png/s_${xy[k]}.png"
		echo "s_${xy[k]}.png" >> png/list
		k=$((k + 1))
	done
	sa-testimg slide --levels 2 --downsample 2 780 520 s.tif \
	    "0 0 png/s_0_0.png" "260 0 png/s_260_0.png" \
	    "0 260 png/s_0_260.png" "260 260 png/s_260_260.png"
	echo s.tif > slides.list
}

# gone PATTERN: waits (10 s at most: the suite's files run side by side)
# until no process has PATTERN in its command line; fails naming those left
gone() {
	local k
	for ((k = 0; k < 100; k++)); do
		pgrep -f -- "$1" > /dev/null || return 0
		sleep 0.1
	done
	ps -o pid,pgid,args -p "$(pgrep -d, -f -- "$1")" >&2
	return 1
}

# trials_rows FILE: the rows of trials.tsv without their seconds, by run
trials_rows() {
	body "$1" | awk 'NR > 1' | cut -f 1-6,8- | sort -n
}

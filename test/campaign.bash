# campaign.bash - helpers of the campaign suites (campaign.bats, slurm.bats):
# small tiles cut from MoNuSeg and small campaign files.
MONUSEG=$TOP/test/data/monuseg
# sa-campaign is in $SR_BIN with the tools

# tiles SIZE: tiles/a.png tiles/b.png (crops of two MoNuSeg tiles), their
# masks tiles/a.mask.png ..., and tiles/list
tiles() {
	local size=$1
	mkdir -p tiles
	sa-testimg crop "$MONUSEG/TCGA-21-5784-01Z-00-DX1.png" 0 0 "$size" "$size" tiles/a.png
	sa-testimg crop --mask "$MONUSEG/TCGA-21-5784-01Z-00-DX1.mask.png" 0 0 "$size" "$size" tiles/a.mask.png
	sa-testimg crop "$MONUSEG/TCGA-G9-6362-01Z-00-DX1.png" 100 100 "$size" "$size" tiles/b.png
	sa-testimg crop --mask "$MONUSEG/TCGA-G9-6362-01Z-00-DX1.mask.png" 100 100 "$size" "$size" tiles/b.mask.png
	printf '# two crops\na.png\nb.png\n' > tiles/list
}

# campaign FILE [KEY=VALUE...]: a small MOAT campaign (32 runs), keys
# replaced or added
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
		k=${kv%%=*}
		sed -i "/^$k = /d" "$f"
		echo "$k = ${kv#*=}" >> "$f"
	done
}


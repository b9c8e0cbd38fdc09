# chunks.sh - the tiles and array tasks of sa-campaign, sourced by it:
# the campaign's tiles (a tiles list, a tile table, or slides cut by
# wsi-tiles), the array tasks of a sensitivity campaign (a bucket on a
# chunk of tiles_per_task tiles, named NNNNN-CCCC), the job arrays split
# at the cluster's array size (max_array_size), and the results per
# slide (aggregate_by = slide). See campaign(5).
# shellcheck shell=bash

# ---- the tiles ---------------------------------------------------------------

# is_tile_table FILE: whether FILE is a tile table: its first line that
# is neither blank nor a comment is the table's header. The answer for
# the last FILE asked is kept (tile_kind_of, tile_kind): a plan's tiles
# list does not change, and the buckets of a local run get the run's
# answer (bucket_state)
tile_kind_of=
tile_kind=
is_tile_table() {
	[ "$tile_kind_of" = "$1" ] || {
		tile_kind=$(sa-campaign-data tiles-kind "$1")
		tile_kind_of=$1
	}
	[ "$tile_kind" = table ]
}

# campaign_tiles: what the plan is made from, on stdout: the tiles list
# with absolute paths (relative ones are relative to the list's
# directory: the campaign may run elsewhere), the tile table with
# absolute slides, or the slides (a list of paths, absolute); dies on a
# name the engines cannot carry (sa-campaign-data tiles)
campaign_tiles() {
	tiles_of "${conf[slides]:-${conf[tiles]}}"
}

# tiles_of LIST: LIST as campaign_tiles gives the campaign's: in a
# campaign of slides, the slides it names; else its tiles (or a
# directory's images)
tiles_of() {
	if [ -n "${conf[slides]}" ]; then
		(exec -a "$prog" sa-campaign-data tiles --what slide "$1")
	else
		(exec -a "$prog" sa-campaign-data tiles --suffix "${conf[reference_suffix]}" "$1")
	fi
}

# check_tiles LIST: dies on keys the tiles (LIST: campaign_tiles) cannot
# serve: aggregate_by = slide with a tiles list
check_tiles() {
	[ "${conf[aggregate_by]}" != slide ] || [ -n "${conf[slides]}" ] || is_tile_table "$1" ||
	    die "$campaign: aggregate_by = slide needs slides or a tile table of slides (a tiles list names no slide)"
}

# tiles_record LIST: the plan's record of the tiles: "tiles CKSUM" of
# LIST, or for slides "slides CKSUM" of their paths, sizes and times of
# modification (a slide is not read whole for every task)
tiles_record() {
	local s
	if [ -n "${conf[slides]}" ]; then
		printf 'slides %s\n' "$(while IFS= read -r s; do
			printf '%s %s\n' "$s" "$(stat -L -c '%s %Y' -- "$s" 2> /dev/null || echo missing)"
		    done < "$1" | cksum)"
	else
		printf 'tiles %s\n' "$(cksum < "$1")"
	fi
}

# slides_table SLIDES TABLE [NAME]: the tile table TABLE, wsi-tiles on
# the slides of SLIDES (absolute paths of the user's list NAME, by
# default slides) with the campaign's tile_size, tile_overlap, level or
# mpp, and min_tissue; each slide's thumbnail (its tissue and kept
# tiles, for the report) in slides/ beside TABLE
slides_table() {
	local thumbs=${2%/*}/slides
	local args=(-q --size "${conf[tile_size]}" --overlap "${conf[tile_overlap]}"
	    --min-tissue "${conf[min_tissue]}"
	    --thumbnail "$thumbs") slides=()
	mkdir -p -- "$thumbs" || die "cannot make $thumbs"
	[ -z "${conf[level]}" ] || args+=(--level "${conf[level]}")
	[ -z "${conf[mpp]}" ] || args+=(--mpp "${conf[mpp]}")
	need wsi-tiles "sareuse's wsi-tiles (make; make install)"
	mapfile -t slides < "$1"
	wsi-tiles "${args[@]}" -o "$2" -- "${slides[@]}"
	[ "$(tile_count "$2")" -gt 0 ] ||
	    die "${3:-${conf[slides]}}: wsi-tiles kept no tile (min_tissue = ${conf[min_tissue]}): nothing to plan"
}

# tile_count LIST: the tiles of a tiles list or table
tile_count() {
	sa-campaign-data tiles-count "$1"
}

# tile_names [--suffix S] LIST: the tiles' names, in order: a table's tile column, a
# list's file names without their extension
tile_names() {
	sa-campaign-data tiles-names "$@"
}

# stores_normalized OUT: whether the reference step stores the
# normalized tiles for the buckets: for a tiles list, unless merge =
# none; never for a tile table, whose tasks normalize each tile of their
# chunk once (a normalized 4096x4096 tile is 48 MiB)
stores_normalized() {
	[ "${conf[merge]}" != none ] && ! is_tile_table "$1/tiles.list"
}

# reference_done OUT: whether the reference step has run
reference_done() {
	[ -s "$1/ref/results.tsv" ] &&
	    { [ -s "$1/norm/tiles.list" ] || ! stores_normalized "$1"; }
}

# ---- array tasks -------------------------------------------------------------

# The chunks of tiles of each bucket: empty for a tune campaign (a task
# is a bucket on every tile, named NNNNN), else ceil(tiles /
# tiles_per_task), task I being bucket I / nchunks on chunk I % nchunks,
# named NNNNN-CCCC. Set by set_chunks.
nchunks=

# set_chunks OUT: nchunks of OUT's plan
set_chunks() {
	local n t=${conf[tiles_per_task]}
	nchunks=
	[ "${conf[goal]}" != tune ] || return 0
	n=$(tile_count "$1/tiles.list")
	nchunks=$(((n + t - 1) / t))
}

# count_tasks OUT: the array tasks of OUT's plan
count_tasks() {
	echo $(($(count_buckets "$1") * ${nchunks:-1}))
}

# bucket_name I: task I's name in the output: NNNNN-CCCC (its bucket and
# chunk), or NNNNN without chunks
bucket_name() {
	if [ -n "$nchunks" ]; then
		printf '%05d-%04d' $(($1 / nchunks)) $(($1 % nchunks))
	else
		printf '%05d' "$1"
	fi
}

# tasks_word [short|array|long]: what the plan's tasks are called:
# "tasks", "array tasks", "array tasks (a bucket on a chunk of tiles)"
# or, without chunks, "buckets"
tasks_word() {
	if [ -z "$nchunks" ]; then
		echo buckets
		return
	fi
	case ${1:-array} in
	short) echo tasks ;;
	array) echo "array tasks" ;;
	long) echo "array tasks (a bucket on a chunk of tiles)" ;;
	esac
}

# task_label I: task I in messages: "task I (bucket B, chunk C)", or
# "bucket I" without chunks
task_label() {
	if [ -n "$nchunks" ]; then
		echo "task $1 (bucket $(($1 / nchunks)), chunk $(($1 % nchunks)))"
	else
		echo "bucket $1"
	fi
}

# chunk_list LIST C: chunk C of the tiles list or table LIST, tiles C *
# tiles_per_task on, with the table's header
chunk_list() {
	sa-campaign-data tiles-chunk "$1" "$2" "${conf[tiles_per_task]}"
}

# ---- job arrays --------------------------------------------------------------

# array_size: the largest array the scheduler takes, its indices 0 to
# array_size - 1: max_array_size, else Slurm's MaxArraySize, else 1001
array_size() {
	local m=${conf[max_array_size]} key value
	if [ -z "$m" ] && [ "${conf[engine]}" = slurm ]; then
		# ("MaxArraySize = N"; read all: scontrol is not cut off by
		# a closed pipe)
		while read -r key _ value _; do
			[ "$key" != MaxArraySize ] || [ -n "$m" ] || m=$value
		done < <(scontrol show config 2> /dev/null)
	fi
	is_uint "$m" && [ "$m" -ge 1 ] || m=1001
	echo "$m"
}

# split_arrays TODO: the arrays of the tasks TODO (one a line), a line
# each: "OFFSET RANGES", RANGES the array's indices (its tasks less
# OFFSET), below array_size
split_arrays() {
	local m t off='' in=()
	m=$(array_size)
	while read -r t _; do
		[ -n "$t" ] || continue
		if [ -n "$off" ] && [ $((t / m * m)) -ne "$off" ]; then
			echo "$off $(printf '%s\n' "${in[@]}" | ranges)"
			in=()
		fi
		off=$((t / m * m))
		in+=($((t - off)))
	done <<< "$1"
	[ -z "$off" ] || echo "$off $(printf '%s\n' "${in[@]}" | ranges)"
}

# ---- results per slide ----------------------------------------------------

# per_slide OUT: aggregate_by = slide: OUT/slides/SLIDE/results.tsv (the
# results of the slide's tiles, the reference step's comments kept:
# sa-campaign-data slides), trials.tsv and indices.tsv (and the plot) of
# each slide
per_slide() {
	local out=$1 s d slides
	rm -rf -- "$out/slides"
	slides=$(sa-campaign-data slides "$out")
	while IFS= read -r s; do
		[ -n "$s" ] || continue
		d=$out/slides/$s
		cp -- "$out/design.tsv" "$d/design.tsv"
		indices "$d"
		trials "$d"
	done <<< "$slides"
}

# task_of NAME: the task of the name NNNNN-CCCC (or NNNNN)
task_of() {
	local b=${1%%-*} c=0
	[ "$b" = "$1" ] || c=${1#*-}
	echo $((10#$b * ${nchunks:-1} + 10#$c))
}

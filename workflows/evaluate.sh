# evaluate.sh - parameter sets evaluated side by side on tiles with ground
# truth, sourced by sa-campaign: the evaluate command, and the validation
# step of a tune campaign with validate (campaign(5)). The sets' design,
# their comparison and validation.tsv are made by sa-campaign-data (sets,
# evaluate, validation, top); this file only runs the tools.
# shellcheck shell=bash

# eval_sets DIR LIST REFDIR NAME=SET...: the sets (defaults, run=N of
# OUT/design.tsv, or a space file whose defaults are the set) on the
# tiles of LIST against the masks of REFDIR, in DIR: design.tsv,
# instances.tsv, buckets.tsv (one bucket of every set), tiles.list,
# results.tsv and timings.tsv (seg-run; each set's masks in
# DIR/masks/RUN) and evaluation.tsv, whose summary it says (tiles.record:
# what decided the tiles, eval_tiles); a DIR of the
# same sets and tiles is kept, and seg-run resumes its bucket
eval_sets() {
	local dir=$1 list=$2 refdir=$3 out=${1%/*} stage design=- args=()
	shift 3
	[ ! -s "$out/design.tsv" ] || design=$out/design.tsv
	stage=$out/.${dir##*/}.tmp.$$
	rm -rf -- "$stage"
	mkdir -p -- "$stage"
	if ! eval_tiles "$list" "$stage" "$refdir" ||
	    ! (exec -a "$prog" sa-campaign-data sets "${conf[space]}" "$design" "$@") > "$stage/design.tsv"; then
		rm -rf -- "$stage"
		exit 1
	fi
	if cmp -s "$stage/design.tsv" "$dir/design.tsv" && cmp -s "$stage/tiles.record" "$dir/tiles.record"; then
		rm -rf -- "$stage"
		say "${dir##*/}: $# set(s), ${*%%=*}, on the $(tile_count "$dir/tiles.list") tile(s) of $list, against $refdir"
	else
		if [ -n "${conf[slides]}" ] && ! eval_slides "$list" "$stage" "$refdir"; then
			rm -rf -- "$stage"
			exit 1
		fi
		say "${dir##*/}: $# set(s), ${*%%=*}, on the $(tile_count "$stage/tiles.list") tile(s) of $list, against $refdir"
		wf-compact -q -o "$stage/instances.tsv" "${conf[workflow]}" "$stage/design.tsv"
		reuse-merge -a naive -b $# -o "$stage/buckets.tsv" "${conf[workflow]}" "$stage/instances.tsv"
		rm -rf -- "$dir"
		commit "$stage" "$dir"
	fi
	args=(--ref "$refdir")
	[ -z "${conf[reference_suffix]}" ] || args+=(--ref-suffix "${conf[reference_suffix]}")
	add_command_args "$out" "${dir##*/}"
	in_child seg-run -q --workflow "${conf[workflow]}" --instances "$dir/instances.tsv" \
	    --buckets "$dir/buckets.tsv" --bucket 0 --tiles "$dir/tiles.list" \
	    --active-paths "${conf[active_paths]}" "${args[@]}" --masks "$dir/masks" \
	    -o "$dir/results.tsv" --timings "$dir/timings.tsv"
	sa-campaign-data evaluate "$dir/design.tsv" "$dir/results.tsv" "$dir/evaluation.tsv" |
	    while IFS= read -r line; do say "$line"; done
}

# eval_tiles LIST STAGE REFDIR: STAGE/tiles.record, what decides the
# tiles of LIST: for a tiles list, STAGE/tiles.list (absolute paths),
# each tile checked with its reference in REFDIR first; in a campaign of
# slides, where LIST names slides, STAGE/slides.list (absolute paths) and
# their sizes and times with the keys that cut them
eval_tiles() {
	if [ -z "${conf[slides]}" ]; then
		(exec -a "$prog" sa-campaign-data tiles-check "$1" "$3" "${conf[reference_suffix]}") &&
		    tiles_of "$1" > "$2/tiles.list" && cp -- "$2/tiles.list" "$2/tiles.record"
		return
	fi
	tiles_of "$1" > "$2/slides.list" || return 1
	{ tiles_record "$2/slides.list"
	  printf '%s\n' "tile_size ${conf[tile_size]}" "tile_overlap ${conf[tile_overlap]}" \
	      "level ${conf[level]}" "mpp ${conf[mpp]}" "min_tissue ${conf[min_tissue]}"; } > "$2/tiles.record"
}

# eval_slides LIST STAGE REFDIR: STAGE/tiles.list, the slides of LIST cut
# as the campaign's (slides_table: a tile table, their thumbnails in
# STAGE/slides), each tile checked with its reference in REFDIR
eval_slides() {
	(slides_table "$2/slides.list" "$2/tiles.list" "$1") &&
	    (exec -a "$prog" sa-campaign-data tiles-check "$2/tiles.list" "$3" "${conf[reference_suffix]}")
}

# set_name SET: the name of a set of evaluate: defaults, runN, or a space
# file's name without .tsv (other characters than letters, digits, '_',
# '-' and '.' made '_')
set_name() {
	local name
	case $1 in
	defaults) name=defaults ;;
	run=*) name=run${1#run=} ;;
	*) name=${1##*/}; name=${name%.tsv} ;;
	esac
	printf '%s' "${name//[^A-Za-z0-9_.-]/_}"
}

# evaluate OUT [SET...]: sa-campaign evaluate: the sets (by default the
# defaults, and OUT/best.tsv when there is one) on the tiles of --tiles,
# validate or tiles, against validate_reference or reference, in
# OUT/evaluate; evaluation.tsv on stdout
evaluate() {
	local out=$1 list refdir s base name i sets=() names=' '
	shift
	[ "${conf[compares]}" != no ] ||
	    die "$campaign: the workflow compares nothing with a reference (no compare task): nothing to evaluate"
	list=${evaltiles:-${conf[validate]:-${conf[tiles]:-${conf[slides]}}}}
	refdir=${conf[validate_reference]:-${conf[reference_dir]}}
	[ -n "$refdir" ] || die "$campaign: no ground truth to evaluate against: reference = defaults; set reference = DIR"
	if [ $# -eq 0 ]; then
		set -- defaults
		[ ! -s "$out/best.tsv" ] || set -- defaults "$out/best.tsv"
	fi
	for s; do
		case $s in
		defaults|run=*) ;;
		*) [ -f "$s" ] || die "set '$s': no such file (a set is defaults, run=N or a space file such as best.tsv)" ;;
		esac
		base=$(set_name "$s")
		name=$base
		i=1
		while [[ $names == *" $name "* ]]; do i=$((i + 1)); name=$base-$i; done
		names+="$name "
		sets+=("$name=$s")
	done
	mkdir -p -- "$out"
	take_lock "$out"
	eval_sets "$out/evaluate" "$list" "$refdir" "${sets[@]}"
	say "evaluation: $out/evaluate/evaluation.tsv (each set's masks in $out/evaluate/masks/RUN)"
	cat -- "$out/evaluate/evaluation.tsv"
}

# validate OUT: the validation step of a tune campaign with validate: the
# defaults and the validate_top best complete sets of OUT/trials.tsv
# (best1, best2, ...) on the validate tiles (eval_sets in OUT/validate),
# then OUT/validation.tsv and best.tsv's #validation line
validate() {
	local out=$1 r k=0 sets=(defaults=defaults)
	[ -n "${conf[validate]}" ] || return 0
	[ -s "$out/trials.tsv" ] || die "$out: no trials.tsv: merge the search first: sa-campaign merge $campaign"
	for r in $(sa-campaign-data top "$out/trials.tsv" "${conf[validate_top]}"); do
		k=$((k + 1))
		sets+=("best$k=run=$r")
	done
	[ "$k" -gt 0 ] || die "$out/trials.tsv: no complete set to validate"
	eval_sets "$out/validate" "${conf[validate]}" "${conf[validate_reference]}" "${sets[@]}"
	sa-campaign-data validation "$out/validate/design.tsv" "$out/validate/results.tsv" > "$out/.validation.tsv.tmp.$$"
	commit "$out/.validation.tsv.tmp.$$" "$out/validation.tsv"
	sa-campaign-data best-validation "$out/best.tsv" "$out/validate/evaluation.tsv" "${conf[metric]}"
	say "validation: $out/validation.tsv"
}

# validation_step OUT: after the merge of a tune campaign's search: with
# validate, the validation step, here on the local engine, as a job of
# its own on Slurm and PBS (validate_submit; the job writes the report
# again); without, no validation.tsv of other settings is left
validation_step() {
	if [ -z "${conf[validate]}" ]; then
		rm -rf -- "$1/validation.tsv" "$1/validate"
		return 0
	fi
	case ${conf[engine]} in
	local) validate "$1" ;;
	*) validate_submit "$1" ;;
	esac
}

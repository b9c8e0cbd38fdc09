# batches.sh - the batches of a tune campaign (batches = N > 1), sourced by
# sa-campaign beside engines.sh.
# shellcheck shell=bash

# A tune campaign with batches = N > 1 searches in N batches: batch K is
# a plan of its own in OUT/batch-K (its space.tsv, design, instances,
# buckets, results, timings, ledger; ref and norm link to OUT's, the
# reference step being shared). Batch 1 is drawn from the campaign's
# space; each later one from the space sa-prune makes of the campaign's
# space with the knowledge base as past and OUT (the batches so far) as
# current. Runs are numbered within their batch there; the merge of a
# batch composes OUT's design.tsv, results.tsv and ledger.tsv with global
# runs (batch K's after batch K-1's); sa-trials gives OUT's trials.tsv
# its batch column from the design's #batches line.

# batched: whether the campaign runs in batches
batched() {
	[ "${conf[batches]:-1}" -gt 1 ]
}

# batch_size K: the sets of batch K: samples / batches, the last one
# the remainder too
batch_size() {
	local n=${conf[samples]} b=${conf[batches]}
	if [ "$1" -lt "$b" ]; then
		echo $((n / b))
	else
		echo $((n - (b - 1) * (n / b)))
	fi
}

# searching: whether the campaign's method is a search that learns (pso,
# anneal, tpe): each batch is a round drawn from the ones before
searching() {
	case ${conf[method]} in pso | anneal | tpe) return 0 ;; esac
	return 1
}

# current_batch OUT: the last planned batch, 0 when none is
current_batch() {
	local k=0
	while planned "$1/batch-$((k + 1))"; do
		k=$((k + 1))
	done
	echo "$k"
}

# plan_batch OUT K: plans batch K in OUT/batch-K (made in a staging
# directory, moved whole): its space (the campaign's for batch 1, else
# sa-prune's, with its report prune.tsv), a design of batch_size K sets
# drawn with the batch's seed (sa-campaign-data batch-seed: a hash of the
# campaign's seed and K; seed + K - 1 in a campaign planned before),
# its instances and buckets, and inputs, the record of its own space
# and seed; once
plan_batch() {
	local out=$1 k=$2 bd=$1/batch-$2 stage a flag='' args=() space seed
	planned "$bd" && return 0
	take_lock "$out"
	[ ! -e "$bd" ] || die "$bd: a batch directory without a complete plan: remove it, then run again"
	clean_temps "$out"
	stage=$out/.batch-$k.tmp.$$
	mkdir -p -- "$stage/logs" "$stage/results" "$stage/timings"
	if [ "$k" = 1 ]; then
		cp -- "${conf[space]}" "$stage/space.tsv"
		[ -z "${conf[knowledge]}" ] ||
		    say "knowledge: $(sa-campaign-data knowledge "${conf[knowledge]}")"
	else
		prune "$out" "$stage"
	fi
	seed=$(sa-campaign-data batch-seed "$out" "$k" "${conf[seed]}") || exit
	if searching; then	# a round of a search: the campaign's seed
		seed=${conf[seed]}
	fi
	for a in "${sample_args[@]}"; do
		case $flag in
		-n) args+=("$(batch_size "$k")") ;;
		-s) args+=("$seed") ;;
		*) args+=("$a") ;;
		esac
		flag=$a
	done
	if searching; then
		# round K from the rounds before (OUT/trials.tsv), in the
		# campaign's space, each set projected onto the batch's space
		args+=(--round "$k" --rounds "${conf[batches]}")
		[ "$k" = 1 ] || args+=(--history "$out/trials.tsv" --within "$stage/space.tsv")
		sa-sample "${args[@]}" -o "$stage/design.tsv" "${conf[space]}"
	else
		sa-sample "${args[@]}" -o "$stage/design.tsv" "$stage/space.tsv"
	fi
	plan_buckets "$stage"
	cp -- "$out/tiles.list" "$stage/tiles.list"
	ln -s ../ref "$stage/ref"
	ln -s ../norm "$stage/norm"
	space=${conf[space]}
	conf[space]=$stage/space.tsv
	{ echo "batch $k of ${conf[batches]} seed=$seed"
	  plan_record "$(if [ -n "${conf[slides]}" ]; then echo "$out/slides.list"; else echo "$stage/tiles.list"; fi)"
	} > "$stage/inputs"
	conf[space]=$space
	mv -T -- "$stage" "$bd"
	say "batch $k of ${conf[batches]}: $(batch_size "$k") sets: $bd"
}

# prune OUT STAGE: STAGE/space.tsv, the campaign's space pruned by
# sa-prune from the knowledge base (none: nothing is pruned, the report
# says why) with OUT's trials so far as current; its report STAGE/prune.tsv
prune() {
	local out=$1 stage=$2 args=()
	need sa-prune "sareuse's sa-prune (make; make install)"
	[ -z "${conf[knowledge]}" ] || args+=(--knowledge "${conf[knowledge]}")
	args+=(--paggr "${conf[prune_paggr]}")
	[ "${conf[prune_paggr]}" != auto ] || args+=(--paggr-max "${conf[prune_paggr_max]}")
	sa-prune --current "$out" "${args[@]}" --metric "${conf[metric]}" \
	    -s "${conf[seed]}" -k "${conf[prune_k]}" --min-ncorr "${conf[prune_min_ncorr]}" \
	    --bins "${conf[prune_bins]}" --report "$stage/prune.tsv" -o "$stage/space.tsv" \
	    "${conf[space]}" 2> >(while IFS= read -r line; do say "${line#sa-prune: }"; done)
}

# merge_batch BD NBUCKETS: the merge of batch BD (OUT/batch-K): its
# results.tsv, timings.tsv, trials.tsv (its own runs) and report; OUT's
# design.tsv, results.tsv, trials.tsv and best.tsv (and tune.png) of
# the batches so far; then, before the last batch, the next batch's plan,
# submitted as jobs on Slurm and PBS
merge_batch() {
	local bd=$1 nbuckets=$2 out=${1%/batch-*} k=${1##*/batch-} missing args
	missing=$(unfinished "$bd" "$nbuckets" | ranges)
	[ -z "$missing" ] || die "$bd: buckets without results: $missing (of 0-$((nbuckets - 1))): run them first"
	# every bucket is done: what killed ones left can go
	take_lock "$out"
	clean_temps "$out"
	merge_files results "$bd/results" "$bd/results.tsv" "$nbuckets" "$out/ref/results.tsv"
	merge_files timings "$bd/timings" "$bd/timings.tsv" "$nbuckets"
	merge_geojson "$bd"
	trials "$bd" --rule "${conf[cancel_rule]}"
	compose "$out" "$k"
	compose_ledger "$out" "$k"
	[ "${conf[plot]}" != no ] || rm -f -- "$out/tune.png"
	args=(--rule "${conf[cancel_rule]}" --space "${conf[space]}" --best "$out/best.tsv")
	[ "${conf[plot]}" = no ] || args+=(--plot "$out/tune.png")
	trials "$out" "${args[@]}"
	say "batch $k of ${conf[batches]} merged: $bd/trials.tsv"
	say "best so far: $out/best.tsv ($(sa-campaign-data best "$out/best.tsv"))"
	say "trials: $out/trials.tsv"
	report "$bd"
	[ "$k" -lt "${conf[batches]}" ] || validation_step "$out"
	report_all "$out"
	[ "$k" -lt "${conf[batches]}" ] || return 0
	plan_batch "$out" $((k + 1))
	if [ "${conf[engine]}" != local ]; then
		top=$out
		batchopt=(--batch $((k + 1)))
		out=$out/batch-$((k + 1))
		nbuckets=$(count_buckets "$out")
		engine_submit "$out" "$nbuckets"
	fi
}

# report_all OUT: OUT/report.html (report = yes), the page of every
# batch merged so far: sa-report reads the batches' plans, timings and
# attempts, and shows each batch's space; no predicted makespan (the
# batches' buckets ran apart, with sa-prune and a plan between them)
report_all() {
	local out=$1
	if [ "${conf[report]}" = no ]; then
		rm -f -- "$out/report.html"
		return 0
	fi
	need sa-report "sareuse's sa-report (make; make install)"
	sa-report --campaign "${conf[campaign]}" --workflow "${conf[workflow]}" \
	    -o "$out/report.html" "$out"
	say "report: $out/report.html"
}

# compose OUT K: OUT/design.tsv and OUT/results.tsv of batches 1 to K,
# their runs renumbered: batch J's after batch J-1's; the design's
# comments are batch 1's, n the sets so far, and #batches=K of N
# sizes=N1,N2,...
compose() {
	sa-campaign-data compose "$1" "$2" "${conf[batches]}"
}

# compose_ledger OUT K: OUT/ledger.tsv, the ledgers of batches 1 to K
# as one (ledger(5), "The ledger of all batches"): their rows in batch
# order, runs renumbered as in compose, and a batch column; its comments
# a provenance line and batch 1's #metric line, runs= the sets so far
compose_ledger() {
	sa-campaign-data ledger "$1" "$2" "${conf[batches]}"
}

# run_batches OUT: the local engine's batched run: the reference step,
# then each batch from the current one: its unfinished buckets, its
# merge (which plans the next)
run_batches() {
	local out=$1 k bd
	reference "$out"
	top=$out
	while :; do
		k=$(current_batch "$out")
		bd=$out/batch-$k
		batchopt=(--batch "$k")
		local_run "$bd" "$(count_buckets "$bd")" merge_batch
		[ "$k" -lt "${conf[batches]}" ] || break
	done
}

# tune_status_batches OUT: tune_status over the ledgers of OUT's batches,
# their runs renumbered as in OUT/trials.tsv; the sets of every batch,
# planned or not
tune_status_batches() {
	local out=$1 k args=() off=0
	for ((k = 1; k <= $(current_batch "$out"); k++)); do
		[ ! -s "$out/batch-$k/ledger.tsv" ] || args+=("off=$off" "$out/batch-$k/ledger.tsv")
		off=$((off + $(sa-campaign-data rows "$out/batch-$k/design.tsv")))
	done
	tune_status "$out" "${conf[samples]}" ${args[@]+"${args[@]}"}
}

# batch_main CMD OUT BATCH [I]: the command of a batched campaign on
# batch BATCH (by default the current one, the last planned; batch 1 is
# planned when none is); the reference step is OUT's
batch_main() {
	local cmd=$1 out=$2 k=$3 bd nbuckets
	shift 3
	top=$out
	[ "$(current_batch "$out")" -gt 0 ] || plan_batch "$out" 1
	[ -n "$k" ] || k=$(current_batch "$out")
	[ "$k" -le "$(current_batch "$out")" ] ||
	    die "$out: batch $k is not planned yet (batches 1 to $(current_batch "$out") are)"
	bd=$out/batch-$k
	batchopt=(--batch "$k")
	nbuckets=$(count_buckets "$bd")
	case $cmd in
	plan) plan_summary "$bd" "$nbuckets" ;;
	reference) reference "$out" ;;
	bucket) bucket "$bd" "$nbuckets" "$1" ;;
	merge) merge_batch "$bd" "$nbuckets" ;;
	validate) take_lock "$out"; validate "$out"; report_all "$out" ;;
	status) status "$bd" "$nbuckets" ;;
	run)
		case ${conf[engine]} in
		local) run_batches "$out" ;;
		*) engine_submit "$bd" "$nbuckets" ;;
		esac ;;
	esac
}

#!/usr/bin/env bats
# Unit tests of tools/lib (C programs built by make testbins).
load common

# bats test_tags=fast
@test "correlation measures against known answers (corr_test)" {
	run corr_test
	assert_success
}

# bats test_tags=fast
@test "Morris trajectory selection: brute force and local search (morris_select_test)" {
	run morris_select_test
	assert_success
}

# bats test_tags=fast
@test "Smart-Cut: Stoer-Wagner cuts against brute force, the worked example (sca_test)" {
	run sca_test
	assert_success
}

# bats test_tags=fast
@test "TRTMA: worked examples, caps, and Balance against a brute-force search (trtma_test)" {
	run trtma_test
	assert_success
}

# bats test_tags=fast
@test "morphology: reconstruction, fill holes, select, area filter, erosion and dilation by rows, regional minima, h-minima against brute force and OpenCV (morph_test)" {
	run morph_test
	assert_success
}

# bats test_tags=fast
@test "colour normalization: a small tile's colours sorted, a large one's in the direct table, the same bytes (norm_test)" {
	run norm_test "$TOP/test/data/monuseg/TCGA-21-5784-01Z-00-DX1.png"
	assert_success
}

# bats test_tags=fast
@test "command templates: words, quotes, braces, placeholders, output forms, refusals at their byte, values never parsed (template_test)" {
	run template_test
	assert_success
}

# bats test_tags=fast
@test "a workflow's commands: exit, signal, not found; a timeout, the exit and the caller's SIGKILL kill the command's whole tree; log, memory, thread variables (spawn_test)" {
	run spawn_test
	assert_success
}

# bats test_tags=fast
@test "distance transform: bit for bit OpenCV's exact L2 (DIST_MASK_PRECISE), and brute force (distance_test)" {
	run distance_test
	assert_success
}

# bats test_tags=fast
@test "eFAST: the frequencies of SALib's fast_sampler, the search curve, a linear model's indices, refusals (efast_test)" {
	run efast_test
	assert_success
}

# bats test_tags=fast
@test "RBD-FAST, PAWN and delta: SALib 1.5.1's values on a fixed sample to 1e-12, known answers, worked examples, refusals (given_test)" {
	run given_test
	assert_success
}

# bats test_tags=fast
@test "labels beside their points: clear of one another, of a line, a box, the edge; random clusters (labels_test)" {
	run labels_test
	assert_success
}

# bats test_tags=fast
@test "bit planes: packing and unpacking against the straightforward loops (bits_test)" {
	run bits_test
	assert_success
}

# bats test_tags=fast
@test "watershed of a tile masked by a bit plane: bit for bit cv::watershed on the masked copy (watershed_test)" {
	run watershed_test
	assert_success
}

# bats test_tags=fast
@test "images: TIFF (strips, tiles, BigTIFF) and PNG round trips, corrupt and absurd files refused (image_test)" {
	run image_test
	assert_success
}

# bats test_tags=fast
@test "comparison measures: Dice, Jaccard, object Dice, AJI, TP/FP/FN against brute force (compare_test)" {
	run compare_test
	assert_success
}

# bats test_tags=fast
@test "simulation: exact makespans, heap against brute force, event order, sweeps, plans (simulate_test)" {
	run simulate_test
	assert_success
}

# bats test_tags=fast
@test "cancellation rules: stable, median and wilcoxon at their boundaries; Wilcoxon p-values against brute force and scipy (cancel_test)" {
	run cancel_test "$TOP/test/data/wilcoxon-fixtures.tsv"
	assert_success
}

# bats test_tags=fast
@test "numbers: formatting and parsing through double-conversion byte for byte as snprintf and strtod had them, on millions of doubles and every short number string (num_test)" {
	run num_test
	assert_success
	assert_output --regexp '^[0-9]+ doubles formatted, [0-9]+ strings parsed$'
}

# bats test_tags=fast
@test "hashing: integer map and interner against brute force, option word lists (hash_test)" {
	run hash_test
	assert_success
}

# bats test_tags=fast
@test "formats: buckets, results and timings written and read back, gathered; the metrics row reader (any metric columns in any order, every refusal with file and line); memory estimate, image headers (formats_test)" {
	run formats_test
	assert_success
}

# bats test_tags=fast
@test "sa-sample and sa-indices in the library: methods, run counts, --fix, design fit, corr table (sa_test)" {
	run sa_test
	assert_success
}

# bats test_tags=fast
@test "where indices are not to be trusted: each VBD rule beyond its interval and margin, none inside, the base samples needed; one MOAT trajectory (trust_test)" {
	run trust_test
	assert_success
}

# bats test_tags=fast
@test "compare-dice's table: operand pair, unreadable pair, header and row (compare_table_test)" {
	run compare_table_test
	assert_success
}

# bats test_tags=fast
@test "campaign files: every message of the parser and the checks, settings, argument lists, records (campaign_test)" {
	run campaign_test
	assert_success
}

# bats test_tags=fast
@test "lock files: taken once, refused while held, broken when stale, raced by 8 processes (lock_test)" {
	run lock_test
	assert_success
}

# bats test_tags=fast
@test "tuning ledger: round trip, complete lines only, dedup, refusals with file:line, 8 processes appending 1,000 rows each while a reader polls, stale locks broken (ledger_test)" {
	run ledger_test
	assert_success
}

# bats test_tags=fast
@test "report: base64 against RFC 4648 and Python, HTML text, durations, measured makespan and concurrency against brute force, sim-runtime's report by column name, the indices and trials tables read back (report_test)" {
	run report_test
	assert_success
}

# bats test_tags=fast
@test "sa-prune's library: ncorr by hand, kNN against brute force, Algorithm 1 on the worked example, the variogram's nugget and sill, paggr auto's tests and fallbacks (prune_test)" {
	run prune_test
	assert_success
}

# bats test_tags=fast
@test "outlines along pixel edges cover exactly each object's pixels (brute force); GeoJSON feature lines written and checked (geojson_test)" {
	run geojson_test
	assert_success
}

# bats test_tags=fast
@test "the memory budget's sources: cgroup v2 and v1 limits up the hierarchy, Slurm's variables, the least of them and physical memory (mem_test)" {
	run mem_test
	assert_success
}

# bats test_tags=fast
@test "tiles that overlap: every pixel of random grids owned by exactly one kept tile, by its home when kept; an object in a band kept by one tile; the neighbours column (owner_test)" {
	run owner_test
	assert_success
}

# bats test_tags=fast
@test "searches that learn: pso, anneal and tpe stay on the values, hold fixed parameters, draw a round again the same, and beat uniform draws on a known function over 30 seeds; refusals (search_test)" {
	run search_test
	assert_success
}

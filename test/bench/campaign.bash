# campaign.bash - reading a campaign's measurements, for the benchmarks
# that run campaigns (test/bench/campaign, test/bench/simruntime).

# seconds OUT: "BUCKET SECONDS" per bucket: its rows, #read and #prefault
# lines
seconds() {
	local f
	for f in "$1"/timings/*.tsv; do
		awk -F'\t' '/^#bucket=/ { split($0, a, /[= ]/); b = a[2] }
		    /^#(read|prefault) / { sub(/.* seconds=/, ""); s += $0; next }
		    /^#/ || $1 == "bucket" { next } { s += $6 }
		    END { printf "%d %.6f\n", b, s }' "$f"
	done
}

# joblog OUT: "BUCKET START RUNTIME" per job of the campaign's joblog: the
# bucket of a command "... bucket-N.log" (older sa-campaign) or "...
# bucket CAMPAIGN N" (its last word)
joblog() {
	awk -F'\t' 'NR > 1 { if (match($9, /bucket-[0-9]+\.log/))
		b = substr($9, RSTART + 7, RLENGTH - 11)
	    else { n = split($9, w, " "); b = w[n] }
	    printf "%s %.3f %.3f\n", b, $3, $4 }' "$1/logs/joblog"
}

# span "BUCKET START END" lines: last end - first start
span() {
	awk 'NR == 1 || $2 < s { s = $2 } $3 > e { e = $3 } END { printf "%.3f", e - s }'
}

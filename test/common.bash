# common.bash - loaded by every Bats suite.
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
export PATH="$SR_BIN:$SR_TESTBIN:$PATH"
SPACE=$TOP/share/spaces/nuclei.tsv
FINE=$TOP/share/spaces/nuclei-fine.tsv

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# body FILE: the non-comment lines of a TSV file
body() {
	grep -v '^#' "$1"
}

# no_temp_files DIR: fails if an output temporary was left behind
no_temp_files() {
	run find "${1:-.}" -name '.*.tmp.*'
	assert_output ''
}

# refuse_run TOOL CODE MESSAGE ARGS...: TOOL ARGS fails with CODE and
# MESSAGE; with -o it leaves no file (nor an s2.out), no temporary, and an
# existing file untouched. Afterwards $output is that of the first run
# (without -o), for more checks.
refuse_run() {
	local tool=$1 code=$2 msg=$3 first
	shift 3
	run "$tool" "$@"
	assert_failure "$code"
	assert_output --partial "$msg"
	first=$output
	rm -f new.tsv s2.out
	run "$tool" -o new.tsv "$@"
	assert_failure "$code"
	assert_output --partial "$msg"
	assert [ ! -e new.tsv ]
	assert [ ! -e s2.out ]
	printf 'keep\n' > old.tsv
	run "$tool" -o old.tsv "$@"
	assert_failure "$code"
	assert_equal "$(cat old.tsv)" keep
	no_temp_files
	output=$first
}

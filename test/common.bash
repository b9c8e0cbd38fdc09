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

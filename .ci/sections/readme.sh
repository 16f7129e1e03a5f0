# shellcheck shell=bash
# The README's two commands, read from README.md.
#
# Sourced by .ci/run. readme_block (.ci/fresh-roots.sh) reads the Nth sh
# block under README.md's build heading, so that CI runs what a reader
# copies; the fresh roots run the same two blocks.

readme_build() {
    bash -e -c "$(readme_block 1)"
}

readme_tests() {
    # zsh and fish: CTest shell_completions drives the generated completions
    # in each (it skips a shell that is missing, and fails under CI=true).
    apt-get install -y zsh fish
    # The official SARIF 2.1.0 schema for scan_gate.e2e (required when
    # CI=true), fetched once from npm into /var/cache/loopcheck-ci/sarif
    # (npm comes with servers_install).
    bash tests/json/sarif_schema.sh
    bash -e -c "$(readme_block 2)"
}

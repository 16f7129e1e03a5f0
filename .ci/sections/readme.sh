# shellcheck shell=bash
# The README's two commands, read from README.md, and the start-up-order check on the build they make.
#
# Sourced by .ci/run. readme_block (.ci/fresh-roots.sh) reads the Nth sh
# block under README.md's build heading, so that CI runs what a reader
# copies; the fresh roots run the same two blocks.

readme_build() {
    bash -e -c "$(readme_block 1)"
}

# The start-up order (docs/hacking.md#the-start-up-order) took effect in the
# README's build and still covers what a one-port run executes: a list gone
# stale after a change fails here, not silently in docs/performance.md.
readme_startup_order() {
    apt-get install -y valgrind binutils
    bench/startup-order check build/release
}

readme_tests() {
    # zsh and fish: CTest shell_completions drives the generated completions
    # in each (it skips a shell that is missing, and fails under CI=true).
    apt-get install -y zsh fish
    bash -e -c "$(readme_block 2)"
}

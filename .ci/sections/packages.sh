# shellcheck shell=bash
# Packages: the .deb installs and runs; the .tar.gz's binary needs only the C library (issue 15).
#
# Sourced by .ci/run. package_tarball sets tarball, the release tarball's
# path, which the fresh roots run (fresh_roots_run "$tarball").

package_deb() {
    apt-get install -y dpkg-dev binutils
    cmake --workflow --preset package-deb
    apt-get install -y ./build/deb/loopcheck_*_amd64.deb
    /usr/bin/loopcheck --version
    man -w loopcheck >/dev/null 2>&1 || test -f /usr/share/man/man1/loopcheck.1
}

package_tarball() {
    local tgz_dir needs glibc_floor
    cmake --workflow --preset package
    tarball=$(ls build/release/loopcheck-*-Linux-x86_64.tar.gz)
    tar -tzf "$tarball" | grep -q 'bin/loopcheck$'
    tgz_dir=$(mktemp -d)
    tar -xzf "$tarball" -C "$tgz_dir" --strip-components=1
    readelf -d "$tgz_dir/bin/loopcheck" | grep NEEDED
    # glibc's own libraries only: no libstdc++, libgcc_s, libfmt, libspdlog.
    if readelf -d "$tgz_dir/bin/loopcheck" | grep NEEDED |
        grep -vE '\[(libc|libm|ld-linux-x86-64)\.so\.[0-9]+\]'; then
        echo "the tarball's loopcheck needs more than the C library (above)" >&2
        exit 1
    fi
    # The oldest glibc it runs on is the newest GLIBC_ version it needs (its
    # symbols' versions, and GLIBC_ABI_DT_RELR, glibc 2.36's mark for packed
    # relative relocations); README.md states it, and must keep up.
    needs=$(readelf -V "$tgz_dir/bin/loopcheck")
    glibc_floor=$( {
        grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' <<<"$needs" | sed 's/GLIBC_//'
        if grep -q GLIBC_ABI_DT_RELR <<<"$needs"; then echo 2.36; fi
    } | sort -uV | tail -n 1)
    echo "oldest glibc: $glibc_floor"
    grep -q "glibc $glibc_floor or newer" README.md ||
        { echo "README.md does not say 'glibc $glibc_floor or newer'" >&2; exit 1; }
    rm -rf "$tgz_dir"
}

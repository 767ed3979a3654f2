#!/bin/sh
# Builds neturl.go with the Go toolchain on the PATH (the standard library only: no
# module is fetched) into a folder of the temporary directory, once per source
# version, and runs it: `go run` would answer a non-zero exit with its own status 1.
here=$(dirname "$0")
if ! command -v go >/dev/null 2>&1; then
    echo "needs: apt-get install golang-go" >&2
    exit 3
fi
dir="${TMPDIR:-/tmp}/iri-conform-go-$(id -u)"
bin="$dir/neturl-$(go version | cksum | cut -d' ' -f1)-$(cksum <"$here/neturl.go" | cut -d' ' -f1)"
if [ ! -x "$bin" ]; then
    mkdir -p "$dir" || exit 1
    # Built beside its name and renamed, so that two starts at once never run half a file.
    go build -o "$bin.$$" "$here/neturl.go" || exit 1
    mv -f "$bin.$$" "$bin"
fi
exec "$bin"

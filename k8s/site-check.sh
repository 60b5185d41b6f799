#!/bin/sh
# Before the first deploy: renders an overlay (production by default) and lists every placeholder
# left in it, one line per value with the object it is in. Placeholders are what the repository
# ships: example.com hosts and addresses, the documentation range 192.0.2.0/24, SITE-* markers a
# site value did not replace. Exit status 0 when none is left, 1 when some are, 2 when the overlay
# does not render.
#   k8s/site-check.sh [overlay-name-or-folder]
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
overlay=${1:-production}
case $overlay in
  */*) dir=$overlay ;;
  *) dir=$here/overlays/$overlay ;;
esac
if command -v kustomize >/dev/null 2>&1; then
  render() { kustomize build "$1"; }
else
  render() { kubectl kustomize "$1"; }
fi
rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT
if ! render "$dir" >"$rendered"; then
  echo "site-check: $dir does not render" >&2
  exit 2
fi
# One line per placeholder: Kind/name: the YAML line (annotation keys do not count, values do).
awk '
  function flush(   i) {
    for (i = 1; i <= m; i++) printf "%s/%s: %s\n", kind, name, pending[i]
    m = 0; kind = ""; name = ""; inmeta = 0
  }
  /^---/ { flush(); next }
  /^kind: / { kind = $2 }
  /^metadata:/ { inmeta = 1; next }
  /^[^ ]/ { inmeta = 0 }
  inmeta && /^  name: / && name == "" { name = $2 }
  {
    value = $0
    sub(/^[ -]*[^ :]*: /, "", value)
    if (value ~ /(^|[^a-z0-9-])([a-z0-9-]+\.)*example\.com|192\.0\.2\.[0-9]|SITE-[A-Z]/) {
      line = $0
      sub(/^[ ]+/, "", line)
      pending[++m] = line
      n++
    }
  }
  END {
    flush()
    if (n > 0) { printf "%d placeholder value(s) left: set them in the overlay (site.yaml, images) before the first deploy\n", n > "/dev/stderr"; exit 1 }
    print "no placeholder left" > "/dev/stderr"
  }
' "$rendered"

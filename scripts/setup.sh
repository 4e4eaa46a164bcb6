#!/usr/bin/env bash
# scripts/setup.sh: install what is missing, then build lifeheap in the source
# tree. Idempotent: quick when everything is already installed and built.
# Used by scripts/test.sh and scripts/demo.sh.
#   LIFEHEAP_SETUP_VIEWER=1   also build the viewer (npm packages, viewer/dist)
#   LIFEHEAP_SETUP_BROWSER=1  also install Chromium for the browser tests (implies VIEWER)
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

# Everything the build and the test suites use: a test whose toolchain is
# missing fails rather than skips, so every toolchain is installed here
# (g++ and rustc/cargo for the C++ and Rust test programs, clang for the
# fuzz targets, jq and python3-jsonschema for the checks).
need=()
# libc6-dbg: glibc's symbol table, so that Valgrind redirects glibc's internal
# string calls (strdup's copy) to the byte-exact replacements (docs/metrics.md)
for pkg in autoconf automake pkg-config make gcc g++ valgrind libc6-dbg libjson-c-dev libsqlite3-dev libdw-dev libdeflate-dev python3 python3-jsonschema clang libjemalloc-dev \
           librust-crossbeam-channel-dev librust-regex-dev jq time; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || need+=("$pkg")
done
# Rust: cargo lifeheap and the Rust examples need cargo and rustc; a rustup
# toolchain on PATH is used as it is, else Debian's. The cargo suite builds
# offline against crossbeam-channel as Debian ships it (source, under
# /usr/share/cargo/registry: librust-crossbeam-channel-dev above), the names
# suite against regex (librust-regex-dev).
for tool in rustc cargo; do
  command -v "$tool" >/dev/null || need+=("$tool")
done
[ "${LIFEHEAP_SETUP_BROWSER:-0}" = 1 ] && LIFEHEAP_SETUP_VIEWER=1
want_viewer=${LIFEHEAP_SETUP_VIEWER:-0}
if [ "$want_viewer" = 1 ]; then
  browser_pkgs=(nodejs npm)
  [ "${LIFEHEAP_SETUP_BROWSER:-0}" = 1 ] && browser_pkgs+=(chromium)
  for pkg in "${browser_pkgs[@]}"; do
    # node/npm may come from outside Debian's packages: only install when absent.
    case $pkg in nodejs|npm) command -v "${pkg/nodejs/node}" >/dev/null && continue ;; esac
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || need+=("$pkg")
  done
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${need[@]}" >/dev/null
fi

# autotools: regenerate only when the inputs changed.
stale() { [ ! -e "$1" ] || [ -n "$(find configure.ac Makefile.am */Makefile.am -newer "$1" 2>/dev/null | head -1)" ]; }
if stale configure; then
  echo "setup: autoreconf" >&2
  autoreconf -i >/dev/null 2>&1 || autoreconf -i
fi
if stale config.status || [ configure -nt config.status ]; then
  echo "setup: configure" >&2
  ./configure -q
fi
make -s -j"$(nproc)" >/dev/null

if [ "$want_viewer" = 1 ] && [ -f viewer/package.json ]; then
  if [ ! -d viewer/node_modules ] || [ viewer/package-lock.json -nt viewer/node_modules ]; then
    echo "setup: npm ci (viewer)" >&2
    (cd viewer && npm ci --no-audit --no-fund --loglevel=error >/dev/null && touch node_modules)
  fi
  if [ -x viewer/build.sh ]; then
    if [ ! -f viewer/dist/index.html ] || [ -n "$(find viewer/src viewer/build.js viewer/node_modules -newer viewer/dist/index.html 2>/dev/null | head -1)" ]; then
      echo "setup: building the viewer" >&2
      viewer/build.sh >/dev/null
    fi
  fi
fi

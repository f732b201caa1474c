#!/usr/bin/env bash
# The whole test suite: packages, the protocol-glue check, a warning-free build (examples
# included), the API reference, and every test target including the live tests under real
# compositors. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/install-deps.sh
Scripts/gen-protocols.sh --check

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Optimised, with every check a debug build makes: -assert-config Debug keeps assert and the
# standard library's debug preconditions (an unsafe buffer's bounds among them), and overflow and
# exclusivity checks are on in every build; -enable-testing lets the tests import internals. The
# pixel-heavy tests (the renderer's, the offscreen gallery's) take a tenth of their debug time.
# Built in a folder of its own (.build-tests): the scripts' release builds of the viewer link
# Swift's runtime in (--static-swift-stdlib), and the two sets of flags in one folder would
# rebuild everything each time one follows the other.
build=(-c release -Xswiftc -enable-testing -Xswiftc -assert-config -Xswiftc Debug --scratch-path .build-tests)
echo "test: building (optimised with debug assertions, with tests)"
status=0
swift build "${build[@]}" --build-tests >"$log" 2>&1 || status=$?
if [ $status -ne 0 ]; then
    grep -E 'error:' "$log" | sort -u | head -40 >&2 || tail -40 "$log" >&2
    echo "test: the build failed (status $status)" >&2
    exit 1
fi
# Project sources must build without warnings (dependencies' warnings are not ours).
if grep -E "^$(pwd)/(Sources|Tests|Examples)/.*warning:" "$log" >/dev/null; then
    grep -E "^$(pwd)/(Sources|Tests|Examples)/.*warning:" "$log" | sort -u >&2
    echo "test: the build has warnings (above)" >&2
    exit 1
fi

# A module imported without a dependency on it builds here only by luck of the build order;
# a clean build (CI) fails on it.
Scripts/check-imports.py

# The examples are built above; they stand for outside apps, so they use no testable imports.
if grep -rn '@testable' Examples >&2; then
    echo "test: the examples must use the public API only (above)" >&2
    exit 1
fi
echo "test: the API reference (DocC, warnings as errors; about half a minute)"
Scripts/check-docs.sh

# Two runs: swift-testing shares one thread per core among all tests, and the live tests block
# in waits on compositors and screenshots; run together on two cores they starved the unit tests
# past their time limits (a 7 s listing suite hit its 60 s limit at 242 s). The live tests run
# on threads of their own (LiveTests' .ownThreads), as many at once as swift-testing's width
# says: twice the cores, admitted before a test's time limit starts (its default, no limit, let
# every live test start and wait for a thread with its time limit running).
echo "test: running every test target but the live tests"
swift test "${build[@]}" --skip-build --skip LiveTests
echo "test: running the live tests (each starts its own compositors)"
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$((2 * $(nproc))) swift test "${build[@]}" --skip-build --filter LiveTests

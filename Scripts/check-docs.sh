#!/usr/bin/env bash
# The API reference: builds the DocC catalogs of ScrollKit and Raster with DocC's warnings as
# errors (a broken symbol link, a missing article), then fails when a public symbol declared in
# their sources has no documentation comment, or when the getting-started article's code is not
# Examples/HelloScroll/main.swift (which every build compiles). Scripts/test.sh runs it; the
# archives land in .build/plugins/Swift-DocC/outputs.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(ScrollKit Raster)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift package generate-documentation "${args[@]}" --warnings-as-errors >"$log" 2>&1 || status=$?
if [ $status -ne 0 ]; then
    # DocC's own messages, with the file and line; the build's progress lines are noise.
    grep -vE '^\[[0-9]+/[0-9]+\]|prohibited flag' "$log" | tail -40 >&2
    echo "docs: DocC failed (status $status)" >&2
    exit 1
fi

# Undocumented public symbols, from the symbol graphs DocC was given. Members a type gets from a
# protocol it adopts (hash(into:), !=) have no source location here and are left out.
python3 - "${targets[@]}" <<'EOF'
import glob, json, sys

missing = []
for target in sys.argv[1:]:
    graphs = glob.glob(f".build/*/extracted-symbols/*/{target}/*.symbols.json")
    if not graphs:
        sys.exit(f"docs: no symbol graph for {target}")
    for path in graphs:
        for symbol in json.load(open(path))["symbols"]:
            uri = symbol.get("location", {}).get("uri", "")
            if not uri or symbol["kind"]["identifier"] == "swift.extension" or "docComment" in symbol:
                continue
            file = uri.split("/Sources/", 1)[-1]
            line = symbol["location"]["position"]["line"] + 1
            missing.append(f"Sources/{file}:{line}: {'.'.join(symbol['pathComponents'])}")
if missing:
    print("\n".join(sorted(set(missing))), file=sys.stderr)
    sys.exit(f"docs: {len(set(missing))} public symbols above have no /// comment")
EOF

# The article quotes the example whole: the code block after the comment naming this script.
article=Sources/ScrollKit/ScrollKit.docc/GettingStarted.md
example=Examples/HelloScroll/main.swift
if ! diff <(awk '/check-docs.sh checks/ { marked = 1; next } marked && /^```swift$/ { inside = 1; next }
                 inside && /^```$/ { exit } inside { print }' "$article") "$example" >&2; then
    echo "docs: the code in $article differs from $example (above); copy the example into it" >&2
    exit 1
fi
echo "docs: ${targets[*]} built without warnings, every public symbol documented"

#!/usr/bin/env python3
"""Every module a target imports is one it depends on directly.

An incremental build hides a missing dependency when another target happened to build the
module first; a clean build (CI) then fails with "no such module". And a module imported only
through another's dependencies is not among the inputs of the importing target's compile: when
it changes, the importer is not rebuilt and runs with the old layout of its types (a test
crashed reading a struct whose fields had changed). This reads the package's own description
(swift package dump-package) and each target's import lines.
Usage: Scripts/check-imports.py   (exit 1 naming each target and module that is missing)
"""
import json
import os
import re
import subprocess
import sys

package = json.loads(subprocess.check_output(["swift", "package", "dump-package"], stderr=subprocess.DEVNULL))
targets = {t["name"]: t for t in package["targets"]}
products = {p["name"]: p["targets"] for p in package["products"]}


def direct(name):
    out = set()
    for dependency in targets[name]["dependencies"]:
        for value in dependency.values():
            ref = value[0]
            if ref in targets:
                out.add(ref)
            elif ref in products:
                out.update(products[ref])
    return out


# Executable targets are imported under their C99 names (image-viewer as image_viewer).
module_names = {name.replace("-", "_"): name for name in targets}
problems = []
for name, target in targets.items():
    folder = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + name
    imported = set()
    for root, _, files in os.walk(folder):
        for file in files:
            if file.endswith(".swift"):
                with open(os.path.join(root, file), encoding="utf-8") as source:
                    imported.update(re.findall(r"^\s*(?:@testable\s+)?import\s+(\w+)", source.read(), re.M))
    have = direct(name)
    for module in sorted(imported):
        target_name = module_names.get(module)
        if target_name and target_name != name and target_name not in have:
            problems.append(f"{name} imports {module}, which is not among its direct dependencies in Package.swift")
for problem in problems:
    print(f"check-imports: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)

#!/usr/bin/env python3
"""GPU check of manifest trust: a manifest that disagrees with its binary is
refused before any launch (runtime/lib/BinaryAbi.h).

Run by scripts/gpu-check.sh: tampered-manifests.py FA4_RUN ARTIFACT_DIR...
For each artifact, copies its files into a scratch directory and edits the
manifest the ways a stale or tampered one would differ (a scalar parameter
dropped, one retyped, one added, a larger block; a smaller TMA box, less
shared memory, no cluster, a finer grid); fa4-run must exit 2 with
"manifest and binary disagree" for each, and run the untouched copy. Prints
one line per case and exits non-zero on any failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def tampers(manifest):
    """(name, edited manifest) pairs."""
    scalars = [i for i, p in enumerate(manifest["params"])
               if p["kind"] == "scalar"]
    last = scalars[-1]
    dropped = json.loads(json.dumps(manifest))
    del dropped["params"][last]
    retyped = json.loads(json.dumps(manifest))
    i32 = next(i for i in scalars if manifest["params"][i]["type"] == "i32")
    retyped["params"][i32]["type"] = "i64"
    added = json.loads(json.dumps(manifest))
    added["params"].append({"kind": "scalar", "type": "i32", "value": 7})
    wider = json.loads(json.dumps(manifest))
    wider["launch"]["block"][0] += 128
    cases = [("dropped", dropped), ("retyped", retyped), ("added", added),
             ("wider-block", wider)]
    # What the driver cannot see, caught by the binary's ABI record
    # (include/fa4/AbiRecord.h): a box, the shared memory, a cluster, a grid.
    maps = [i for i, p in enumerate(manifest["params"])
            if p["kind"] == "tensor_map" and p["box"][1] > 8]
    if maps:
        box = json.loads(json.dumps(manifest))
        box["params"][maps[0]]["box"][1] -= 8
        cases.append(("smaller-box", box))
    smem = json.loads(json.dumps(manifest))
    if smem["launch"]["dynamic_smem_bytes"] > 1024:
        smem["launch"]["dynamic_smem_bytes"] -= 1024
        cases.append(("less-smem", smem))
    if manifest["launch"]["cluster"] != [1, 1, 1]:
        cluster = json.loads(json.dumps(manifest))
        cluster["launch"]["cluster"] = [1, 1, 1]
        cases.append(("no-cluster", cluster))
    grid = json.loads(json.dumps(manifest))
    for factors in grid["launch"]["grid"]:
        divided = [f for f in factors if isinstance(f, dict)]
        if divided and divided[0]["ceil_div"][1] > 1:
            divided[0]["ceil_div"][1] //= 2
            cases.append(("finer-grid", grid))
            break
    return cases


def run(fa4_run, directory, manifest):
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    sizes = {"b": 1, "sq": 77, "skv": 301}
    problem = manifest["problem"]
    for key, name in (("batch", "b"), ("seq_q", "sq"), ("seq_kv", "skv")):
        if problem.get(key, -1) > 0:
            sizes[name] = problem[key]
    args = [fa4_run, os.path.join(directory, "manifest.json")]
    for name, value in sizes.items():
        args += [f"--{name}", str(value)]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def main():
    fa4_run, artifacts = sys.argv[1], sys.argv[2:]
    failures = 0
    for artifact in artifacts:
        with open(os.path.join(artifact, "manifest.json")) as f:
            manifest = json.load(f)
        scratch = tempfile.mkdtemp(prefix="fa4-tamper-")
        for entry in os.listdir(artifact):
            if entry != "manifest.json":
                shutil.copy(os.path.join(artifact, entry), scratch)
        name = os.path.basename(artifact.rstrip("/"))
        untouched = run(fa4_run, scratch, manifest)
        ok = untouched.returncode == 0
        failures += not ok
        print(f"{name:48} untouched    {'pass' if ok else 'FAIL'} "
              f"{untouched.stdout.strip()[-80:]}{untouched.stderr.strip()[-200:]}")
        for case, edited in tampers(manifest):
            result = run(fa4_run, scratch, edited)
            refused = (result.returncode == 2 and
                       "manifest and binary disagree" in result.stderr)
            failures += not refused
            message = result.stderr.strip().splitlines()
            print(f"{name:48} {case:12} {'refused' if refused else 'FAIL'} "
                  f"{message[-1][:160] if message else result.stdout[-80:]}")
        shutil.rmtree(scratch)
    print(f"tampered manifests: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Print the ABI record a PTX file of fa4's carries, or check it against a
manifest.

Every binary fa4 compiles holds its manifest less the `binary` entries as the
global `fa4_abi_record` (include/fa4/AbiRecord.h); libfa4rt reads it back and
refuses a manifest that disagrees. This is the same comparison on the PTX
text, with no GPU: members in any order, the manifest's `binary` entries (its
own and decode.manifest's) left out.

  abi-record.py KERNEL.ptx                      print the record
  abi-record.py KERNEL.ptx --manifest M.json    exit 1 unless they agree
  abi-record.py VARIANT.ptx --manifest M.json --decode
                                                against M's decode.manifest
  abi-record.py --c-definition M.json           the record as a CUDA C
                                                definition, for kernels
                                                written by hand (runtime/selftest)
"""
import argparse
import json
import re
import sys

GLOBAL = re.compile(
    r"\.global\s+\.align\s+1\s+\.b8\s+fa4_abi_record\[(\d+)\]\s*=\s*\{([^}]*)\}")


def record_of(ptx_text):
    found = GLOBAL.findall(ptx_text)
    if len(found) != 1:
        raise SystemExit(f"expected one fa4_abi_record global, found {len(found)}")
    size, values = found[0]
    data = bytes(int(v) for v in values.split(","))
    # PTX zero-fills past a shorter initializer (nvcc leaves out the NUL).
    if len(data) > int(size):
        raise SystemExit(f"fa4_abi_record[{size}] holds {len(data)} bytes")
    return json.loads(data.rstrip(b"\0").decode())


def without_binary(manifest):
    record = {k: v for k, v in manifest.items() if k != "binary"}
    if "decode" in record:
        decode = dict(record["decode"])
        decode["manifest"] = without_binary(decode["manifest"])
        record["decode"] = decode
    return record


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return path or "the top"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}".lstrip(".")
            inner = first_difference(a[key], b[key], f"{path}.{key}".lstrip("."))
            if inner:
                return inner
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path
        for i, (x, y) in enumerate(zip(a, b)):
            inner = first_difference(x, y, f"{path}[{i}]")
            if inner:
                return inner
        return None
    return None if a == b else (path or "the top")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ptx", nargs="?")
    parser.add_argument("--c-definition", metavar="MANIFEST",
                        help="print M's record as a __device__ definition")
    parser.add_argument("--manifest")
    parser.add_argument("--decode", action="store_true",
                        help="compare with the manifest's decode.manifest")
    args = parser.parse_args()
    if args.c_definition:
        with open(args.c_definition) as f:
            text = json.dumps(without_binary(json.load(f)),
                              separators=(",", ":"))
        print('extern "C" __device__ __attribute__((used)) const char '
              f"fa4_abi_record[] = {json.dumps(text)};")
        return 0
    if not args.ptx:
        parser.error("give a PTX file, or --c-definition")
    with open(args.ptx) as f:
        record = record_of(f.read())
    if not args.manifest:
        print(json.dumps(record, indent=1, sort_keys=True))
        return 0
    with open(args.manifest) as f:
        manifest = json.load(f)
    if args.decode:
        manifest = manifest["decode"]["manifest"]
    difference = first_difference(without_binary(manifest), record)
    if difference:
        print(f"{args.ptx}: the record and {args.manifest} differ at "
              f"{difference}", file=sys.stderr)
        return 1
    print(f"{args.ptx}: record matches {args.manifest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

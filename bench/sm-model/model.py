#!/usr/bin/env python3
"""A timing model of one sm_90a SM running fa4's Hopper prefill kernel,
driven by the kernel's SASS (ptxas's, read with nvdisasm), checked against
time_rows.py's H100/H200 timings.

    model.py PACK [--rows ROWS_FILE] [--explain]

PACK is a kernel pack of time_rows.py's configurations (fa4.pack); ROWS_FILE
its output on the GPU, whose measured time and SM clock each row is
compared with (without it, cycles only). Prints, per row: the kernel that
runs (plain or looped twin), its per-step cycle bounds, the predicted time
at the row's measured clock and the ratio to the measured time.

The model (bench/sm-model/README.md, "The model"):
  - The consumer warpgroups' K/V step is the shortest SASS loop holding
    wgmma (HGMMA) and MUFU; an unmasked step skips the mask's branch
    (step_path). Every consumer warpgroup has one warp on each SM
    sub-partition (SMSP).
  - The tensor core runs a warpgroup's step (Q K^T and P V, 64 rows) in
    2 * 64 * BN * (Dqk + Dv) / 4096 cycles.
  - One SMSP is simulated cycle by cycle (simulate_smsp): a warp of each
    consumer warpgroup issues its step (ptxas's stall counts, scoreboard
    waits on MUFU/SHFL results, the shared pipes' cycles), hands its GEMMs
    to the tensor core, which runs them in order, and waits for them.
  - A work tile costs its unmasked and masked steps' periods plus one
    unpipelined step; a CTA that loads its own Q adds a DRAM round trip
    and a launch.
  - Tiles go to 132 SMs: the looped twin walks them in its static stride,
    heaviest first; one CTA per tile goes to the SM free first.
"""
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

SMS = 132
# The H100 SXM's boost clock (h100-pipes.txt), where no row's clock is known.
MAX_MHZ = 1980
# bf16 dense tensor FLOP per clock per SM on sm_90a: the H100 whitepaper's
# doubling of A100's 2048 (NVIDIA's H100 PCIe: 114 SMs x 4096 x 1620 MHz =
# its 756 TFLOP/s).
TENSOR_FLOP_PER_CLK = 4096

# Cycles one warp instruction holds its pipe on one SMSP: h100-pipes.txt
# (pipes.cu) where measured, else the CUDA C++ Programming Guide's
# throughput table for compute capability 9.0 (per SM per clock: 32-bit
# compare, min/max, logic, shift and integer add 64; type conversions 16).
# 125/SM/clk -> 1, 64 -> 2, 32 -> 4, 16 -> 8.
FMA = {"FFMA", "FADD", "FMUL", "HFMA2", "HADD2", "HMUL2"}  # 125, measured
# sm_100a's packed f32x2 arithmetic (blackwell.py): one FMA-pipe cycle a
# warp instruction in the simulation, as the unpacked forms; whether it
# holds the pipe two (64 FP32 operations on 32 lanes) is not measured.
PACKED_F32X2 = {"FFMA2", "FADD2", "FMUL2"}
FMA |= PACKED_F32X2
IMAD = {"IMAD"}  # 64, measured; the FMA-heavy half only
ALU = {"FMNMX", "FSEL", "FSETP", "ISETP", "LOP3", "IADD3", "VIADD", "SHF",
       "SEL", "PLOP3", "LEA", "IMNMX", "VIMNMX", "PRMT", "F2FP", "P2R", "R2P",
       "IABS", "FCHK", "BMSK", "SGXT",
       "FMNMX3"}  # FMNMX, F2FP measured 64; others (sm_100a's FMNMX3 too): the Guide
XU = {"MUFU", "F2I", "I2F", "FRND", "F2F", "I2FP", "F2IP"}  # ex2 measured 16; conversions: the Guide
SHFL = {"SHFL"}  # 32, measured

# Every other opcode: one issue cycle, no vector pipe.


def nvdisasm():
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "sass_histogram", os.path.join(HERE, "..", "sass-histogram.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.nvdisasm()


class Instruction:
    """One SASS instruction: its opcode and ptxas's control bits (the high
    word's bits 41-62: stall cycles, yield, write and read scoreboards, the
    scoreboards it waits on)."""

    def __init__(self, text, high):
        words = text.split()
        if words[0].startswith("@"):
            words = words[1:]
        self.text = text
        self.op = words[0].split(".")[0]
        self.full_op = words[0]
        control = high >> 41
        self.stall = control & 0xF
        self.write_barrier = (control >> 5) & 7
        self.read_barrier = (control >> 8) & 7
        self.wait_mask = (control >> 11) & 0x3F
        target = re.search(r"BRA.*\((\.L_x_\d+)\)", text)
        self.target = target.group(1) if target else None


def functions(cubin):
    """{function: ([Instruction], {label: index}, [(index, target label)])}"""
    text = subprocess.run([nvdisasm(), "-c", "-hex", cubin], check=True,
                          capture_output=True, text=True).stdout.splitlines()
    out = {}
    name = None
    for number, line in enumerate(text):
        start = re.match(r"\s*\.text\.(\S+):", line)
        if start:
            name = start.group(1)
            out[name] = ([], {}, [])
            continue
        if name is None:
            continue
        ops, labels, branches = out[name]
        label = re.match(r"^(\.L_x_\d+):", line)
        if label:
            labels[label.group(1)] = len(ops)
            continue
        ins = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;\s*/\* 0x[0-9a-f]+ \*/", line)
        if not ins:
            continue
        high = int(re.search(r"/\* (0x[0-9a-f]+) \*/", text[number + 1]).group(1), 16)
        target = re.search(r"BRA.*\((\.L_x_\d+)\)", ins.group(1))
        if target:
            branches.append((len(ops), target.group(1)))
        ops.append(Instruction(ins.group(1), high))
    return out


def loops(function):
    """(start, end) index ranges of the backward branches' loops."""
    ops, labels, branches = function
    return [(labels[t], i) for i, t in branches
            if t in labels and labels[t] <= i]


def step_loop(function, bn):
    """The consumers' K/V step, (first, last) instruction: the shortest
    loop holding HGMMA and at least BN / 8 MUFU (a step's 64 x BN scores
    are BN / 2 per thread, at most three in four of them by polynomial).
    SASS lays loops out in address order, not nested, so the shortest one
    is the step itself."""
    ops = function[0]
    candidates = [(a, b) for a, b in loops(function)
                  if any(o.op == "HGMMA" for o in ops[a:b + 1]) and
                  sum(o.op == "MUFU" for o in ops[a:b + 1]) >= bn / 8]
    return min(candidates, key=lambda r: r[1] - r[0])


# A forward branch inside a step that jumps over at least this many FSEL
# jumps over the mask: taken on unmasked steps, not taken on masked ones.
MASK_SELECTS = 16


def step_path(function, first, last, masked):
    """The instructions a step runs, masked or not."""
    ops, labels, _ = function
    path = []
    i = first
    while i <= last:
        o = ops[i]
        path.append(o)
        j = labels.get(o.target) if o.target else None
        if (not masked and j is not None and i < j <= last and
                sum(x.op == "FSEL" for x in ops[i + 1:j]) >= MASK_SELECTS):
            i = j
            continue
        i += 1
    return path


PIPES = [("fma", FMA, 1), ("imad", IMAD, 2), ("alu", ALU, 2), ("xu", XU, 8),
         ("shfl", SHFL, 4)]


def pipe_of(op):
    for name, members, cycles in PIPES:
        if op in members:
            return name, cycles
    return None, 0


def pipe_cycles(body):
    """Cycles of one warp's instructions on one SMSP, per bound."""
    count = lambda names: sum(o.op in names for o in body)
    fma, imad = count(FMA), count(IMAD)
    return {
        "issue": len(body),
        "fma": max(fma + imad, 2 * imad),
        "alu": 2 * count(ALU),
        "xu": 8 * count(XU),
        "shfl": 4 * count(SHFL),
    }


# Result latency (cycles) of the variable-latency producers a scoreboard
# tracks: MUFU and SHFL from h100-pipes.txt; the other XU conversions take
# MUFU's (the same pipe). Waits on other roles (mbarrier, named barriers,
# wgmma) count 0 here: the step's period adds the tensor core's time.
RESULT_LATENCY = {"MUFU": 17, "F2I": 17, "I2F": 17, "FRND": 17, "F2F": 17,
                  "SHFL": 24}
# The Hopper consumers' step also waits on its mbarrier tests
# (SYNCS.PHASECHK, the K and V slots' full barriers; the branch after each
# waits on its result), which read the barrier in shared memory: at least a
# shared-memory access, 29 cycles on the H800 (Luo et al., "Benchmarking
# and Dissecting the Nvidia Hopper GPU Architecture", IPDPS 2024, Table IV;
# sync.cu measures the H100's, not yet run). Hopper only: blackwell.py keeps
# RESULT_LATENCY (no sm_100a figure).
HOPPER_RESULT_LATENCY = dict(RESULT_LATENCY, SYNCS=29)
OPERAND_READ = 2


def earliest_issue(o, next_issue, ready, pipe_free):
    """The first cycle instruction `o` of a warp may issue: after the warp's
    last stall, the scoreboards it waits on, and its pipe's last warp
    instruction."""
    at = max([next_issue] + [ready[b] for b in range(6) if o.wait_mask >> b & 1])
    pipe, _ = pipe_of(o.op)
    return max(at, pipe_free.get(pipe, 0)) if pipe else at


def issue(o, at, ready, pipe_free, latency=None):
    """Issues `o` at cycle `at`: holds its pipe, sets its scoreboards;
    returns the cycle the warp's next instruction may issue."""
    pipe, cycles = pipe_of(o.op)
    if pipe:
        pipe_free[pipe] = at + cycles
    if o.write_barrier != 7:
        ready[o.write_barrier] = at + (RESULT_LATENCY if latency is None
                                       else latency).get(o.op, 0)
    if o.read_barrier != 7:
        ready[o.read_barrier] = at + OPERAND_READ
    return at + max(o.stall, 1)


def single_warp_cycles(body, latency=None):
    """One warp alone on its SMSP: ptxas's stall counts, the scoreboard
    waits on variable-latency results, and each pipe's occupancy."""
    t = 0
    ready = [0] * 6
    pipe_free = {}
    for o in body:
        t = issue(o, earliest_issue(o, t, ready, pipe_free), ready, pipe_free,
                  latency)
    return t


def simulate_smsp(roles, steps=8, latency=None):
    """Cycles per step of the warps in `roles` sharing one SMSP. Each role
    is a dict: `body`, its instructions per step; `mma`, the tensor-core
    cycles it hands over after its step and waits for before its next (0:
    none); `after`, the roles whose step j must be done before its step j
    starts. One issue per cycle on the SMSP, the oldest ready warp first,
    with its stall counts, scoreboards and the shared pipes; the tensor
    core runs the GEMMs in the order handed over."""
    warps = [dict(role, step=0, pc=0, next=0, ready=[0] * 6, since=0,
                  finished=[]) for role in roles]
    pipe_free = {}
    tensor_free = 0
    t = 0
    while any(w["step"] < steps for w in warps):
        chosen = None
        for w in warps:
            if w["step"] >= steps:
                continue
            if any(len(warps[a]["finished"]) <= w["step"] for a in w.get("after", ())):
                continue
            o = w["body"][w["pc"]]
            at = earliest_issue(o, w["next"], w["ready"], pipe_free)
            if at <= t and (chosen is None or w["since"] < chosen[0]["since"]):
                chosen = (w, o)
        if chosen is None:
            t += 1
            continue
        w, o = chosen
        w["next"] = issue(o, t, w["ready"], pipe_free, latency)
        w["pc"] += 1
        if w["pc"] == len(w["body"]):
            end = w["next"]
            if w["mma"]:
                end = max(tensor_free, w["next"]) + w["mma"]
                tensor_free = end
            w.update(pc=0, next=end, since=end, step=w["step"] + 1)
            w["finished"].append(end)
        t += 1
    # The steady state: the second half of the steps.
    ends = [max(w["finished"][k] for w in warps) for k in range(steps)]
    half = steps // 2
    return (ends[-1] - ends[half - 1]) / (steps - half)


def smsp_period(body, consumers, mma, steps=8, latency=None):
    """The Hopper consumers: one warp of each of `consumers` warpgroups on
    one SMSP, each handing its step's GEMMs (`mma` cycles) to the tensor
    core."""
    return simulate_smsp([{"body": body, "mma": mma}] * consumers, steps,
                         latency)


def kernel_plans(directory):
    """{'plain': plan, 'twin': plan or None, 'twin_max_skv': n}: each plan
    (function name, consumers, BM, BN, persistent) from the manifest."""
    manifest = json.load(open(os.path.join(directory, "manifest.json")))

    def box_rows(params, tensor):
        return next(p["box"][1] for p in params if p.get("tensor") == tensor)

    def plan(name, launch, params, persistent):
        consumers = launch["block"][0] // 128 - 1
        rows = box_rows(params, "q")
        return {"name": name, "consumers": consumers, "bm": consumers * rows,
                "bn": box_rows(params, "k"), "persistent": persistent}

    launch = manifest["launch"]
    plans = {"plain": plan(manifest["kernel"], launch, manifest["params"], False),
             "twin": None, "twin_max_skv": 0}
    persistent = launch.get("persistent")
    if persistent:
        twin = manifest.get("twin", {})
        plans["twin"] = plan(persistent["kernel"], twin.get("launch", launch),
                             twin.get("params", manifest["params"]), True)
        plans["twin_max_skv"] = persistent["max_seq_kv"]
    return manifest, plans


def tiles(plan, b, h, s, causal):
    """Each work tile's (unmasked, masked) K/V steps, heaviest first. A
    step is masked where a causal mask or the key bound cuts it."""
    bm, bn = plan["bm"], plan["bn"]
    out = []
    for block in range(math.ceil(s / bm)):
        keys = min(s, (block + 1) * bm) if causal else s
        steps = math.ceil(keys / bn)
        clean = min(block * bm + 1, keys) // bn if causal else keys // bn
        out.append((clean, steps - clean))
    return sorted(out * (b * h), key=sum, reverse=True)


def schedule(costs, persistent):
    """Cycles until the last SM finishes."""
    sms = [0.0] * SMS
    if persistent:
        for i, cost in enumerate(costs):
            sms[i % SMS] += cost
        return max(sms)
    import heapq
    heap = [(0.0, i) for i in range(SMS)]
    for cost in costs:
        free, sm = heapq.heappop(heap)
        heapq.heappush(heap, (free + cost, sm))
    return max(t for t, _ in heap)


# A CTA that loads its own Q waits a DRAM round trip (pipes.cu's dram
# chase; until measured, the 500-cycle figure below is Jia et al.'s
# "Dissecting the NVIDIA Volta GPU" order of magnitude, not a Hopper number)
# and its launch.
DRAM_CYCLES = 1000
CTA_LAUNCH_CYCLES = 500

# The epilogue: each work tile writes its O (and LSE) to DRAM, the consumers
# staging O one 64-column box at a time, each box waiting for the previous
# box's TMA store (D-43). It runs at the SM's share of the DRAM bandwidth,
# 1 / 132 of what the H100 reads: 2.99 TB/s, fa4's own decode reading its
# K and V (bench/RESULTS.md, H100 decode table: 64 x 8192 keys, 32 / 8
# heads, d = 128, 2.147 GB in 717.6 us). Checked on the H200's traces
# (bench/log/2026-11-30.md: epilogue 0.55 us at d = 64, 1.0-1.1 us at
# d = 128, 2.2-2.4 us at d = 256 with the LSE) against O's bytes at its
# 4.21 TB/s / 132: 0.51, 1.03 and 2.05 us.
DRAM_BYTES_PER_S = 2.99e12


def epilogue_cycles(plan, ov, mhz):
    """Cycles at `mhz` for one work tile's O (bf16) and LSE (f32) to leave
    at the SM's share of the DRAM bandwidth."""
    tile_bytes = plan["bm"] * (ov * 2 + 4)
    return tile_bytes / (DRAM_BYTES_PER_S / SMS) * mhz * 1e6


def step_period(plan, body, qk, ov):
    """(period, its parts) of one step of the work tile."""
    k = plan["consumers"]
    mma = 2 * 64 * plan["bn"] * (qk + ov) / TENSOR_FLOP_PER_CLK
    soft = single_warp_cycles(body, HOPPER_RESULT_LATENCY)
    shared = smsp_period(body, k, mma, latency=HOPPER_RESULT_LATENCY)
    period = max(k * mma, mma + soft, shared)
    return period, {"mma": mma, "soft": soft, "period": period,
                    "issue": len(body),
                    "bound": ("tensor" if period == k * mma else
                              "chain" if period == mma + soft else "smsp")}


def predict(plan, function, qk, ov, b, h, s, causal, mhz):
    first, last = step_loop(function, plan["bn"])
    clean, parts = step_period(plan, step_path(function, first, last, False),
                               qk, ov)
    masked, _ = step_period(plan, step_path(function, first, last, True),
                            qk, ov)
    fixed = parts["mma"] + parts["soft"] + epilogue_cycles(plan, ov, mhz)
    if not plan["persistent"]:
        fixed += DRAM_CYCLES + CTA_LAUNCH_CYCLES
    costs = [fixed + n * clean + m * masked
             for n, m in tiles(plan, b, h, s, causal)]
    total = schedule(costs, plan["persistent"])
    return total, dict(parts, masked=masked)


def read_rows(path):
    rows = {}
    for line in open(path):
        if not line.startswith("ROW "):
            continue
        fields = dict(f.split("=", 1) for f in line.split()[1:])
        key = (int(fields["d"]), fields["mask"], int(fields["s"]))
        rows[key] = {"ms": float(fields["fa4_ms"]),
                     "mhz": float(fields["fa4_mhz"])}
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pack")
    parser.add_argument("--rows", help="time_rows.py's output on the GPU")
    args = parser.parse_args()
    measured = read_rows(args.rows) if args.rows else {}
    clocks = [r["mhz"] for r in measured.values() if not math.isnan(r["mhz"])]
    default_mhz = sorted(clocks)[len(clocks) // 2] if clocks else float("nan")
    print("%-26s %-5s %3s %3s %6s %6s %6s %6s %6s %-6s %9s %9s %5s %7s" % (
        "row", "kern", "k", "BN", "mma", "soft", "issue", "period", "masked", "bound",
        "pred us", "meas us", "MHz", "pred/m"))
    errors = []
    for directory in sorted(glob.glob(os.path.join(args.pack, "*", "fa4_hopper_attention_sm_90a"))):
        manifest, plans = kernel_plans(directory)
        problem = manifest["problem"]
        qk, ov = problem["qk_depth"], problem["ov_depth"]
        causal = problem["mask"]["kind"] == "causal"
        h = problem["num_q_heads"]
        cubin = os.path.join(directory, manifest["binary"]["file"])
        sass = functions(cubin)
        for s in (512, 1024, 2048, 4096, 8192, 16384):
            b = 16384 // s
            plan = (plans["twin"] if plans["twin"] and s <= plans["twin_max_skv"]
                    else plans["plain"])
            row = measured.get((qk, "causal" if causal else "none", s))
            mhz = row["mhz"] if row and not math.isnan(row["mhz"]) else default_mhz
            cycles, parts = predict(plan, sass[plan["name"]], qk, ov, b, h, s,
                                    causal, mhz if mhz == mhz else MAX_MHZ)
            us = cycles / mhz if mhz == mhz else float("nan")
            ratio = us / (row["ms"] * 1000) if row else float("nan")
            if row:
                errors.append(ratio)
            print("%-26s %-5s %3d %3d %6.0f %6.0f %6d %6.0f %6.0f %-6s %9.1f %9.1f %5.0f %7.3f" % (
                "d=%d %s s=%d" % (qk, "causal" if causal else "none", s),
                "twin" if plan["persistent"] else "plain", plan["consumers"],
                plan["bn"], parts["mma"], parts["soft"], parts["issue"],
                parts["period"], parts["masked"], parts["bound"], us,
                row["ms"] * 1000 if row else float("nan"), mhz, ratio))
    if errors:
        within = sum(abs(r - 1) <= 0.10 for r in errors)
        print("rows within 10%%: %d of %d; predicted/measured %.3f-%.3f" % (
            within, len(errors), min(errors), max(errors)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

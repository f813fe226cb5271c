#!/usr/bin/env python3
"""The timing model's sm_100a side: the K/V step of a Blackwell attention
kernel (fa4's, or FlashAttention-4's CuTe kernel) from its SASS, with the
rates of model.py's Hopper model where the SM's pipes are the same and
the B200's tensor core.

    blackwell.py CUBIN --bn BN --depth D [--tiles 2] [--function NAME]
                 [--tmem-latency CYCLES ...]

Per K/V step of one CTA (unmasked unless --masked: model.step_path) (`tiles` Q tiles of 128 rows, one softmax
warpgroup each, thread r owning row r):
  - the tensor core: tiles * 2 * 128 * BN * 2D / 8192 cycles;
  - one SMSP: a warp of each softmax warpgroup (the shortest loop with at
    least BN / 4 MUFU), handing its tile's GEMMs to the tensor core and
    waiting for them, and a warp of the correction warpgroup (the shortest
    loop with tcgen05.ld and .st and no MUFU or MMA) after both; the MMA
    warp's loop (the shortest with at least 4 UTCHMMA) alone on its SMSP;
  - the step's period: the largest of the three.
tcgen05.ld's result latency has no published figure: --tmem-latency gives
the values to try (default 0, 64 and 128 cycles) and the prediction is
printed for each.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import model  # noqa: E402

# bf16 dense tensor FLOP per clock per SM on sm_100a: B200's 2.25 PFLOP/s
# dense over 148 SMs at 1.85 GHz (NVIDIA's B200 datasheet figure).
TENSOR_FLOP_PER_CLK = 8192


def shortest_range(function, keep, besides=None):
    """The shortest loop whose instructions satisfy `keep`, other than
    `besides`: (first, last), or None."""
    ops = function[0]
    ranges = [(a, b) for a, b in model.loops(function)
              if (a, b) != besides and keep(ops[a:b + 1])]
    return min(ranges, key=lambda r: r[1] - r[0]) if ranges else None


def shortest(function, keep, masked=False):
    """The path of an unmasked (or masked) step through the shortest loop
    whose instructions satisfy `keep` (model.step_path)."""
    found = shortest_range(function, keep)
    return model.step_path(function, *found, masked) if found else None


def count(body, name):
    return sum(o.op == name for o in body)


def roles(function, bn, masked=False):
    is_softmax = lambda b: count(b, "MUFU") >= bn / 4 and count(b, "UTCHMMA") == 0
    # A kernel whose unmasked loop has no mask and another loop with one
    # (FlashAttention-4's, its masks through R2P) runs that loop on masked
    # steps; else the masked path through the one loop (model.step_path).
    unmasked = shortest_range(function, is_softmax)
    mask_free = not count(function[0][unmasked[0]:unmasked[1] + 1], "R2P")
    own = masked and mask_free and shortest_range(
        function, lambda b: is_softmax(b) and count(b, "R2P") >= 4, unmasked)
    softmax = model.step_path(function, *(own or unmasked), masked and not own)
    correction = shortest(function, lambda b: count(b, "LDTM") and count(b, "STTM")
                          and not count(b, "MUFU") and not count(b, "UTCHMMA"))
    mma = shortest(function, lambda b: count(b, "UTCHMMA") >= 4)
    return softmax, correction, mma


def pipe_cycles_packed(body):
    """model.pipe_cycles, with FFMA2/FADD2/FMUL2 counted at two FMA-pipe
    cycles each (the FP32 lanes' rate, 128 per SM per clock): the printed
    tally only; the simulation issues them in one (model.PACKED_F32X2)."""
    cycles = model.pipe_cycles(body)
    cycles["fma"] += sum(o.op in model.PACKED_F32X2 for o in body)
    return cycles


def step(function, bn, depth, tiles, masked=False):
    softmax, correction, mma_loop = roles(function, bn, masked)
    tile_mma = 2 * 128 * bn * 2 * depth / TENSOR_FLOP_PER_CLK
    smsp = [{"body": softmax, "mma": tile_mma} for _ in range(tiles)]
    if correction:
        smsp.append({"body": correction, "mma": 0,
                     "after": list(range(tiles))})
    period_smsp = model.simulate_smsp(smsp)
    mma_warp = model.single_warp_cycles(mma_loop) if mma_loop else 0
    tensor = tiles * tile_mma
    return {"tensor": tensor, "smsp": period_smsp, "mma_warp": mma_warp,
            "period": max(tensor, period_smsp, mma_warp),
            "softmax_instr": len(softmax), "softmax_alone":
            model.single_warp_cycles(softmax),
            "correction_instr": len(correction) if correction else 0,
            "mma_instr": len(mma_loop) if mma_loop else 0,
            "softmax_pipes": pipe_cycles_packed(softmax)}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cubin")
    parser.add_argument("--bn", type=int, required=True)
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--tiles", type=int, default=2)
    parser.add_argument("--function")
    parser.add_argument("--masked", action="store_true",
                        help="a masked step (default: an unmasked one)")
    parser.add_argument("--tmem-latency", type=int, nargs="+", default=[0, 64, 128])
    args = parser.parse_args()
    functions = model.functions(args.cubin)
    name = args.function or max(functions, key=lambda n: len(functions[n][0]))
    for latency in args.tmem_latency:
        model.RESULT_LATENCY["LDTM"] = latency
        result = step(functions[name], args.bn, args.depth, args.tiles,
                      args.masked)
        flops = args.tiles * 4 * 128 * args.bn * args.depth
        print("%s tmem_latency=%d tensor=%.0f smsp=%.0f mma_warp=%d period=%.0f "
              "tensor_share=%.3f flop_per_clk=%.0f softmax: %d instr, %d cycles alone, "
              "pipes %s; correction %d instr; mma loop %d instr" % (
                  name, latency, result["tensor"], result["smsp"],
                  result["mma_warp"], result["period"],
                  result["tensor"] / result["period"], flops / result["period"],
                  result["softmax_instr"], result["softmax_alone"],
                  result["softmax_pipes"], result["correction_instr"],
                  result["mma_instr"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

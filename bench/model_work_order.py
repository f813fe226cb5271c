#!/usr/bin/env python3
"""How evenly a prefill kernel's work order spreads causal work over SMs.

A model, not a measurement: work tile weights come from a fixed cost per
work tile plus a cost per K/V tile (bench/trace_phases.py --by-row-block
gives both), the order is WorkTiles::prefill's under a causal mask (heaviest
row block first within L2 sections of (batch, head) pairs, `l2-section-bytes`),
and the tiles go to 132 SMs either by the looped twin's static stride (CTA
c takes work tiles c, c + 132, ...) or, for the plain kernel, to whichever
SM frees first. It prints the balance, total work over 132 x the busiest
SM's, for each budget and, for the twin, `pair-row-blocks`' order; L2 is
not modelled, only the balance.

    python3 bench/model_work_order.py [--fixed-us 3.0 --step-us 1.5]
"""
import argparse
import heapq
import math

SMS = 132
TOKENS = 16384  # B * S of the prefill sweep
HIDDEN = 2048  # Hq * d of the prefill sweep


def work_order(pairs, row_blocks, section_pairs):
    """(row block, pair) of each work tile index, as WorkTiles::prefill."""
    width_max = max(1, min(section_pairs, pairs))
    for index in range(pairs * row_blocks):
        first = index // (width_max * row_blocks) * width_max
        within = index - first * row_blocks
        width = min(width_max, pairs - first)
        yield row_blocks - 1 - within // width, first + within % width


def paired_order(pairs, row_blocks, stride=SMS):
    """(row block, pair) of each work tile index, as WorkOrder.h's
    pairedSlot (`pair-row-blocks`): row blocks R - 1 - k and k of a pair in
    consecutive strides, an odd R's middle row blocks last."""
    half = row_blocks // 2
    items = pairs * half
    full_items = items // stride * stride
    for index in range(pairs * row_blocks):
        if index >= 2 * items:
            yield half, index - 2 * items
            continue
        if index < 2 * full_items:
            item = index // stride // 2 * stride + index % stride
            heavy = index // stride % 2 == 0
        else:
            tail = index - 2 * full_items
            heavy = tail < items - full_items
            item = full_items + (tail if heavy else
                                 tail - (items - full_items))
        k = item % half
        yield (row_blocks - 1 - k if heavy else k), item // half


def static_stride(weights):
    load = [0.0] * SMS
    for index, weight in enumerate(weights):
        load[index % SMS] += weight
    return max(load)


def first_free(weights):
    free = [0.0] * SMS
    for weight in weights:
        heapq.heappush(free, heapq.heappop(free) + weight)
    return max(free)


def balance(order, args, schedule):
    """Total work over SMS x the busiest SM's, for the (row block, pair) of
    each work tile index in `order`."""
    weights = [args.fixed_us + args.step_us *
               math.ceil(128 * (row_block + 1) / args.bn)
               for row_block, _ in order]
    return sum(weights) / (SMS * schedule(weights))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--d", type=int, default=128)
    parser.add_argument("--bn", type=int, default=128)
    parser.add_argument("--fixed-us", type=float, default=3.0,
                        help="a work tile's cost outside its K/V steps")
    parser.add_argument("--step-us", type=float, default=1.5,
                        help="one K/V step")
    parser.add_argument("--plain", action="store_true",
                        help="the plain kernel: each work tile to the SM "
                             "that frees first (default: the twin's stride)")
    args = parser.parse_args()
    kv_bytes_per_key = 2 * args.d * 2
    schedule = first_free if args.plain else static_stride
    print("d = %d, BN = %d, %s; balance by l2-section-bytes" %
          (args.d, args.bn, "plain kernel" if args.plain else "looped twin"))
    for seq in (512, 1024, 2048, 4096, 8192, 16384):
        pairs = TOKENS // seq * (HIDDEN // args.d)
        row_blocks = seq // 128
        cells = []
        for mib in (0, 8, 16, 32):
            section = (pairs if mib == 0 else
                       max(1, (mib << 20) // kv_bytes_per_key // seq))
            cells.append("%s %.3f" % (
                "%d MiB" % mib if mib else "flat",
                balance(work_order(pairs, row_blocks, section), args,
                        schedule)))
        if not args.plain:
            cells.append("paired %.3f" % balance(
                paired_order(pairs, row_blocks), args, schedule))
        print("S = %5d (%4d pairs): %s" % (seq, pairs, ", ".join(cells)))


if __name__ == "__main__":
    main()

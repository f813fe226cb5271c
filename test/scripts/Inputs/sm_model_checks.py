"""Checks of bench/sm-model/model.py's machinery on hand-built SASS: the
control bits it decodes, one warp's issue (stall counts, scoreboards, pipe
occupancy), warps sharing an SMSP with the tensor core, the mask path and
the causal tiles' masked steps. Prints one line per check; exits 1 on the
first that fails."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "bench", "sm-model"))
import model  # noqa: E402


def control(stall=1, write=7, read=7, wait=0):
    """A high word with these control bits (bits 41-62)."""
    bits = stall | 1 << 4 | write << 5 | read << 8 | wait << 11
    return bits << 41


def ins(text, **bits):
    return model.Instruction(text, control(**bits))


def check(name, got, want):
    ok = got == want
    print("%s %s: got %s, want %s" % ("PASS" if ok else "FAIL", name, got, want))
    if not ok:
        sys.exit(1)


decoded = model.Instruction("@P0 MUFU.EX2 R1, R2", control(stall=3, write=2, read=4, wait=0b100001))
check("decode", (decoded.op, decoded.stall, decoded.write_barrier,
                 decoded.read_barrier, decoded.wait_mask), ("MUFU", 3, 2, 4, 0b100001))

# Stall counts add up; each instruction issues at least a cycle apart.
check("stalls", model.single_warp_cycles(
    [ins("FFMA R1, R2, R3, R4", stall=4), ins("FADD R1, R1, R2", stall=0)]), 5)
# A MUFU's consumer waits for its scoreboard: 17 cycles after issue.
check("scoreboard", model.single_warp_cycles(
    [ins("MUFU.EX2 R1, R2", write=0), ins("FADD R3, R1, R1", wait=0b1)]), 18)
# Back-to-back MUFUs hold the XU pipe 8 cycles each.
check("pipe", model.single_warp_cycles([ins("MUFU.EX2 R1, R2")] * 4), 25)

# Two warps of one FFMA each on a free SMSP, each handing 100 tensor-core
# cycles: the tensor core serialises them, 200 cycles a step.
step = [ins("FFMA R1, R2, R3, R4")]
check("tensor in order", model.smsp_period(step, 2, 100), 200.0)
# One warp whose own stream is longer than its GEMM: stream + GEMM.
check("chain", model.smsp_period([ins("FFMA R1, R2, R3, R4", stall=15)] * 10, 1, 100), 250.0)

# A forward branch over 16 FSEL is the mask: skipped unless masked.
body = ([ins("ISETP.GE.AND P0, PT, R1, R2, PT"), ins("@P0 BRA `(.L_x_1)")] +
        [ins("FSEL R1, R1, -INF, P1")] * 16 + [ins("FADD R1, R1, R2")])
labels = {".L_x_1": 18}
function = (body, labels, [(1, ".L_x_1")])
check("unmasked path", len(model.step_path(function, 0, 18, False)), 3)
check("masked path", len(model.step_path(function, 0, 18, True)), 19)

# Causal, BM = BN = 128, 384 keys: row blocks of 1, 2, 3 steps, the
# diagonal step masked in each; no mask at 300 keys: the last step cut.
plan = {"bm": 128, "bn": 128}
check("causal tiles", model.tiles(plan, 1, 1, 384, True), [(2, 1), (1, 1), (0, 1)])
check("key bound", model.tiles(plan, 1, 1, 300, False)[0], (2, 1))

# bench/sm-model/blackwell.py's roles: the MMA warp's loop (UTCHMMA), the
# softmax (MUFU, no MMA) and, for masked steps, a loop of its own when the
# unmasked one has no R2P.
import blackwell  # noqa: E402


def loop(body, name):
    """A loop of `body` ending in a branch back to label `name`."""
    return body + [ins("@P0 BRA `(%s)" % name)]


mufu = [ins("MUFU.EX2 R1, R2")] * 40
mma = loop([ins("UTCHMMA gdesc[UR4], gdesc[UR6], tmem[UR8], tmem[UR10], idesc[UR11], UPT")] * 4, ".L_x_0")
unmasked = loop(mufu, ".L_x_1")
masked = loop([ins("R2P PR, R4, 0x7f")] * 4 + mufu + [ins("FADD R1, R1, R2")], ".L_x_2")
ops = mma + unmasked + masked
labels = {".L_x_0": 0, ".L_x_1": len(mma), ".L_x_2": len(mma) + len(unmasked)}
branches = [(len(mma) - 1, ".L_x_0"), (len(mma) + len(unmasked) - 1, ".L_x_1"),
            (len(ops) - 1, ".L_x_2")]
function = (ops, labels, branches)
softmax, _, mma_loop = blackwell.roles(function, 128)
check("blackwell unmasked softmax", len(softmax), len(unmasked))
check("blackwell mma loop", len(mma_loop), len(mma))
softmax, _, _ = blackwell.roles(function, 128, masked=True)
check("blackwell masked loop", len(softmax), len(masked))

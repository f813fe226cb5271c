"""Run by test/python/wheel.test from outside the repository, in a venv with
only the wheel installed: fa4 and libfa4rt come from the venv's
site-packages, a compiled kernel loads and validates tensors (no GPU)."""
import os
import subprocess
import sys

import fa4

manifest = sys.argv[1]
inside = os.path.realpath(sys.prefix) + os.sep
package = os.path.realpath(fa4.__file__)
library = os.path.realpath(fa4.library_path())
print("package in the venv: %s" % package.startswith(inside))
print("library in the package: %s" % (
    library == os.path.join(os.path.dirname(package), "lib", "libfa4rt.so")))

kernel = fa4.Kernel.load(manifest)
print("heads %s depths %s" % (kernel.info.heads, kernel.info.depths))
hq, hkv = kernel.info.heads
d = kernel.info.depths[0]
b, sq, skv = 2, 77, 130


def spec(address, shape, dtype="bf16"):
    return fa4.TensorSpec(address, dtype, shape)


q = spec(1 << 36, (b, sq, hq, d))
k = spec(2 << 36, (b, skv, hkv, d))
v = spec(3 << 36, (b, skv, hkv, d))
o = spec(4 << 36, (b, sq, hq, d))
lse = spec(5 << 36, (b, hq, sq), "f32")
kernel.validate(q, k, v, o, lse)
print("validates good tensors")
try:
    kernel.validate(q, k, spec((3 << 36) + 8, (b, skv, hkv, d)), o, lse)
except fa4.Fa4Error as error:
    print("refuses: %s" % error)

done = subprocess.run([sys.executable, "-m", "fa4.pack", "--help"],
                      stdout=subprocess.PIPE, universal_newlines=True)
print("fa4.pack runs: %s" % (done.returncode == 0))

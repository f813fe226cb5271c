// RUN: fa4-opt --show-dialects | FileCheck %s
// CHECK: Available Dialects:
// CHECK-SAME: attn
// CHECK-SAME: gpu
// CHECK-SAME: nvgpu
// CHECK-SAME: nvvm

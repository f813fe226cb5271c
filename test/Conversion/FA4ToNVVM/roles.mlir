// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm | FileCheck %s --enable-var-scope

// fa4.warp_specialize: a chain of warpgroup tests on thread_id.x / 128
// (broadcast from lane 0 with gpu.shuffle idx, so that ptxas can prove it
// warp-uniform: the role branches do not diverge, and what the roles derive
// from it lives in uniform registers), each role first moving its threads
// to its register budget with setmaxnreg (down or up from what the CTA
// launched with), then running its inlined region on (warpgroup - first
// warpgroup of the role, thread_id.x % 128).

// The FA3 split: one producer warpgroup at 24 registers, two consumer
// warpgroups at 240. 384 threads launch with min(255, 65536 / 384) rounded
// down to 8 = 168 registers, so the producer decreases and the consumers
// increase. The producer's test is warpgroup < 1, the consumers run in the
// else branch with warpgroup index warpgroup - 1; each region's block
// arguments are replaced by those values (here the regions store
// index + thread and index * thread).
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[P:[^:]+]]: !llvm.ptr<1>)
// CHECK-NEXT: %[[TIDX:.+]] = gpu.thread_id x
// CHECK-NEXT: %[[TID:.+]] = arith.index_cast %[[TIDX]] : index to i32
// CHECK-NEXT: %[[C128:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[WGT:.+]] = arith.divui %[[TID]], %[[C128]] : i32
// CHECK-NEXT: %[[LANE0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[WIDTH:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[WG:.+]], %{{.+}} = gpu.shuffle idx %[[WGT]], %[[LANE0]], %[[WIDTH]] : i32
// CHECK-NEXT: %[[C128B:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[THR:.+]] = arith.remui %[[TID]], %[[C128B]] : i32
// CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[IS0:.+]] = arith.cmpi ult, %[[WG]], %[[C1]] : i32
// CHECK-NEXT: scf.if %[[IS0]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 24
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[I0:.+]] = arith.subi %[[WG]], %[[C0]] : i32
// CHECK-NEXT: %[[S0:.+]] = arith.addi %[[I0]], %[[THR]] : i32
// CHECK-NEXT: llvm.store %[[S0]], %[[P]] : i32, !llvm.ptr<1>
// CHECK-NEXT: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 240
// CHECK-NEXT: %[[C1B:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[I1:.+]] = arith.subi %[[WG]], %[[C1B]] : i32
// CHECK-NEXT: %[[S1:.+]] = arith.muli %[[I1]], %[[THR]] : i32
// CHECK-NEXT: llvm.store %[[S1]], %[[P]] : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: llvm.return
// CHECK-NOT: fa4.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%p: !llvm.ptr<1>) kernel {
      fa4.warp_specialize warpgroups [1, 2] registers [24, 240] {
      ^bb0(%index: i32, %thread: i32):
        %s = arith.addi %index, %thread : i32
        llvm.store %s, %p : i32, !llvm.ptr<1>
      }, {
      ^bb0(%index: i32, %thread: i32):
        %s = arith.muli %index, %thread : i32
        llvm.store %s, %p : i32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}

// -----

// Three roles nest: the second role's test (warpgroup < 3, after the first
// role's 2 warpgroups) sits in the first role's else branch, and the last
// role takes the innermost else without a test of its own. Its warpgroup
// index is warpgroup - 3. Budgets [24, 168, 232] on 4 warpgroups (512
// threads, launch budget 128): decrease, increase, increase.
// CHECK-LABEL: llvm.func @f(
// CHECK: %[[WG:.+]], %{{.+}} = gpu.shuffle idx
// CHECK: %[[THR:.+]] = arith.remui %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: %[[C2:.+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[LT2:.+]] = arith.cmpi ult, %[[WG]], %[[C2]] : i32
// CHECK-NEXT: scf.if %[[LT2]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 24
// CHECK: llvm.store
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[C3:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[LT3:.+]] = arith.cmpi ult, %[[WG]], %[[C3]] : i32
// CHECK-NEXT: scf.if %[[LT3]] {
// CHECK-NEXT: nvvm.setmaxregister increase 168
// CHECK-NEXT: %[[C2B:.+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[I1:.+]] = arith.subi %[[WG]], %[[C2B]] : i32
// CHECK-NEXT: llvm.store %[[I1]]
// CHECK-NEXT: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK-NEXT: %[[C3B:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[I2:.+]] = arith.subi %[[WG]], %[[C3B]] : i32
// CHECK-NEXT: llvm.store %[[I2]]
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%p: !llvm.ptr<1>) kernel {
      fa4.warp_specialize warpgroups [2, 1, 1] registers [24, 168, 232] {
      ^bb0(%index: i32, %thread: i32):
        llvm.store %index, %p : i32, !llvm.ptr<1>
      }, {
      ^bb0(%index: i32, %thread: i32):
        llvm.store %index, %p : i32, !llvm.ptr<1>
      }, {
      ^bb0(%index: i32, %thread: i32):
        llvm.store %index, %p : i32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}

// -----

// A budget equal to the launch budget needs no setmaxnreg. With 3
// warpgroups (384 threads) that is 168, not 65536 / 384 = 170: the launch
// budget is rounded down to a multiple of 8. The 24-register role still
// decreases.
// CHECK-LABEL: llvm.func @f(
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister decrease 24
// CHECK: } else {
// CHECK-NOT: nvvm.setmaxregister
// CHECK: llvm.store
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%p: !llvm.ptr<1>) kernel {
      fa4.warp_specialize warpgroups [1, 2] registers [24, 168] {
      ^bb0(%index: i32, %thread: i32):
        llvm.store %thread, %p : i32, !llvm.ptr<1>
      }, {
      ^bb0(%index: i32, %thread: i32):
        llvm.store %thread, %p : i32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}

// -----

// One role on one warpgroup at the launch budget, capped at 255 and rounded
// down to 8: min(255, 65536 / 128) = 255 -> 248. No test, no setmaxnreg: the
// region is inlined straight into the kernel with warpgroup index
// warpgroup - 0.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[P:[^:]+]]: !llvm.ptr<1>)
// CHECK-NOT: scf.if
// CHECK-NOT: nvvm.setmaxregister
// CHECK: %[[WG:.+]], %{{.+}} = gpu.shuffle idx
// CHECK: %[[THR:.+]] = arith.remui
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[I:.+]] = arith.subi %[[WG]], %[[C0]] : i32
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[I]], %[[THR]] : i32
// CHECK-NEXT: llvm.store %[[S]], %[[P]] : i32, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%p: !llvm.ptr<1>) kernel {
      fa4.warp_specialize warpgroups [1] registers [248] {
      ^bb0(%index: i32, %thread: i32):
        %s = arith.addi %index, %thread : i32
        llvm.store %s, %p : i32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}

// -----

// One role on one warpgroup below the launch budget of 248 does move, down
// to 240. (Above it is impossible: the verifier refuses a pool larger than
// the launch budget.)
// CHECK-LABEL: llvm.func @f(
// CHECK-NOT: scf.if
// CHECK: nvvm.setmaxregister decrease 240
// CHECK-NEXT: arith.constant 0 : i32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%p: !llvm.ptr<1>) kernel {
      fa4.warp_specialize warpgroups [1] registers [240] {
      ^bb0(%index: i32, %thread: i32):
        llvm.store %thread, %p : i32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}

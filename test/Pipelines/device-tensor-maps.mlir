// fa4-compile --device-tensor-maps: the manifest (version 11, pointers and
// strides for Q, K, V, the scratch with the maps the kernel builds) and the
// PTX of the instructions that build them, assembled by ptxas for sm_90a
// and sm_100a; fa4-emu runs the kernels (test/Emulator/device-tensor-maps.test).
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --device-tensor-maps --ptxas=%ptxas -o %t --quiet | FileCheck %s --check-prefix=PTXAS
// RUN: %python -c "import json, sys; m = json.load(open(sys.argv[1])); print(m['fa4_abi_version']); print('\n'.join(json.dumps(p, sort_keys=True) for p in m['params']))" %t/fa4_hopper_gqa_sm_90a/manifest.json | FileCheck %s --check-prefix=MANIFEST
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/fa4_hopper_gqa_sm_90a/fa4_hopper_gqa_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=DECODE --input-file=%t/fa4_hopper_gqa_sm_90a/fa4_hopper_gqa_decode_sm_90a.ptx
// RUN: fa4-compile %s --chip=sm_100a --kernel=blackwell --device-tensor-maps --ptxas=%ptxas -o %t/bw --quiet | FileCheck %s --check-prefix=PTXAS100
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/bw/fa4_blackwell_gqa_sm_100a/fa4_blackwell_gqa_sm_100a.ptx

// PTXAS: Compiling entry function 'fa4_hopper_gqa_sm_90a' for 'sm_90a'
// PTXAS-NEXT: Function properties for fa4_hopper_gqa_sm_90a
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Compiling entry function 'fa4_hopper_gqa_decode_sm_90a' for 'sm_90a'
// PTXAS-NEXT: Function properties for fa4_hopper_gqa_decode_sm_90a
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS100: Compiling entry function 'fa4_blackwell_gqa_sm_100a' for 'sm_100a'
// PTXAS100-NEXT: Function properties for fa4_blackwell_gqa_sm_100a
// PTXAS100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// MANIFEST: 11
// MANIFEST-NEXT: {"kind": "pointer", "tensor": "q"}
// MANIFEST-NEXT: {"kind": "pointer", "tensor": "k"}
// MANIFEST-NEXT: {"kind": "pointer", "tensor": "v"}
// MANIFEST-NEXT: {"kind": "pointer", "tensor": "o"}
// MANIFEST-NOT: "tensor_map"
// MANIFEST: {"kind": "scalar", "type": "f32", "value": "scale_log2"}
// MANIFEST-NEXT: {"kind": "scalar", "type": "i64", "value": "q.stride.0"}
// MANIFEST-NEXT: {"kind": "scalar", "type": "i64", "value": "q.stride.1"}
// MANIFEST-NEXT: {"kind": "scalar", "type": "i64", "value": "q.stride.2"}
// MANIFEST-NEXT: {"kind": "scalar", "type": "i64", "value": "k.stride.0"}
// MANIFEST: {"kind": "scalar", "type": "i64", "value": "v.stride.2"}
// MANIFEST-NEXT: {"kind": "tensor_map_scratch", "maps": [{"box": [1, 64, 1, 64], "interleave": "none", "l2_promotion": "none", "oob_fill": "zero", "swizzle": "128B", "tensor": "q"}, {"box": [1, 176, 1, 64], {{.*}}"tensor": "k"}, {"box": [1, 176, 1, 64], {{.*}}"tensor": "v"}, {"box": [1, 64, 1, 64], {{.*}}"tensor": "o"}]}
// MANIFEST-EMPTY:

// Q's map, BSHD innermost first: 64 columns of the depth (128), 1 of the
// 8 q-heads, 64 rows of sq, 1 batch; strides in bytes; rank 4 as 3; .u16
// elements (1), no interleave, the 128B swizzle (3), zero fill.
// PTX: .entry
// PTX: st.shared.{{v4.b32|v2.b64}} [fa4_dynamic_smem{{.*}}], {{.*}};
// PTX: tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r[[MAP:[0-9]+]]], %rd{{[0-9]+}};
// PTX: tensormap.replace.tile.rank.shared::cta.b1024.b32 [%r[[MAP]]], 3;
// PTX: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r[[MAP]]], 0, 64;
// PTX: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r[[MAP]]], 0, %r{{[0-9]+}};
// PTX: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%r[[MAP]]], 0, 1;
// PTX: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r[[MAP]]], 1, 1;
// PTX: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%r[[MAP]]], 2, %rd{{[0-9]+}};
// PTX: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%r[[MAP]]], 1;
// PTX: tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%r[[MAP]]], 0;
// PTX: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r[[MAP]]], 3;
// PTX: tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%r[[MAP]]], 0;
// PTX: griddepcontrol.wait;
// PTX: bar.warp.sync -1;
// PTX: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd{{[0-9]+}}], [%r{{[0-9]+}}], 128;
// PTX: fence.proxy.async.shared::cta;
// PTX: fence.proxy.tensormap::generic.acquire.gpu [%rd[[ACQUIRED:[0-9]+]]], 128;
// PTX: cp.async.bulk.tensor.{{.*}} [%rd[[ACQUIRED]], {{{.*}}}]
// The decode variant (D-49): after the maps' copies, each consumer thread
// copies its 16-byte chunks of Q (zero-filled past the source size), then
// the first K/V tiles, each tile held open on its full barrier; it waits
// for Q's group and fences it, the consumers meet (named barrier 7) and
// their first thread arrives on Q's full barrier (D-50); only the
// producer's warpgroup meets once the maps are copied (named barrier 6).
// DECODE: griddepcontrol.wait;
// DECODE: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
// DECODE: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// DECODE: cp.async.commit_group;
// DECODE: cp.async.cg.shared.global
// DECODE: cp.async.mbarrier.arrive.shared::cta.b64 [%r{{[0-9]+}}];
// DECODE: cp.async.commit_group;
// DECODE-NEXT: cp.async.wait_group 1;
// DECODE-NEXT: fence.proxy.async.shared::cta;
// DECODE-NEXT: bar.sync 7, 256;
// DECODE: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [fa4_dynamic_smem+229376];
// DECODE: bar.sync 6, 128;
func.func @gqa(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x2x128xbf16>, %v: tensor<?x?x2x128xbf16>) -> (tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x128xbf16> -> tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
}

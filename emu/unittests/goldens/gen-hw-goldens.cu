//===- gen-hw-goldens.cu - What an H200's TMA and wgmma did ----*- CUDA -*-===//
//
// Writes hw-layouts.txt, the hardware's answers to the questions the ISA
// leaves open, for LayoutsTest.cpp to check Layouts.cpp against:
// - TMA tile loads (cp.async.bulk.tensor): for each box, the shared-memory
//   offset from the destination at which each loaded element landed, for
//   boxes narrower than the swizzle span, destinations off the pattern's
//   repeat, ranks 2-4 and traversal strides;
// - wgmma operand reads: for each descriptor, the shared address wgmma read
//   for each element (mn, k) of the operand, found by filling shared memory
//   with each 2-byte slot's own index and multiplying by an identity.
// Build and run on an sm_90a GPU (README.md); nothing here reads fa4-emu.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

void check(cudaError_t error, const char *what) {
  if (error != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(error));
    std::exit(1);
  }
}

void checkDriver(CUresult result, const char *what) {
  if (result != CUDA_SUCCESS) {
    std::fprintf(stderr, "%s: CUresult %d\n", what, int(result));
    std::exit(1);
  }
}

} // namespace

extern __shared__ uint8_t dynamicSmem[];

__device__ uint32_t sharedAddress(const void *pointer) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(pointer));
}

/// The first 1024-byte aligned byte of the dynamic shared memory, which is
/// given 1024 bytes more than the kernels use.
__device__ uint8_t *alignedSmem() {
  uint32_t address = sharedAddress(dynamicSmem);
  return dynamicSmem + ((1024 - (address & 1023)) & 1023);
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

/// Fills [base, base + dumpBytes) with 0xff, loads the box at coordinates 0
/// to base + dstOffset, and copies [base, base + dumpBytes) out.
__global__ void tmaLoad(const __grid_constant__ CUtensorMap map, int rank,
                        uint32_t dstOffset, uint32_t bytes, uint32_t dumpBytes,
                        uint8_t *dump, uint32_t *dstAddress) {
  __shared__ alignas(8) uint64_t barrier;
  uint8_t *base = alignedSmem();
  for (uint32_t i = threadIdx.x; i < dumpBytes; i += blockDim.x)
    base[i] = 0xff;
  uint32_t bar = sharedAddress(&barrier);
  uint32_t dst = sharedAddress(base) + dstOffset;
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n"
                 "fence.mbarrier_init.release.cluster;" ::"r"(bar)
                 : "memory");
  __syncthreads();
  // The fill (generic proxy) before the TMA's writes (async proxy).
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    // `bytes` is the loaded elements' bytes, without the padding of rows
    // narrower than the swizzle span: that the wait below ends shows the
    // TMA's complete_tx counts those too.
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
        "r"(bytes)
        : "memory");
    uint64_t tensor = reinterpret_cast<uint64_t>(&map);
    if (rank == 2)
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile."
          "mbarrier::complete_tx::bytes [%0], [%1, {%2, %2}], [%3];" ::"r"(dst),
          "l"(tensor), "r"(0), "r"(bar)
          : "memory");
    else if (rank == 3)
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile."
                   "mbarrier::complete_tx::bytes [%0], [%1, {%2, %2, %2}], "
                   "[%3];" ::"r"(dst),
                   "l"(tensor), "r"(0), "r"(bar)
                   : "memory");
    else
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile."
                   "mbarrier::complete_tx::bytes [%0], [%1, {%2, %2, %2, "
                   "%2}], [%3];" ::"r"(dst),
                   "l"(tensor), "r"(0), "r"(bar)
                   : "memory");
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "WAIT:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 "@!done bra WAIT;\n"
                 "}" ::"r"(bar)
                 : "memory");
    *dstAddress = dst;
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < dumpBytes; i += blockDim.x)
    dump[i] = base[i];
}

namespace {

struct TmaCase {
  int swizzleBytes; // 0, 32, 64, 128
  uint32_t elementBytes;
  uint32_t rank;
  uint32_t box[5];
  uint32_t strides[5]; // traversal strides
  uint32_t dstOffset;  // from a 1024-byte boundary
};

CUtensorMapSwizzle tmaSwizzle(int bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  }
  return CU_TENSOR_MAP_SWIZZLE_NONE;
}

/// Loads the case's box out of a tensor as big as the box whose elements
/// hold their own linear index, and writes where each landed.
void runTma(std::FILE *out, const TmaCase &c) {
  uint64_t dims[5] = {1, 1, 1, 1, 1}, total = 1;
  uint32_t loaded[5] = {1, 1, 1, 1, 1}, count = 1;
  for (uint32_t i = 0; i < c.rank; ++i) {
    dims[i] = c.box[i];
    total *= dims[i];
    loaded[i] =
        i == 0 ? c.box[0] : (c.box[i] + c.strides[i] - 1) / c.strides[i];
    count *= loaded[i];
  }
  std::vector<uint8_t> host(total * c.elementBytes);
  for (uint64_t i = 0; i < total; ++i) {
    if (c.elementBytes == 2)
      reinterpret_cast<uint16_t *>(host.data())[i] = uint16_t(i);
    else
      reinterpret_cast<uint32_t *>(host.data())[i] = uint32_t(i);
  }
  void *global;
  check(cudaMalloc(&global, host.size()), "cudaMalloc");
  check(cudaMemcpy(global, host.data(), host.size(), cudaMemcpyHostToDevice),
        "cudaMemcpy");
  uint64_t strides[4];
  uint64_t pitch = c.elementBytes;
  for (uint32_t i = 0; i + 1 < c.rank; ++i)
    strides[i] = pitch *= dims[i];
  CUtensorMap map;
  checkDriver(cuTensorMapEncodeTiled(
                  &map,
                  c.elementBytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                      : CU_TENSOR_MAP_DATA_TYPE_UINT32,
                  c.rank, global, dims, strides, c.box, c.strides,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, tmaSwizzle(c.swizzleBytes),
                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
              "cuTensorMapEncodeTiled");
  uint32_t bytes = count * c.elementBytes;
  // Room for rows padded to the swizzle span, and as much again.
  uint32_t rowBytes = loaded[0] * c.elementBytes;
  if (c.swizzleBytes > int(rowBytes))
    rowBytes = c.swizzleBytes;
  uint32_t dumpBytes = c.dstOffset + 2 * (count / loaded[0]) * rowBytes + 1024;
  uint8_t *dump;
  uint32_t *dst;
  check(cudaMalloc(&dump, dumpBytes), "cudaMalloc");
  check(cudaMalloc(&dst, 4), "cudaMalloc");
  check(cudaFuncSetAttribute(tmaLoad,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             dumpBytes + 1024),
        "cudaFuncSetAttribute");
  tmaLoad<<<1, 128, dumpBytes + 1024>>>(map, c.rank, c.dstOffset, bytes,
                                        dumpBytes, dump, dst);
  check(cudaDeviceSynchronize(), "tmaLoad");
  std::vector<uint8_t> smem(dumpBytes);
  uint32_t dstAddress;
  check(cudaMemcpy(smem.data(), dump, dumpBytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy");
  check(cudaMemcpy(&dstAddress, dst, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(global);
  cudaFree(dump);
  cudaFree(dst);
  // Where each value landed, from the destination.
  std::vector<long> where(total, -1);
  for (uint32_t p = 0; p + c.elementBytes <= dumpBytes; p += c.elementBytes) {
    uint64_t value = c.elementBytes == 2
                         ? *reinterpret_cast<uint16_t *>(&smem[p])
                         : *reinterpret_cast<uint32_t *>(&smem[p]);
    if (value >= total)
      continue;
    if (where[value] != -1)
      std::fprintf(stderr, "tma: value %llu landed twice\n",
                   (unsigned long long)value);
    where[value] = long(p) - long(c.dstOffset);
  }
  std::fprintf(out, "tma %d %u %u", c.swizzleBytes, c.elementBytes, c.rank);
  for (uint32_t b : c.box)
    std::fprintf(out, " %u", b);
  for (uint32_t s : c.strides)
    std::fprintf(out, " %u", s);
  std::fprintf(out, " %x\n", dstAddress);
  // A line per row of the box (all dimensions above 0 flattened): the row,
  // then each element's offset from the destination (hex), or x.
  uint32_t rows = count / loaded[0];
  for (uint32_t row = 0; row < rows; ++row) {
    std::fprintf(out, "%u", row);
    for (uint32_t i0 = 0; i0 < loaded[0]; ++i0) {
      uint64_t linear = 0, pitchElems = 1, rest = row;
      for (uint32_t d = 0; d < c.rank; ++d) {
        uint64_t index = d == 0 ? i0 : rest % loaded[d];
        if (d > 0)
          rest /= loaded[d];
        uint64_t coordinate = d == 0 ? index : index * c.strides[d];
        linear += coordinate * pitchElems;
        pitchElems *= dims[d];
      }
      long offset = where[linear];
      if (offset < 0)
        std::fprintf(out, " x");
      else
        std::fprintf(out, " %lx", offset);
    }
    std::fprintf(out, "\n");
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

namespace {

constexpr uint32_t kRegionBytes = 32768;  // the operand under test
constexpr uint32_t kIdentityBytes = 4096; // B = identity, for A's tests

struct WgmmaCase {
  bool operandA; // else B
  bool mnMajor;
  uint32_t mode; // descriptor bits 63-62: 0 none, 1 128B, 2 64B, 3 32B
  uint32_t startOffset, lbo, sbo, baseOffset;
};

} // namespace

__device__ uint64_t makeDescriptor(uint32_t start, uint32_t lbo, uint32_t sbo,
                                   uint32_t base, uint32_t mode) {
  return uint64_t((start & 0x3FFFF) >> 4) |
         uint64_t((lbo & 0x3FFFF) >> 4) << 16 |
         uint64_t((sbo & 0x3FFFF) >> 4) << 32 | uint64_t(base & 7) << 49 |
         uint64_t(mode & 3) << 62;
}

/// Slot s (2 bytes) of the region holds s % 2048 or s / 2048, exact in f16.
__device__ void fillRegion(uint8_t *base, bool high) {
  __half *slots = reinterpret_cast<__half *>(base);
  for (uint32_t s = threadIdx.x; s < kRegionBytes / 2; s += blockDim.x)
    slots[s] = __int2half_rn(high ? int(s >> 11) : int(s & 2047));
}

__device__ uint32_t packHalves(bool low, bool high) {
  return (low ? 0x3C00u : 0u) | (high ? 0x3C00u : 0u) << 16;
}

/// The wgmma accumulators D (64 x 128 f32) to out, row-major.
__device__ void storeD(const float (&d)[64], float *out) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int group = lane / 4, pair = lane % 4;
  for (int i = 0; i < 64; ++i) {
    int row = 16 * warp + group + 8 * ((i >> 1) & 1);
    int col = 8 * (i >> 2) + 2 * pair + (i & 1);
    out[row * 128 + col] = d[i];
  }
}

/// D = A * B with A from registers, the identity on each warp's 16 rows
/// (A[16w + r][c] = r == c), so D[16w + k][n] = B[k][n].
template <int TransB>
__global__ void wgmmaB(WgmmaCase c, bool high, float *out, uint32_t *region,
                       uint64_t *descriptor) {
  uint8_t *base = alignedSmem();
  fillRegion(base, high);
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t start = sharedAddress(base);
  uint64_t desc =
      makeDescriptor(start + c.startOffset, c.lbo, c.sbo, c.baseOffset, c.mode);
  int lane = threadIdx.x % 32, group = lane / 4, pair = lane % 4;
  uint32_t a[4] = {
      packHalves(group == 2 * pair, group == 2 * pair + 1),
      packHalves(group + 8 == 2 * pair, group + 8 == 2 * pair + 1),
      packHalves(group == 2 * pair + 8, group == 2 * pair + 9),
      packHalves(group + 8 == 2 * pair + 8, group + 8 == 2 * pair + 9)};
  float d[64] = {};
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %68, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, "
      "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, "
      "%26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, "
      "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, "
      "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
      "%62, %63"
      "},\n"
      "{%64, %65, %66, %67}, %69, p, 1, 1, %70;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]),
        "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
        "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
        "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]),
        "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),
        "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),
        "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(0), "l"(desc),
        "n"(TransB)
      : "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  storeD(d, out);
  if (threadIdx.x == 0) {
    *region = start;
    *descriptor = desc;
  }
}

/// D = A * B with both from shared memory, B the identity on its first 16
/// columns (K-major, no swizzle, after the region), so D[m][k] = A[m][k].
template <int TransA>
__global__ void wgmmaA(WgmmaCase c, bool high, float *out, uint32_t *region,
                       uint64_t *descriptor) {
  uint8_t *base = alignedSmem();
  fillRegion(base, high);
  __half *identity = reinterpret_cast<__half *>(base + kRegionBytes);
  for (uint32_t i = threadIdx.x; i < kIdentityBytes / 2; i += blockDim.x)
    identity[i] = __int2half_rn(0);
  __syncthreads();
  if (threadIdx.x < 16) {
    // B (k, n) of a K-major canonical layout with LBO 2048, SBO 128.
    int n = threadIdx.x, k = n;
    uint32_t byte = (n / 8) * 128 + (n % 8) * 16 + (k / 8) * 2048 + (k % 8) * 2;
    identity[byte / 2] = __int2half_rn(1);
  }
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint32_t start = sharedAddress(base);
  uint64_t descA =
      makeDescriptor(start + c.startOffset, c.lbo, c.sbo, c.baseOffset, c.mode);
  uint64_t descB = makeDescriptor(start + kRegionBytes, 2048, 128, 0, 0);
  float d[64] = {};
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16\n"
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, "
      "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, "
      "%26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, "
      "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, "
      "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
      "%62, %63"
      "},\n"
      "%64, %65, p, 1, 1, %67, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]),
        "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
        "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
        "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]),
        "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),
        "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),
        "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(descA), "l"(descB), "r"(0), "n"(TransA)
      : "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  storeD(d, out);
  if (threadIdx.x == 0) {
    *region = start;
    *descriptor = descA;
  }
}

namespace {

/// Runs the case twice (slots' low and high index bits) and writes the
/// address wgmma read for each operand element.
void runWgmma(std::FILE *out, const WgmmaCase &c) {
  float *d;
  uint32_t *region;
  uint64_t *descriptor;
  check(cudaMalloc(&d, 64 * 128 * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&region, 4), "cudaMalloc");
  check(cudaMalloc(&descriptor, 8), "cudaMalloc");
  uint32_t smemBytes = kRegionBytes + kIdentityBytes + 1024;
  std::vector<float> parts[2];
  uint32_t regionAddress;
  uint64_t bits;
  for (int high = 0; high < 2; ++high) {
    auto launch = [&](auto kernel) {
      check(cudaFuncSetAttribute(
                kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smemBytes),
            "cudaFuncSetAttribute");
      kernel<<<1, 128, smemBytes>>>(c, high, d, region, descriptor);
    };
    if (c.operandA)
      c.mnMajor ? launch(wgmmaA<1>) : launch(wgmmaA<0>);
    else
      c.mnMajor ? launch(wgmmaB<1>) : launch(wgmmaB<0>);
    check(cudaDeviceSynchronize(), "wgmma");
    parts[high].resize(64 * 128);
    check(cudaMemcpy(parts[high].data(), d, 64 * 128 * sizeof(float),
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy");
  }
  check(cudaMemcpy(&regionAddress, region, 4, cudaMemcpyDeviceToHost),
        "cudaMemcpy");
  check(cudaMemcpy(&bits, descriptor, 8, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(d);
  cudaFree(region);
  cudaFree(descriptor);
  // The address of D[row][col]'s slot, or ~0 where D is no slot index.
  auto slotAddress = [&](int row, int col) -> uint32_t {
    float low = parts[0][row * 128 + col], high = parts[1][row * 128 + col];
    if (low != std::floor(low) || high != std::floor(high) || low < 0 ||
        low > 2047 || high < 0 || high > 15)
      return ~0u;
    return regionAddress + 2 * (uint32_t(high) * 2048 + uint32_t(low));
  };
  int rows = c.operandA ? 64 : 128;
  std::fprintf(out, "wgmma %s %s %016llx\n", c.operandA ? "A" : "B",
               c.mnMajor ? "MN" : "K", (unsigned long long)bits);
  for (int mn = 0; mn < rows; ++mn) {
    std::fprintf(out, "%d", mn);
    for (int k = 0; k < 16; ++k) {
      // B: D[16w + k][n] for each warp w, which must agree; A: D[m][k].
      uint32_t address = c.operandA ? slotAddress(mn, k) : slotAddress(k, mn);
      if (!c.operandA)
        for (int w = 1; w < 4; ++w)
          if (slotAddress(16 * w + k, mn) != address)
            address = ~0u;
      if (address == ~0u)
        std::fprintf(out, " x");
      else
        std::fprintf(out, " %x", address);
    }
    std::fprintf(out, "\n");
  }
}

} // namespace

namespace {

const TmaCase kTmaCases[] = {
    // The span's own width, at the repeat and off it.
    {128, 2, 2, {64, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {128, 2, 2, {64, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 128},
    {128, 2, 2, {64, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 384},
    {128, 2, 2, {64, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 640},
    {64, 2, 2, {32, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {64, 2, 2, {32, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 128},
    {32, 2, 2, {16, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {32, 2, 2, {16, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 128},
    // Inner dimensions narrower than the span.
    {128, 2, 2, {32, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {128, 2, 2, {16, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {128, 2, 2, {8, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {128, 2, 2, {32, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 128},
    {128, 2, 2, {24, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {64, 2, 2, {16, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {64, 2, 2, {8, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 128},
    {32, 2, 2, {8, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {128, 2, 2, {8, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 128},
    {32, 4, 2, {4, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {64, 2, 3, {16, 6, 2, 1, 1}, {1, 3, 1, 1, 1}, 128},
    // No swizzle, an inner dimension of 48 bytes.
    {0, 2, 2, {24, 5, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    // Ranks 3 and 4 (fa4's box: 64 innermost, then rows, 1, 1), traversal
    // strides, 4-byte elements.
    {128, 2, 3, {64, 4, 3, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {128, 2, 4, {64, 128, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {128, 2, 4, {64, 8, 1, 2, 1}, {1, 1, 1, 1, 1}, 256},
    {128, 2, 2, {64, 8, 1, 1, 1}, {1, 2, 1, 1, 1}, 0},
    {128, 2, 3, {64, 5, 7, 1, 1}, {1, 2, 3, 1, 1}, 0},
    {128, 4, 2, {32, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {128, 4, 2, {16, 16, 1, 1, 1}, {1, 1, 1, 1, 1}, 0},
    {64, 4, 2, {16, 8, 1, 1, 1}, {1, 1, 1, 1, 1}, 128},
};

// Descriptor modes: 0 none, 1 128B, 2 64B, 3 32B.
const WgmmaCase kWgmmaCases[] = {
    // B, K-major: none with CUTLASS's offsets and with others; LBO set to
    // junk where the ISA says it is unused; k-blocks and rows off the
    // repeat; base offsets.
    {false, false, 0, 0, 2048, 128, 0},
    {false, false, 0, 0, 128, 256, 0},
    {false, false, 3, 0, 0x3ff0, 256, 0},
    {false, false, 2, 32, 16, 512, 0},
    {false, false, 1, 64, 16, 1024, 0},
    {false, false, 1, 0, 0x3ff0, 1024, 0},
    {false, false, 1, 384, 16, 1024, 0},
    {false, false, 1, 384, 16, 1024, 3},
    {false, false, 1, 0, 16, 1024, 3},
    {false, false, 1, 1024 + 640 + 32, 16, 1024, 5},
    {false, false, 2, 128, 16, 512, 1},
    {false, false, 3, 128, 16, 256, 1},
    // B, N-major (transposed): none both ways; swizzled with CUTLASS's
    // MN-first and K-first tilings; a start inside a line; base offsets.
    {false, true, 0, 0, 2048, 128, 0},
    {false, true, 0, 0, 128, 256, 0},
    {false, true, 3, 0, 256, 2048, 0},
    {false, true, 2, 0, 512, 2048, 0},
    {false, true, 1, 0, 1024, 2048, 0},
    {false, true, 1, 0, 2048, 1024, 0},
    {false, true, 1, 2048, 1024, 4096, 0},
    {false, true, 1, 32, 1024, 2048, 0},
    {false, true, 1, 384, 1024, 2048, 3},
    {false, true, 2, 128, 512, 2048, 1},
    // A, both majors.
    {true, false, 1, 0, 16, 1024, 0},
    {true, false, 0, 0, 1024, 128, 0},
    {true, false, 2, 32, 16, 512, 0},
    {true, true, 1, 0, 0x3ff0, 1024, 0},
    {true, true, 3, 0, 256, 1024, 0},
    {true, true, 2, 0, 512, 1024, 0},
    {true, true, 0, 0, 1024, 128, 0},
};

constexpr int kTmaCount = sizeof(kTmaCases) / sizeof(kTmaCases[0]);
constexpr int kWgmmaCount = sizeof(kWgmmaCases) / sizeof(kWgmmaCases[0]);

void writeHeader(std::FILE *out) {
  cudaDeviceProp properties;
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  int driver;
  check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  std::fprintf(
      out,
      "# What the TMA and wgmma of a %s (sm_%d%d, driver %d) did; "
      "regenerate with gen-hw-goldens.cu (README.md).\n"
      "# tma SWIZZLE BYTES RANK BOX0..4 STRIDE0..4 DST: a tile load of the "
      "box at coordinates 0 to shared address DST; then a line per row of "
      "the loaded box (dimensions above 0 flattened, innermost first): the "
      "row, then each element's offset from DST (hex).\n"
      "# wgmma OPERAND MAJOR DESC: m64n128k16 f16 with that operand's "
      "descriptor; then a line per mn (A: 64, B: 128): mn, then the shared "
      "address wgmma read for each k of 16 (hex).\n",
      properties.name, properties.major, properties.minor, driver);
}

} // namespace

/// Each case runs in a child process of its own, so that one the hardware
/// refuses (a fault poisons the CUDA context) is recorded as such and the
/// others still run.
int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
    return 2;
  }
  std::FILE *out = std::fopen(argv[1], "w");
  if (!out)
    return 1;
  int failed = 0;
  for (int index = -1; index < kTmaCount + kWgmmaCount; ++index) {
    std::fflush(out);
    pid_t child = fork();
    if (child == 0) {
      if (index < 0)
        writeHeader(out);
      else if (index < kTmaCount)
        runTma(out, kTmaCases[index]);
      else
        runWgmma(out, kWgmmaCases[index - kTmaCount]);
      std::fflush(out);
      std::_Exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    // The child's writes went through the shared file offset; catch up.
    std::fseek(out, 0, SEEK_END);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(out, "# case %d failed\n", index);
      ++failed;
    }
  }
  std::fclose(out);
  std::printf("%d TMA cases, %d wgmma cases, %d failed\n", kTmaCount,
              kWgmmaCount, failed);
  return failed != 0;
}

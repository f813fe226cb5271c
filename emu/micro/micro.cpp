//===- micro.cpp - The micro kernels, on a GPU or on fa4-emu --------------===//
//
// Runs emu/micro/*.ptx through the CUDA driver API, opened with dlopen:
// libcuda.so.1 on a GPU, or fa4-emu's libfa4emu.so (--driver), so the same
// code drives both. Prints one line per case: its name and the FNV-1a hash
// and first words of its output buffer; the two machines must print the
// same lines (emu/scripts/emu-micro.sh compares them).
//
// --blackwell runs the sm_100a cases instead (tcgen05-*.ptx, one per
// modelled tcgen05 rule): each also compares its D with a product computed
// here, exactly (small integers in bf16), and says pass or FAIL, so the
// first Blackwell GPU confirms or refutes each rule (scripts/b200-ready.sh).
//
//   micro [--driver LIB] [--blackwell] DIR
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using fa4::emu::micro::check;
using fa4::emu::micro::Driver;
using fa4::emu::micro::readFile;

struct Case {
  std::string name, ptx;
  CUtensorMapSwizzle swizzle;
  uint32_t boxInner, boxRows; // bf16 elements, rows
  uint32_t x;                 // the box's column
  uint32_t copyBytes;         // tma-load: shared bytes copied out
  uint32_t txBytes;           // bytes the mbarrier expects
  uint32_t threads, cluster;
};

uint64_t fnv1a(const std::vector<uint8_t> &bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t byte : bytes)
    hash = (hash ^ byte) * 0x100000001b3ull;
  return hash;
}

/// The driver entry points the micro kernels use.
struct Api {
  decltype(&::cuInit) init;
  decltype(&::cuDeviceGet) deviceGet;
  decltype(&::cuDevicePrimaryCtxRetain) primaryCtxRetain;
  decltype(&::cuCtxSetCurrent) ctxSetCurrent;
  decltype(&::cuModuleLoadDataEx) moduleLoadDataEx;
  decltype(&::cuModuleGetFunction) moduleGetFunction;
  decltype(&::cuFuncSetAttribute) funcSetAttribute;
  decltype(&::cuMemAlloc) memAlloc;
  decltype(&::cuMemFree) memFree;
  decltype(&::cuMemcpyHtoD) memcpyHtoD;
  decltype(&::cuMemcpyDtoH) memcpyDtoH;
  decltype(&::cuTensorMapEncodeTiled) tensorMapEncodeTiled;
  decltype(&::cuLaunchKernelEx) launchKernelEx;
  CUresult (*ctxSynchronize)() = nullptr;

  explicit Api(Driver &d)
      : init(d.get<decltype(init)>("cuInit")),
        deviceGet(d.get<decltype(deviceGet)>("cuDeviceGet")),
        primaryCtxRetain(
            d.get<decltype(primaryCtxRetain)>("cuDevicePrimaryCtxRetain")),
        ctxSetCurrent(d.get<decltype(ctxSetCurrent)>("cuCtxSetCurrent")),
        moduleLoadDataEx(
            d.get<decltype(moduleLoadDataEx)>("cuModuleLoadDataEx")),
        moduleGetFunction(
            d.get<decltype(moduleGetFunction)>("cuModuleGetFunction")),
        funcSetAttribute(
            d.get<decltype(funcSetAttribute)>("cuFuncSetAttribute")),
        memAlloc(d.get<decltype(memAlloc)>("cuMemAlloc_v2")),
        memFree(d.get<decltype(memFree)>("cuMemFree_v2")),
        memcpyHtoD(d.get<decltype(memcpyHtoD)>("cuMemcpyHtoD_v2")),
        memcpyDtoH(d.get<decltype(memcpyDtoH)>("cuMemcpyDtoH_v2")),
        tensorMapEncodeTiled(
            d.get<decltype(tensorMapEncodeTiled)>("cuTensorMapEncodeTiled")),
        launchKernelEx(d.get<decltype(launchKernelEx)>("cuLaunchKernelEx")),
        ctxSynchronize(reinterpret_cast<CUresult (*)()>(
            dlsym(d.library, "cuCtxSynchronize"))) {}

  void start() {
    check(init(0), "cuInit");
    CUdevice device;
    check(deviceGet(&device, 0), "cuDeviceGet");
    CUcontext context;
    check(primaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    check(ctxSetCurrent(context), "cuCtxSetCurrent");
  }

  CUfunction load(const std::string &path, uint32_t smem) {
    std::string text = readFile(path);
    CUmodule module;
    check(moduleLoadDataEx(&module, text.c_str(), 0, nullptr, nullptr),
          ("load " + path).c_str());
    CUfunction function;
    check(moduleGetFunction(&function, module, "k"), "cuModuleGetFunction");
    check(funcSetAttribute(function,
                           CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           int(smem)),
          "cuFuncSetAttribute");
    return function;
  }

  /// A 2-D bf16 tensor map of `rows` x `columns`, box `boxRows` x
  /// `boxColumns`.
  CUtensorMap map2d(CUdeviceptr base, uint64_t rows, uint64_t columns,
                    uint32_t boxRows, uint32_t boxColumns,
                    CUtensorMapSwizzle swizzle) {
    CUtensorMap map;
    cuuint64_t dims[2] = {columns, rows}, strides[1] = {columns * 2};
    cuuint32_t box[2] = {boxColumns, boxRows}, elementStrides[2] = {1, 1};
    check(tensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                               reinterpret_cast<void *>(base), dims, strides,
                               box, elementStrides,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          "cuTensorMapEncodeTiled");
    return map;
  }

  void launch(CUfunction function, void **params, uint32_t threads,
              uint32_t cluster, uint32_t smem, const std::string &name) {
    CUlaunchConfig config = {};
    config.gridDimX = cluster;
    config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = threads;
    config.blockDimY = config.blockDimZ = 1;
    config.sharedMemBytes = smem;
    CUlaunchAttribute attribute;
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = cluster;
    attribute.value.clusterDim.y = attribute.value.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    check(launchKernelEx(&config, function, params, nullptr),
          ("launch " + name).c_str());
    if (ctxSynchronize)
      check(ctxSynchronize(), "cuCtxSynchronize");
  }

  CUdeviceptr upload(const void *data, size_t bytes) {
    CUdeviceptr memory;
    check(memAlloc(&memory, bytes), "cuMemAlloc");
    check(memcpyHtoD(memory, data, bytes), "cuMemcpyHtoD");
    return memory;
  }
  /// Fills `bytes` of `memory` with 0xee, so that what a kernel leaves
  /// unwritten shows.
  void poison(CUdeviceptr memory, size_t bytes) {
    std::vector<uint8_t> pattern(bytes, 0xee);
    check(memcpyHtoD(memory, pattern.data(), bytes), "cuMemcpyHtoD");
  }
  std::vector<uint8_t> download(CUdeviceptr memory, size_t bytes) {
    std::vector<uint8_t> result(bytes);
    check(memcpyDtoH(result.data(), memory, bytes), "cuMemcpyDtoH");
    return result;
  }
};

void printLine(const std::string &name, const std::vector<uint8_t> &result,
               const std::string &verdict = "") {
  uint32_t words[6];
  std::memcpy(words, result.data(), sizeof(words));
  std::printf("MICRO %-22s fnv=%016llx words=%08x %08x %08x %08x %08x "
              "%08x%s\n",
              name.c_str(), static_cast<unsigned long long>(fnv1a(result)),
              words[0], words[1], words[2], words[3], words[4], words[5],
              verdict.c_str());
}

void runHopper(Api &api, const std::string &dir) {
  // A [16 x 64] bf16 tensor, element e = e + 1.
  const uint64_t rows = 16, columns = 64;
  std::vector<uint16_t> tensor(rows * columns);
  for (size_t e = 0; e < tensor.size(); ++e)
    tensor[e] = uint16_t(e + 1);
  CUdeviceptr tensorMemory = api.upload(tensor.data(), tensor.size() * 2);
  const size_t outBytes = 4096;
  CUdeviceptr out;
  check(api.memAlloc(&out, outBytes), "cuMemAlloc");

  std::vector<Case> cases = {
      {"tma-none-oob", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_NONE, 32, 4, 48,
       256, 256, 64, 1},
      {"tma-128B", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_128B, 64, 8, 0, 1024,
       1024, 64, 1},
      {"tma-64B", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_64B, 32, 8, 8, 512, 512,
       64, 1},
      {"tma-32B", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_32B, 16, 8, 16, 256,
       256, 64, 1},
      {"tma-128B-narrow-rows", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_128B, 32,
       8, 0, 1024, 512, 64, 1},
      {"mbarrier-tx", "mbarrier-tx.ptx", CU_TENSOR_MAP_SWIZZLE_NONE, 64, 4, 0,
       0, 1024, 32, 1},
      {"cluster-dsmem", "cluster.ptx", CU_TENSOR_MAP_SWIZZLE_NONE, 64, 4, 0, 0,
       0, 64, 2},
  };
  for (const Case &c : cases) {
    uint32_t smem = 16384;
    CUfunction function = api.load(dir + "/" + c.ptx, smem);
    CUtensorMap map = api.map2d(tensorMemory, rows, columns, c.boxRows,
                                c.boxInner, c.swizzle);
    api.poison(out, outBytes);
    uint32_t x = c.x, copy = c.copyBytes, tx = c.txBytes;
    void *params[] = {&map, &out, &x, &copy, &tx};
    api.launch(function, params, c.threads, c.cluster, smem, c.name);
    printLine(c.name, api.download(out, outBytes));
  }
  api.memFree(out);
  api.memFree(tensorMemory);
}

//===----------------------------------------------------------------------===//
// Blackwell (tcgen05) cases
//===----------------------------------------------------------------------===//

/// f32x2.ptx: 128 threads' fma, add, sub and mul .rn.f32x2 of pairs with
/// mixed signs, magnitudes 2^-30 to 2^30 and a tie, each lane checked
/// bit for bit against the same f32 operation here (fmaf: one rounding).
void runPackedF32(Api &api, const std::string &dir) {
  constexpr int kThreads = 128;
  std::vector<float> in(kThreads * 6);
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state;
  };
  for (float &value : in) {
    int exponent = int(next() % 61) - 30;
    float mantissa = 1.0f + float(next() % (1u << 23)) / float(1u << 23);
    value = std::ldexp(next() & 1 ? -mantissa : mantissa, exponent);
  }
  // A tie: 1 + 2^-24 rounds to even (thread 0, lane 0 of a + b).
  in[0] = 1.0f, in[2] = std::ldexp(1.0f, -24), in[1] = 3.0f;
  CUdeviceptr inMemory = api.upload(in.data(), in.size() * 4);
  CUdeviceptr out;
  const size_t outBytes = kThreads * 8 * 4;
  check(api.memAlloc(&out, outBytes), "cuMemAlloc");
  api.poison(out, outBytes);
  CUfunction function = api.load(dir + "/f32x2.ptx", 0);
  void *params[] = {&inMemory, &out};
  api.launch(function, params, kThreads, 1, 0, "f32x2");
  std::vector<uint8_t> result = api.download(out, outBytes);
  std::vector<float> got(kThreads * 8);
  std::memcpy(got.data(), result.data(), outBytes);
  int mismatches = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int lane = 0; lane < 2; ++lane) {
      float a = in[6 * t + lane], b = in[6 * t + 2 + lane],
            c = in[6 * t + 4 + lane];
      float want[4] = {std::fmaf(a, b, c), a + b, a - b, a * b};
      for (int op = 0; op < 4; ++op)
        mismatches +=
            std::memcmp(&got[8 * t + 2 * op + lane], &want[op], 4) != 0;
    }
  printLine("f32x2", result,
            mismatches ? " FAIL (" + std::to_string(mismatches) + ")"
                       : " pass");
  api.memFree(out);
  api.memFree(inMemory);
}

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}
float floatOfBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}
float bf16ToFloat(uint16_t bits) { return floatOfBits(uint32_t(bits) << 16); }
/// The f16 bits of a normal f16 value held exactly in `value`.
uint16_t exactHalfBits(float value) {
  uint32_t bits = floatBits(value);
  uint32_t exponent = ((bits >> 23) & 0xff) - 127 + 15;
  return uint16_t((bits >> 16 & 0x8000) | exponent << 10 |
                  (bits & 0x7fffff) >> 13);
}
float halfToFloat(uint16_t bits) {
  uint32_t exponent = (bits >> 10 & 0x1f) - 15 + 127;
  return floatOfBits(uint32_t(bits & 0x8000) << 16 | exponent << 23 |
                     uint32_t(bits & 0x3ff) << 13);
}

/// fma-mixed.ptx: 128 threads' fma.rn.f32.bf16 and fma.rn.f32.f16 of
/// 16-bit factors with mixed signs and magnitudes 2^-12 to 2^12 (f16 to
/// 2^-6 to 2^6) and an f32 addend, each checked bit for bit against fmaf
/// of the widened factors here (their product is exact in f32).
void runMixedFma(Api &api, const std::string &dir) {
  constexpr int kThreads = 128;
  std::vector<uint16_t> factors(kThreads * 4);
  std::vector<float> addends(kThreads);
  uint32_t state = 777;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  auto draw = [&](int range) {
    float mantissa = 1.0f + float(next() % 1024) / 1024.0f;
    int exponent = int(next() % (2 * range + 1)) - range;
    return std::ldexp(next() & 1 ? -mantissa : mantissa, exponent);
  };
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < 2; ++i)
      factors[4 * t + i] = uint16_t(floatBits(draw(12)) >> 16);
    for (int i = 2; i < 4; ++i)
      factors[4 * t + i] = exactHalfBits(draw(6));
    addends[t] = draw(12);
  }
  CUdeviceptr factorMemory = api.upload(factors.data(), factors.size() * 2);
  CUdeviceptr addendMemory = api.upload(addends.data(), addends.size() * 4);
  CUdeviceptr out;
  const size_t outBytes = kThreads * 2 * 4;
  check(api.memAlloc(&out, outBytes), "cuMemAlloc");
  api.poison(out, outBytes);
  CUfunction function = api.load(dir + "/fma-mixed.ptx", 0);
  void *params[] = {&factorMemory, &addendMemory, &out};
  api.launch(function, params, kThreads, 1, 0, "fma-mixed");
  std::vector<uint8_t> result = api.download(out, outBytes);
  std::vector<float> got(kThreads * 2);
  std::memcpy(got.data(), result.data(), outBytes);
  int mismatches = 0;
  for (int t = 0; t < kThreads; ++t) {
    const uint16_t *f = &factors[4 * t];
    float want[2] = {
        std::fmaf(bf16ToFloat(f[0]), bf16ToFloat(f[1]), addends[t]),
        std::fmaf(halfToFloat(f[2]), halfToFloat(f[3]), addends[t])};
    for (int i = 0; i < 2; ++i)
      mismatches += std::memcmp(&got[2 * t + i], &want[i], 4) != 0;
  }
  printLine("fma-mixed", result,
            mismatches ? " FAIL (" + std::to_string(mismatches) + ")"
                       : " pass");
  api.memFree(out);
  api.memFree(addendMemory);
  api.memFree(factorMemory);
}

/// The sm_100a shared-memory descriptor less its start address (PTX ISA,
/// tcgen05 "Shared memory descriptor"): leading and stride byte offsets
/// >> 4 at bits 16 and 32, version 1 at bit 46, the swizzle mode at bit 61
/// (2: 128-byte swizzle).
/// (4: 64-byte swizzle).
uint64_t smemDescriptor(uint32_t leadingBytes, uint32_t strideBytes,
                        uint64_t swizzleMode = 2) {
  return uint64_t(leadingBytes >> 4) << 16 | uint64_t(strideBytes >> 4) << 32 |
         uint64_t(1) << 46 | swizzleMode << 61;
}

/// The kind::f16 instruction descriptor (PTX ISA, tcgen05 "Instruction
/// descriptor"): f32 D (bit 4), bf16 A and B (bits 7, 10), B MN-major
/// (bit 16), N >> 3 at bit 17, M >> 4 at bit 24.
uint32_t instructionDescriptor(uint32_t m, uint32_t n, bool bMnMajor) {
  return 1u << 4 | 1u << 7 | 1u << 10 | uint32_t(bMnMajor) << 16 |
         (n >> 3) << 17 | (m >> 4) << 24;
}

/// Small integers, exact in bf16 and in f32 sums of products.
std::vector<uint16_t> smallIntegers(size_t count, uint32_t seed) {
  std::vector<uint16_t> values(count);
  uint32_t state = seed;
  for (uint16_t &value : values) {
    state = state * 1664525u + 1013904223u;
    int v = int(state >> 28) % 7 - 3; // -3 ... 3
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    value = uint16_t(bits >> 16);
  }
  return values;
}

float bf16(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &word, 4);
  return f;
}

/// The verdict on the kernel's D (`rows` x 64 f32) against D[m][n] =
/// sum_k A(m, k) B(n, k) over `depth`, the host's product.
template <typename AValue, typename BValue>
std::string productVerdict(int rows, int depth, AValue aValue, BValue bValue,
                           const std::vector<uint8_t> &result) {
  int mismatches = 0;
  for (int m = 0; m < rows; ++m)
    for (int n = 0; n < 64; ++n) {
      float sum = 0;
      for (int k = 0; k < depth; ++k)
        sum += aValue(m, k) * bValue(n, k);
      float got;
      std::memcpy(&got, result.data() + size_t(m * 64 + n) * 4, 4);
      mismatches += got != sum;
    }
  return mismatches ? " FAIL (" + std::to_string(mismatches) +
                          " of D's elements differ from the product)"
                    : " pass";
}

/// bf16 A (rows x 64) and B: B(n, k) = b[n * 64 + k] (K-major) or
/// b[k * 64 + n] (MN-major).
std::string verdict(const std::vector<uint16_t> &a,
                    const std::vector<uint16_t> &b, bool bMnMajor, int rows,
                    const std::vector<uint8_t> &result) {
  return productVerdict(
      rows, 64, [&](int m, int k) { return bf16(a[size_t(m * 64 + k)]); },
      [&](int n, int k) {
        return bf16(b[size_t(bMnMajor ? k * 64 + n : n * 64 + k)]);
      },
      result);
}

/// Small integers -3 ... 3 as 8-bit floats: e4m3 (bias 7) or e5m2 (bias
/// 15), exact, as are their products and sums in f32.
std::vector<uint8_t> smallIntegers8(size_t count, uint32_t seed, bool e5m2) {
  std::vector<uint8_t> values(count);
  uint32_t state = seed;
  // 0, 1, 2, 3: e4m3 0x00 0x38 0x40 0x44; e5m2 0x00 0x3c 0x40 0x42.
  const uint8_t e4m3[4] = {0x00, 0x38, 0x40, 0x44},
                e5m2Bits[4] = {0x00, 0x3c, 0x40, 0x42};
  for (uint8_t &value : values) {
    state = state * 1664525u + 1013904223u;
    int v = int(state >> 28) % 7 - 3;
    uint8_t magnitude = (e5m2 ? e5m2Bits : e4m3)[v < 0 ? -v : v];
    value = uint8_t(magnitude | (v < 0 ? 0x80 : 0));
  }
  return values;
}

/// The value of an e4m3 or e5m2 byte among smallIntegers8's (their codes
/// for 0-3 do not collide).
float small8(uint8_t bits) {
  float magnitude = 0;
  switch (bits & 0x7f) {
  case 0x38: // e4m3 1
  case 0x3c: // e5m2 1
    magnitude = 1;
    break;
  case 0x40:
    magnitude = 2;
    break;
  case 0x44: // e4m3 3
  case 0x42: // e5m2 3
    magnitude = 3;
    break;
  }
  return bits & 0x80 ? -magnitude : magnitude;
}

/// tcgen05-mma-f8.ptx: kind::f8f6f4 over K = 128 bytes, A e4m3 from shared
/// or tensor memory, B e5m2 or e4m3, K-major (B(n, k) = b[n * 128 + k]) or
/// MN-major (b[k * 64 + n], the P V operand's major, in rows of 64 bytes
/// under the 64-byte swizzle FP8 plans take): D[m][n] = sum_k A[m][k]
/// B(n, k), each compared with the host's product.
void runBlackwellF8(Api &api, const std::string &dir, CUdeviceptr out) {
  const uint32_t smem = 32768;
  struct Case {
    const char *name;
    bool aFromTmem, bE5m2, bMnMajor;
  };
  for (Case c : {Case{"tcgen05-mma-f8-ss", false, true, false},
                 Case{"tcgen05-mma-f8-ts", true, false, false},
                 Case{"tcgen05-mma-f8-ss-bmn", false, false, true}}) {
    std::vector<uint8_t> a = smallIntegers8(128 * 128, 3, false),
                         b = smallIntegers8(64 * 128, 4, c.bE5m2);
    CUdeviceptr aMemory = api.upload(a.data(), a.size());
    CUdeviceptr bMemory = api.upload(b.data(), b.size());
    CUfunction function = api.load(dir + "/tcgen05-mma-f8.ptx", smem);
    // TMA moves bytes: rows of 128 bytes described as 64 bf16 (B MN-major:
    // 128 K-rows of 64 bytes, 32 bf16).
    CUtensorMap aMap =
        api.map2d(aMemory, 128, 64, 128, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    CUtensorMap bMap =
        c.bMnMajor
            ? api.map2d(bMemory, 128, 32, 128, 32, CU_TENSOR_MAP_SWIZZLE_64B)
            : api.map2d(bMemory, 64, 64, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    api.poison(out, 128 * 64 * 4);
    uint64_t aDescriptor = smemDescriptor(16, 1024);
    // MN-major, 64B swizzle: 8 K-rows of the one 64-byte span of N per 512
    // bytes (CUTLASS's make_gmma_desc for this tile: LBO 0, SBO 512), a
    // K = 32 step 2048 bytes on.
    uint64_t bDescriptor =
        c.bMnMajor ? smemDescriptor(0, 512, 4) : smemDescriptor(16, 1024);
    // kind::f8f6f4: f32 D (bit 4), A e4m3 (format 0 at bit 7), B e5m2 (1 at
    // bit 10) or e4m3, B MN-major at bit 16, N >> 3 at bit 17, M >> 4 at
    // bit 24.
    uint32_t idesc = 1u << 4 | uint32_t(c.bE5m2) << 10 |
                     uint32_t(c.bMnMajor) << 16 | (64u >> 3) << 17 |
                     (128u >> 4) << 24;
    uint32_t aStep = 32, bStep = c.bMnMajor ? 2048 : 32;
    uint32_t aFromTmem = c.aFromTmem;
    void *params[] = {&aMap,        &bMap,        &out,   &aMemory, &idesc,
                      &aDescriptor, &bDescriptor, &aStep, &bStep,   &aFromTmem};
    api.launch(function, params, 128, 1, smem, c.name);
    std::vector<uint8_t> result = api.download(out, 128 * 64 * 4);
    printLine(c.name, result,
              productVerdict(
                  128, 128,
                  [&](int m, int k) { return small8(a[size_t(m * 128 + k)]); },
                  [&](int n, int k) {
                    return small8(
                        b[size_t(c.bMnMajor ? k * 64 + n : n * 128 + k)]);
                  },
                  result));
    api.memFree(aMemory);
    api.memFree(bMemory);
  }
}

void runBlackwell(Api &api, const std::string &dir) {
  const uint32_t smem = 32768;
  std::vector<uint16_t> a = smallIntegers(256 * 64, 1),
                        b = smallIntegers(64 * 64, 2);
  CUdeviceptr aMemory = api.upload(a.data(), a.size() * 2);
  CUdeviceptr bMemory = api.upload(b.data(), b.size() * 2);
  const size_t outBytes = 256 * 64 * 4;
  CUdeviceptr out;
  check(api.memAlloc(&out, outBytes), "cuMemAlloc");

  // cta_group::1: A from shared memory or tensor memory; B K-major (rows
  // are N, a K step is 32 bytes along the row) or MN-major (rows are K, a
  // K step is 16 rows of 128 bytes).
  struct Single {
    const char *name;
    bool aFromTmem, bMnMajor;
  };
  for (Single c : {Single{"tcgen05-mma-ss", false, false},
                   Single{"tcgen05-mma-ss-bmn", false, true},
                   Single{"tcgen05-mma-ts", true, false}}) {
    CUfunction function = api.load(dir + "/tcgen05-mma.ptx", smem);
    CUtensorMap aMap =
        api.map2d(aMemory, 256, 64, 128, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    CUtensorMap bMap =
        api.map2d(bMemory, 64, 64, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    api.poison(out, outBytes);
    // K-major, 128B swizzle: 8-row groups 1024 bytes apart (the leading
    // offset is unused). MN-major: 8 K-rows of one 64-element span per
    // 1024 bytes, the next span of N (none here) 8192 bytes on.
    uint64_t aDescriptor = smemDescriptor(16, 1024);
    uint64_t bDescriptor =
        c.bMnMajor ? smemDescriptor(8192, 1024) : smemDescriptor(16, 1024);
    uint32_t idesc = instructionDescriptor(128, 64, c.bMnMajor);
    uint32_t aStep = 32, bStep = c.bMnMajor ? 2048 : 32;
    uint32_t aFromTmem = c.aFromTmem;
    void *params[] = {&aMap,        &bMap,        &out,   &aMemory, &idesc,
                      &aDescriptor, &bDescriptor, &aStep, &bStep,   &aFromTmem};
    api.launch(function, params, 128, 1, smem, c.name);
    std::vector<uint8_t> result = api.download(out, 128 * 64 * 4);
    printLine(c.name, result, verdict(a, b, c.bMnMajor, 128, result));
  }

  // cta_group::2 over a cluster of two CTAs: M = 256.
  {
    CUfunction function = api.load(dir + "/tcgen05-pair.ptx", smem);
    CUtensorMap aMap =
        api.map2d(aMemory, 256, 64, 128, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    CUtensorMap bMap =
        api.map2d(bMemory, 64, 64, 32, 64, CU_TENSOR_MAP_SWIZZLE_128B);
    api.poison(out, outBytes);
    uint64_t aDescriptor = smemDescriptor(16, 1024);
    uint64_t bDescriptor = smemDescriptor(16, 1024);
    uint32_t idesc = instructionDescriptor(256, 64, false);
    void *params[] = {&aMap, &bMap, &out, &idesc, &aDescriptor, &bDescriptor};
    api.launch(function, params, 128, 2, smem, "tcgen05-pair");
    std::vector<uint8_t> result = api.download(out, outBytes);
    printLine("tcgen05-pair", result, verdict(a, b, false, 256, result));
  }
  runBlackwellF8(api, dir, out);
  api.memFree(out);
  api.memFree(aMemory);
  api.memFree(bMemory);
  runPackedF32(api, dir);
  runMixedFma(api, dir);
}

} // namespace

int main(int argc, char **argv) {
  const char *driverPath = "libcuda.so.1";
  std::string dir;
  bool blackwell = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--driver" && i + 1 < argc)
      driverPath = argv[++i];
    else if (std::string(argv[i]) == "--blackwell")
      blackwell = true;
    else
      dir = argv[i];
  }
  try {
    Driver driver(driverPath);
    Api api(driver);
    api.start();
    if (blackwell)
      runBlackwell(api, dir);
    else
      runHopper(api, dir);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "micro: %s\n", error.what());
    return 1;
  }
  return 0;
}

//===- fa4cute-run.cpp - FlashAttention-4's own kernels, GPU or fa4-emu ---===//
//
// The "second opinion": runs the forward kernels of FlashAttention-4's
// CuTe-DSL implementation (fa4==4.0.0b3, compiled ahead of time to PTX,
// /work/fa4-cute-ptx: README.txt documents every parameter) through the
// CUDA driver API, opened with dlopen: libcuda.so.1 on a GPU, or fa4-emu's
// libfa4emu.so (--driver), so the same code drives both. Q, K and V are
// random bf16 (BSHD, head dim 128, fixed seed); O is compared with an fp64
// reference of softmax(Q K^T scale) V (bottom-right aligned causal mask, as
// flash_attn/cute/mask.py) under FlashAttention's rule
//   max |O - ref| <= 2 max |bf16(ref) - ref| + 1e-5.
// Prints one line per run:
//   SECOND-OPINION <kernel> <b>x<sq>x<sk>x<h>x128 pass|FAIL max_err=...
//       ref_err=... unwritten=N
//
//   fa4cute-run [--driver LIB] [--b B] [--s S] [--sk SK] [--h H] [--seed N]
//               PTX
//
// The kernel is recognised from its PTX: sm_100a with tcgen05 cta_group::2
// is the non-causal 2-CTA persistent kernel, sm_100a with cta_group::1 the
// causal one (SingleTileLPTScheduler), sm_90a the Hopper kernel.
//
//===----------------------------------------------------------------------===//

#include "../micro/Driver.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using fa4::emu::micro::check;
using fa4::emu::micro::Driver;
using fa4::emu::micro::readFile;

float bf16ToFloat(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &word, 4);
  return value;
}

uint16_t floatToBf16(float value) { // round to nearest even
  uint32_t word;
  std::memcpy(&word, &value, 4);
  if (std::isnan(value))
    return 0x7fc0;
  word += 0x7fff + ((word >> 16) & 1);
  return uint16_t(word >> 16);
}

/// cute.FastDivmodDivisor as the DSL's host code packs it: {u32 divisor,
/// u32 multiplier, u8 shift1, u8 shift2, 2 bytes padding}; the kernel
/// computes t = mul.hi.u32(n, multiplier), q = (t + ((n - t) >> shift1))
/// >> shift2 (Granlund-Montgomery, round-up multiplier): l = ceil(log2 d),
/// multiplier = floor(2^32 (2^l - d) / d) + 1, shift1 = min(l, 1),
/// shift2 = max(l - 1, 0). Matches the captured bytes (d = 1, 2, 256).
struct FastDivmod {
  uint32_t divisor, multiplier;
  uint8_t shift1, shift2, pad[2];
};
static_assert(sizeof(FastDivmod) == 12, "FastDivmodDivisor is 12 bytes");

FastDivmod fastDivmod(uint32_t d) {
  if (d == 0)
    throw std::runtime_error("FastDivmodDivisor of 0");
  uint32_t l = 0;
  while ((uint64_t(1) << l) < d)
    ++l;
  FastDivmod f = {};
  f.divisor = d;
  f.multiplier =
      uint32_t(((uint64_t(1) << 32) * ((uint64_t(1) << l) - d)) / d + 1);
  f.shift1 = uint8_t(std::min<uint32_t>(l, 1));
  f.shift2 = uint8_t(l > 0 ? l - 1 : 0);
  // Self-check against plain division.
  for (uint32_t n : {0u, 1u, d - 1, d, d + 1, 7 * d + 3, 1000003u}) {
    uint32_t t = uint32_t((uint64_t(n) * f.multiplier) >> 32);
    uint32_t q = (t + ((n - t) >> f.shift1)) >> f.shift2;
    if (q != n / d)
      throw std::runtime_error("fast divmod self-check failed");
  }
  return f;
}

enum class Kind { Sm100Pair, Sm100Causal, Sm90 };

const char *kindName(Kind kind) {
  return kind == Kind::Sm100Pair     ? "fwd_sm100_bf16_d128_noncausal"
         : kind == Kind::Sm100Causal ? "fwd_sm100_bf16_d128_causal"
                                     : "fwd_sm90_bf16_d128_noncausal";
}

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

} // namespace

int main(int argc, char **argv) {
  const char *driverPath = "libcuda.so.1";
  std::string ptxPath;
  int b = 1, s = 256, sk = -1, h = 2, seed = 1;
  const int d = 128;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc)
        throw std::runtime_error(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--driver")
        driverPath = next();
      else if (arg == "--b")
        b = std::stoi(next());
      else if (arg == "--s")
        s = std::stoi(next());
      else if (arg == "--sk")
        sk = std::stoi(next());
      else if (arg == "--h")
        h = std::stoi(next());
      else if (arg == "--seed")
        seed = std::stoi(next());
      else
        ptxPath = arg;
    } catch (const std::exception &error) {
      std::fprintf(stderr, "fa4cute-run: %s\n", error.what());
      return 2;
    }
  }
  if (sk < 0)
    sk = s;
  if (ptxPath.empty() || b < 1 || s < 1 || sk < 1 || h < 1) {
    std::fprintf(stderr, "usage: fa4cute-run [--driver LIB] [--b B] [--s S] "
                         "[--sk SK] [--h H] [--seed N] PTX\n");
    return 2;
  }
  try {
    std::string text = readFile(ptxPath);
    Kind kind;
    if (text.find(".target sm_90a") != std::string::npos)
      kind = Kind::Sm90;
    else if (text.find("tcgen05.mma.cta_group::2") != std::string::npos)
      kind = Kind::Sm100Pair;
    else
      kind = Kind::Sm100Causal;
    bool causal = kind == Kind::Sm100Causal;
    size_t entryAt = text.find(".entry ");
    if (entryAt == std::string::npos)
      throw std::runtime_error("no .entry in " + ptxPath);
    entryAt += 7;
    size_t entryEnd = text.find('(', entryAt);
    std::string entry = text.substr(entryAt, entryEnd - entryAt);
    while (!entry.empty() && std::isspace((unsigned char)entry.back()))
      entry.pop_back();

    Driver dr(driverPath);
    auto cuInit = dr.get<decltype(&::cuInit)>("cuInit");
    auto cuDeviceGet = dr.get<decltype(&::cuDeviceGet)>("cuDeviceGet");
    auto cuDeviceGetAttribute =
        dr.get<decltype(&::cuDeviceGetAttribute)>("cuDeviceGetAttribute");
    auto cuDevicePrimaryCtxRetain =
        dr.get<decltype(&::cuDevicePrimaryCtxRetain)>(
            "cuDevicePrimaryCtxRetain");
    auto cuCtxSetCurrent =
        dr.get<decltype(&::cuCtxSetCurrent)>("cuCtxSetCurrent");
    auto cuModuleLoadDataEx =
        dr.get<decltype(&::cuModuleLoadDataEx)>("cuModuleLoadDataEx");
    auto cuModuleGetFunction =
        dr.get<decltype(&::cuModuleGetFunction)>("cuModuleGetFunction");
    auto cuFuncSetAttribute =
        dr.get<decltype(&::cuFuncSetAttribute)>("cuFuncSetAttribute");
    auto cuMemAlloc = dr.get<decltype(&::cuMemAlloc)>("cuMemAlloc_v2");
    auto cuMemFree = dr.get<decltype(&::cuMemFree)>("cuMemFree_v2");
    auto cuMemcpyHtoD = dr.get<decltype(&::cuMemcpyHtoD)>("cuMemcpyHtoD_v2");
    auto cuMemcpyDtoH = dr.get<decltype(&::cuMemcpyDtoH)>("cuMemcpyDtoH_v2");
    auto cuTensorMapEncodeTiled =
        dr.get<decltype(&::cuTensorMapEncodeTiled)>("cuTensorMapEncodeTiled");
    auto cuLaunchKernelEx =
        dr.get<decltype(&::cuLaunchKernelEx)>("cuLaunchKernelEx");
    auto cuCtxSynchronize =
        reinterpret_cast<CUresult (*)()>(dlsym(dr.library, "cuCtxSynchronize"));

    check(cuInit(0), "cuInit");
    CUdevice device;
    check(cuDeviceGet(&device, 0), "cuDeviceGet");
    CUcontext context;
    check(cuDevicePrimaryCtxRetain(&context, device),
          "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    int smCount = 148;
    cuDeviceGetAttribute(&smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                         device);

    // Q, K, V: uniform(-1, 1) rounded to bf16, BSHD.
    size_t qElems = size_t(b) * s * h * d, kElems = size_t(b) * sk * h * d;
    std::vector<uint16_t> q(qElems), k(kElems), v(kElems);
    std::mt19937_64 rng(static_cast<uint64_t>(seed));
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (auto *t : {&q, &k, &v})
      for (uint16_t &x : *t)
        x = floatToBf16(uniform(rng));

    CUdeviceptr dq, dk, dv, dout;
    check(cuMemAlloc(&dq, qElems * 2), "cuMemAlloc");
    check(cuMemAlloc(&dk, kElems * 2), "cuMemAlloc");
    check(cuMemAlloc(&dv, kElems * 2), "cuMemAlloc");
    check(cuMemAlloc(&dout, qElems * 2), "cuMemAlloc");
    check(cuMemcpyHtoD(dq, q.data(), qElems * 2), "cuMemcpyHtoD");
    check(cuMemcpyHtoD(dk, k.data(), kElems * 2), "cuMemcpyHtoD");
    check(cuMemcpyHtoD(dv, v.data(), kElems * 2), "cuMemcpyHtoD");
    const uint16_t poison = 0xffff; // a bf16 NaN the kernel never writes
    std::vector<uint16_t> out(qElems, poison);
    check(cuMemcpyHtoD(dout, out.data(), qElems * 2), "cuMemcpyHtoD");

    // The tensor maps (README.txt "TMA descriptors"): rank 4 over the BSHD
    // tensor viewed as (d, s, h, b), 128-byte swizzle, boxes of {64, rows}.
    uint32_t qRows = 128, kRows = 128, vRows = 128, oRows = 128;
    if (kind == Kind::Sm100Pair)
      kRows = 64; // each CTA of the pair loads half of the 128-row K tile
    if (kind == Kind::Sm90)
      kRows = vRows = 192;
    auto encode = [&](CUtensorMap &map, CUdeviceptr base, int seqlen,
                      uint32_t rows, const char *what) {
      cuuint64_t dims[4] = {cuuint64_t(d), cuuint64_t(seqlen), cuuint64_t(h),
                            cuuint64_t(b)};
      cuuint64_t strides[3] = {cuuint64_t(h) * d * 2, cuuint64_t(d) * 2,
                               cuuint64_t(seqlen) * h * d * 2};
      cuuint32_t box[4] = {64, rows, 1, 1}, elementStrides[4] = {1, 1, 1, 1};
      check(cuTensorMapEncodeTiled(
                &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4,
                reinterpret_cast<void *>(base), dims, strides, box,
                elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            std::string("cuTensorMapEncodeTiled ") + what);
    };
    alignas(64) CUtensorMap mapQ, mapK, mapV, mapO;
    encode(mapQ, dq, s, qRows, "Q");
    encode(mapK, dk, sk, kRows, "K");
    encode(mapV, dv, sk, vRows, "V");
    encode(mapO, dout, s, oRows, "O");

    // Parameters 0-10 (README.txt "Parameters"): the coordinate tensors'
    // shapes, the maps, softmax_scale * log2(e), the MMA atoms' state.
    int32_t shapeQ[4] = {s, d, h, b}, shapeK[4] = {sk, d, h, b},
            shapeV[4] = {d, sk, h, b}, shapeO[4] = {s, d, h, b};
    if (kind == Kind::Sm90)
      shapeV[0] = sk, shapeV[1] = d; // not transposed on sm90
    float scaleLog2 = float((1.0 / std::sqrt(double(d))) * M_LOG2E);
    uint8_t mmaState[2][3] = {};
    std::vector<void *> params = {shapeQ,     shapeK,      shapeV,     shapeO,
                                  &mapQ,      &mapK,       &mapV,      &mapO,
                                  &scaleLog2, mmaState[0], mmaState[1]};

    // The tile scheduler (flash_attn/cute/tile_scheduler.py).
    int32_t numSplits = 1;
    unsigned gridX = 1, gridY = 1, gridZ = 1, block = 512, cluster = 1;
    unsigned smem = 232448;
    // StaticPersistentTileScheduler (non-causal, CTA pairs).
    FastDivmod pairBlockDivmod, headDivmod;
    int32_t totalBlocksCluster = 0;
    // SingleTileLPTScheduler (causal).
    int32_t totalBlocks = 0, numBlock = 0, l2Minor = 0, numHbQuotient = 0;
    FastDivmod numBlockDivmod, l2MinorDivmod, l2MajorDivmod, residualDivmod;
    // SingleTileScheduler (sm90).
    int32_t numHead = h, numBatch = b;
    FastDivmod splitsDivmod;
    if (kind == Kind::Sm100Pair) {
      int numBlockQ = ceilDiv(s, 256); // cta_tiler M = q_stage * 128
      int numBlockCluster = ceilDiv(numBlockQ, 2);
      pairBlockDivmod = fastDivmod(uint32_t(numBlockCluster));
      headDivmod = fastDivmod(uint32_t(h));
      totalBlocksCluster = numBlockCluster * h * b;
      params.insert(params.end(), {&pairBlockDivmod, &headDivmod,
                                   &totalBlocksCluster, &numSplits});
      cluster = 2;
      gridX = unsigned(std::min((smCount / 2) * 2, totalBlocksCluster * 2));
    } else if (kind == Kind::Sm100Causal) {
      numBlock = ceilDiv(s, 256);
      int64_t sizeOneHead = int64_t(sk) * (d + d) * 2;
      int64_t sizeL2 = 50ll * 1024 * 1024;
      int32_t swizzle = 1;
      if (sizeL2 >= sizeOneHead) {
        int64_t ratio = sizeL2 / sizeOneHead;
        int log2Floor = 63 - __builtin_clzll(uint64_t(ratio));
        swizzle = int32_t(1) << log2Floor;
      }
      numHbQuotient = (h * b) / swizzle;
      int32_t numHbRemainder = (h * b) % swizzle;
      totalBlocks = numBlock * h * b;
      l2Minor = swizzle;
      numBlockDivmod = fastDivmod(uint32_t(numBlock));
      headDivmod = fastDivmod(uint32_t(h));
      l2MinorDivmod = fastDivmod(uint32_t(swizzle));
      l2MajorDivmod = fastDivmod(uint32_t(swizzle * numBlock));
      residualDivmod = fastDivmod(uint32_t(std::max(numHbRemainder, 1)));
      params.insert(params.end(),
                    {&totalBlocks, &numSplits, &numBlock, &l2Minor,
                     &numBlockDivmod, &headDivmod, &l2MinorDivmod,
                     &l2MajorDivmod, &residualDivmod, &numHbQuotient,
                     &numSplits});
      gridX = unsigned(totalBlocks);
      gridY = unsigned(numSplits);
    } else {
      numBlock = ceilDiv(s, 128);
      splitsDivmod = fastDivmod(1);
      params.insert(params.end(),
                    {&numBlock, &numHead, &numBatch, &splitsDivmod});
      gridX = unsigned(numBlock);
      gridY = unsigned(h);
      gridZ = unsigned(b);
      block = 384;
      smem = 230400;
    }

    CUmodule module;
    check(cuModuleLoadDataEx(&module, text.c_str(), 0, nullptr, nullptr),
          "cuModuleLoadDataEx " + ptxPath);
    CUfunction function;
    check(cuModuleGetFunction(&function, module, entry.c_str()),
          "cuModuleGetFunction");
    check(cuFuncSetAttribute(function,
                             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             int(smem)),
          "cuFuncSetAttribute");
    CUlaunchConfig config = {};
    config.gridDimX = gridX;
    config.gridDimY = gridY;
    config.gridDimZ = gridZ;
    config.blockDimX = block;
    config.blockDimY = config.blockDimZ = 1;
    config.sharedMemBytes = smem;
    CUlaunchAttribute attribute = {};
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = cluster;
    attribute.value.clusterDim.y = attribute.value.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = cluster > 1 ? 1 : 0;
    // A failed launch is reported but O is still compared: what the kernel
    // wrote before the failure says how far it got.
    CUresult launched =
        cuLaunchKernelEx(&config, function, params.data(), nullptr);
    if (launched == CUDA_SUCCESS && cuCtxSynchronize)
      launched = cuCtxSynchronize();
    if (launched != CUDA_SUCCESS)
      std::fprintf(stderr, "fa4cute-run: launch failed: %d\n", int(launched));
    check(cuMemcpyDtoH(out.data(), dout, qElems * 2), "cuMemcpyDtoH");
    cuMemFree(dq);
    cuMemFree(dk);
    cuMemFree(dv);
    cuMemFree(dout);

    // fp64 reference, bottom-right aligned causal mask: key j is visible to
    // query i when j <= i + sk - s (flash_attn/cute/mask.py); a row with no
    // visible key is 0.
    double scale = 1.0 / std::sqrt(double(d));
    double maxErr = 0, refErr = 0;
    size_t unwritten = 0, nonFinite = 0;
    std::vector<double> scores(static_cast<size_t>(sk)),
        o(static_cast<size_t>(d));
    for (int bi = 0; bi < b; ++bi)
      for (int hi = 0; hi < h; ++hi)
        for (int i = 0; i < s; ++i) {
          const uint16_t *qRow = &q[((size_t(bi) * s + i) * h + hi) * d];
          int visible = causal ? std::min(sk, std::max(0, i + sk - s + 1)) : sk;
          double rowMax = -INFINITY;
          for (int j = 0; j < visible; ++j) {
            const uint16_t *kRow = &k[((size_t(bi) * sk + j) * h + hi) * d];
            double dot = 0;
            for (int c = 0; c < d; ++c)
              dot +=
                  double(bf16ToFloat(qRow[c])) * double(bf16ToFloat(kRow[c]));
            scores[size_t(j)] = dot * scale;
            rowMax = std::max(rowMax, scores[size_t(j)]);
          }
          double sum = 0;
          for (int j = 0; j < visible; ++j)
            sum += scores[size_t(j)] = std::exp(scores[size_t(j)] - rowMax);
          std::fill(o.begin(), o.end(), 0.0);
          for (int j = 0; j < visible; ++j) {
            const uint16_t *vRow = &v[((size_t(bi) * sk + j) * h + hi) * d];
            for (int c = 0; c < d; ++c)
              o[size_t(c)] += scores[size_t(j)] * double(bf16ToFloat(vRow[c]));
          }
          const uint16_t *outRow = &out[((size_t(bi) * s + i) * h + hi) * d];
          for (int c = 0; c < d; ++c) {
            double ref = visible ? o[size_t(c)] / sum : 0.0;
            refErr = std::max(
                refErr,
                std::fabs(double(bf16ToFloat(floatToBf16(float(ref)))) - ref));
            if (outRow[c] == poison) {
              ++unwritten;
              continue;
            }
            double got = bf16ToFloat(outRow[c]);
            if (!std::isfinite(got)) {
              ++nonFinite;
              continue;
            }
            maxErr = std::max(maxErr, std::fabs(got - ref));
          }
        }
    bool pass = launched == CUDA_SUCCESS && unwritten == 0 && nonFinite == 0 &&
                maxErr <= 2 * refErr + 1e-5;
    std::string extra;
    if (nonFinite)
      extra += " nonfinite=" + std::to_string(nonFinite);
    if (launched != CUDA_SUCCESS)
      extra += " launch_error=" + std::to_string(int(launched));
    std::printf("SECOND-OPINION %s %dx%dx%dx%dx%d %s max_err=%.3g "
                "ref_err=%.3g unwritten=%zu%s\n",
                kindName(kind), b, s, sk, h, d, pass ? "pass" : "FAIL", maxErr,
                refErr, unwritten, extra.c_str());
    return pass ? 0 : 1;
  } catch (const std::exception &error) {
    std::fprintf(stderr, "fa4cute-run: %s\n", error.what());
    std::printf("SECOND-OPINION %s %dx%dx%dx%dx%d FAIL error\n",
                ptxPath.c_str(), b, s, sk, h, d);
    return 1;
  }
}

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

constexpr int headDim = 128;

struct Options {
  const char *driverPath = "libcuda.so.1";
  std::string ptxPath;
  int b = 1, s = 256, sk = -1, h = 2, seed = 1;
};

const char *usage = "usage: fa4cute-run [--driver LIB] [--b B] [--s S] "
                    "[--sk SK] [--h H] [--seed N] PTX\n";

/// Reads the command line into `options`: 0, or the exit code of a bad one
/// (its message printed).
int parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc)
        throw std::runtime_error(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--driver")
        options.driverPath = next();
      else if (arg == "--b")
        options.b = std::stoi(next());
      else if (arg == "--s")
        options.s = std::stoi(next());
      else if (arg == "--sk")
        options.sk = std::stoi(next());
      else if (arg == "--h")
        options.h = std::stoi(next());
      else if (arg == "--seed")
        options.seed = std::stoi(next());
      else
        options.ptxPath = arg;
    } catch (const std::exception &error) {
      std::fprintf(stderr, "fa4cute-run: %s\n", error.what());
      return 2;
    }
  }
  if (options.sk < 0)
    options.sk = options.s;
  if (options.ptxPath.empty() || options.b < 1 || options.s < 1 ||
      options.sk < 1 || options.h < 1) {
    std::fprintf(stderr, "%s", usage);
    return 2;
  }
  return 0;
}

/// The PTX, which of the three kernels it is, and its entry point.
struct Kernel {
  std::string text;
  Kind kind;
  std::string entry;
};

Kernel readKernel(const std::string &ptxPath) {
  Kernel kernel;
  kernel.text = readFile(ptxPath);
  const std::string &text = kernel.text;
  if (text.find(".target sm_90a") != std::string::npos)
    kernel.kind = Kind::Sm90;
  else if (text.find("tcgen05.mma.cta_group::2") != std::string::npos)
    kernel.kind = Kind::Sm100Pair;
  else
    kernel.kind = Kind::Sm100Causal;
  size_t entryAt = text.find(".entry ");
  if (entryAt == std::string::npos)
    throw std::runtime_error("no .entry in " + ptxPath);
  entryAt += 7;
  size_t entryEnd = text.find('(', entryAt);
  kernel.entry = text.substr(entryAt, entryEnd - entryAt);
  while (!kernel.entry.empty() &&
         std::isspace((unsigned char)kernel.entry.back()))
    kernel.entry.pop_back();
  return kernel;
}

/// The driver entry points fa4cute-run calls, looked up in `path`.
struct DriverApi {
  Driver dr;
  decltype(&::cuInit) cuInit = dr.get<decltype(&::cuInit)>("cuInit");
  decltype(&::cuDeviceGet) cuDeviceGet =
      dr.get<decltype(&::cuDeviceGet)>("cuDeviceGet");
  decltype(&::cuDeviceGetAttribute) cuDeviceGetAttribute =
      dr.get<decltype(&::cuDeviceGetAttribute)>("cuDeviceGetAttribute");
  decltype(&::cuDevicePrimaryCtxRetain) cuDevicePrimaryCtxRetain =
      dr.get<decltype(&::cuDevicePrimaryCtxRetain)>("cuDevicePrimaryCtxRetain");
  decltype(&::cuCtxSetCurrent) cuCtxSetCurrent =
      dr.get<decltype(&::cuCtxSetCurrent)>("cuCtxSetCurrent");
  decltype(&::cuModuleLoadDataEx) cuModuleLoadDataEx =
      dr.get<decltype(&::cuModuleLoadDataEx)>("cuModuleLoadDataEx");
  decltype(&::cuModuleGetFunction) cuModuleGetFunction =
      dr.get<decltype(&::cuModuleGetFunction)>("cuModuleGetFunction");
  decltype(&::cuFuncSetAttribute) cuFuncSetAttribute =
      dr.get<decltype(&::cuFuncSetAttribute)>("cuFuncSetAttribute");
  decltype(&::cuMemAlloc) cuMemAlloc =
      dr.get<decltype(&::cuMemAlloc)>("cuMemAlloc_v2");
  decltype(&::cuMemFree) cuMemFree =
      dr.get<decltype(&::cuMemFree)>("cuMemFree_v2");
  decltype(&::cuMemcpyHtoD) cuMemcpyHtoD =
      dr.get<decltype(&::cuMemcpyHtoD)>("cuMemcpyHtoD_v2");
  decltype(&::cuMemcpyDtoH) cuMemcpyDtoH =
      dr.get<decltype(&::cuMemcpyDtoH)>("cuMemcpyDtoH_v2");
  decltype(&::cuTensorMapEncodeTiled) cuTensorMapEncodeTiled =
      dr.get<decltype(&::cuTensorMapEncodeTiled)>("cuTensorMapEncodeTiled");
  decltype(&::cuLaunchKernelEx) cuLaunchKernelEx =
      dr.get<decltype(&::cuLaunchKernelEx)>("cuLaunchKernelEx");
  CUresult (*cuCtxSynchronize)() =
      reinterpret_cast<CUresult (*)()>(dlsym(dr.library, "cuCtxSynchronize"));

  explicit DriverApi(const char *path) : dr(path) {}

  /// Makes device 0's primary context current: its number of SMs.
  int initDevice() {
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
    return smCount;
  }
};

const uint16_t poison = 0xffff; // a bf16 NaN the kernel never writes

/// Q, K, V: uniform(-1, 1) rounded to bf16, BSHD; O as read back.
struct HostTensors {
  size_t qElems, kElems;
  std::vector<uint16_t> q, k, v, out;
};

HostTensors makeInputs(const Options &options) {
  HostTensors host;
  host.qElems = size_t(options.b) * options.s * options.h * headDim;
  host.kElems = size_t(options.b) * options.sk * options.h * headDim;
  host.q.resize(host.qElems);
  host.k.resize(host.kElems);
  host.v.resize(host.kElems);
  std::mt19937_64 rng(static_cast<uint64_t>(options.seed));
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (auto *t : {&host.q, &host.k, &host.v})
    for (uint16_t &x : *t)
      x = floatToBf16(uniform(rng));
  return host;
}

struct DeviceTensors {
  CUdeviceptr q, k, v, out;
};

/// Q, K and V on the device, and O poisoned (as `host.out`).
DeviceTensors upload(DriverApi &api, HostTensors &host) {
  DeviceTensors dev;
  check(api.cuMemAlloc(&dev.q, host.qElems * 2), "cuMemAlloc");
  check(api.cuMemAlloc(&dev.k, host.kElems * 2), "cuMemAlloc");
  check(api.cuMemAlloc(&dev.v, host.kElems * 2), "cuMemAlloc");
  check(api.cuMemAlloc(&dev.out, host.qElems * 2), "cuMemAlloc");
  check(api.cuMemcpyHtoD(dev.q, host.q.data(), host.qElems * 2),
        "cuMemcpyHtoD");
  check(api.cuMemcpyHtoD(dev.k, host.k.data(), host.kElems * 2),
        "cuMemcpyHtoD");
  check(api.cuMemcpyHtoD(dev.v, host.v.data(), host.kElems * 2),
        "cuMemcpyHtoD");
  host.out.assign(host.qElems, poison);
  check(api.cuMemcpyHtoD(dev.out, host.out.data(), host.qElems * 2),
        "cuMemcpyHtoD");
  return dev;
}

/// O back into `host.out`; the device tensors freed.
void downloadAndFree(DriverApi &api, const DeviceTensors &dev,
                     HostTensors &host) {
  check(api.cuMemcpyDtoH(host.out.data(), dev.out, host.qElems * 2),
        "cuMemcpyDtoH");
  api.cuMemFree(dev.q);
  api.cuMemFree(dev.k);
  api.cuMemFree(dev.v);
  api.cuMemFree(dev.out);
}

struct TensorMaps {
  alignas(64) CUtensorMap q, k, v, o;
};

/// The tensor maps (README.txt "TMA descriptors"): rank 4 over the BSHD
/// tensor viewed as (d, s, h, b), 128-byte swizzle, boxes of {64, rows}.
void encodeMaps(DriverApi &api, Kind kind, const Options &options,
                const DeviceTensors &dev, TensorMaps &maps) {
  const int d = headDim, h = options.h, b = options.b;
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
    check(api.cuTensorMapEncodeTiled(
              &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4,
              reinterpret_cast<void *>(base), dims, strides, box,
              elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
              CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          std::string("cuTensorMapEncodeTiled ") + what);
  };
  encode(maps.q, dev.q, options.s, qRows, "Q");
  encode(maps.k, dev.k, options.sk, kRows, "K");
  encode(maps.v, dev.v, options.sk, vRows, "V");
  encode(maps.o, dev.out, options.s, oRows, "O");
}

/// The kernel's parameters and its launch's shape. `params` points into
/// this object (and at the maps), so it is neither copied nor moved.
class KernelArguments {
public:
  std::vector<void *> params;
  unsigned gridX = 1, gridY = 1, gridZ = 1, block = 512, cluster = 1;
  unsigned smem = 232448;

  KernelArguments(Kind kind, const Options &options, int smCount,
                  TensorMaps &maps);
  KernelArguments(const KernelArguments &) = delete;
  KernelArguments &operator=(const KernelArguments &) = delete;

private:
  void pairScheduler(const Options &options, int smCount);
  void causalScheduler(const Options &options);
  void sm90Scheduler(const Options &options);

  int32_t shapeQ[4], shapeK[4], shapeV[4], shapeO[4];
  float scaleLog2;
  uint8_t mmaState[2][3] = {};
  // The tile scheduler (flash_attn/cute/tile_scheduler.py).
  int32_t numSplits = 1;
  // StaticPersistentTileScheduler (non-causal, CTA pairs).
  FastDivmod pairBlockDivmod, headDivmod;
  int32_t totalBlocksCluster = 0;
  // SingleTileLPTScheduler (causal).
  int32_t totalBlocks = 0, numBlock = 0, l2Minor = 0, numHbQuotient = 0;
  FastDivmod numBlockDivmod, l2MinorDivmod, l2MajorDivmod, residualDivmod;
  // SingleTileScheduler (sm90).
  int32_t numHead, numBatch;
  FastDivmod splitsDivmod;
};

/// Parameters 0-10 (README.txt "Parameters"): the coordinate tensors'
/// shapes, the maps, softmax_scale * log2(e), the MMA atoms' state; then
/// the tile scheduler's.
KernelArguments::KernelArguments(Kind kind, const Options &options, int smCount,
                                 TensorMaps &maps)
    : shapeQ{options.s, headDim, options.h, options.b}, shapeK{options.sk,
                                                               headDim,
                                                               options.h,
                                                               options.b},
      shapeV{headDim, options.sk, options.h, options.b}, shapeO{options.s,
                                                                headDim,
                                                                options.h,
                                                                options.b},
      numHead(options.h), numBatch(options.b) {
  if (kind == Kind::Sm90)
    shapeV[0] = options.sk, shapeV[1] = headDim; // not transposed on sm90
  scaleLog2 = float((1.0 / std::sqrt(double(headDim))) * M_LOG2E);
  params = {shapeQ,  shapeK,  shapeV,     shapeO,      &maps.q,    &maps.k,
            &maps.v, &maps.o, &scaleLog2, mmaState[0], mmaState[1]};
  if (kind == Kind::Sm100Pair)
    pairScheduler(options, smCount);
  else if (kind == Kind::Sm100Causal)
    causalScheduler(options);
  else
    sm90Scheduler(options);
}

void KernelArguments::pairScheduler(const Options &options, int smCount) {
  int h = options.h, b = options.b;
  int numBlockQ = ceilDiv(options.s, 256); // cta_tiler M = q_stage * 128
  int numBlockCluster = ceilDiv(numBlockQ, 2);
  pairBlockDivmod = fastDivmod(uint32_t(numBlockCluster));
  headDivmod = fastDivmod(uint32_t(h));
  totalBlocksCluster = numBlockCluster * h * b;
  params.insert(params.end(), {&pairBlockDivmod, &headDivmod,
                               &totalBlocksCluster, &numSplits});
  cluster = 2;
  gridX = unsigned(std::min((smCount / 2) * 2, totalBlocksCluster * 2));
}

void KernelArguments::causalScheduler(const Options &options) {
  int h = options.h, b = options.b;
  numBlock = ceilDiv(options.s, 256);
  int64_t sizeOneHead = int64_t(options.sk) * (headDim + headDim) * 2;
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
                {&totalBlocks, &numSplits, &numBlock, &l2Minor, &numBlockDivmod,
                 &headDivmod, &l2MinorDivmod, &l2MajorDivmod, &residualDivmod,
                 &numHbQuotient, &numSplits});
  gridX = unsigned(totalBlocks);
  gridY = unsigned(numSplits);
}

void KernelArguments::sm90Scheduler(const Options &options) {
  numBlock = ceilDiv(options.s, 128);
  splitsDivmod = fastDivmod(1);
  params.insert(params.end(), {&numBlock, &numHead, &numBatch, &splitsDivmod});
  gridX = unsigned(numBlock);
  gridY = unsigned(options.h);
  gridZ = unsigned(options.b);
  block = 384;
  smem = 230400;
}

/// Loads the kernel and launches it once, then waits. A failed launch is
/// reported (and returned) but not thrown: O is still compared, since what
/// the kernel wrote before the failure says how far it got.
CUresult launch(DriverApi &api, const Kernel &kernel,
                const std::string &ptxPath, KernelArguments &args) {
  CUmodule module;
  check(
      api.cuModuleLoadDataEx(&module, kernel.text.c_str(), 0, nullptr, nullptr),
      "cuModuleLoadDataEx " + ptxPath);
  CUfunction function;
  check(api.cuModuleGetFunction(&function, module, kernel.entry.c_str()),
        "cuModuleGetFunction");
  check(api.cuFuncSetAttribute(function,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               int(args.smem)),
        "cuFuncSetAttribute");
  CUlaunchConfig config = {};
  config.gridDimX = args.gridX;
  config.gridDimY = args.gridY;
  config.gridDimZ = args.gridZ;
  config.blockDimX = args.block;
  config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = args.smem;
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = args.cluster;
  attribute.value.clusterDim.y = attribute.value.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = args.cluster > 1 ? 1 : 0;
  CUresult launched =
      api.cuLaunchKernelEx(&config, function, args.params.data(), nullptr);
  if (launched == CUDA_SUCCESS && api.cuCtxSynchronize)
    launched = api.cuCtxSynchronize();
  if (launched != CUDA_SUCCESS)
    std::fprintf(stderr, "fa4cute-run: launch failed: %d\n", int(launched));
  return launched;
}

/// O against the fp64 reference.
struct Comparison {
  double maxErr = 0, refErr = 0;
  size_t unwritten = 0, nonFinite = 0;
};

/// One row of the fp64 reference, bottom-right aligned causal mask: key j
/// is visible to query i when j <= i + sk - s (flash_attn/cute/mask.py).
/// Leaves the unnormalised row in `o` and returns its softmax sum; a row
/// with no visible key (`visible` 0) is 0.
double referenceRow(const Options &options, bool causal,
                    const HostTensors &host, int bi, int hi, int i,
                    int &visible, std::vector<double> &scores,
                    std::vector<double> &o) {
  const int s = options.s, sk = options.sk, h = options.h, d = headDim;
  double scale = 1.0 / std::sqrt(double(d));
  const uint16_t *qRow = &host.q[((size_t(bi) * s + i) * h + hi) * d];
  visible = causal ? std::min(sk, std::max(0, i + sk - s + 1)) : sk;
  double rowMax = -INFINITY;
  for (int j = 0; j < visible; ++j) {
    const uint16_t *kRow = &host.k[((size_t(bi) * sk + j) * h + hi) * d];
    double dot = 0;
    for (int c = 0; c < d; ++c)
      dot += double(bf16ToFloat(qRow[c])) * double(bf16ToFloat(kRow[c]));
    scores[size_t(j)] = dot * scale;
    rowMax = std::max(rowMax, scores[size_t(j)]);
  }
  double sum = 0;
  for (int j = 0; j < visible; ++j)
    sum += scores[size_t(j)] = std::exp(scores[size_t(j)] - rowMax);
  std::fill(o.begin(), o.end(), 0.0);
  for (int j = 0; j < visible; ++j) {
    const uint16_t *vRow = &host.v[((size_t(bi) * sk + j) * h + hi) * d];
    for (int c = 0; c < d; ++c)
      o[size_t(c)] += scores[size_t(j)] * double(bf16ToFloat(vRow[c]));
  }
  return sum;
}

Comparison compareWithReference(const Options &options, bool causal,
                                const HostTensors &host) {
  const int s = options.s, h = options.h, d = headDim;
  Comparison result;
  std::vector<double> scores(static_cast<size_t>(options.sk)),
      o(static_cast<size_t>(d));
  for (int bi = 0; bi < options.b; ++bi)
    for (int hi = 0; hi < h; ++hi)
      for (int i = 0; i < s; ++i) {
        int visible;
        double sum =
            referenceRow(options, causal, host, bi, hi, i, visible, scores, o);
        const uint16_t *outRow = &host.out[((size_t(bi) * s + i) * h + hi) * d];
        for (int c = 0; c < d; ++c) {
          double ref = visible ? o[size_t(c)] / sum : 0.0;
          result.refErr = std::max(
              result.refErr,
              std::fabs(double(bf16ToFloat(floatToBf16(float(ref)))) - ref));
          if (outRow[c] == poison) {
            ++result.unwritten;
            continue;
          }
          double got = bf16ToFloat(outRow[c]);
          if (!std::isfinite(got)) {
            ++result.nonFinite;
            continue;
          }
          result.maxErr = std::max(result.maxErr, std::fabs(got - ref));
        }
      }
  return result;
}

/// The SECOND-OPINION line; the exit code.
int report(Kind kind, const Options &options, const Comparison &result,
           CUresult launched) {
  bool pass = launched == CUDA_SUCCESS && result.unwritten == 0 &&
              result.nonFinite == 0 &&
              result.maxErr <= 2 * result.refErr + 1e-5;
  std::string extra;
  if (result.nonFinite)
    extra += " nonfinite=" + std::to_string(result.nonFinite);
  if (launched != CUDA_SUCCESS)
    extra += " launch_error=" + std::to_string(int(launched));
  std::printf("SECOND-OPINION %s %dx%dx%dx%dx%d %s max_err=%.3g "
              "ref_err=%.3g unwritten=%zu%s\n",
              kindName(kind), options.b, options.s, options.sk, options.h,
              headDim, pass ? "pass" : "FAIL", result.maxErr, result.refErr,
              result.unwritten, extra.c_str());
  return pass ? 0 : 1;
}

int run(const Options &options) {
  Kernel kernel = readKernel(options.ptxPath);
  DriverApi api(options.driverPath);
  int smCount = api.initDevice();
  HostTensors host = makeInputs(options);
  DeviceTensors dev = upload(api, host);
  TensorMaps maps;
  encodeMaps(api, kernel.kind, options, dev, maps);
  KernelArguments args(kernel.kind, options, smCount, maps);
  CUresult launched = launch(api, kernel, options.ptxPath, args);
  downloadAndFree(api, dev, host);
  bool causal = kernel.kind == Kind::Sm100Causal;
  return report(kernel.kind, options,
                compareWithReference(options, causal, host), launched);
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (int code = parseOptions(argc, argv, options))
    return code;
  try {
    return run(options);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "fa4cute-run: %s\n", error.what());
    std::printf("SECOND-OPINION %s %dx%dx%dx%dx%d FAIL error\n",
                options.ptxPath.c_str(), options.b, options.s, options.sk,
                options.h, headDim);
    return 1;
  }
}

//===- fa4-run.cpp - Run and check an fa4 kernel on the GPU ---------------===//
//
//   fa4-run manifest.json --b 2 --sq 113 --skv 203 [--seed N] [--check]
//           [--full-check] [--bench] [--iters N] [--json] [--bad-tensor=CASE]
//
// Builds seeded random inputs, poisons the outputs with NaN, launches through
// libfa4rt, and checks against the CPU reference (Reference.h). An FP8 kernel
// (e4m3 q, k, v; ABI version 15) gets its inputs quantised to e4m3 and random
// descales in [0.5, 2]. A backward kernel (ABI version 16) gets random q, k, v
// and dO, the CPU forward's O and LSE, and its dQ, dK, dV are checked against
// the CPU's gradients (Backward.h). Prints one "RESULT ..." line for scripts.
// Exit: 0 pass, 1 numeric failure (or a bad tensor that was accepted), 2
// usage, validation or driver error.
//
//===----------------------------------------------------------------------===//

#include "fa4-c/Runtime.h"

#include "Backward.h"
#include "LowPrecision.h"
#include "Reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace fa4::run;

namespace {

constexpr int exitPass = 0, exitNumericFailure = 1, exitError = 2;

/// Thrown for usage, validation and driver errors: exit code 2.
struct RunError {
  std::string message;
};

void check(fa4_status status, const char *what) {
  if (status != FA4_SUCCESS)
    throw RunError{std::string(what) + ": " + fa4_status_name(status) + ": " +
                   fa4_last_error()};
}

const char *usage =
    "usage: fa4-run MANIFEST [--b N] [--sq N] [--skv N] [--seed N] [--check]\n"
    "               [--full-check] [--check-work N] [--bench] [--graph]\n"
    "               [--pdl] [--record] [--iters N]\n"
    "               [--warmup-ms N]\n"
    "               [--json] [--persistent-ctas N] [--repeat N]\n"
    "               [--bad-tensor=misaligned|stride|last-stride|overlap|alias|"
    "dtype|shape|lse]\n"
    "  --b/--sq/--skv   runtime sizes (default: the manifest's static sizes)\n"
    "  --check          compare with the CPU reference (default without "
    "--bench)\n"
    "  --full-check     check every row, however long the reference takes\n"
    "  --check-work     the reference's budget in multiply-adds (4e9): past\n"
    "                   it, a sample of rows (every tile's edge rows and a\n"
    "                   seeded random share) is checked\n"
    "  --bench          time with CUDA events: median of --iters runs (30)\n"
    "  --warmup-ms      with --bench: launch for N ms before timing, so the\n"
    "                   timed runs see the board's sustained clock (under its\n"
    "                   power limit) rather than the boost of a cool GPU\n"
    "  --graph          with --bench: time --iters launches captured in one\n"
    "                   CUDA graph (no host launch cost between kernels),\n"
    "                   median of 5 replays\n"
    "  --pdl            programmatic dependent launches (where the manifest\n"
    "                   allows them)\n"
    "  --record         launch through one launch record (made from tensors\n"
    "                   of its own, so each launch sets new pointers) with\n"
    "                   the split-K workspace from the caller, as a\n"
    "                   framework with its own allocator launches\n"
    "  --persistent-ctas at most N CTAs for a persistent launch (so each\n"
    "                   loops over more work tiles)\n"
    "  --repeat N       with --check: launch N more times on the same inputs,\n"
    "                   outputs poisoned again before each, and fail unless\n"
    "                   every O and LSE is bitwise the first one's\n"
    "  --bad-tensor     pass one wrongly laid out tensor; expect a refusal\n"
    "  --inputs         random (default); uniform: q = 0 and v small\n"
    "                   integers, an exactness probe whose O is the same\n"
    "                   bits on any correct machine (an e4m3 kernel's\n"
    "                   descales 1); growing: scores that rise with the key\n"
    "                   index (0.2 per key in log2 units), so that every key\n"
    "                   tile raises a row's maximum by more than 8 and O is\n"
    "                   rescaled (not for e4m3 kernels: past e4m3's range)\n"
    "  --dump PATH      write O and LSE as raw f32 to PATH.o, PATH.lse\n"
    "  --cases FILE     run every line of FILE (the other options, one case\n"
    "                   a line, '#' starts a comment) in this process, with\n"
    "                   one CUDA context: CASE <line>, its RESULT, then\n"
    "                   EXIT <its exit code>; exits with the worst code\n"
    "  a backward kernel (ABI version 16) runs with --check alone (its\n"
    "  sizes, --seed, --json, --cases): dQ, dK, dV against the CPU's\n"
    "  gradients of every row\n";

struct Options {
  std::string manifest;
  int64_t batch = -1, seqQ = -1, seqKV = -1;
  uint64_t seed = 0;
  bool check = false, fullCheck = false, bench = false, json = false;
  double checkWork = 4e9;
  std::string casesFile;
  bool graph = false, programmaticLaunch = false, record = false;
  int iters = 30;
  int64_t warmupMs = 0;
  int64_t persistentCtas = 0;
  int64_t repeats = 0;
  std::string badTensor;
  std::string inputs = "random";
  std::string dump;
};

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    bool hasValue = false;
    if (size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != arg.npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    }
    auto next = [&]() -> std::string {
      if (hasValue)
        return value;
      if (i + 1 >= argc)
        throw RunError{"option " + arg + " needs a value"};
      return argv[++i];
    };
    auto integer = [&](int64_t min) {
      std::string text = next();
      char *end = nullptr;
      long long parsed = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end || parsed < min)
        throw RunError{"option " + arg + ": expected an integer >= " +
                       std::to_string(min) + ", got '" + text + "'"};
      return static_cast<int64_t>(parsed);
    };
    if (arg == "--b")
      options.batch = integer(1);
    else if (arg == "--sq")
      options.seqQ = integer(1);
    else if (arg == "--skv")
      options.seqKV = integer(1);
    else if (arg == "--seed")
      options.seed = static_cast<uint64_t>(integer(0));
    else if (arg == "--iters")
      options.iters = static_cast<int>(integer(1));
    else if (arg == "--warmup-ms")
      options.warmupMs = integer(0);
    else if (arg == "--bad-tensor")
      options.badTensor = next();
    else if (arg == "--inputs") {
      options.inputs = next();
      if (options.inputs != "random" && options.inputs != "uniform" &&
          options.inputs != "growing")
        throw RunError{
            "option --inputs: expected random, uniform or growing, got '" +
            options.inputs + "'"};
    } else if (arg == "--dump") {
      options.dump = next();
      options.check = true;
    } else if (arg == "--check")
      options.check = true;
    else if (arg == "--full-check")
      options.check = options.fullCheck = true;
    else if (arg == "--check-work") {
      std::string text = next();
      char *end = nullptr;
      options.checkWork = std::strtod(text.c_str(), &end);
      if (text.empty() || *end || !(options.checkWork >= 1))
        throw RunError{"option --check-work: expected a number of "
                       "multiply-adds >= 1, got '" +
                       text + "'"};
      options.check = true;
    } else if (arg == "--bench")
      options.bench = true;
    else if (arg == "--graph")
      options.graph = true;
    else if (arg == "--json")
      options.json = true;
    else if (arg == "--pdl")
      options.programmaticLaunch = true;
    else if (arg == "--record")
      options.record = true;
    else if (arg == "--repeat") {
      options.repeats = integer(1);
      options.check = true;
    } else if (arg == "--persistent-ctas")
      options.persistentCtas = integer(1);
    else if (arg == "--cases")
      options.casesFile = next();
    else if (arg == "-h" || arg == "--help") {
      std::fputs(usage, stdout);
      std::exit(exitPass);
    } else if (arg.rfind("-", 0) != 0 && options.manifest.empty())
      options.manifest = arg;
    else
      throw RunError{"unknown argument '" + arg + "'"};
  }
  if (options.manifest.empty())
    throw RunError{"no manifest given"};
  if (!options.bench)
    options.check = true;
  return options;
}

/// A device buffer holding one strided tensor; freed on scope exit.
struct DeviceTensor {
  fa4_tensor desc = {};
  void *allocation = nullptr;
  size_t bytes = 0;

  DeviceTensor() = default;
  DeviceTensor(const DeviceTensor &) = delete;
  DeviceTensor &operator=(const DeviceTensor &) = delete;
  ~DeviceTensor() { fa4_device_free(allocation); }

  size_t elemBytes() const { return fa4_dtype_size(desc.dtype); }
  /// Elements of a row: the last dim, 1 for a rank-0 tensor (one value).
  int64_t rowLength() const {
    return desc.rank > 0 ? desc.shape[desc.rank - 1] : 1;
  }
  int64_t rows() const { // elements / last dim
    int64_t count = 1;
    for (int d = 0; d + 1 < desc.rank; ++d)
      count *= desc.shape[d];
    return count;
  }
  /// Byte offset of dense row `row` (row-major over all dims but the last).
  size_t rowOffset(int64_t row) const {
    size_t offset = 0;
    for (int d = desc.rank - 2; d >= 0; --d) {
      offset += (row % desc.shape[d]) * desc.strides[d];
      row /= desc.shape[d];
    }
    return offset * elemBytes();
  }
};

/// One tensor's alignment rules from the manifest (per tensor since ABI
/// version 2; a version 1 manifest gives every tensor the same).
struct TensorRule {
  int32_t baseBytes = 1, strideBytes = 1;
};

/// The descale tensors' names, in fa4_kernel_info's order.
const char *const descaleNames[3] = {"q_descale", "k_descale", "v_descale"};

struct LayoutRules {
  TensorRule q, k, v, o, lse;
  TensorRule descales[3];
};

LayoutRules layoutRules(const fa4_module *module, const fa4_kernel_info &info) {
  LayoutRules rules;
  auto get = [&](const char *name, TensorRule &rule) {
    check(fa4_module_get_tensor_alignment(module, name, &rule.baseBytes,
                                          &rule.strideBytes),
          "fa4_module_get_tensor_alignment");
  };
  get("q", rules.q);
  get("k", rules.k);
  get("v", rules.v);
  get("o", rules.o);
  if (info.has_lse)
    get("lse", rules.lse);
  const int32_t descales[3] = {info.q_descale, info.k_descale, info.v_descale};
  for (int i = 0; i < 3; ++i)
    if (descales[i])
      get(descaleNames[i], rules.descales[i]);
  return rules;
}

/// Row-major with every non-last stride padded to `strideAlignBytes`, the
/// way a caller meets the kernel's stride rule for this tensor: the natural
/// contiguous layout whenever the rule allows it (e.g. an f32 LSE row of an
/// odd sq under a 4-byte rule), padded only where it must be. `slackBytes`
/// more are allocated for deliberately bad layouts.
std::unique_ptr<DeviceTensor> allocateTensor(fa4_dtype dtype,
                                             std::vector<int64_t> shape,
                                             int64_t strideAlignBytes,
                                             size_t slackBytes = 0) {
  auto tensor = std::make_unique<DeviceTensor>();
  fa4_tensor &desc = tensor->desc;
  desc.dtype = dtype;
  desc.rank = static_cast<int32_t>(shape.size());
  int64_t elem = static_cast<int64_t>(fa4_dtype_size(dtype));
  int64_t stride = 1;
  for (int d = desc.rank - 1; d >= 0; --d) {
    desc.shape[d] = shape[d];
    desc.strides[d] = stride;
    int64_t spanBytes = stride * shape[d] * elem;
    stride = (spanBytes + strideAlignBytes - 1) / strideAlignBytes *
             strideAlignBytes / elem;
  }
  tensor->bytes = static_cast<size_t>(stride * elem) + slackBytes;
  check(fa4_device_alloc(tensor->bytes, &tensor->allocation),
        "fa4_device_alloc");
  desc.data = tensor->allocation;
  return tensor;
}

/// Copies dense host data (elements of the tensor's dtype) into its layout.
void upload(const DeviceTensor &tensor, const void *dense) {
  size_t rowBytes = tensor.rowLength() * tensor.elemBytes();
  std::vector<char> staged(tensor.bytes);
  for (int64_t row = 0; row < tensor.rows(); ++row)
    std::memcpy(&staged[tensor.rowOffset(row)],
                static_cast<const char *>(dense) + row * rowBytes, rowBytes);
  check(fa4_copy_to_device(tensor.allocation, staged.data(), tensor.bytes),
        "fa4_copy_to_device");
}

/// `values` as raw little-endian f32 (--dump), for bitwise comparisons
/// between machines.
void writeFloats(const std::string &path, const std::vector<float> &values) {
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file || std::fwrite(values.data(), sizeof(float), values.size(), file) !=
                   values.size())
    throw RunError{"cannot write " + path};
  std::fclose(file);
}

/// The tensor as dense floats.
std::vector<float> download(const DeviceTensor &tensor) {
  std::vector<char> staged(tensor.bytes);
  check(fa4_copy_to_host(staged.data(), tensor.allocation, tensor.bytes),
        "fa4_copy_to_host");
  int64_t rowLength = tensor.rowLength();
  std::vector<float> dense(tensor.rows() * rowLength);
  for (int64_t row = 0; row < tensor.rows(); ++row) {
    const char *source = &staged[tensor.rowOffset(row)];
    for (int64_t i = 0; i < rowLength; ++i) {
      float &out = dense[row * rowLength + i];
      if (tensor.desc.dtype == FA4_DTYPE_F32) {
        std::memcpy(&out, source + 4 * i, 4);
      } else {
        uint16_t bits;
        std::memcpy(&bits, source + 2 * i, 2);
        out = fromLowPrecision(tensor.desc.dtype, bits);
      }
    }
  }
  return dense;
}

void poison(const DeviceTensor &tensor) {
  // Quiet NaN in each dtype: whatever the kernel leaves unwritten shows.
  if (tensor.desc.dtype == FA4_DTYPE_F32)
    check(fa4_device_fill32(tensor.allocation, 0x7FC00000u, tensor.bytes / 4),
          "fa4_device_fill32");
  else
    check(
        fa4_device_fill16(tensor.allocation,
                          tensor.desc.dtype == FA4_DTYPE_F16 ? 0x7E00 : 0x7FC0,
                          tensor.bytes / 2),
        "fa4_device_fill16");
}

/// Seeded uniform values in (0, 1), one generator per element `index` of
/// `stream`: counter-based, so the same seed gives the same inputs on any
/// machine and thread count.
class Uniform {
public:
  Uniform(uint64_t seed, uint64_t stream, uint64_t index)
      : x(seed * 0x9E3779B97F4A7C15ull + (stream << 48) + index) {}
  double operator()() { // splitmix64 -> (0, 1)
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return ((z ^ (z >> 31)) >> 11) * 0x1.0p-53 + 0x1.0p-54;
  }

private:
  uint64_t x;
};

/// Seeded standard-normal-ish values rounded to `dtype` (e4m3: to nearest
/// even, saturating at +-448): bits for the device, their exact float
/// values for the reference.
void randomInput(fa4_dtype dtype, uint64_t seed, uint64_t stream, size_t count,
                 std::vector<uint16_t> &bits, std::vector<float> &values) {
  bits.resize(count);
  values.resize(count);
  parallelFor(static_cast<int64_t>(count), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      Uniform uniform(seed, stream, uint64_t(i));
      double normal = std::sqrt(-2 * std::log(uniform())) *
                      std::cos(6.283185307179586 * uniform());
      bits[i] = toLowPrecision(dtype, static_cast<float>(normal));
      values[i] = fromLowPrecision(dtype, bits[i]);
    }
  });
}

/// Seeded f32 descales in [0.5, 2]: scales of both directions, so a kernel
/// that applies one the wrong way round, or another's, is off by more
/// than the rule allows.
std::vector<float> randomDescales(uint64_t seed, uint64_t stream,
                                  size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<float>(0.5 + 1.5 * Uniform(seed, stream, i)());
  return values;
}

/// One set of device tensors for a launch.
struct DeviceArgs {
  std::unique_ptr<DeviceTensor> q, k, v, o, lse, sinks;
  std::unique_ptr<DeviceTensor> descales[3]; // q's, k's, v's: version 15
  fa4_attention_args args = {};

  size_t bytes() const {
    return q->bytes + k->bytes + v->bytes + o->bytes + (lse ? lse->bytes : 0);
  }
  /// Whether the kernel takes tensors fa4_attention_args cannot name.
  bool needsServingArgs() const {
    return sinks || descales[0] || descales[1] || descales[2];
  }
};

DeviceArgs allocateArgs(const AttentionShape &shape, const LayoutRules &rules,
                        bool hasLse, size_t slackBytes = 0) {
  DeviceArgs set;
  set.q = allocateTensor(shape.dtype,
                         {shape.batch, shape.seqQ, shape.headsQ, shape.qkDepth},
                         rules.q.strideBytes, slackBytes);
  set.k = allocateTensor(
      shape.dtype, {shape.batch, shape.seqKV, shape.headsKV, shape.qkDepth},
      rules.k.strideBytes, slackBytes);
  set.v = allocateTensor(
      shape.dtype, {shape.batch, shape.seqKV, shape.headsKV, shape.ovDepth},
      rules.v.strideBytes, slackBytes);
  set.o = allocateTensor(shape.oDtype(),
                         {shape.batch, shape.seqQ, shape.headsQ, shape.ovDepth},
                         rules.o.strideBytes, slackBytes);
  set.args.q = set.q->desc;
  set.args.k = set.k->desc;
  set.args.v = set.v->desc;
  set.args.o = set.o->desc;
  if (hasLse) {
    set.lse =
        allocateTensor(FA4_DTYPE_F32, {shape.batch, shape.headsQ, shape.seqQ},
                       rules.lse.strideBytes, slackBytes);
    set.args.lse = set.lse->desc;
  }
  if (shape.sinks)
    set.sinks = allocateTensor(FA4_DTYPE_F32, {shape.headsQ}, 4);
  // One value (rank 0), or [b, hkv].
  for (int i = 0; i < 3; ++i)
    if (shape.descales[i])
      set.descales[i] =
          allocateTensor(FA4_DTYPE_F32,
                         shape.descales[i] == 2
                             ? std::vector<int64_t>{shape.batch, shape.headsKV}
                             : std::vector<int64_t>{},
                         rules.descales[i].strideBytes);
  return set;
}

struct HostInputs {
  std::vector<uint16_t> q, k, v; // dtype bits (e4m3 in the low byte)
  AttentionData values;          // the same as floats, for the reference
};

HostInputs makeInputs(const AttentionShape &shape, uint64_t seed);

/// The exactness probe (--inputs uniform): q = 0, so every visible key
/// scores 0 and softmax is uniform (exp2(0) = 1 exactly), and v small
/// integers, so every sum of p * v is exact in f32: O and the row sums are
/// the same bits on any correct machine that rounds IEEE operations alike.
void uniformProbe(const AttentionShape &shape, HostInputs &inputs) {
  auto fill = [&](std::vector<uint16_t> &bits, std::vector<float> &values,
                  auto value) {
    for (size_t i = 0; i < bits.size(); ++i) {
      values[i] = value(i);
      bits[i] = toLowPrecision(shape.dtype, values[i]);
    }
  };
  fill(inputs.q, inputs.values.q, [](size_t) { return 0.0f; });
  fill(inputs.v, inputs.values.v,
       [](size_t i) { return float(int64_t(i * 7 % 17) - 8); });
  // Descales of 1 keep every product exact (the integers are e4m3's too).
  for (std::vector<float> *descales :
       {&inputs.values.qDescale, &inputs.values.kDescale,
        &inputs.values.vDescale})
    std::fill(descales->begin(), descales->end(), 1.0f);
}

/// --inputs growing: q's first component 1 and k's the key index times
/// g = 0.2 / (scale log2 e), the rest random, so that a row's scores rise
/// by about 0.2 per key in log2 units (exp2's argument): every key tile
/// (64 keys or more) raises the row's maximum by more than 8, past the
/// kernels' lazy-rescale threshold (FA4's: O and the row sum are rescaled
/// only when the maximum grows by more than 2^8), which random inputs
/// never reach.
void growingScores(const AttentionShape &shape, HostInputs &inputs) {
  double perKey = 0.2 / (shape.scale * 1.4426950408889634);
  auto set = [&](std::vector<uint16_t> &bits, std::vector<float> &values,
                 size_t index, double value) {
    bits[index] = toLowPrecision(shape.dtype, static_cast<float>(value));
    values[index] = fromLowPrecision(shape.dtype, bits[index]);
  };
  for (size_t row = 0; row < inputs.q.size() / size_t(shape.qkDepth); ++row)
    set(inputs.q, inputs.values.q, row * size_t(shape.qkDepth), 1.0);
  // BSHD: row (b, key, h) of K starts at ((b Skv + key) Hkv + h) Dqk.
  for (size_t row = 0; row < inputs.k.size() / size_t(shape.qkDepth); ++row) {
    int64_t key = int64_t(row / size_t(shape.headsKV)) % shape.seqKV;
    set(inputs.k, inputs.values.k, row * size_t(shape.qkDepth),
        double(key) * perKey);
  }
}

HostInputs makeProbeInputs(const AttentionShape &shape, uint64_t seed,
                           const std::string &kind) {
  // Keys' scores of 0.2 a key in log2 units need k values far past 448.
  if (kind == "growing" && shape.fp8())
    throw RunError{"--inputs growing: an e4m3 kernel's k cannot hold scores "
                   "that grow with the key index (e4m3 saturates at 448); "
                   "use --inputs random or uniform"};
  HostInputs inputs = makeInputs(shape, seed);
  if (kind == "uniform")
    uniformProbe(shape, inputs);
  if (kind == "growing")
    growingScores(shape, inputs);
  return inputs;
}

HostInputs makeInputs(const AttentionShape &shape, uint64_t seed) {
  HostInputs inputs;
  randomInput(shape.dtype, seed, 1,
              shape.batch * shape.seqQ * shape.headsQ * shape.qkDepth, inputs.q,
              inputs.values.q);
  randomInput(shape.dtype, seed, 2,
              shape.batch * shape.seqKV * shape.headsKV * shape.qkDepth,
              inputs.k, inputs.values.k);
  randomInput(shape.dtype, seed, 3,
              shape.batch * shape.seqKV * shape.headsKV * shape.ovDepth,
              inputs.v, inputs.values.v);
  if (shape.sinks) {
    // Logits around the scores' row maxima (1 +- 1.5), so that a sink
    // takes a visible share of each row.
    std::vector<uint16_t> unused;
    randomInput(FA4_DTYPE_F16, seed, 4, shape.headsQ, unused,
                inputs.values.sinks);
    for (float &sink : inputs.values.sinks)
      sink = 1.0f + 1.5f * sink;
  }
  std::vector<float> *descales[3] = {&inputs.values.qDescale,
                                     &inputs.values.kDescale,
                                     &inputs.values.vDescale};
  for (int i = 0; i < 3; ++i)
    if (shape.descales[i])
      *descales[i] = randomDescales(
          seed, 5 + i,
          shape.descales[i] == 2 ? size_t(shape.batch * shape.headsKV) : 1);
  return inputs;
}

/// Uploads `bits` (each element's in a uint16_t) as the tensor's dtype:
/// e4m3 one byte an element.
void uploadBits(const DeviceTensor &tensor, const std::vector<uint16_t> &bits) {
  if (tensor.elemBytes() == 2) {
    upload(tensor, bits.data());
    return;
  }
  std::vector<uint8_t> bytes(bits.begin(), bits.end());
  upload(tensor, bytes.data());
}

void uploadInputs(const DeviceArgs &set, const HostInputs &inputs) {
  uploadBits(*set.q, inputs.q);
  uploadBits(*set.k, inputs.k);
  uploadBits(*set.v, inputs.v);
  if (set.sinks)
    upload(*set.sinks, inputs.values.sinks.data());
  const std::vector<float> *descales[3] = {&inputs.values.qDescale,
                                           &inputs.values.kDescale,
                                           &inputs.values.vDescale};
  for (int i = 0; i < 3; ++i)
    if (set.descales[i])
      upload(*set.descales[i], descales[i]->data());
}

/// Makes one tensor of `set` wrong in the way `badCase` names.
void breakTensor(DeviceArgs &set, const std::string &badCase,
                 const fa4_kernel_info &info, const LayoutRules &rules) {
  fa4_attention_args &args = set.args;
  // The alignment cases break the first tensor whose rule can be broken
  // (each tensor has its own rule since ABI version 2).
  struct Candidate {
    const char *name;
    fa4_tensor *tensor;
    TensorRule rule;
  };
  std::vector<Candidate> candidates = {{"q", &args.q, rules.q},
                                       {"k", &args.k, rules.k},
                                       {"v", &args.v, rules.v},
                                       {"o", &args.o, rules.o}};
  if (info.has_lse)
    candidates.push_back({"lse", &args.lse, rules.lse});
  if (badCase == "misaligned") {
    // Half the required alignment: a multiple of the element size whenever
    // the rule is stricter than the element.
    for (const Candidate &candidate : candidates) {
      if (candidate.rule.baseBytes < 2)
        continue;
      candidate.tensor->data = static_cast<char *>(candidate.tensor->data) +
                               candidate.rule.baseBytes / 2;
      return;
    }
    throw RunError{"--bad-tensor=misaligned: no tensor of this kernel needs "
                   "more than 1-byte alignment"};
  } else if (badCase == "stride") {
    // One extra element per head row of a BSHD tensor, where the element
    // size is no multiple of the tensor's stride rule (2-byte elements under
    // a 16-byte rule). k first: it has no tensor map in every kernel.
    std::swap(candidates[0], candidates[1]);
    for (const Candidate &candidate : candidates) {
      fa4_tensor &tensor = *candidate.tensor;
      if (tensor.rank != 4 ||
          int64_t(fa4_dtype_size(tensor.dtype)) % candidate.rule.strideBytes ==
              0)
        continue;
      tensor.strides[2] += 1;
      tensor.strides[1] = tensor.strides[2] * tensor.shape[2];
      tensor.strides[0] = tensor.strides[1] * tensor.shape[1];
      return;
    }
    throw RunError{"--bad-tensor=stride: every stride of this kernel's "
                   "tensors may be any whole number of elements"};
  } else if (badCase == "last-stride") {
    args.v.strides[3] = 2;
  } else if (badCase == "overlap") {
    args.o.strides[1] = args.o.strides[2]; // every (i, h) writes one row
  } else if (badCase == "alias") {
    args.o.data = args.v.data; // the output over an input
  } else if (badCase == "dtype") {
    args.q.dtype =
        info.dtype == FA4_DTYPE_BF16 ? FA4_DTYPE_F16 : FA4_DTYPE_BF16;
  } else if (badCase == "shape") {
    args.k.shape[0] += 1;
  } else if (badCase == "lse") {
    if (info.has_lse)
      args.lse.data = nullptr;
    else
      args.lse = args.o; // an LSE the kernel does not write
  } else {
    throw RunError{"unknown --bad-tensor case '" + badCase + "'"};
  }
}

std::string jsonEscape(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

/// The RESULT line's " key=value" fields as one JSON object; values that
/// read fully as numbers stay numbers.
std::string resultJson(const std::string &verdict, const std::string &fields,
                       const std::string &kernel) {
  std::string json = "{\"result\": \"" + verdict + "\", \"kernel\": \"" +
                     jsonEscape(kernel) + "\"";
  for (size_t pos = 0; pos < fields.size();) {
    size_t eq = fields.find('=', pos);
    size_t end = std::min(fields.find(' ', pos + 1), fields.size());
    std::string key = fields.substr(pos + 1, eq - pos - 1);
    std::string value = fields.substr(eq + 1, end - eq - 1);
    char *rest = nullptr;
    double number = std::strtod(value.c_str(), &rest);
    bool isNumber = !value.empty() && *rest == '\0' && std::isfinite(number);
    json += ", \"" + key +
            "\": " + (isNumber ? value : "\"" + jsonEscape(value) + "\"");
    pos = end;
  }
  return json + "}";
}

/// How fa4-run launches a set: fa4_launch, or (--record) one launch record
/// run with each set's pointers and a workspace of fa4-run's own.
class Launcher {
public:
  Launcher(fa4_module *module, bool useRecord, const AttentionShape &shape,
           const fa4_kernel_info &info)
      : module(module) {
    if (!useRecord)
      return;
    // Made from tensors no launch uses: every run sets other pointers. A
    // kernel with sinks or descales: a record of the serving arguments,
    // which name them.
    own = allocateArgs(shape, layoutRules(module, info), info.has_lse);
    if (own.needsServingArgs()) {
      fa4_serving_args serving = servingOf(own);
      check(fa4_launch_record_create_serving(module, &serving, &record),
            "fa4_launch_record_create_serving");
    } else {
      check(fa4_launch_record_create(module, &own.args, &record),
            "fa4_launch_record_create");
    }
    check(fa4_launch_record_workspace_bytes(record, &workspaceSize),
          "fa4_launch_record_workspace_bytes");
    if (workspaceSize)
      check(fa4_device_alloc(workspaceSize, &workspace), "fa4_device_alloc");
  }
  ~Launcher() {
    fa4_launch_record_destroy(record);
    if (workspace)
      fa4_device_free(workspace);
  }
  Launcher(const Launcher &) = delete;
  Launcher &operator=(const Launcher &) = delete;

  /// 0 without a record.
  uint64_t workspaceBytes() const { return workspaceSize; }

  /// The serving arguments of `set`: its attention tensors, sinks and
  /// descales.
  static fa4_serving_args servingOf(const DeviceArgs &set) {
    fa4_serving_args serving = {};
    serving.attention = set.args;
    if (set.sinks)
      serving.sinks = set.sinks->desc;
    fa4_tensor *descales[3] = {&serving.q_descale, &serving.k_descale,
                               &serving.v_descale};
    for (int i = 0; i < 3; ++i)
      if (set.descales[i])
        *descales[i] = set.descales[i]->desc;
    return serving;
  }

  fa4_status tryLaunch(const DeviceArgs &set, void *stream) {
    if (set.needsServingArgs()) {
      fa4_serving_args serving = servingOf(set);
      return record ? fa4_launch_record_run_serving(record, &serving, workspace,
                                                    stream)
                    : fa4_launch_serving(module, &serving, stream);
    }
    if (!record)
      return fa4_launch(module, &set.args, stream);
    void *data[5] = {set.args.q.data, set.args.k.data, set.args.v.data,
                     set.args.o.data, set.args.lse.data};
    return fa4_launch_record_run(record, data, workspace, stream);
  }

  void launch(const DeviceArgs &set, void *stream, const char *what) {
    check(tryLaunch(set, stream), what);
  }

private:
  fa4_module *module;
  DeviceArgs own;
  fa4_launch_record *record = nullptr;
  uint64_t workspaceSize = 0;
  void *workspace = nullptr;
};

int runBadTensor(const Options &options, const AttentionShape &shape,
                 const fa4_kernel_info &info, fa4_module *module) {
  // Slack so that the broken layouts stay inside the allocation if the
  // runtime were to launch them anyway.
  LayoutRules rules = layoutRules(module, info);
  DeviceArgs set = allocateArgs(shape, rules, info.has_lse, 1 << 20);
  // With --record, a record made from good tensors meets the bad one at
  // its run, which takes pointers alone: the pointer cases.
  if (options.record && options.badTensor != "misaligned" &&
      options.badTensor != "alias" && options.badTensor != "lse")
    throw RunError{"--record --bad-tensor=" + options.badTensor +
                   ": a record's run takes pointers only; the pointer cases "
                   "are misaligned, alias and lse"};
  Launcher launcher(module, options.record, shape, info);
  breakTensor(set, options.badTensor, info, rules);
  fa4_status status = launcher.tryLaunch(set, nullptr);
  if (status == FA4_SUCCESS) {
    fa4_stream_synchronize(nullptr);
    std::printf("RESULT accepted case=%s (the runtime launched a bad tensor)\n",
                options.badTensor.c_str());
    return exitNumericFailure;
  }
  std::string message = fa4_last_error();
  std::printf("RESULT rejected case=%s status=%s message=\"%s\"\n",
              options.badTensor.c_str(), fa4_status_name(status),
              jsonEscape(message).c_str());
  return status == FA4_ERROR_VALIDATION ? exitPass : exitError;
}

struct BenchResult {
  double ms = 0, tflops = 0, kvTbps = 0;
  int sets = 1;
};

/// One event pair around each launch, all queued before the first wait.
std::vector<float> timeLaunches(const Options &options, Launcher &launcher,
                                std::vector<DeviceArgs> &sets) {
  std::vector<fa4_event *> events(2 * options.iters);
  for (fa4_event *&event : events)
    check(fa4_event_create(&event), "fa4_event_create");
  for (int i = 0; i < options.iters; ++i) {
    check(fa4_event_record(events[2 * i], nullptr), "fa4_event_record");
    launcher.launch(sets[i % sets.size()], nullptr, "fa4_launch");
    check(fa4_event_record(events[2 * i + 1], nullptr), "fa4_event_record");
  }
  std::vector<float> times(options.iters);
  for (int i = 0; i < options.iters; ++i)
    check(fa4_event_elapsed_ms(events[2 * i], events[2 * i + 1], &times[i]),
          "fa4_event_elapsed_ms");
  for (fa4_event *event : events)
    fa4_event_destroy(event);
  return times;
}

/// --iters launches captured in one graph; each replay's time over the
/// launches it holds. Short kernels (decode) run shorter than the host takes
/// to launch them, so event pairs around single launches would time the
/// host; a graph replays them back to back, as a serving loop's graph does.
std::vector<float> timeGraph(const Options &options, Launcher &launcher,
                             std::vector<DeviceArgs> &sets) {
  void *stream = nullptr;
  check(fa4_stream_create(&stream), "fa4_stream_create");
  fa4_graph *graph = nullptr;
  check(fa4_graph_capture_begin(stream), "fa4_graph_capture_begin");
  for (int i = 0; i < options.iters; ++i)
    launcher.launch(sets[i % sets.size()], stream, "fa4_launch (captured)");
  check(fa4_graph_capture_end(stream, &graph), "fa4_graph_capture_end");
  check(fa4_graph_launch(graph, stream), "fa4_graph_launch"); // warm-up
  constexpr int replays = 5;
  std::vector<fa4_event *> events(replays + 1);
  for (fa4_event *&event : events)
    check(fa4_event_create(&event), "fa4_event_create");
  check(fa4_event_record(events[0], stream), "fa4_event_record");
  for (int r = 0; r < replays; ++r) {
    check(fa4_graph_launch(graph, stream), "fa4_graph_launch");
    check(fa4_event_record(events[r + 1], stream), "fa4_event_record");
  }
  std::vector<float> times(replays);
  for (int r = 0; r < replays; ++r) {
    check(fa4_event_elapsed_ms(events[r], events[r + 1], &times[r]),
          "fa4_event_elapsed_ms");
    times[r] /= options.iters;
  }
  for (fa4_event *event : events)
    fa4_event_destroy(event);
  fa4_graph_destroy(graph);
  fa4_stream_destroy(stream);
  return times;
}

BenchResult runBench(const Options &options, const AttentionShape &shape,
                     const fa4_kernel_info &info, fa4_module *module,
                     Launcher &launcher, const HostInputs &inputs) {
  fa4_device_info device;
  check(fa4_device_get_info(&device), "fa4_device_get_info");
  // Rotate over enough input sets that they cannot all sit in L2, so each
  // launch reads K and V from HBM as it would in a model.
  std::vector<DeviceArgs> sets;
  LayoutRules rules = layoutRules(module, info);
  sets.push_back(allocateArgs(shape, rules, info.has_lse));
  size_t setBytes = sets[0].bytes();
  size_t wanted = std::min<size_t>(
      256, 2 * static_cast<size_t>(device.l2_cache_bytes) / setBytes + 1);
  while (sets.size() < wanted)
    sets.push_back(allocateArgs(shape, rules, info.has_lse));
  for (const DeviceArgs &set : sets)
    uploadInputs(set, inputs);

  for (int i = 0; i < 3; ++i) // warm-up: module load, clocks, TLB
    launcher.launch(sets[i % sets.size()], nullptr, "fa4_launch");
  // An H200 holds its boost clock for the first ~100 ms of full load, then
  // its power limit pulls the SM clock down by 10-30% (bench/clock_probe.py,
  // D-42): a median over launches that straddle the two measures neither.
  // --warmup-ms runs the timed launches in the sustained state.
  using Clock = std::chrono::steady_clock;
  Clock::time_point warmupEnd =
      Clock::now() + std::chrono::milliseconds(options.warmupMs);
  for (size_t i = 0; Clock::now() < warmupEnd; ++i) {
    launcher.launch(sets[i % sets.size()], nullptr, "fa4_launch");
    if (i % 8 == 7) // Keep the queue short, so the clock reads GPU time.
      check(fa4_stream_synchronize(nullptr), "fa4_stream_synchronize");
  }
  std::vector<float> times = options.graph
                                 ? timeGraph(options, launcher, sets)
                                 : timeLaunches(options, launcher, sets);
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());

  BenchResult result;
  result.sets = static_cast<int>(sets.size());
  result.ms = times[times.size() / 2];
  double seconds = result.ms * 1e-3;
  double flops = 2.0 * shape.batch * shape.headsQ * visiblePairs(shape) *
                 (shape.qkDepth + shape.ovDepth);
  double kvBytes = double(shape.batch) * shape.seqKV * shape.headsKV *
                   (shape.qkDepth + shape.ovDepth) *
                   fa4_dtype_size(shape.dtype);
  result.tflops = flops / seconds / 1e12;
  result.kvTbps = kvBytes / seconds / 1e12;
  return result;
}

/// Poisons the outputs, launches once and waits.
void launchPoisoned(Launcher &launcher, const DeviceArgs &set) {
  poison(*set.o);
  if (set.lse)
    poison(*set.lse);
  launcher.launch(set, nullptr, "fa4_launch");
  check(fa4_stream_synchronize(nullptr), "fa4_stream_synchronize");
}

bool bitwiseEqual(const std::vector<float> &a, const std::vector<float> &b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

using ModulePtr = std::unique_ptr<fa4_module, void (*)(fa4_module *)>;

/// Loads the manifest's module with the launch options of `options` set.
ModulePtr loadModule(const Options &options) {
  fa4_module *module = nullptr;
  check(fa4_module_load(options.manifest.c_str(), &module), "fa4_module_load");
  check(fa4_module_set_programmatic_launch(module, options.programmaticLaunch),
        "fa4_module_set_programmatic_launch");
  check(fa4_module_set_persistent_ctas(
            module, static_cast<int32_t>(
                        std::min<int64_t>(options.persistentCtas, INT32_MAX))),
        "fa4_module_set_persistent_ctas");
  return ModulePtr(module, fa4_module_destroy);
}

/// A runtime size: the one given on the command line, else the compiled one.
int64_t runtimeSize(int64_t given, int64_t compiled, const char *name) {
  if (given > 0)
    return given;
  if (compiled > 0)
    return compiled;
  throw RunError{std::string("--") + name +
                 " is required: the kernel was compiled for any " + name};
}

/// The problem to run: the sizes of `options` over the kernel's own.
AttentionShape attentionShape(const Options &options,
                              const fa4_kernel_info &info) {
  AttentionShape shape;
  shape.batch = runtimeSize(options.batch, info.batch, "b");
  shape.seqQ = runtimeSize(options.seqQ, info.seq_q, "sq");
  shape.seqKV = runtimeSize(options.seqKV, info.seq_kv, "skv");
  shape.headsQ = info.num_q_heads;
  shape.headsKV = info.num_kv_heads;
  shape.qkDepth = info.qk_depth;
  shape.ovDepth = info.ov_depth;
  shape.mask = info.mask;
  shape.windowLeft = info.window_left;
  shape.windowRight = info.window_right;
  shape.scale = info.scale;
  shape.softcap = info.softcap;
  shape.sinks = info.has_sinks != 0;
  shape.dtype = info.dtype;
  shape.outputDtype = info.output_dtype;
  shape.descales[0] = info.q_descale;
  shape.descales[1] = info.k_descale;
  shape.descales[2] = info.v_descale;
  return shape;
}

/// Determinism: the same inputs give the same bits, launch after launch
/// (split-K combines included: their order of partials is fixed). The
/// number of `repeats` relaunches whose O or LSE differs from `first`.
int64_t countDiffering(int64_t repeats, Launcher &launcher,
                       const DeviceArgs &set, const AttentionData &first) {
  int64_t differing = 0;
  for (int64_t r = 0; r < repeats; ++r) {
    launchPoisoned(launcher, set);
    if (!bitwiseEqual(download(*set.o), first.o) ||
        (set.lse && !bitwiseEqual(download(*set.lse), first.lse)))
      ++differing;
  }
  return differing;
}

/// The RESULT fields of --check (and --repeat).
std::string checkFields(const CheckResult &result, bool fp8, int64_t repeats,
                        int64_t differing) {
  char text[512];
  std::snprintf(text, sizeof(text),
                " max_err=%.3e ref_err=%.3e lse_err=%.3e unwritten=%lld "
                "checked_rows=%lld/%lld",
                result.maxError, result.refError, result.maxLseError,
                static_cast<long long>(result.unwritten),
                static_cast<long long>(result.checkedRows),
                static_cast<long long>(result.totalRows));
  std::string fields = text;
  if (fp8) {
    std::snprintf(text, sizeof(text),
                  " mean_err=%.3e ref_mean_err=%.3e bound_ratio=%.3f",
                  result.meanError, result.refMeanError, result.boundRatio);
    fields += text;
  }
  if (repeats) {
    std::snprintf(text, sizeof(text), " repeats=%lld differing=%lld",
                  static_cast<long long>(repeats),
                  static_cast<long long>(differing));
    fields += text;
  }
  return fields;
}

/// What --check found: whether it passed, and its RESULT fields.
struct CheckOutcome {
  bool passed;
  std::string fields;
};

/// --check: one launch on poisoned outputs, which become `inputs.values`'
/// O and LSE (and --dump's files), the --repeat launches, and the
/// comparison with the CPU reference.
CheckOutcome runCheck(const Options &options, const AttentionShape &shape,
                      const fa4_kernel_info &info, fa4_module *module,
                      Launcher &launcher, HostInputs &inputs) {
  DeviceArgs set = allocateArgs(shape, layoutRules(module, info), info.has_lse);
  uploadInputs(set, inputs);
  launchPoisoned(launcher, set);
  inputs.values.o = download(*set.o);
  if (set.lse)
    inputs.values.lse = download(*set.lse);
  if (!options.dump.empty()) {
    writeFloats(options.dump + ".o", inputs.values.o);
    writeFloats(options.dump + ".lse", inputs.values.lse);
  }
  int64_t differing =
      countDiffering(options.repeats, launcher, set, inputs.values);
  double budget = options.fullCheck ? INFINITY : options.checkWork;
  CheckResult result =
      checkAttention(shape, inputs.values, budget, options.seed);
  return {result.passed && differing == 0,
          checkFields(result, shape.fp8(), options.repeats, differing)};
}

/// The RESULT fields of --bench.
std::string benchFields(const Options &options, const fa4_kernel_info &info,
                        const BenchResult &result) {
  char text[512];
  std::snprintf(text, sizeof(text),
                " ms=%.4f tflops=%.1f kv_tbps=%.3f iters=%d warmup_ms=%lld "
                "sets=%d pdl=%d%s",
                result.ms, result.tflops, result.kvTbps, options.iters,
                static_cast<long long>(options.warmupMs), result.sets,
                info.programmatic_launch, options.graph ? " timing=graph" : "");
  return text;
}

/// The RESULT fields every run ends with: the launch path and the sizes.
std::string launchFields(const Options &options, const Launcher &launcher,
                         const AttentionShape &shape) {
  std::string fields;
  if (options.record)
    fields += " launch=record workspace_bytes=" +
              std::to_string(launcher.workspaceBytes());
  char text[512];
  std::snprintf(text, sizeof(text), " b=%lld sq=%lld skv=%lld seed=%llu",
                static_cast<long long>(shape.batch),
                static_cast<long long>(shape.seqQ),
                static_cast<long long>(shape.seqKV),
                static_cast<unsigned long long>(options.seed));
  fields += text;
  return fields;
}

/// A backward kernel's device tensors (ABI version 16), each laid out by
/// its own stride rule.
struct BackwardArgs {
  std::unique_ptr<DeviceTensor> q, k, v, o, lse, dout, dq, dk, dv;

  fa4_serving_args serving() const {
    fa4_serving_args args = {};
    args.attention = {q->desc, k->desc, v->desc, o->desc, lse->desc};
    args.dout = dout->desc;
    args.dq = dq->desc;
    args.dk = dk->desc;
    args.dv = dv->desc;
    return args;
  }
};

BackwardArgs allocateBackward(const AttentionShape &shape,
                              const fa4_module *module) {
  auto tensor = [&](const char *name, fa4_dtype dtype,
                    std::vector<int64_t> dims) {
    TensorRule rule;
    check(fa4_module_get_tensor_alignment(module, name, &rule.baseBytes,
                                          &rule.strideBytes),
          "fa4_module_get_tensor_alignment");
    return allocateTensor(dtype, std::move(dims), rule.strideBytes);
  };
  fa4_dtype dtype = shape.dtype;
  std::vector<int64_t> queries = {shape.batch, shape.seqQ, shape.headsQ};
  std::vector<int64_t> keys = {shape.batch, shape.seqKV, shape.headsKV};
  auto with = [](std::vector<int64_t> dims, int64_t depth) {
    dims.push_back(depth);
    return dims;
  };
  BackwardArgs set;
  set.q = tensor("q", dtype, with(queries, shape.qkDepth));
  set.k = tensor("k", dtype, with(keys, shape.qkDepth));
  set.v = tensor("v", dtype, with(keys, shape.ovDepth));
  set.o = tensor("o", dtype, with(queries, shape.ovDepth));
  set.lse =
      tensor("lse", FA4_DTYPE_F32, {shape.batch, shape.headsQ, shape.seqQ});
  set.dout = tensor("dout", dtype, with(queries, shape.ovDepth));
  set.dq = tensor("dq", dtype, with(queries, shape.qkDepth));
  set.dk = tensor("dk", dtype, with(keys, shape.qkDepth));
  set.dv = tensor("dv", dtype, with(keys, shape.ovDepth));
  return set;
}

/// `values` of `dtype` (already rounded to it) as its bits.
std::vector<uint16_t> bitsOf(fa4_dtype dtype,
                             const std::vector<float> &values) {
  std::vector<uint16_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    bits[i] = toLowPrecision(dtype, values[i]);
  return bits;
}

/// The options a backward kernel's run does not take.
void refuseBackwardOptions(const Options &options) {
  const char *refused = options.bench                ? "--bench"
                        : options.record             ? "--record"
                        : !options.badTensor.empty() ? "--bad-tensor"
                        : options.repeats            ? "--repeat"
                        : !options.dump.empty()      ? "--dump"
                        : options.inputs != "random" ? "--inputs"
                                                     : nullptr;
  if (refused)
    throw RunError{std::string(refused) +
                   ": not for a backward kernel (ABI version 16), which "
                   "fa4-run checks with --check alone"};
}

/// The RESULT fields of a backward check: each gradient's error, the low
/// precision model's and the bound.
std::string backwardFields(const BackwardCheck &result) {
  std::string fields;
  const std::pair<const char *, const GradientCheck *> gradients[] = {
      {"dq", &result.dq}, {"dk", &result.dk}, {"dv", &result.dv}};
  char text[256];
  int64_t unwritten = 0;
  for (const auto &[name, gradient] : gradients) {
    std::snprintf(
        text, sizeof(text), " %s_err=%.3e %s_ref_err=%.3e %s_bound=%.3e", name,
        gradient->maxError, name, gradient->refError, name, gradient->bound());
    fields += text;
    unwritten += gradient->unwritten;
  }
  return fields + " unwritten=" + std::to_string(unwritten);
}

/// A backward kernel: random q, k, v and dO (the forward's generators;
/// dO its own stream), O and LSE from the CPU's f64 forward (O rounded to
/// the dtype, LSE f32), dQ, dK, dV poisoned with NaN, one serving launch,
/// and the gradients held to FlashAttention's rule (Backward.h).
int runBackward(const Options &options, const AttentionShape &shape,
                const fa4_kernel_info &info, fa4_module *module) {
  refuseBackwardOptions(options);
  HostInputs inputs = makeInputs(shape, options.seed);
  BackwardData data;
  data.q = inputs.values.q;
  data.k = inputs.values.k;
  data.v = inputs.values.v;
  std::vector<uint16_t> doutBits;
  randomInput(shape.dtype, options.seed, 9,
              shape.batch * shape.seqQ * shape.headsQ * shape.ovDepth, doutBits,
              data.dout);
  referenceForward(shape, data.q, data.k, data.v, data.o, data.lse);

  BackwardArgs set = allocateBackward(shape, module);
  uploadBits(*set.q, inputs.q);
  uploadBits(*set.k, inputs.k);
  uploadBits(*set.v, inputs.v);
  uploadBits(*set.o, bitsOf(shape.dtype, data.o));
  upload(*set.lse, data.lse.data());
  uploadBits(*set.dout, doutBits);
  for (const DeviceTensor *gradient :
       {set.dq.get(), set.dk.get(), set.dv.get()})
    poison(*gradient);
  fa4_serving_args args = set.serving();
  check(fa4_launch_serving(module, &args, nullptr), "fa4_launch_serving");
  check(fa4_stream_synchronize(nullptr), "fa4_stream_synchronize");
  data.dq = download(*set.dq);
  data.dk = download(*set.dk);
  data.dv = download(*set.dv);

  BackwardCheck result = checkBackward(shape, data);
  char sizes[256];
  std::snprintf(sizes, sizeof(sizes), " b=%lld sq=%lld skv=%lld seed=%llu",
                static_cast<long long>(shape.batch),
                static_cast<long long>(shape.seqQ),
                static_cast<long long>(shape.seqKV),
                static_cast<unsigned long long>(options.seed));
  std::string fields = backwardFields(result) + sizes;
  const char *verdict = result.passed() ? "pass" : "fail";
  std::printf("RESULT %s%s\n", verdict, fields.c_str());
  if (options.json)
    std::printf("%s\n", resultJson(verdict, fields, info.kernel_name).c_str());
  return result.passed() ? exitPass : exitNumericFailure;
}

int run(const Options &options) {
  ModulePtr owner = loadModule(options);
  fa4_module *module = owner.get();
  fa4_kernel_info info;
  check(fa4_module_get_info(module, &info), "fa4_module_get_info");
  AttentionShape shape = attentionShape(options, info);
  if (info.is_backward)
    return runBackward(options, shape, info, module);
  if (!options.badTensor.empty())
    return runBadTensor(options, shape, info, module);

  HostInputs inputs = makeProbeInputs(shape, options.seed, options.inputs);
  Launcher launcher(module, options.record, shape, info);
  bool passed = true;
  std::string fields;
  if (options.check) {
    CheckOutcome outcome =
        runCheck(options, shape, info, module, launcher, inputs);
    passed = outcome.passed;
    fields += outcome.fields;
  }
  if (options.bench)
    fields +=
        benchFields(options, info,
                    runBench(options, shape, info, module, launcher, inputs));
  fields += launchFields(options, launcher, shape);
  const char *verdict = !options.check ? "bench" : passed ? "pass" : "fail";
  std::printf("RESULT %s%s\n", verdict, fields.c_str());
  if (options.json)
    std::printf("%s\n", resultJson(verdict, fields, info.kernel_name).c_str());
  return passed ? exitPass : exitNumericFailure;
}

/// The RESULT line of a run that stopped on `error`.
void printErrorResult(const RunError &error) {
  std::printf("RESULT error message=\"%s\"\n",
              jsonEscape(error.message).c_str());
}

/// One case: its RESULT line, and its exit code.
int runReporting(const Options &options) {
  try {
    return run(options);
  } catch (const RunError &error) {
    std::fprintf(stderr, "fa4-run: %s\n", error.message.c_str());
    printErrorResult(error);
    return exitError;
  }
}

/// --cases: every line of the file parsed as fa4-run's options after the
/// manifest, run in turn in this process. A case that fails, or cannot run,
/// does not stop the others; the exit code is the worst case's.
int runCases(const Options &base) {
  std::ifstream file(base.casesFile);
  if (!file)
    throw RunError{"cannot open cases file '" + base.casesFile + "'"};
  int worst = exitPass;
  for (std::string line; std::getline(file, line);) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::vector<std::string> args = {"fa4-run", base.manifest};
    for (std::string word; words >> word;)
      args.push_back(word);
    if (args.size() == 2)
      continue;
    std::vector<char *> argv;
    for (std::string &arg : args)
      argv.push_back(arg.data());
    std::string shown = line.substr(line.find_first_not_of(" \t"));
    shown = shown.substr(0, shown.find_last_not_of(" \t\r") + 1);
    std::printf("CASE %s\n", shown.c_str());
    int code;
    try {
      code = runReporting(
          parseOptions(static_cast<int>(argv.size()), argv.data()));
    } catch (const RunError &error) { // the line's own options
      printErrorResult(error);
      code = exitError;
    }
    std::printf("EXIT %d\n", code);
    std::fflush(stdout);
    worst = std::max(worst, code);
  }
  return worst;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  try {
    options = parseOptions(argc, argv);
  } catch (const RunError &error) {
    std::fprintf(stderr, "fa4-run: %s\n", error.message.c_str());
    std::fputs(usage, stderr);
    printErrorResult(error);
    return exitError;
  }
  if (options.casesFile.empty())
    return runReporting(options);
  try {
    return runCases(options);
  } catch (const RunError &error) {
    std::fprintf(stderr, "fa4-run: %s\n", error.message.c_str());
    return exitError;
  }
}

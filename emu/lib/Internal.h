//===- Internal.h - Decoded kernels, shared by the loader and executor ----===//
//
// An entry is decoded once: every operand to a register slot, an immediate,
// a special register or an address; every opcode to an Opcode (the table of
// Opcodes.def) and its handler; its modifiers to bits, its comparison,
// mode, shape or field to the values the handler reads. Execution does no
// string work: the opcode's text is kept only for messages and the trace.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_INTERNAL_H
#define FA4_EMU_INTERNAL_H

#include "Emulator.h"

#include <string>
#include <vector>

namespace fa4::emu {

enum class Type : uint8_t {
  None,
  B8,
  B16,
  B32,
  B64,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  BF16,
  F32,
  F64,
  F16x2,
  BF16x2,
  F32x2,
  // FP8 pairs (cvt only) and their elements.
  E4M3x2,
  E5M2x2,
  E4M3,
  E5M2,
  Pred,
};
int typeBits(Type type);
bool isSigned(Type type);
bool isFloat(Type type);
Type parseType(const std::string &name); // ".b32" -> B32, None otherwise

enum class Special : uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  ClusterCtaRank,
  ClusterNctaRank,
  ClusterCtaidX,
  ClusterCtaidY,
  ClusterCtaidZ,
  ClusterNctaidX,
  ClusterNctaidY,
  ClusterNctaidZ,
  ClusterIdX,
  ClusterIdY,
  ClusterIdZ,
  NclusterIdX,
  NclusterIdY,
  NclusterIdZ,
  DynamicSmemSize,
  TotalSmemSize,
  SmId,
  NsmId,
  Clock,
  Clock64,
  GlobalTimer,
  IsExplicitCluster,
};

/// Address spaces of a memory operand or an address value.
enum class Space : uint8_t {
  Generic,
  Global,
  Shared,
  SharedCluster,
  Param,
  Const,
  Local,
};

struct Operand {
  enum class Kind : uint8_t {
    None,
    Register,
    Immediate,
    Special,
    Address,
    Vector,
    Sink
  };
  Kind kind = Kind::None;
  bool negated = false; // !%p
  int32_t reg = -1;     // Register, Address base (-1: none)
  uint64_t imm = 0;     // Immediate (bits); Address: absolute part
  /// The immediate (or an address's absolute part) is a shared variable's
  /// offset: reading it adds the reading CTA's rank (docs/Emulator.md).
  bool sharedSymbol = false;
  Special special{};             // Special
  std::vector<Operand> elements; // Vector; Address of a tensor: coords
};

/// The opcodes of Opcodes.def.
enum class Opcode : uint8_t {
#define OPCODE(name, spelling, handler, typed) name,
#include "Opcodes.def"
};

/// The modifiers of Opcodes.def: bits of Instruction::modifiers.
enum class Modifier : uint8_t {
#define MODIFIER(name, spelling) name,
#include "Opcodes.def"
  Count
};
static_assert(unsigned(Modifier::Count) <= 64, "modifiers fit in 64 bits");

/// setp's comparison (PTX ISA, "Comparison and Selection Instructions").
enum class Compare : uint8_t {
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Lo, // unsigned: lo, ls, hi, hs
  Ls,
  Hi,
  Hs,
  Equ, // unordered: true where either operand is NaN
  Neu,
  Ltu,
  Leu,
  Gtu,
  Geu,
  Num,
  Nan,
};

/// shfl.sync's mode, vote.sync's.
enum class ShuffleMode : uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { Any, All, Uni, Ballot };

/// tensormap.replace.tile's field (None: not the .tile form).
enum class TensormapField : uint8_t {
  None,
  Unknown,
  GlobalAddress,
  Rank,
  BoxDim,
  GlobalDim,
  GlobalStride,
  ElementStride,
  ElemType,
  InterleaveLayout,
  SwizzleMode,
  FillMode,
};

struct Instruction;
class Warp;
struct Cta;
using Handler = void (*)(Cta &, Warp &, const Instruction &, uint32_t mask);

struct Instruction {
  Handler handler = nullptr;
  Opcode opcode{};
  int line = 0;
  std::string name;       // the whole dotted opcode, for messages and the trace
  uint64_t modifiers = 0; // bit per Modifier
  int32_t guard = -1;
  bool guardNegated = false;
  Type type = Type::None, sourceType = Type::None;
  Space space = Space::Generic;
  int vector = 1;  // .v2 / .v4
  int target = -1; // bra: instruction index
  /// Per opcode: setp's Compare, shfl's ShuffleMode, vote's VoteMode,
  /// tensormap.replace's TensormapField; cp.async.bulk.tensor: 1 for a load
  /// (a shared::cluster destination).
  uint8_t mode = 0;
  /// wgmma.mma_async: its shape (all 0 where it does not parse) and A/B
  /// type; tcgen05.ld/st: n is the columns per thread (.xN, else 1).
  int m = 0, n = 0, k = 0;
  Type abType = Type::None;
  std::vector<Operand> operands;
  bool has(Modifier modifier) const {
    return modifiers >> unsigned(modifier) & 1;
  }
};

struct Kernel {
  std::string name;
  std::vector<ptx::Param> params;
  std::vector<size_t> paramOffsets;
  size_t paramBytes = 0;
  int maxThreads = 1024;
  std::vector<Instruction> code;
  /// Per branch: where its two paths meet again (the first instruction of
  /// the branch block's immediate post-dominator), -1 where they never do.
  std::vector<int32_t> reconvergence;
  int numRegisters = 0;
  std::vector<uint8_t> registerBits; // per slot
  uint32_t staticSmemBytes = 0;
  uint32_t dynamicSmemOffset = 0; // where the .extern .shared array starts
  /// The module's PTX text hashed (Module::hash): coverage records name a
  /// kernel by it, since one name is compiled into many different PTX.
  uint64_t moduleHash = 0;
};

/// Decodes `entry` of `module` (globals already placed at `globalAddress`).
std::unique_ptr<Kernel>
decodeKernel(const ptx::Module &module, const ptx::Entry &entry,
             const std::map<std::string, uint64_t> &globalAddress);

/// The handler of an opcode (Opcodes.def).
Handler handlerFor(Opcode opcode);

} // namespace fa4::emu

#endif // FA4_EMU_INTERNAL_H

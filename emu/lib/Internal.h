//===- Internal.h - Decoded kernels, shared by the loader and executor ----===//
//
// An entry is decoded once: every operand to a register slot, an immediate,
// a special register or an address, every opcode to its handler and the
// modifiers the handler reads, so execution does no string work.
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

struct Instruction;
class Warp;
struct Cta;
using Handler = void (*)(Cta &, Warp &, const Instruction &, uint32_t mask);

struct Instruction {
  Handler handler = nullptr;
  int line = 0;
  std::string opcode;
  std::vector<std::string> parts; // opcode split at '.', for handlers' setup
  int32_t guard = -1;
  bool guardNegated = false;
  Type type = Type::None, sourceType = Type::None;
  Space space = Space::Generic;
  int vector = 1;     // .v2 / .v4
  int target = -1;    // bra: instruction index
  uint32_t flags = 0; // handler-specific modifier bits
  int mode = 0;       // handler-specific (comparison, shuffle mode, ...)
  std::vector<Operand> operands;
  bool hasPart(const char *part) const;
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
};

/// Decodes `entry` of `module` (globals already placed at `globalAddress`).
std::unique_ptr<Kernel>
decodeKernel(const ptx::Module &module, const ptx::Entry &entry,
             const std::map<std::string, uint64_t> &globalAddress);

/// The handler for an opcode (its first part), or null.
Handler handlerFor(const std::string &base);

} // namespace fa4::emu

#endif // FA4_EMU_INTERNAL_H

//===- Ptx.h - The PTX subset fa4 emits, parsed -----------------*- C++ -*-===//
//
// A module of PTX text as fa4-emu reads it: globals with their initializers,
// entries with their parameters, register declarations and instructions.
// Only the syntax (PTX ISA chapters 4-5, "Syntax" and "State Spaces, Types
// and Variables") is handled here; what an instruction means is the
// executor's (Internal.h, Opcodes.def). Scopes of `{ }` (inline asm blocks)
// get their own labels and registers, renamed apart.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_PTX_H
#define FA4_EMU_PTX_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fa4::emu::ptx {

/// A PTX syntax or semantic error: "line N: message".
class Error : public std::runtime_error {
public:
  Error(int line, const std::string &message)
      : std::runtime_error("line " + std::to_string(line) + ": " + message),
        line(line) {}
  int line;
};

struct Operand {
  enum class Kind {
    Register, // %r1, P1 (a declared name), or a special register (%tid.x)
    Immediate,
    Symbol,       // a variable, parameter or label name
    Address,      // [base + offset], base a register or symbol (or none)
    Vector,       // {a, b, ...}
    TensorCoords, // [tensorMap, {c0, c1, ...}]
  };
  Kind kind = Kind::Immediate;
  std::string name;              // Register, Symbol, Address base ("" = none)
  bool baseIsRegister = false;   // Address
  bool negated = false;          // !%p as a predicate operand
  int64_t offset = 0;            // Address
  uint64_t bits = 0;             // Immediate: integer, or float bits
  bool isFloat = false;          // Immediate written 0f.../0d.../1.5
  bool isDouble = false;         // Immediate written 0d...
  std::vector<Operand> elements; // Vector, TensorCoords ([0] = the map)
};

struct Instruction {
  int line = 0;
  std::string guard; // predicate register guarding it, "" for none
  bool guardNegated = false;
  std::string opcode; // the whole dotted name: "ld.global.v2.b32"
  std::vector<Operand> operands;
};

struct RegisterDecl {
  std::string type; // ".b32", ".pred", ...
  std::string name; // prefix of a range, or the name
  int count = -1;   // %r<59>: 59 registers %r0 .. %r58; -1: just `name`
};

struct Param {
  std::string type; // ".u64", ".b8" (aligned arrays: .align 64 .b8 x[128])
  std::string name;
  int64_t bytes = 0;
  int64_t align = 0;
};

/// A statement of an entry's body, in order: an instruction or a label.
struct Statement {
  bool isLabel = false;
  std::string label;
  Instruction instruction;
};

struct Entry {
  std::string name;
  int line = 0;
  std::vector<Param> params;
  int maxThreads[3] = {0, 0, 0}; // .maxntid / .reqntid, 0 = not given
  int minClusterCtas = 0;        // .reqnctapercluster, 0 = not given
  std::vector<RegisterDecl> registers;
  std::vector<Statement> body;
};

struct Global {
  int line = 0;
  std::string space;     // ".global", ".shared", ".const"
  bool external = false; // .extern (dynamic shared memory)
  std::string type;
  std::string name;
  int64_t align = 1;
  int64_t count = 1; // array elements; 0 for `[]`
  int64_t elementBytes = 1;
  std::vector<uint8_t> init; // little-endian, shorter than the size: zeros
};

struct Module {
  std::string version, target;
  std::vector<Global> globals;
  std::vector<Entry> entries;
};

/// The most virtual registers an entry may declare: 2^18, about 40 times
/// fa4's largest kernel (6,747 on 2026-12-06). The PTX ISA sets no limit,
/// but each one costs the emulator 256 bytes per warp, and a declaration of
/// a billion (a mutated `%r<N>`) would take minutes and gigabytes to load.
constexpr int64_t kMaxRegisters = int64_t(1) << 18;

/// The largest `.align`: 2^24. A shared address holds its CTA's rank from
/// bit 24 (docs/Emulator.md), so no larger alignment holds in every CTA.
constexpr int64_t kMaxAlign = int64_t(1) << 24;

/// The largest variable or parameter array, in bytes (2^40, more memory
/// than any GPU has): beyond it the size arithmetic is refused, not
/// wrapped. The chip's own limits (shared memory, parameter space) are the
/// loader's.
constexpr int64_t kMaxArrayBytes = int64_t(1) << 40;

/// Parses `text`; throws Error naming the line.
Module parse(std::string_view text);

/// The bytes of a scalar type (".b32" -> 4, ".pred" -> 1, ".f16x2" -> 4).
int typeBytes(std::string_view type);

} // namespace fa4::emu::ptx

#endif // FA4_EMU_PTX_H

//===- Module.cpp - Loading PTX: globals placed, entries decoded ----------===//

#include "Internal.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <unordered_map>

using namespace fa4::emu;

int fa4::emu::typeBits(Type type) {
  switch (type) {
  case Type::B8:
  case Type::U8:
  case Type::S8:
  case Type::E4M3:
  case Type::E5M2:
    return 8;
  case Type::B16:
  case Type::U16:
  case Type::S16:
  case Type::F16:
  case Type::BF16:
  case Type::E4M3x2:
  case Type::E5M2x2:
    return 16;
  case Type::B32:
  case Type::U32:
  case Type::S32:
  case Type::F32:
  case Type::F16x2:
  case Type::BF16x2:
    return 32;
  case Type::B64:
  case Type::U64:
  case Type::S64:
  case Type::F64:
  case Type::F32x2:
    return 64;
  case Type::Pred:
    return 1;
  case Type::None:
    return 0;
  }
  return 0;
}

bool fa4::emu::isSigned(Type type) {
  return type == Type::S8 || type == Type::S16 || type == Type::S32 ||
         type == Type::S64;
}

bool fa4::emu::isFloat(Type type) {
  return type == Type::F16 || type == Type::BF16 || type == Type::F32 ||
         type == Type::F64 || type == Type::F16x2 || type == Type::BF16x2 ||
         type == Type::F32x2 || type == Type::E4M3x2 || type == Type::E5M2x2 ||
         type == Type::E4M3 || type == Type::E5M2;
}

Type fa4::emu::parseType(const std::string &name) {
  static const std::map<std::string, Type> types = {
      {"b8", Type::B8},         {"b16", Type::B16},
      {"b32", Type::B32},       {"b64", Type::B64},
      {"u8", Type::U8},         {"u16", Type::U16},
      {"u32", Type::U32},       {"u64", Type::U64},
      {"s8", Type::S8},         {"s16", Type::S16},
      {"s32", Type::S32},       {"s64", Type::S64},
      {"f16", Type::F16},       {"bf16", Type::BF16},
      {"f32", Type::F32},       {"f64", Type::F64},
      {"f16x2", Type::F16x2},   {"bf16x2", Type::BF16x2},
      {"f32x2", Type::F32x2},   {"e4m3x2", Type::E4M3x2},
      {"e5m2x2", Type::E5M2x2}, {"pred", Type::Pred}};
  std::string key = !name.empty() && name[0] == '.' ? name.substr(1) : name;
  auto found = types.find(key);
  return found == types.end() ? Type::None : found->second;
}

namespace {

std::vector<std::string> splitOpcode(const std::string &opcode) {
  std::vector<std::string> parts;
  std::string part;
  for (size_t i = 0; i < opcode.size(); ++i) {
    if (opcode[i] == '.') {
      parts.push_back(part);
      part.clear();
    } else {
      part += opcode[i];
    }
  }
  parts.push_back(part);
  return parts;
}

/// The opcode spelled by an instruction's first two dotted parts, else by
/// its first (Opcodes.def); false where neither is listed.
bool lookupOpcode(const std::vector<std::string> &parts, Opcode &opcode) {
  static const std::unordered_map<std::string, Opcode> opcodes = {
#define OPCODE(name, spelling, handler, typed) {spelling, Opcode::name},
#include "Opcodes.def"
  };
  auto found = parts.size() > 1 ? opcodes.find(parts[0] + "." + parts[1])
                                : opcodes.end();
  if (found == opcodes.end())
    found = opcodes.find(parts[0]);
  if (found == opcodes.end())
    return false;
  opcode = found->second;
  return true;
}

/// Whether `opcode` must name a type the emulator knows (Opcodes.def).
bool isTyped(Opcode opcode) {
  static const bool typed[] = {
#define OPCODE(name, spelling, handler, typed) typed,
#include "Opcodes.def"
  };
  return typed[size_t(opcode)];
}

/// The bits of Instruction::modifiers that `parts` set (Opcodes.def).
uint64_t modifierBits(const std::vector<std::string> &parts) {
  static const std::unordered_map<std::string, Modifier> modifiers = {
#define MODIFIER(name, spelling) {spelling, Modifier::name},
#include "Opcodes.def"
  };
  uint64_t bits = 0;
  for (const std::string &part : parts) {
    auto found = modifiers.find(part);
    if (found != modifiers.end())
      bits |= uint64_t(1) << unsigned(found->second);
  }
  return bits;
}

/// A value of `table` by name, or false.
template <typename T>
bool lookup(const std::map<std::string, T> &table, const std::string &name,
            T &value) {
  auto found = table.find(name);
  if (found == table.end())
    return false;
  value = found->second;
  return true;
}

/// setp's comparison; false for one the PTX ISA does not define for `type`.
bool decodeCompare(const std::string &name, Type type, Compare &compare) {
  static const std::map<std::string, Compare> integer = {
      {"eq", Compare::Eq}, {"ne", Compare::Ne}, {"lt", Compare::Lt},
      {"le", Compare::Le}, {"gt", Compare::Gt}, {"ge", Compare::Ge},
      {"lo", Compare::Lo}, {"ls", Compare::Ls}, {"hi", Compare::Hi},
      {"hs", Compare::Hs}};
  static const std::map<std::string, Compare> floating = {
      {"eq", Compare::Eq},   {"ne", Compare::Ne},   {"lt", Compare::Lt},
      {"le", Compare::Le},   {"gt", Compare::Gt},   {"ge", Compare::Ge},
      {"equ", Compare::Equ}, {"neu", Compare::Neu}, {"ltu", Compare::Ltu},
      {"leu", Compare::Leu}, {"gtu", Compare::Gtu}, {"geu", Compare::Geu},
      {"num", Compare::Num}, {"nan", Compare::Nan}};
  return lookup(isFloat(type) ? floating : integer, name, compare);
}

TensormapField tensormapField(const std::string &name) {
  static const std::map<std::string, TensormapField> fields = {
      {"global_address", TensormapField::GlobalAddress},
      {"rank", TensormapField::Rank},
      {"box_dim", TensormapField::BoxDim},
      {"global_dim", TensormapField::GlobalDim},
      {"global_stride", TensormapField::GlobalStride},
      {"element_stride", TensormapField::ElementStride},
      {"elemtype", TensormapField::ElemType},
      {"interleave_layout", TensormapField::InterleaveLayout},
      {"swizzle_mode", TensormapField::SwizzleMode},
      {"fill_mode", TensormapField::FillMode}};
  TensormapField field = TensormapField::Unknown;
  lookup(fields, name, field);
  return field;
}

/// The columns per thread of tcgen05.ld/st (the .xN part; 1 without one).
int tmemColumns(const std::vector<std::string> &parts) {
  for (const std::string &part : parts)
    if (part.size() > 1 && part[0] == 'x' && std::isdigit(part[1]))
      return std::stoi(part.substr(1));
  return 1;
}

bool specialRegister(const std::string &name, Special &special) {
  static const std::map<std::string, Special> specials = {
      {"%tid.x", Special::TidX},
      {"%tid.y", Special::TidY},
      {"%tid.z", Special::TidZ},
      {"%ntid.x", Special::NtidX},
      {"%ntid.y", Special::NtidY},
      {"%ntid.z", Special::NtidZ},
      {"%ctaid.x", Special::CtaidX},
      {"%ctaid.y", Special::CtaidY},
      {"%ctaid.z", Special::CtaidZ},
      {"%nctaid.x", Special::NctaidX},
      {"%nctaid.y", Special::NctaidY},
      {"%nctaid.z", Special::NctaidZ},
      {"%laneid", Special::LaneId},
      {"%warpid", Special::WarpId},
      {"%cluster_ctarank", Special::ClusterCtaRank},
      {"%cluster_nctarank", Special::ClusterNctaRank},
      {"%cluster_ctaid.x", Special::ClusterCtaidX},
      {"%cluster_ctaid.y", Special::ClusterCtaidY},
      {"%cluster_ctaid.z", Special::ClusterCtaidZ},
      {"%cluster_nctaid.x", Special::ClusterNctaidX},
      {"%cluster_nctaid.y", Special::ClusterNctaidY},
      {"%cluster_nctaid.z", Special::ClusterNctaidZ},
      {"%clusterid.x", Special::ClusterIdX},
      {"%clusterid.y", Special::ClusterIdY},
      {"%clusterid.z", Special::ClusterIdZ},
      {"%nclusterid.x", Special::NclusterIdX},
      {"%nclusterid.y", Special::NclusterIdY},
      {"%nclusterid.z", Special::NclusterIdZ},
      {"%dynamic_smem_size", Special::DynamicSmemSize},
      {"%total_smem_size", Special::TotalSmemSize},
      {"%smid", Special::SmId},
      {"%nsmid", Special::NsmId},
      {"%clock", Special::Clock},
      {"%clock64", Special::Clock64},
      {"%globaltimer", Special::GlobalTimer},
      {"%is_explicit_cluster", Special::IsExplicitCluster}};
  auto found = specials.find(name);
  if (found == specials.end())
    return false;
  special = found->second;
  return true;
}

std::vector<int32_t> reconvergencePoints(const std::vector<Instruction> &code);

/// Decodes the operands and opcode of one entry.
class Decoder {
public:
  Decoder(const ptx::Module &module, const ptx::Entry &entry,
          const std::map<std::string, uint64_t> &globalAddress)
      : module(module), entry(entry), globalAddress(globalAddress) {}

  std::unique_ptr<Kernel> decode() {
    auto kernel = std::make_unique<Kernel>();
    kernel->name = entry.name;
    kernel->params = entry.params;
    layoutParams(*kernel);
    if (entry.maxThreads[0] > 0)
      kernel->maxThreads =
          entry.maxThreads[0] * entry.maxThreads[1] * entry.maxThreads[2];
    layoutShared(*kernel);
    declareRegisters(*kernel);
    for (const ptx::Statement &statement : entry.body)
      if (statement.isLabel)
        labels[statement.label] = int(kernel->code.size());
      else
        kernel->code.emplace_back();
    size_t index = 0;
    for (const ptx::Statement &statement : entry.body)
      if (!statement.isLabel)
        kernel->code[index++] = instruction(statement.instruction);
    kernel->reconvergence = reconvergencePoints(kernel->code);
    return kernel;
  }

private:
  const ptx::Module &module;
  const ptx::Entry &entry;
  const std::map<std::string, uint64_t> &globalAddress;
  std::map<std::string, int> registers;
  std::map<std::string, int> labels;
  std::map<std::string, uint64_t> params;
  std::map<std::string, uint64_t> shared;

  [[noreturn]] void fail(int line, const std::string &message) const {
    throw ptx::Error(line, entry.name + ": " + message);
  }

  void layoutParams(Kernel &kernel) {
    size_t offset = 0;
    for (const ptx::Param &param : entry.params) {
      size_t align = std::max<int64_t>(param.align, 1);
      offset = (offset + align - 1) / align * align;
      kernel.paramOffsets.push_back(offset);
      params[param.name] = offset;
      offset += param.bytes;
      if (offset > kMaxParamBytes)
        fail(entry.line, "parameters of more than " +
                             std::to_string(kMaxParamBytes) + " bytes");
    }
    kernel.paramBytes = offset;
  }

  /// Static shared variables in order, then the .extern array; the sizes
  /// (at most ptx::kMaxArrayBytes, alignments at most ptx::kMaxAlign) add
  /// up in 64 bits and must fit the chip's shared memory.
  void layoutShared(Kernel &kernel) {
    uint64_t offset = 0;
    const ptx::Global *dynamic = nullptr;
    auto place = [&](const ptx::Global &global, int64_t minAlign) {
      uint64_t align = uint64_t(std::max(global.align, minAlign));
      offset = (offset + align - 1) / align * align;
      shared[global.name] = offset;
      if (!global.external)
        offset += uint64_t(global.count * global.elementBytes);
      if (offset > kMaxSharedBytes)
        fail(global.line, "shared variable " + global.name + " ends at byte " +
                              std::to_string(offset) + ", past the chip's " +
                              std::to_string(kMaxSharedBytes) +
                              " bytes of shared memory");
    };
    for (const ptx::Global &global : module.globals) {
      if (global.space != ".shared")
        continue;
      if (global.external)
        dynamic = &global;
      else
        place(global, 1);
    }
    kernel.staticSmemBytes = uint32_t(offset);
    if (dynamic)
      place(*dynamic, 16);
    kernel.dynamicSmemOffset = uint32_t(offset);
  }

  void declareRegisters(Kernel &kernel) {
    auto add = [&](const std::string &name, const std::string &type) {
      if (registers.count(name))
        fail(entry.line, "register " + name + " declared twice");
      registers[name] = kernel.numRegisters++;
      kernel.registerBits.push_back(
          uint8_t(std::max(1, typeBits(parseType(type)))));
    };
    for (const ptx::RegisterDecl &decl : entry.registers) {
      if (decl.count < 0) {
        add(decl.name, decl.type);
        continue;
      }
      // "%r#3" for a range declared in an inner scope: the index goes
      // before the scope suffix.
      size_t hash = decl.name.find('#');
      std::string prefix = decl.name.substr(0, hash);
      std::string suffix =
          hash == std::string::npos ? "" : decl.name.substr(hash);
      for (int i = 0; i < decl.count; ++i)
        add(prefix + std::to_string(i) + suffix, decl.type);
    }
  }

  /// A symbol's address in its own space: a global's device address, a
  /// shared variable's offset, a parameter's offset, a label's index.
  bool symbolAddress(const std::string &name, uint64_t &address) const {
    for (const auto *table : {&params, &shared, &globalAddress}) {
      auto found = table->find(name);
      if (found != table->end()) {
        address = found->second;
        return true;
      }
    }
    return false;
  }

  Operand operand(const ptx::Operand &source, const ptx::Instruction &inst,
                  Type type) {
    Operand result;
    switch (source.kind) {
    case ptx::Operand::Kind::Register: {
      auto found = registers.find(source.name);
      if (found != registers.end()) {
        result.kind = Operand::Kind::Register;
        result.reg = found->second;
      } else if (specialRegister(source.name, result.special)) {
        result.kind = Operand::Kind::Special;
      } else {
        fail(inst.line, "unknown register " + source.name);
      }
      result.negated = source.negated;
      return result;
    }
    case ptx::Operand::Kind::Immediate:
      result.kind = Operand::Kind::Immediate;
      result.imm = source.bits;
      if (source.isDouble && type == Type::F32) {
        double value;
        std::memcpy(&value, &source.bits, 8);
        float narrow = float(value);
        uint32_t bits;
        std::memcpy(&bits, &narrow, 4);
        result.imm = bits;
      }
      return result;
    case ptx::Operand::Kind::Symbol: {
      if (source.name == "_") {
        result.kind = Operand::Kind::Sink;
        return result;
      }
      auto label = labels.find(source.name);
      if (label != labels.end()) {
        result.kind = Operand::Kind::Immediate;
        result.imm = uint64_t(label->second);
        return result;
      }
      uint64_t address;
      auto found = registers.find(source.name);
      if (found != registers.end()) {
        result.kind = Operand::Kind::Register;
        result.reg = found->second;
        result.negated = source.negated;
        return result;
      }
      if (!symbolAddress(source.name, address))
        fail(inst.line, "unknown symbol " + source.name);
      result.kind = Operand::Kind::Immediate;
      result.imm = address + uint64_t(source.offset);
      result.sharedSymbol = shared.count(source.name) != 0;
      return result;
    }
    case ptx::Operand::Kind::Address: {
      result.kind = Operand::Kind::Address;
      result.imm = uint64_t(source.offset);
      if (source.name.empty())
        return result;
      auto found = registers.find(source.name);
      if (found != registers.end()) {
        result.reg = found->second;
        return result;
      }
      uint64_t address;
      if (!symbolAddress(source.name, address))
        fail(inst.line, "unknown address base " + source.name);
      result.imm += address;
      result.sharedSymbol = shared.count(source.name) != 0;
      return result;
    }
    case ptx::Operand::Kind::Vector:
      result.kind = Operand::Kind::Vector;
      for (const ptx::Operand &element : source.elements)
        result.elements.push_back(operand(element, inst, type));
      return result;
    case ptx::Operand::Kind::TensorCoords:
      result = operand(source.elements[0], inst, type);
      for (size_t i = 1; i < source.elements.size(); ++i)
        result.elements.push_back(operand(source.elements[i], inst, type));
      return result;
    }
    return result;
  }

  Instruction instruction(const ptx::Instruction &source) {
    Instruction inst;
    inst.line = source.line;
    inst.name = source.opcode;
    std::vector<std::string> parts = splitOpcode(source.opcode);
    if (!lookupOpcode(parts, inst.opcode))
      fail(source.line, "unsupported instruction '" + source.opcode + "'");
    inst.handler = handlerFor(inst.opcode);
    inst.modifiers = modifierBits(parts);
    if (!source.guard.empty()) {
      auto found = registers.find(source.guard);
      if (found == registers.end())
        fail(source.line, "unknown predicate " + source.guard);
      inst.guard = found->second;
      inst.guardNegated = source.guardNegated;
    }
    decodeTypesAndSpace(inst, parts);
    decodeOperation(inst, parts);
    for (const ptx::Operand &operand : source.operands)
      inst.operands.push_back(this->operand(operand, source, inst.type));
    if (inst.opcode == Opcode::Bra) {
      if (source.operands.size() != 1 ||
          source.operands[0].kind != ptx::Operand::Kind::Symbol ||
          !labels.count(source.operands[0].name))
        fail(source.line, "bra needs a label");
      inst.target = labels.at(source.operands[0].name);
    }
    if (inst.opcode == Opcode::Shf && source.operands.size() != 4)
      fail(source.line, "unsupported funnel shift '" + source.opcode + "'");
    return inst;
  }

  /// The types (the first and the second named), the vector width and the
  /// state space among the parts; a typed opcode without a known type
  /// (a new packed type) fails here, not silently.
  void decodeTypesAndSpace(Instruction &inst,
                           const std::vector<std::string> &parts) {
    std::vector<Type> types;
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string &part = parts[i];
      Type type = parseType(part);
      if (type != Type::None)
        types.push_back(type);
      else if (part == "v2")
        inst.vector = 2;
      else if (part == "v4")
        inst.vector = 4;
      else if (part == "global")
        inst.space = Space::Global;
      else if (part == "shared" || part == "shared::cta")
        inst.space = inst.space == Space::Generic ? Space::Shared : inst.space;
      else if (part == "shared::cluster")
        inst.space =
            inst.space == Space::Generic ? Space::SharedCluster : inst.space;
      else if (part == "param")
        inst.space = Space::Param;
      else if (part == "const")
        inst.space = Space::Const;
      else if (part == "local")
        inst.space = Space::Local;
    }
    if (types.empty() && isTyped(inst.opcode))
      fail(inst.line, "unsupported type in '" + inst.name + "'");
    if (!types.empty())
      inst.type = types[0];
    if (types.size() > 1)
      inst.sourceType = types[1];
  }

  /// What the handler reads from the parts beyond the modifiers: the
  /// comparison, mode, shape or field (Instruction::mode, m, n, k).
  void decodeOperation(Instruction &inst,
                       const std::vector<std::string> &parts) {
    auto unsupported = [&](const std::string &what) {
      fail(inst.line, "unsupported " + what + " '" + inst.name + "'");
    };
    auto part = [&](size_t i) { return i < parts.size() ? parts[i] : ""; };
    switch (inst.opcode) {
    case Opcode::Setp: {
      Compare compare;
      if (!decodeCompare(part(1), inst.type, compare))
        unsupported("comparison");
      inst.mode = uint8_t(compare);
      return;
    }
    case Opcode::Shfl: {
      static const std::map<std::string, ShuffleMode> modes = {
          {"up", ShuffleMode::Up},
          {"down", ShuffleMode::Down},
          {"bfly", ShuffleMode::Bfly},
          {"idx", ShuffleMode::Idx}};
      ShuffleMode mode;
      if (part(1) != "sync" || !lookup(modes, part(2), mode))
        unsupported("shuffle");
      inst.mode = uint8_t(mode);
      return;
    }
    case Opcode::Vote: {
      static const std::map<std::string, VoteMode> modes = {
          {"any", VoteMode::Any},
          {"all", VoteMode::All},
          {"uni", VoteMode::Uni},
          {"ballot", VoteMode::Ballot}};
      VoteMode mode;
      if (part(1) != "sync" || !lookup(modes, part(2), mode))
        unsupported("vote");
      inst.mode = uint8_t(mode);
      return;
    }
    default:
      decodeAsyncOperation(inst, parts);
    }
  }

  /// decodeOperation for shf and the asynchronous units.
  void decodeAsyncOperation(Instruction &inst,
                            const std::vector<std::string> &parts) {
    auto part = [&](size_t i) { return i < parts.size() ? parts[i] : ""; };
    switch (inst.opcode) {
    case Opcode::Shf:
      // shf.{l,r}.{wrap,clamp}.b32: bit 0 left, bit 1 wrap.
      if (parts.size() != 4 || (part(1) != "l" && part(1) != "r") ||
          (part(2) != "wrap" && part(2) != "clamp") || part(3) != "b32")
        fail(inst.line, "unsupported funnel shift '" + inst.name + "'");
      inst.mode = uint8_t((part(1) == "l") | (part(2) == "wrap") << 1);
      return;
    case Opcode::Cp:
      inst.mode = part(5) == "shared::cluster";
      return;
    case Opcode::TensormapReplace:
      inst.mode = uint8_t(parts.size() > 3 && part(2) == "tile"
                              ? tensormapField(part(3))
                              : TensormapField::None);
      return;
    case Opcode::WgmmaMmaAsync:
      // m64nNk16 and the A/B type; checked when executed.
      if (std::sscanf(part(4).c_str(), "m%dn%dk%d", &inst.m, &inst.n,
                      &inst.k) != 3)
        inst.m = inst.n = inst.k = 0;
      inst.abType = parseType(part(6));
      return;
    case Opcode::Tcgen05Ld:
    case Opcode::Tcgen05St:
      inst.n = tmemColumns(parts);
      return;
    default:
      return;
    }
  }
};

/// Where each branch's paths reconverge: the immediate post-dominator of
/// its basic block (Cooper, Harvey and Kennedy's iterative algorithm on the
/// reversed control-flow graph), as the block's first instruction.
std::vector<int32_t> reconvergencePoints(const std::vector<Instruction> &code) {
  size_t n = code.size();
  auto isExit = [&](size_t i) {
    return code[i].opcode == Opcode::Ret || code[i].opcode == Opcode::Exit ||
           code[i].opcode == Opcode::Trap;
  };
  auto ends = [&](size_t i) { return code[i].target >= 0 || isExit(i); };
  // Blocks: leaders are 0, branch targets and what follows a block end.
  std::vector<int> blockOf(n + 1, -1);
  std::vector<size_t> starts;
  std::vector<bool> leader(n + 1, false);
  if (n)
    leader[0] = true;
  for (size_t i = 0; i < n; ++i) {
    if (code[i].target >= 0)
      leader[size_t(code[i].target)] = true;
    if (ends(i))
      leader[i + 1] = true;
  }
  for (size_t i = 0; i < n; ++i) {
    if (leader[i])
      starts.push_back(i);
    blockOf[i] = int(starts.size()) - 1;
  }
  size_t blocks = starts.size(), exitNode = blocks;
  std::vector<std::vector<size_t>> successors(blocks), predecessors(blocks + 1);
  for (size_t b = 0; b < blocks; ++b) {
    size_t last = (b + 1 < blocks ? starts[b + 1] : n) - 1;
    const Instruction &inst = code[last];
    bool guarded = inst.guard >= 0;
    if (inst.target >= 0)
      successors[b].push_back(size_t(blockOf[size_t(inst.target)]));
    if (isExit(last))
      successors[b].push_back(exitNode);
    if ((inst.target < 0 && !isExit(last)) || guarded)
      successors[b].push_back(last + 1 < n ? size_t(blockOf[last + 1])
                                           : exitNode);
    for (size_t s : successors[b])
      predecessors[s].push_back(b);
  }
  // Postorder of the reversed graph from the exit.
  std::vector<int> order(blocks + 1, -1);
  std::vector<size_t> postorder;
  std::vector<std::pair<size_t, size_t>> stack{{exitNode, 0}};
  std::vector<bool> seen(blocks + 1, false);
  seen[exitNode] = true;
  while (!stack.empty()) {
    auto &[node, next] = stack.back();
    if (next < predecessors[node].size()) {
      size_t p = predecessors[node][next++];
      if (!seen[p]) {
        seen[p] = true;
        stack.push_back({p, 0});
      }
      continue;
    }
    order[node] = int(postorder.size());
    postorder.push_back(node);
    stack.pop_back();
  }
  std::vector<int> ipdom(blocks + 1, -1);
  ipdom[exitNode] = int(exitNode);
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (order[size_t(a)] < order[size_t(b)])
        a = ipdom[size_t(a)];
      while (order[size_t(b)] < order[size_t(a)])
        b = ipdom[size_t(b)];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = postorder.rbegin(); it != postorder.rend(); ++it) {
      size_t node = *it;
      if (node == exitNode)
        continue;
      int best = -1;
      for (size_t s : successors[node])
        if (ipdom[s] >= 0)
          best = best < 0 ? int(s) : intersect(best, int(s));
      if (best != ipdom[node]) {
        ipdom[node] = best;
        changed = true;
      }
    }
  }
  std::vector<int32_t> points(n, -1);
  for (size_t i = 0; i < n; ++i) {
    int post = ipdom[size_t(blockOf[i])];
    if (code[i].target >= 0 && post >= 0 && size_t(post) != exitNode)
      points[i] = int32_t(starts[size_t(post)]);
  }
  return points;
}

} // namespace

std::unique_ptr<Kernel>
fa4::emu::decodeKernel(const ptx::Module &module, const ptx::Entry &entry,
                       const std::map<std::string, uint64_t> &globalAddress) {
  return Decoder(module, entry, globalAddress).decode();
}

Module::Module(const std::string &ptxText, Memory &memory) : memory(memory) {
  textHash = 0xcbf29ce484222325ull;
  for (unsigned char c : ptxText)
    textHash = (textHash ^ c) * 0x100000001b3ull;
  ptx = ptx::parse(ptxText);
  std::map<std::string, uint64_t> addresses;
  for (const ptx::Global &global : ptx.globals) {
    if (global.space == ".shared")
      continue;
    Variable variable;
    size_t bytes =
        size_t(std::max<int64_t>(global.count, 1) * global.elementBytes);
    try {
      variable.storage.assign(bytes + 16, 0);
    } catch (const std::bad_alloc &) {
      throw ptx::Error(global.line, global.name + ": " + std::to_string(bytes) +
                                        " bytes do not fit in host memory");
    }
    std::memcpy(variable.storage.data(), global.init.data(),
                std::min(bytes, global.init.size()));
    variable.address = reinterpret_cast<uint64_t>(variable.storage.data());
    memory.add(variable.address, bytes);
    addresses[global.name] = variable.address;
    globals[global.name] = std::move(variable);
  }
  for (const ptx::Entry &entry : ptx.entries) {
    kernels[entry.name] = decodeKernel(ptx, entry, addresses);
    kernels[entry.name]->moduleHash = textHash;
  }
}

Module::~Module() {
  for (auto &[name, variable] : globals)
    memory.release(variable.address);
}

const Kernel *Module::kernel(const std::string &name) const {
  auto found = kernels.find(name);
  return found == kernels.end() ? nullptr : found->second.get();
}

std::vector<const Kernel *> Module::entries() const {
  std::vector<const Kernel *> result;
  for (const auto &[name, kernel] : kernels)
    result.push_back(kernel.get());
  return result;
}

bool Module::global(const std::string &name, uint64_t &address,
                    uint64_t &bytes) const {
  auto found = globals.find(name);
  if (found == globals.end())
    return false;
  address = found->second.address;
  bytes = found->second.storage.size() - 16;
  return true;
}

std::vector<ParamLayout> fa4::emu::paramLayout(const Kernel &kernel) {
  std::vector<ParamLayout> layout;
  for (size_t i = 0; i < kernel.params.size(); ++i)
    layout.push_back({kernel.paramOffsets[i], size_t(kernel.params[i].bytes)});
  return layout;
}

int fa4::emu::maxThreadsPerBlock(const Kernel &kernel) {
  return kernel.maxThreads;
}

int fa4::emu::staticSharedBytes(const Kernel &kernel) {
  return int(kernel.staticSmemBytes);
}

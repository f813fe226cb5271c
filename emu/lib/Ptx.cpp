//===- Ptx.cpp - The PTX subset fa4 emits, parsed -------------------------===//

#include "Ptx.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

using namespace fa4::emu::ptx;

int fa4::emu::ptx::typeBytes(std::string_view type) {
  if (type == ".pred")
    return 1;
  if (type == ".f16x2" || type == ".bf16x2")
    return 4;
  if (type.size() < 3)
    return 0;
  int bits = std::atoi(std::string(type.substr(2)).c_str());
  if (type.substr(0, 5) == ".bf16")
    return 2;
  return bits / 8;
}

namespace {

struct Token {
  enum class Kind { Identifier, Number, Punct, End };
  Kind kind;
  std::string text;
  int line;
};

bool isIdentifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%' || c == '.';
}
bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}

std::vector<Token> lex(std::string_view text) {
  std::vector<Token> tokens;
  int line = 1;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos)
        throw Error(line, "unterminated comment");
      for (size_t j = i; j < end; ++j)
        line += text[j] == '\n';
      i = end + 2;
    } else if (c == '"') {
      size_t end = text.find('"', i + 1);
      if (end == std::string_view::npos)
        throw Error(line, "unterminated string");
      tokens.push_back({Token::Kind::Identifier,
                        std::string(text.substr(i, end + 1 - i)), line});
      i = end + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = i;
      while (
          i < text.size() &&
          (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.'))
        ++i;
      tokens.push_back({Token::Kind::Number,
                        std::string(text.substr(start, i - start)), line});
    } else if (isIdentifierStart(c)) {
      size_t start = i++;
      while (i < text.size()) {
        if (isIdentifierChar(text[i]))
          ++i;
        else if (text.compare(i, 2, "::") == 0)
          i += 2;
        else
          break;
      }
      tokens.push_back({Token::Kind::Identifier,
                        std::string(text.substr(start, i - start)), line});
    } else if (std::strchr("{}[](),;:+-<>=@!|", c)) {
      tokens.push_back({Token::Kind::Punct, std::string(1, c), line});
      ++i;
    } else {
      throw Error(line, std::string("unexpected character '") + c + "'");
    }
  }
  tokens.push_back({Token::Kind::End, "", line});
  return tokens;
}

/// Registers and labels declared in one `{ }` scope of an entry.
struct Scope {
  int parent = -1;
  std::set<std::string> names;       // single registers
  std::map<std::string, int> ranges; // %r<59>: "%r" -> 59
  std::set<std::string> labels;
};

class Parser {
public:
  explicit Parser(std::string_view text) : tokens(lex(text)) {}

  Module parseModule() {
    Module module;
    while (!at(Token::Kind::End)) {
      const Token &token = peek();
      if (token.text == ".version") {
        next();
        module.version = next().text;
      } else if (token.text == ".target") {
        next();
        module.target = next().text;
        while (accept(","))
          next();
      } else if (token.text == ".address_size") {
        next();
        if (next().text != "64")
          fail("only .address_size 64 is supported");
      } else {
        parseTopLevel(module);
      }
    }
    return module;
  }

private:
  std::vector<Token> tokens;
  size_t pos = 0;
  std::vector<Scope> scopes;
  std::vector<int> statementScopes;
  int64_t registersDeclared = 0; // in the entry being parsed

  const Token &peek(size_t ahead = 0) const {
    return tokens[std::min(pos + ahead, tokens.size() - 1)];
  }
  bool at(Token::Kind kind) const { return peek().kind == kind; }
  const Token &next() {
    const Token &token = peek();
    if (pos < tokens.size() - 1)
      ++pos;
    return token;
  }
  bool accept(const char *text) {
    if (peek().text != text || peek().kind == Token::Kind::End)
      return false;
    next();
    return true;
  }
  [[noreturn]] void fail(const std::string &message) const {
    throw Error(peek().line, message);
  }
  void expect(const char *text) {
    if (!accept(text))
      fail(std::string("expected '") + text + "', got '" + peek().text + "'");
  }
  int64_t integer() {
    bool negative = accept("-");
    const Token &token = next();
    if (token.kind != Token::Kind::Number)
      throw Error(token.line, "expected a number, got '" + token.text + "'");
    int64_t value = static_cast<int64_t>(std::strtoull(
        token.text.c_str(), nullptr,
        token.text.rfind("0x", 0) == 0 || token.text.rfind("0X", 0) == 0 ? 16
                                                                         : 10));
    return negative ? -value : value;
  }
  /// `.align N`'s N: a power of two (PTX ISA, "Variable and Function
  /// Attribute Directive: .align") up to kMaxAlign.
  int64_t alignment() {
    int line = peek().line;
    int64_t value = integer();
    if (value < 1 || value > kMaxAlign || (value & (value - 1)))
      throw Error(line, ".align " + std::to_string(value) +
                            " is not a power of two from 1 to " +
                            std::to_string(kMaxAlign));
    return value;
  }
  /// An array's element count `[N]`, its bytes (of `elementBytes` each) at
  /// most kMaxArrayBytes.
  int64_t arrayCount(int64_t elementBytes) {
    int line = peek().line;
    int64_t count = integer();
    if (count < 1 ||
        count > kMaxArrayBytes / std::max<int64_t>(elementBytes, 1))
      throw Error(line, "array of " + std::to_string(count) +
                            " elements: not 1 to " +
                            std::to_string(kMaxArrayBytes) + " bytes");
    return count;
  }

  void parseTopLevel(Module &module) {
    // Linkage and the decl's directives, then a variable or an entry.
    Global global;
    global.line = peek().line;
    int64_t align = 1;
    std::string space, type;
    while (at(Token::Kind::Identifier) && peek().text[0] == '.') {
      std::string directive = next().text;
      if (directive == ".visible" || directive == ".weak")
        continue;
      if (directive == ".extern") {
        global.external = true;
      } else if (directive == ".entry") {
        module.entries.push_back(parseEntry());
        return;
      } else if (directive == ".func") {
        fail(".func is not supported (fa4 kernels have no calls)");
      } else if (directive == ".align") {
        align = alignment();
      } else if (directive == ".global" || directive == ".shared" ||
                 directive == ".const") {
        space = directive;
      } else if (typeBytes(directive) > 0) {
        type = directive;
        break;
      } else {
        fail("unsupported directive '" + directive + "'");
      }
    }
    if (space.empty() || type.empty())
      fail("expected a variable declaration, got '" + peek().text + "'");
    global.space = space;
    global.type = type;
    global.align = align;
    global.elementBytes = typeBytes(type);
    global.name = next().text;
    if (accept("[")) {
      global.count = peek().text == "]" ? 0 : arrayCount(global.elementBytes);
      expect("]");
    }
    if (accept("=")) {
      std::vector<int64_t> values;
      if (accept("{")) {
        do {
          values.push_back(integer());
        } while (accept(","));
        expect("}");
      } else {
        values.push_back(integer());
      }
      for (int64_t value : values)
        for (int b = 0; b < global.elementBytes; ++b)
          global.init.push_back(static_cast<uint8_t>(value >> (8 * b)));
    }
    expect(";");
    module.globals.push_back(std::move(global));
  }

  Param parseParam() {
    Param param;
    expect(".param");
    bool pointer = false;
    while (at(Token::Kind::Identifier) && peek().text[0] == '.') {
      std::string attribute = next().text;
      // After .ptr, .align is the pointee's alignment (PTX ISA, "Kernel
      // Function Parameter Attributes"), not the parameter's.
      if (attribute == ".ptr")
        pointer = true;
      if (attribute == ".align" && pointer)
        alignment();
      else if (attribute == ".align")
        param.align = alignment();
      else if (typeBytes(attribute) > 0)
        param.type = attribute;
      else if (attribute != ".ptr" && attribute != ".global" &&
               attribute != ".shared" && attribute != ".const")
        fail("unsupported parameter attribute '" + attribute + "'");
    }
    if (param.type.empty())
      fail("parameter without a type");
    param.name = next().text;
    param.bytes = typeBytes(param.type);
    if (accept("[")) {
      param.bytes *= arrayCount(param.bytes);
      expect("]");
    }
    param.align = std::max<int64_t>(param.align, typeBytes(param.type));
    return param;
  }

  Entry parseEntry() {
    Entry entry;
    entry.line = peek().line;
    entry.name = next().text;
    expect("(");
    if (!accept(")")) {
      do {
        entry.params.push_back(parseParam());
      } while (accept(","));
      expect(")");
    }
    while (at(Token::Kind::Identifier) && peek().text[0] == '.') {
      int line = peek().line;
      std::string directive = next().text;
      std::vector<int64_t> values;
      if (at(Token::Kind::Number))
        do {
          values.push_back(integer());
        } while (accept(","));
      if (directive == ".maxntid" || directive == ".reqntid") {
        int64_t threads = 1;
        for (size_t i = 0; i < 3; ++i) {
          int64_t value = i < values.size() ? values[i] : 1;
          // A CTA has at most 1024 threads (PTX ISA, .maxntid).
          if (value < 1 || value > 1024 || (threads *= value) > 1024)
            throw Error(line, directive + ": more than 1024 threads or an "
                                          "extent below 1");
          entry.maxThreads[i] = int(value);
        }
      } else if (directive == ".reqnctapercluster") {
        entry.minClusterCtas = 1;
        for (int64_t value : values)
          entry.minClusterCtas *= int(value);
      } else if (directive != ".minnctapersm" && directive != ".maxnreg" &&
                 directive != ".explicitcluster" &&
                 directive != ".maxclusterrank") {
        fail("unsupported entry directive '" + directive + "'");
      }
    }
    scopes.clear();
    statementScopes.clear();
    registersDeclared = 0;
    expect("{");
    scopes.push_back(Scope{});
    parseBlock(entry, 0);
    resolveNames(entry);
    return entry;
  }

  void declareRegisters(Entry &entry, int scope) {
    RegisterDecl decl;
    decl.type = next().text;
    if (typeBytes(decl.type) == 0)
      fail("unsupported register type '" + decl.type + "'");
    do {
      std::string name = next().text;
      RegisterDecl one = decl;
      int line = peek().line;
      int64_t count = 1;
      if (accept("<")) {
        count = integer();
        if (count < 0 || count > kMaxRegisters)
          throw Error(line, "register range " + name + "<" +
                                std::to_string(count) + ">: not 0 to " +
                                std::to_string(kMaxRegisters));
        one.count = int(count);
        expect(">");
        scopes[scope].ranges[name] = one.count;
      } else {
        scopes[scope].names.insert(name);
      }
      registersDeclared += count;
      if (registersDeclared > kMaxRegisters)
        throw Error(line, "more than " + std::to_string(kMaxRegisters) +
                              " registers declared in " + entry.name);
      one.name = scopeName(name, scope);
      entry.registers.push_back(one);
    } while (accept(","));
    expect(";");
  }

  static std::string scopeName(const std::string &name, int scope) {
    return scope == 0 ? name : name + "#" + std::to_string(scope);
  }

  void parseBlock(Entry &entry, int scope) {
    while (!accept("}")) {
      if (at(Token::Kind::End))
        fail("unterminated entry body");
      if (accept("{")) {
        scopes.push_back(Scope{scope, {}, {}, {}});
        parseBlock(entry, int(scopes.size()) - 1);
        continue;
      }
      if (peek().text == ".reg") {
        next();
        declareRegisters(entry, scope);
        continue;
      }
      if (peek().text == ".pragma") {
        while (!accept(";"))
          next();
        continue;
      }
      if (peek().text == ".local" || peek().text == ".shared" ||
          peek().text == ".param")
        fail("'" + peek().text +
             "' declarations in an entry body are not "
             "supported");
      if (at(Token::Kind::Identifier) && peek(1).text == ":" &&
          peek(1).kind == Token::Kind::Punct) {
        Statement label;
        label.isLabel = true;
        label.label = next().text;
        next();
        scopes[scope].labels.insert(label.label);
        entry.body.push_back(label);
        statementScopes.push_back(scope);
        continue;
      }
      Statement statement;
      statement.instruction = parseInstruction();
      entry.body.push_back(std::move(statement));
      statementScopes.push_back(scope);
    }
  }

  Instruction parseInstruction() {
    Instruction instruction;
    instruction.line = peek().line;
    if (accept("@")) {
      instruction.guardNegated = accept("!");
      instruction.guard = next().text;
    }
    if (!at(Token::Kind::Identifier))
      fail("expected an instruction, got '" + peek().text + "'");
    instruction.opcode = next().text;
    if (!accept(";")) {
      do {
        Operand operand = parseOperand();
        // d|p (setp, elect.sync, shfl.sync): a pair of destinations.
        if (accept("|")) {
          Operand pair;
          pair.kind = Operand::Kind::Vector;
          pair.elements = {operand, parseOperand()};
          operand = pair;
        }
        instruction.operands.push_back(operand);
      } while (accept(","));
      expect(";");
    }
    return instruction;
  }

  Operand immediate(const Token &token, bool negative) {
    Operand operand;
    operand.kind = Operand::Kind::Immediate;
    const std::string &text = token.text;
    if (text.size() > 2 && text[0] == '0' &&
        (text[1] == 'f' || text[1] == 'F')) {
      operand.isFloat = true;
      operand.bits = std::strtoull(text.c_str() + 2, nullptr, 16);
      if (negative)
        operand.bits ^= 0x80000000u;
      return operand;
    }
    if (text.size() > 2 && text[0] == '0' &&
        (text[1] == 'd' || text[1] == 'D')) {
      operand.isFloat = operand.isDouble = true;
      operand.bits = std::strtoull(text.c_str() + 2, nullptr, 16);
      if (negative)
        operand.bits ^= 0x8000000000000000ull;
      return operand;
    }
    if (text.find('.') != std::string::npos) {
      operand.isFloat = operand.isDouble = true;
      double value = std::strtod(text.c_str(), nullptr);
      if (negative)
        value = -value;
      std::memcpy(&operand.bits, &value, 8);
      return operand;
    }
    bool hex =
        text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    uint64_t value = std::strtoull(text.c_str(), nullptr, hex ? 16 : 10);
    operand.bits = negative ? uint64_t(0) - value : value;
    return operand;
  }

  Operand parseOperand() {
    if (accept("{")) {
      Operand vector;
      vector.kind = Operand::Kind::Vector;
      if (!accept("}")) {
        do {
          vector.elements.push_back(parseOperand());
        } while (accept(","));
        expect("}");
      }
      return vector;
    }
    if (accept("[")) {
      Operand address;
      address.kind = Operand::Kind::Address;
      if (at(Token::Kind::Number)) {
        address.offset = integer();
      } else {
        address.name = next().text;
        address.baseIsRegister = address.name[0] == '%';
      }
      if (accept(",")) {
        Operand coords;
        coords.kind = Operand::Kind::TensorCoords;
        coords.elements.push_back(address);
        Operand vector = parseOperand();
        for (Operand &element : vector.elements)
          coords.elements.push_back(element);
        expect("]");
        return coords;
      }
      if (accept("+"))
        address.offset += integer();
      else if (accept("-"))
        address.offset -= integer();
      expect("]");
      return address;
    }
    bool negated = accept("!");
    bool negative = !negated && accept("-");
    const Token &token = next();
    if (token.kind == Token::Kind::Number)
      return immediate(token, negative);
    if (token.kind != Token::Kind::Identifier)
      throw Error(token.line, "unexpected '" + token.text + "' in an operand");
    Operand operand;
    operand.kind =
        token.text[0] == '%' ? Operand::Kind::Register : Operand::Kind::Symbol;
    operand.name = token.text;
    operand.negated = negated;
    if (operand.kind == Operand::Kind::Symbol && accept("+"))
      operand.offset = integer();
    return operand;
  }

  /// The scope (walking out from `scope`) that declares register `name`.
  int registerScope(const std::string &name, int scope) const {
    for (int s = scope; s >= 0; s = scopes[s].parent) {
      if (scopes[s].names.count(name))
        return s;
      size_t digits = name.size();
      while (digits > 0 &&
             std::isdigit(static_cast<unsigned char>(name[digits - 1])))
        --digits;
      if (digits < name.size()) {
        auto range = scopes[s].ranges.find(name.substr(0, digits));
        if (range != scopes[s].ranges.end() &&
            std::atoi(name.c_str() + digits) < range->second)
          return s;
      }
    }
    return -1;
  }
  int labelScope(const std::string &name, int scope) const {
    for (int s = scope; s >= 0; s = scopes[s].parent)
      if (scopes[s].labels.count(name))
        return s;
    return -1;
  }

  void resolveOperand(Operand &operand, int scope, int line) {
    for (Operand &element : operand.elements)
      resolveOperand(element, scope, line);
    std::string &name = operand.name;
    if (name.empty())
      return;
    int declared = registerScope(name, scope);
    if (declared >= 0) {
      name = scopeName(name, declared);
      if (operand.kind == Operand::Kind::Symbol)
        operand.kind = Operand::Kind::Register;
      if (operand.kind == Operand::Kind::Address)
        operand.baseIsRegister = true;
      return;
    }
    int labelled = labelScope(name, scope);
    if (labelled >= 0) {
      name = scopeName(name, labelled);
      return;
    }
    if (operand.kind == Operand::Kind::Register &&
        !(name.rfind("%tid", 0) == 0 || name.rfind("%ntid", 0) == 0 ||
          name.rfind("%ctaid", 0) == 0 || name.rfind("%nctaid", 0) == 0 ||
          name.rfind("%cluster", 0) == 0 || name.rfind("%nclusterid", 0) == 0 ||
          name == "%laneid" || name == "%warpid" || name == "%smid" ||
          name == "%nsmid" || name == "%dynamic_smem_size" ||
          name == "%total_smem_size" || name.rfind("%lanemask", 0) == 0 ||
          name == "%clock" || name == "%clock64" || name == "%globaltimer" ||
          name == "%is_explicit_cluster"))
      throw Error(line, "undeclared register '" + name + "'");
  }

  void resolveNames(Entry &entry) {
    for (size_t i = 0; i < entry.body.size(); ++i) {
      Statement &statement = entry.body[i];
      int scope = statementScopes[i];
      if (statement.isLabel) {
        statement.label = scopeName(statement.label, scope);
        continue;
      }
      Instruction &instruction = statement.instruction;
      if (!instruction.guard.empty()) {
        int declared = registerScope(instruction.guard, scope);
        if (declared < 0)
          throw Error(instruction.line,
                      "undeclared predicate '" + instruction.guard + "'");
        instruction.guard = scopeName(instruction.guard, declared);
      }
      for (Operand &operand : instruction.operands)
        resolveOperand(operand, scope, instruction.line);
    }
  }
};

} // namespace

Module fa4::emu::ptx::parse(std::string_view text) {
  return Parser(text).parseModule();
}

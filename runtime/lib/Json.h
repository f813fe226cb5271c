//===- Json.h - A small JSON reader for manifests ---------------*- C++ -*-===//
//
// RFC 8259 JSON, read into a tree. The GPU machine can install nothing, so
// the runtime carries its own parser instead of a third-party one. Object
// members keep their order so that errors can be reported predictably.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_JSON_H
#define FA4_RUNTIME_JSON_H

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fa4::json {

class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;

  /// The member named `key`, or null if absent (objects only).
  const Value *find(std::string_view key) const;
  /// True for numbers with no fractional part that a double holds exactly.
  bool isInteger() const;
};

/// "object", "string", ...: for error messages.
const char *kindName(Value::Kind kind);

class ParseError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Parses one JSON document; throws ParseError("line:column: message").
Value parse(std::string_view text);

} // namespace fa4::json

#endif // FA4_RUNTIME_JSON_H

//===- Json.h - A small JSON reader for manifests ---------------*- C++ -*-===//
//
// RFC 8259 JSON, read into a tree. The GPU machine can install nothing, so
// the runtime carries its own parser instead of a third-party one. Object
// members keep their order so that errors can be reported predictably.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_JSON_H
#define FA4_RUNTIME_JSON_H

#include <optional>
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

/// `value` as compact JSON text, for messages: at most `maxChars`
/// characters, cut with "..." past them.
std::string render(const Value &value, size_t maxChars = 80);

/// Where `a` and `b` first differ, as a field path ("launch.cluster[0]";
/// "" for the roots themselves), or nothing when they are equal: the same
/// kinds and values, arrays element by element, objects with the same
/// members in any order.
std::optional<std::string> firstDifference(const Value &a, const Value &b);

/// The member at `path` as firstDifference names it, or null.
const Value *atPath(const Value &root, std::string_view path);

} // namespace fa4::json

#endif // FA4_RUNTIME_JSON_H

//===- Json.cpp - A small JSON reader for manifests -----------------------===//

#include "Json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace fa4::json;

const Value *Value::find(std::string_view key) const {
  for (const auto &[name, value] : object)
    if (name == key)
      return &value;
  return nullptr;
}

bool Value::isInteger() const {
  // 2^53: beyond it a double no longer holds every integer.
  return kind == Kind::Number && std::trunc(number) == number &&
         std::fabs(number) <= 9007199254740992.0;
}

const char *fa4::json::kindName(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "boolean";
  case Value::Kind::Number:
    return "number";
  case Value::Kind::String:
    return "string";
  case Value::Kind::Array:
    return "array";
  case Value::Kind::Object:
    return "object";
  }
  return "?";
}

namespace {

class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  Value parseDocument() {
    Value value = parseValue(0);
    skipWhitespace();
    if (pos != text.size())
      fail("unexpected text after the JSON value");
    return value;
  }

private:
  // Deep enough for any manifest; bounds recursion on hostile input.
  static constexpr int maxDepth = 64;

  std::string_view text;
  size_t pos = 0;

  [[noreturn]] void fail(const std::string &message) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw ParseError(std::to_string(line) + ":" + std::to_string(column) +
                     ": " + message);
  }

  void skipWhitespace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consume(char c) {
    skipWhitespace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!consume(c))
      fail(std::string("expected '") + c + "'");
  }

  void expectWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      fail("invalid literal");
    pos += word.size();
  }

  Value parseValue(int depth) {
    if (depth > maxDepth)
      fail("nesting deeper than " + std::to_string(maxDepth));
    skipWhitespace();
    if (pos == text.size())
      fail("unexpected end of input");
    Value value;
    switch (text[pos]) {
    case '{':
      ++pos;
      value.kind = Value::Kind::Object;
      if (consume('}'))
        return value;
      do {
        skipWhitespace();
        if (pos == text.size() || text[pos] != '"')
          fail("expected a string key");
        std::string key = parseString();
        if (value.find(key))
          fail("duplicate key \"" + key + "\"");
        expect(':');
        value.object.emplace_back(std::move(key), parseValue(depth + 1));
      } while (consume(','));
      expect('}');
      return value;
    case '[':
      ++pos;
      value.kind = Value::Kind::Array;
      if (consume(']'))
        return value;
      do
        value.array.push_back(parseValue(depth + 1));
      while (consume(','));
      expect(']');
      return value;
    case '"':
      value.kind = Value::Kind::String;
      value.string = parseString();
      return value;
    case 't':
      expectWord("true");
      value.kind = Value::Kind::Bool;
      value.boolean = true;
      return value;
    case 'f':
      expectWord("false");
      value.kind = Value::Kind::Bool;
      return value;
    case 'n':
      expectWord("null");
      return value;
    default:
      value.kind = Value::Kind::Number;
      value.number = parseNumber();
      return value;
    }
  }

  bool atDigit() const {
    return pos < text.size() && text[pos] >= '0' && text[pos] <= '9';
  }

  // Checks the RFC 8259 number grammar, then lets strtod convert.
  double parseNumber() {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    if (!atDigit())
      fail("invalid value");
    if (text[pos] == '0')
      ++pos;
    else
      while (atDigit())
        ++pos;
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      if (!atDigit())
        fail("expected a digit after '.'");
      while (atDigit())
        ++pos;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (!atDigit())
        fail("expected a digit in the exponent");
      while (atDigit())
        ++pos;
    }
    std::string digits(text.substr(start, pos - start));
    return std::strtod(digits.c_str(), nullptr);
  }

  unsigned parseHex4() {
    if (pos + 4 > text.size())
      fail("truncated \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      code <<= 4;
      if (c >= '0' && c <= '9')
        code |= c - '0';
      else if (c >= 'a' && c <= 'f')
        code |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        code |= c - 'A' + 10;
      else
        fail("invalid hex digit in \\u escape");
    }
    return code;
  }

  static void appendUtf8(std::string &out, unsigned code) {
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xC0 | (code >> 6));
      out += char(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += char(0xE0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3F));
      out += char(0x80 | (code & 0x3F));
    } else {
      out += char(0xF0 | (code >> 18));
      out += char(0x80 | ((code >> 12) & 0x3F));
      out += char(0x80 | ((code >> 6) & 0x3F));
      out += char(0x80 | (code & 0x3F));
    }
  }

  std::string parseString() {
    ++pos; // opening quote
    std::string out;
    while (true) {
      if (pos == text.size())
        fail("unterminated string");
      char c = text[pos++];
      if (c == '"')
        return out;
      if (static_cast<unsigned char>(c) < 0x20)
        fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos == text.size())
        fail("unterminated string");
      switch (char escape = text[pos++]) {
      case '"':
      case '\\':
      case '/':
        out += escape;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned code = parseHex4();
        if (code >= 0xD800 && code < 0xDC00) {
          if (text.substr(pos, 2) != "\\u")
            fail("unpaired UTF-16 surrogate");
          pos += 2;
          unsigned low = parseHex4();
          if (low < 0xDC00 || low >= 0xE000)
            fail("invalid UTF-16 low surrogate");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code < 0xE000) {
          fail("unpaired UTF-16 surrogate");
        }
        appendUtf8(out, code);
        break;
      }
      default:
        fail(std::string("invalid escape '\\") + escape + "'");
      }
    }
  }
};

} // namespace

Value fa4::json::parse(std::string_view text) {
  return Parser(text).parseDocument();
}

static void renderInto(const Value &value, std::string &out, size_t maxChars) {
  if (out.size() > maxChars)
    return;
  switch (value.kind) {
  case Value::Kind::Null:
    out += "null";
    return;
  case Value::Kind::Bool:
    out += value.boolean ? "true" : "false";
    return;
  case Value::Kind::Number: {
    char text[32];
    if (value.isInteger())
      std::snprintf(text, sizeof(text), "%lld",
                    static_cast<long long>(value.number));
    else
      std::snprintf(text, sizeof(text), "%.17g", value.number);
    out += text;
    return;
  }
  case Value::Kind::String:
    out += '"';
    for (char c : value.string)
      out += (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
                 ? '?'
                 : c;
    out += '"';
    return;
  case Value::Kind::Array:
    out += '[';
    for (size_t i = 0; i < value.array.size(); ++i) {
      if (i)
        out += ',';
      renderInto(value.array[i], out, maxChars);
    }
    out += ']';
    return;
  case Value::Kind::Object:
    out += '{';
    for (size_t i = 0; i < value.object.size(); ++i) {
      if (i)
        out += ',';
      Value key;
      key.kind = Value::Kind::String;
      key.string = value.object[i].first;
      renderInto(key, out, maxChars);
      out += ':';
      renderInto(value.object[i].second, out, maxChars);
    }
    out += '}';
    return;
  }
}

std::string fa4::json::render(const Value &value, size_t maxChars) {
  std::string out;
  renderInto(value, out, maxChars);
  if (out.size() > maxChars)
    out = out.substr(0, maxChars) + "...";
  return out;
}

/// `inner`, a path within the member or element `outer`, from the root.
static std::string joinPath(const std::string &outer,
                            const std::string &inner) {
  return inner.empty() || inner.front() == '[' ? outer + inner
                                               : outer + "." + inner;
}

std::optional<std::string> fa4::json::firstDifference(const Value &a,
                                                      const Value &b) {
  if (a.kind != b.kind)
    return "";
  switch (a.kind) {
  case Value::Kind::Null:
    return std::nullopt;
  case Value::Kind::Bool:
    return a.boolean == b.boolean ? std::nullopt : std::optional(std::string());
  case Value::Kind::Number:
    return a.number == b.number ? std::nullopt : std::optional(std::string());
  case Value::Kind::String:
    return a.string == b.string ? std::nullopt : std::optional(std::string());
  case Value::Kind::Array:
    if (a.array.size() != b.array.size())
      return "";
    for (size_t i = 0; i < a.array.size(); ++i)
      if (auto inner = firstDifference(a.array[i], b.array[i]))
        return joinPath("[" + std::to_string(i) + "]", *inner);
    return std::nullopt;
  case Value::Kind::Object:
    for (const auto &[key, value] : a.object) {
      const Value *other = b.find(key);
      if (!other)
        return key;
      if (auto inner = firstDifference(value, *other))
        return joinPath(key, *inner);
    }
    for (const auto &[key, value] : b.object)
      if (!a.find(key))
        return key;
    return std::nullopt;
  }
  return "";
}

const Value *fa4::json::atPath(const Value &root, std::string_view path) {
  const Value *at = &root;
  while (!path.empty() && at) {
    if (path.front() == '[') {
      size_t close = path.find(']');
      if (close == std::string_view::npos || at->kind != Value::Kind::Array)
        return nullptr;
      size_t index = std::strtoull(
          std::string(path.substr(1, close - 1)).c_str(), nullptr, 10);
      at = index < at->array.size() ? &at->array[index] : nullptr;
      path.remove_prefix(close + 1);
    } else {
      if (path.front() == '.')
        path.remove_prefix(1);
      size_t end = path.find_first_of(".[");
      std::string_view key = path.substr(0, end);
      at = at->kind == Value::Kind::Object ? at->find(key) : nullptr;
      path.remove_prefix(end == std::string_view::npos ? path.size() : end);
    }
  }
  return at;
}

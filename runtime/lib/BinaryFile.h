//===- BinaryFile.h - Reading a kernel binary a manifest names --*- C++ -*-===//
//
// A manifest is data the runtime did not write: its binary.file must not
// lead the runtime to read anything but a bounded regular file in the
// manifest's own directory (not ../../etc/passwd, not a symbolic link out of
// the directory, not /dev/zero or a FIFO).
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_BINARYFILE_H
#define FA4_RUNTIME_BINARYFILE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fa4::rt {

/// The largest kernel binary the runtime reads: fa4's cubins and PTX are a
/// few MiB at most, and the cap keeps a hostile manifest from making the
/// runtime allocate without bound.
constexpr uint64_t kMaxBinaryBytes = uint64_t(256) << 20;

/// The longest file name (NAME_MAX on Linux).
constexpr size_t kMaxBinaryNameBytes = 255;

/// What makes `name` something other than a plain file name (non-empty, no
/// '/', not "." or "..", no control character, at most kMaxBinaryNameBytes
/// bytes), as a phrase that follows the quoted name ("is an absolute path");
/// empty when it is one.
std::string plainFileNameProblem(std::string_view name);

/// `name` with its control characters, quotes, backslashes and bytes past
/// ASCII escaped as \xNN: safe to print whatever the manifest held.
std::string escapedFileName(std::string_view name);

/// escapedFileName in double quotes.
std::string quotedFileName(std::string_view name);

/// The bytes of the plain file `name` in `dir` ("" is the current
/// directory), opened without following a symbolic link and without
/// blocking, required to be a regular file of 1 to kMaxBinaryBytes bytes.
/// Throws Error(FA4_ERROR_IO) naming the file and the rule.
std::vector<char> readBinaryFile(const std::string &dir,
                                 const std::string &name);

} // namespace fa4::rt

#endif // FA4_RUNTIME_BINARYFILE_H

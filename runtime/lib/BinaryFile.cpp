//===- BinaryFile.cpp - Reading a kernel binary a manifest names ----------===//

#include "BinaryFile.h"

#include "Error.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace fa4::rt;

std::string fa4::rt::plainFileNameProblem(std::string_view name) {
  if (name.empty())
    return "is empty";
  if (name.size() > kMaxBinaryNameBytes)
    return "is " + std::to_string(name.size()) + " bytes long, more than " +
           std::to_string(kMaxBinaryNameBytes);
  for (size_t i = 0; i < name.size(); ++i) {
    auto byte = static_cast<unsigned char>(name[i]);
    if (byte < 0x20 || byte == 0x7f)
      return "has a control character at byte " + std::to_string(i);
  }
  if (name.front() == '/')
    return "is an absolute path";
  if (name.find('/') != std::string_view::npos)
    return "contains '/'";
  if (name == "." || name == "..")
    return "names a directory";
  return "";
}

std::string fa4::rt::escapedFileName(std::string_view name) {
  std::string text;
  for (char c : name) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", byte);
      text += escaped;
    } else {
      text += c;
    }
  }
  return text;
}

std::string fa4::rt::quotedFileName(std::string_view name) {
  return "\"" + escapedFileName(name) + "\"";
}

namespace {

/// Closes a file descriptor when it goes out of scope.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd) : fd(fd) {}
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
  int get() const { return fd; }

private:
  int fd;
};

/// Reads one kernel binary; every refusal names the file.
class BinaryReader {
public:
  BinaryReader(const std::string &dir, const std::string &name)
      : dir(dir), name(name),
        path((dir.empty() ? "" : dir + "/") + escapedFileName(name)) {}

  std::vector<char> read() {
    std::string problem = plainFileNameProblem(name);
    // The manifest reader refuses these already; a Manifest built another
    // way gets the same rule here.
    if (!problem.empty())
      fail(quotedFileName(name) + " " + problem +
           "; expected a plain file name in the manifest's directory");
    FileDescriptor directory(openDirectory());
    FileDescriptor file(openFile(directory.get()));
    uint64_t size = checkedSize(file.get());
    return readAll(file.get(), size);
  }

private:
  const std::string &dir;
  const std::string &name;
  std::string path; // for messages

  [[noreturn]] void fail(const std::string &message) const {
    throw Error(FA4_ERROR_IO, "kernel binary '" + path + "': " + message);
  }

  /// `error`, an errno, read before the message is built (which may
  /// allocate and so change errno).
  [[noreturn]] void failErrno(int error, const std::string &what) const {
    fail(what + ": " + std::strerror(error));
  }

  int openDirectory() const {
    int fd = ::open(dir.empty() ? "." : dir.c_str(),
                    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      int error = errno;
      failErrno(error, "cannot open the directory '" +
                           (dir.empty() ? "." : dir) + "'");
    }
    return fd;
  }

  // O_NOFOLLOW: a symbolic link, even one inside the directory, may point
  // anywhere. O_NONBLOCK: opening a FIFO would wait for a writer.
  int openFile(int directory) const {
    int fd =
        ::openat(directory, name.c_str(),
                 O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    int error = errno;
    if (fd >= 0)
      return fd;
    if (error == ELOOP)
      fail("is a symbolic link; expected a regular file (links are not "
           "followed)");
    failErrno(error, "cannot open");
  }

  static const char *kindOf(mode_t mode) {
    if (S_ISDIR(mode))
      return "a directory";
    if (S_ISFIFO(mode))
      return "a FIFO";
    if (S_ISCHR(mode))
      return "a character device";
    if (S_ISBLK(mode))
      return "a block device";
    if (S_ISSOCK(mode))
      return "a socket";
    return "a special file";
  }

  uint64_t checkedSize(int fd) const {
    struct stat info;
    if (::fstat(fd, &info) != 0)
      failErrno(errno, "cannot stat");
    if (!S_ISREG(info.st_mode))
      fail(std::string("is ") + kindOf(info.st_mode) +
           "; expected a regular file");
    auto size = static_cast<uint64_t>(info.st_size);
    if (size > kMaxBinaryBytes)
      fail("is " + std::to_string(size) + " bytes, more than " + capText());
    return size;
  }

  static std::string capText() {
    return "the " + std::to_string(kMaxBinaryBytes) +
           " bytes (256 MiB, kMaxBinaryBytes) a kernel binary may have";
  }

  // At most kMaxBinaryBytes + 1 bytes whatever fstat said: the file may grow
  // after it, and some files report a size of 0.
  std::vector<char> readAll(int fd, uint64_t size) const {
    std::vector<char> image;
    image.reserve(size);
    char chunk[1 << 16];
    while (true) {
      uint64_t room = kMaxBinaryBytes + 1 - image.size();
      ssize_t got = ::read(fd, chunk, std::min<uint64_t>(sizeof(chunk), room));
      int error = errno;
      if (got < 0 && error == EINTR)
        continue;
      if (got < 0)
        failErrno(error, "cannot read");
      if (got == 0)
        break;
      image.insert(image.end(), chunk, chunk + got);
      if (image.size() > kMaxBinaryBytes)
        fail("grew past " + capText() + " while it was read");
    }
    if (image.empty())
      fail("is empty");
    return image;
  }
};

} // namespace

std::vector<char> fa4::rt::readBinaryFile(const std::string &dir,
                                          const std::string &name) {
  return BinaryReader(dir, name).read();
}

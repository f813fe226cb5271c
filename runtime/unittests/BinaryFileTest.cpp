//===- BinaryFileTest.cpp - Reading the binary a manifest names -----------===//
//
// Real files in a temporary directory: the file a manifest names is opened
// there, and nothing that leads out of it or never ends is read.
//
//===----------------------------------------------------------------------===//

#include "BinaryFile.h"
#include "Error.h"
#include "TestManifest.h"

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <future>
#include <sys/stat.h>
#include <unistd.h>

using namespace fa4::rt;
using namespace fa4::rt::test;

namespace {

class BinaryFileTest : public ::testing::Test {
protected:
  std::string dir;

  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "fa4-binary-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << pattern;
    dir = pattern;
  }

  void TearDown() override {
    std::string command = "rm -rf '" + dir + "'";
    EXPECT_EQ(std::system(command.c_str()), 0);
  }

  std::string path(const std::string &name) const { return dir + "/" + name; }

  void write(const std::string &name, const std::string &bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
  }

  /// The error reading `name` in the directory, or "read N bytes".
  std::string readError(const std::string &name) const {
    return readErrorIn(dir, name);
  }

  static std::string readErrorIn(const std::string &dir,
                                 const std::string &name) {
    try {
      return "read " + std::to_string(readBinaryFile(dir, name).size()) +
             " bytes";
    } catch (const Error &error) {
      EXPECT_EQ(error.status, FA4_ERROR_IO);
      return error.what();
    }
  }

  /// What the error names the file as.
  std::string named(const std::string &name) const {
    return "kernel binary '" + path(name) + "': ";
  }
};

TEST_F(BinaryFileTest, ReadsAPlainFileInTheDirectory) {
  write("kernel.cubin", "\x7f"
                        "ELF and the rest");
  EXPECT_EQ(readError("kernel.cubin"), "read 17 bytes");
  // Where the manifest puts it: its directory and its name.
  Manifest manifest =
      parseManifest(manifestWith(R"("file": "fa4_attn_fwd_sm90a.cubin")",
                                 R"("file": "kernel.cubin")"),
                    dir);
  EXPECT_EQ(readBinaryFile(manifest.binaryDir, manifest.binaryFile).size(),
            17u);
  EXPECT_EQ(manifest.binaryPath, path("kernel.cubin"));
}

TEST_F(BinaryFileTest, RefusesNamesThatLeaveTheDirectory) {
  // The manifest reader refuses these first; a Manifest built another way
  // meets the same rule here.
  EXPECT_EQ(readError("../../etc/passwd"),
            named("../../etc/passwd") +
                "\"../../etc/passwd\" contains '/'; expected a plain file "
                "name in the manifest's directory");
  EXPECT_EQ(readErrorIn(dir, "/etc/passwd"),
            "kernel binary '" + dir +
                "//etc/passwd': \"/etc/passwd\" is an absolute path; "
                "expected a plain file name in the manifest's directory");
  EXPECT_EQ(readError(std::string("kernel.cubin\0.txt", 17)),
            named("kernel.cubin\\x00.txt") +
                "\"kernel.cubin\\x00.txt\" has a control character at byte "
                "12; expected a plain file name in the manifest's directory");
  EXPECT_EQ(readError(""),
            named("") + "\"\" is empty; expected a plain file name in the "
                        "manifest's directory");
}

TEST_F(BinaryFileTest, RefusesASymbolicLinkOutOfTheDirectory) {
  ASSERT_EQ(::symlink("/etc/passwd", path("kernel.cubin").c_str()), 0);
  EXPECT_EQ(readError("kernel.cubin"),
            named("kernel.cubin") + "is a symbolic link; expected a regular "
                                    "file (links are not followed)");
  // Inside the directory too: the link is not followed whatever it names.
  write("real.cubin", "bytes");
  ASSERT_EQ(::symlink("real.cubin", path("link.cubin").c_str()), 0);
  EXPECT_EQ(readError("link.cubin"),
            named("link.cubin") + "is a symbolic link; expected a regular "
                                  "file (links are not followed)");
}

TEST_F(BinaryFileTest, RefusesDevZero) {
  // It never ends: read whole, it would exhaust memory.
  ASSERT_EQ(::symlink("/dev/zero", path("zero.cubin").c_str()), 0);
  EXPECT_EQ(readError("zero.cubin"),
            named("zero.cubin") + "is a symbolic link; expected a regular "
                                  "file (links are not followed)");
  EXPECT_EQ(readErrorIn("/dev", "zero"),
            "kernel binary '/dev/zero': is a character device; expected a "
            "regular file");
}

TEST_F(BinaryFileTest, RefusesAFifoWithoutBlocking) {
  ASSERT_EQ(::mkfifo(path("kernel.cubin").c_str(), 0600), 0);
  auto result =
      std::async(std::launch::async, [&] { return readError("kernel.cubin"); });
  if (result.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    // Opening a writer unblocks the reader, so the test ends either way.
    int writer = ::open(path("kernel.cubin").c_str(), O_WRONLY | O_NONBLOCK);
    if (writer >= 0)
      ::close(writer);
    FAIL() << "reading a FIFO blocked";
  }
  EXPECT_EQ(result.get(),
            named("kernel.cubin") + "is a FIFO; expected a regular file");
}

TEST_F(BinaryFileTest, RefusesADirectory) {
  ASSERT_EQ(::mkdir(path("kernel.cubin").c_str(), 0700), 0);
  EXPECT_EQ(readError("kernel.cubin"),
            named("kernel.cubin") + "is a directory; expected a regular file");
}

TEST_F(BinaryFileTest, RefusesAFileOverTheCap) {
  // Sparse: no disk, and refused from its size before any byte is read.
  write("huge.cubin", "");
  ASSERT_EQ(::truncate(path("huge.cubin").c_str(),
                       static_cast<off_t>(kMaxBinaryBytes + 1)),
            0);
  EXPECT_EQ(readError("huge.cubin"),
            named("huge.cubin") +
                "is 268435457 bytes, more than the 268435456 bytes (256 MiB, "
                "kMaxBinaryBytes) a kernel binary may have");
}

TEST_F(BinaryFileTest, RefusesAnEmptyOrMissingFile) {
  write("empty.cubin", "");
  EXPECT_EQ(readError("empty.cubin"), named("empty.cubin") + "is empty");
  EXPECT_EQ(readError("missing.cubin"),
            named("missing.cubin") + "cannot open: No such file or directory");
  EXPECT_EQ(readErrorIn(path("missing"), "kernel.cubin"),
            "kernel binary '" + path("missing/kernel.cubin") +
                "': cannot open the directory '" + path("missing") +
                "': No such file or directory");
}

} // namespace

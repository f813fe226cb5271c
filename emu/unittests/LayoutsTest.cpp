//===- LayoutsTest.cpp - Swizzles, wgmma descriptors, TMA boxes -----------===//
//
// Three kinds of expectations: values worked out by hand from the PTX ISA's
// tables and examples (the comments show the arithmetic), CUTLASS's GMMA
// layouts (goldens/wgmma-layouts.txt, written by gen-wgmma-goldens.cpp)
// and UMMA (tcgen05) descriptors and layouts (goldens/umma-layouts.txt,
// gen-umma-goldens.cpp), and what an H200 did (goldens/hw-layouts.txt,
// written by gen-hw-goldens.cu). FA4_EMU_GOLDENS_DIR names the goldens
// folder.
//
//===----------------------------------------------------------------------===//

#include "Layouts.h"
#include "Numerics.h"

#include "gtest/gtest.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifndef FA4_EMU_GOLDENS_DIR
#error "FA4_EMU_GOLDENS_DIR must name emu/unittests/goldens"
#endif

using namespace fa4::emu;

namespace {

/// Descriptor bits from fields, at the positions of PTX ISA 9.7.15.5.1.2.2
/// written out here: start, LBO, SBO in bytes (stored >> 4), base offset,
/// and the 2-bit mode (0 none, 1 128B, 2 64B, 3 32B).
uint64_t descriptorBits(uint32_t start, uint32_t lbo, uint32_t sbo,
                        uint32_t base, uint32_t mode) {
  return uint64_t((start & 0x3FFFF) >> 4) |
         uint64_t((lbo & 0x3FFFF) >> 4) << 16 |
         uint64_t((sbo & 0x3FFFF) >> 4) << 32 | uint64_t(base) << 49 |
         uint64_t(mode) << 62;
}

WgmmaDescriptor descriptor(uint32_t start, uint32_t lbo, uint32_t sbo,
                           Swizzle swizzle, uint32_t base = 0) {
  return WgmmaDescriptor{start, lbo, sbo, base, swizzle};
}

Swizzle swizzleNamed(const std::string &name) {
  if (name == "32")
    return Swizzle::B32;
  if (name == "64")
    return Swizzle::B64;
  if (name == "128")
    return Swizzle::B128;
  EXPECT_EQ(name, "none");
  return Swizzle::None;
}

std::ifstream openGolden(const char *name) {
  std::ifstream in(std::string(FA4_EMU_GOLDENS_DIR) + "/" + name);
  EXPECT_TRUE(in.good()) << "cannot open " << name;
  return in;
}

} // namespace

//===----------------------------------------------------------------------===//
// Swizzle modes (PTX ISA 5.5.7, "Swizzling Modes")
//===----------------------------------------------------------------------===//

TEST(SwizzleTest, SpanBytes) {
  EXPECT_EQ(swizzleSpanBytes(Swizzle::None), 16);
  EXPECT_EQ(swizzleSpanBytes(Swizzle::B32), 32);
  EXPECT_EQ(swizzleSpanBytes(Swizzle::B64), 64);
  EXPECT_EQ(swizzleSpanBytes(Swizzle::B128), 128);
}

// The ISA's tables number the 16-byte cells of each 128-byte line by the
// cell of the unswizzled data they hold; the address of cell c of line r is
// r * 128 + c * 16. Line r of the table, read as "position p holds chunk
// x", means chunk x goes to position p, i.e. swizzle(r*128 + x*16) =
// r*128 + p*16.
TEST(SwizzleTest, IsaTables) {
  // 128B, line 3: 3 2 1 0 7 6 5 4 (chunk x at position x ^ 3).
  for (uint32_t x = 0; x < 8; ++x)
    EXPECT_EQ(swizzleAddress(3 * 128 + x * 16, Swizzle::B128),
              3 * 128 + (x ^ 3) * 16);
  // 128B, line 6: 6 7 4 5 2 3 0 1: chunk 0 sits at position 6.
  EXPECT_EQ(swizzleAddress(6 * 128 + 0, Swizzle::B128), 6 * 128 + 6 * 16);
  // 64B, line 2: 2 3 0 1 6 7 4 5; line 5 repeats line 1: 1 0 3 2 5 4 7 6.
  EXPECT_EQ(swizzleAddress(2 * 128 + 1 * 16, Swizzle::B64), 2 * 128 + 3 * 16);
  EXPECT_EQ(swizzleAddress(5 * 128 + 4 * 16, Swizzle::B64), 5 * 128 + 5 * 16);
  // 32B, line 1: 1 0 3 2 5 4 7 6; line 2 repeats line 0.
  EXPECT_EQ(swizzleAddress(1 * 128 + 6 * 16, Swizzle::B32), 1 * 128 + 7 * 16);
  EXPECT_EQ(swizzleAddress(2 * 128 + 6 * 16, Swizzle::B32), 2 * 128 + 6 * 16);
  // Bytes inside a chunk and the bits above the repeat stay.
  EXPECT_EQ(swizzleAddress(0x12345, Swizzle::None), 0x12345u);
  // 0x12345: line bits 9..7 = 0b110 = 6, chunk bits 6..4 = 0b100 = 4,
  // 4 ^ 6 = 2: 0x12345 - 0x40 + 0x20 = 0x12325.
  EXPECT_EQ(swizzleAddress(0x12345, Swizzle::B128), 0x12325u);
}

TEST(SwizzleTest, IsAnInvolution) {
  for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128})
    for (uint32_t a = 0; a < 4096; a += 3)
      EXPECT_EQ(swizzleAddress(swizzleAddress(a, s), s), a);
}

//===----------------------------------------------------------------------===//
// The wgmma matrix descriptor (PTX ISA 9.7.15.5.1.2.2)
//===----------------------------------------------------------------------===//

TEST(WgmmaDescriptorTest, DecodesFields) {
  WgmmaDescriptor d =
      decodeWgmmaDescriptor(descriptorBits(0x2c20, 16, 1024, 0, 1));
  EXPECT_EQ(d.startAddress, 0x2c20u);
  EXPECT_EQ(d.leadingByteOffset, 16u);
  EXPECT_EQ(d.strideByteOffset, 1024u);
  EXPECT_EQ(d.baseOffset, 0u);
  EXPECT_EQ(d.swizzle, Swizzle::B128);
  // Every field at its maximum; the reserved bits (14-15, 30-31, 46-48,
  // 52-61) set too, and ignored.
  uint64_t reserved = 0xC000ull | 0xC0000000ull | 0x7ull << 46 | 0x3FFull << 52;
  d = decodeWgmmaDescriptor(descriptorBits(0x3FFF0, 0x3FFF0, 0x3FFF0, 7, 3) |
                            reserved);
  EXPECT_EQ(d.startAddress, 0x3FFF0u);
  EXPECT_EQ(d.leadingByteOffset, 0x3FFF0u);
  EXPECT_EQ(d.strideByteOffset, 0x3FFF0u);
  EXPECT_EQ(d.baseOffset, 7u);
  EXPECT_EQ(d.swizzle, Swizzle::B32);
  EXPECT_EQ(decodeWgmmaDescriptor(descriptorBits(0, 0, 0, 0, 0)).swizzle,
            Swizzle::None);
  EXPECT_EQ(decodeWgmmaDescriptor(descriptorBits(0, 0, 0, 0, 2)).swizzle,
            Swizzle::B64);
}

// Descriptors CUTLASS built field by field through GmmaDescriptor's
// bitfield union: the union's positions and ours agree.
TEST(WgmmaDescriptorTest, CutlassBitfields) {
  std::ifstream in = openGolden("wgmma-layouts.txt");
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string tag;
    row >> tag;
    if (tag != "bitfield")
      continue;
    uint32_t start, lbo, sbo, base, layout;
    uint64_t bits;
    row >> std::hex >> start >> lbo >> sbo >> base >> layout >> bits;
    EXPECT_EQ(bits,
              descriptorBits(start << 4, lbo << 4, sbo << 4, base, layout))
        << line;
    WgmmaDescriptor d = decodeWgmmaDescriptor(bits);
    EXPECT_EQ(d.startAddress, start << 4) << line;
    EXPECT_EQ(d.leadingByteOffset, lbo << 4) << line;
    EXPECT_EQ(d.strideByteOffset, sbo << 4) << line;
    EXPECT_EQ(d.baseOffset, base) << line;
    ++checked;
  }
  EXPECT_EQ(checked, 8);
}

//===----------------------------------------------------------------------===//
// wgmma operand addresses (PTX ISA 9.7.15.5.1.2.1.3, "Canonical Layouts")
//===----------------------------------------------------------------------===//

// The ISA's examples give each "exact layout" and its LBO and SBO; the
// offsets below evaluate the exact layout (in elements) at one coordinate.
TEST(WgmmaAddressTest, IsaExamples) {
  // K-major, no swizzle, tf32 (Figure 166): ((8,2),(4,4)):((4,32),(1,64)),
  // LBO = 64*4, SBO = 32*4. (mn 9, k 13) = ((1,1),(1,3)):
  // 4 + 32 + 1 + 192 = 229 elements = 916 bytes.
  EXPECT_EQ(wgmmaElementAddress(descriptor(0, 256, 128, Swizzle::None), false,
                                4, 9, 13),
            916u);
  // K-major, 32B, tf32 (Figure 167), for the 8 k one wgmma reads:
  // ((8,2),(4,2)):((8,64),(1,4)), SBO = 64*4. (mn 12, k 5) = ((4,1),(1,1)):
  // 32 + 64 + 1 + 4 = 101 elements = 404 = 0x194: line bit 7 is 1, so
  // chunk bit 4 flips: 0x184 = 388.
  EXPECT_EQ(wgmmaElementAddress(descriptor(0, 16, 256, Swizzle::B32), false, 4,
                                12, 5),
            388u);
  // MN-major, no swizzle, bf16 (Figure 168): ((8,1,2),(8,2)):
  // ((1,8,64),(8,128)), LBO = 128*2, SBO = 64*2. (mn 9, k 10) =
  // ((1,0,1),(2,1)): 1 + 64 + 16 + 128 = 209 elements = 418 bytes.
  EXPECT_EQ(wgmmaElementAddress(descriptor(0, 256, 128, Swizzle::None), true, 2,
                                9, 10),
            418u);
  // MN-major, 32B, bf16 (Figure 169): ((8,2,2),(8,2)):((1,8,128),(16,256)),
  // LBO = 128*2, SBO = 256*2. (mn 27, k 9) = ((3,1,1),(1,1)):
  // 3 + 8 + 128 + 16 + 256 = 411 elements = 822 = 0x336, line 6: bit 7 is
  // 0, no flip.
  EXPECT_EQ(wgmmaElementAddress(descriptor(0, 256, 512, Swizzle::B32), true, 2,
                                27, 9),
            822u);
  // (mn 10, k 1) = ((2,1,0),(1,0)): 2 + 8 + 16 = 26 elements = 52 = 0x34,
  // line 0: 52. (mn 2, k 8) = ((2,0,0),(0,1)): 2 + 256 = 258 elements =
  // 516 = 0x204, line 4: even, 516.
  EXPECT_EQ(wgmmaElementAddress(descriptor(0, 256, 512, Swizzle::B32), true, 2,
                                10, 1),
            52u);
  // MN-major, 64B, bf16 (Figure 170): ((8,4,2),(8,2)):((1,8,256),(32,512)),
  // LBO = 256*2, SBO = 512*2. (mn 45, k 11) = ((5,1,1),(3,1)):
  // 5 + 8 + 256 + 96 + 512 = 877 elements = 1754 = 0x6da: line (bits 8-7)
  // = 0b01, chunk (bits 5-4) = 0b01, 1 ^ 1 = 0: 0x6ca = 1738.
  EXPECT_EQ(wgmmaElementAddress(descriptor(0, 512, 1024, Swizzle::B64), true, 2,
                                45, 11),
            1738u);
}

// fa4's common case, worked out from the canonical layout: a 64 x 64 bf16
// K-major tile at 0x2c00 with 128B swizzling, rows 128 bytes apart, SBO =
// 1024 (8 rows), LBO unused; k-block 1 starts at 0x2c00 + 32.
TEST(WgmmaAddressTest, KMajorSw128KBlock) {
  WgmmaDescriptor d = descriptor(0x2c20, 16, 1024, Swizzle::B128);
  // (mn 0, k 0): 0x2c20, line 0: unchanged.
  EXPECT_EQ(wgmmaElementAddress(d, false, 2, 0, 0), 0x2c20u);
  // (mn 1, k 0): 0x2c20 + 128 = 0x2ca0, line 1, chunk 2 -> 3: 0x2cb0.
  EXPECT_EQ(wgmmaElementAddress(d, false, 2, 1, 0), 0x2cb0u);
  // (mn 13, k 9): 0x2c20 + 1024 + 5*128 + 16 + 2 = 0x32b2, line 5,
  // chunk 3 -> 3 ^ 5 = 6: 0x32e2.
  EXPECT_EQ(wgmmaElementAddress(d, false, 2, 13, 9), 0x32e2u);
  // LBO is not read: another value changes nothing.
  d.leadingByteOffset = 0x1230;
  EXPECT_EQ(wgmmaElementAddress(d, false, 2, 13, 9), 0x32e2u);
}

// The base offset names the 128-byte line of the repeat at which the
// pattern's row 0 lies (9.7.15.5.1.2.2: base offset = (pattern start addr
// >> 7) & 7). A tile whose pattern starts at 0x2c00 + 3*128 = 0x2d80 is
// read with base offset 3 as the same tile at 0x2c00 with base offset 0
// is, shifted by 0x180.
TEST(WgmmaAddressTest, BaseOffsetShiftsThePattern) {
  WgmmaDescriptor aligned = descriptor(0x2c00, 16, 1024, Swizzle::B128);
  WgmmaDescriptor shifted = descriptor(0x2d80, 16, 1024, Swizzle::B128, 3);
  for (int mn = 0; mn < 64; ++mn)
    for (int k = 0; k < 16; ++k)
      EXPECT_EQ(wgmmaElementAddress(shifted, false, 2, mn, k),
                wgmmaElementAddress(aligned, false, 2, mn, k) + 0x180);
  // (mn 0, k 8) at 0x2d90 is line 3 of the absolute repeat but row 0 of
  // the pattern: chunk 1 stays.
  EXPECT_EQ(wgmmaElementAddress(shifted, false, 2, 0, 8), 0x2d90u);
}

namespace {

/// One slice of the CUTLASS golden file.
struct Slice {
  std::string header;
  bool mnMajor = false;
  int bytes = 0;
  Swizzle swizzle = Swizzle::None;
  std::string order;
  int mn = 0, kTile = 0, kBlock = 0;
  uint64_t bits = 0;
  uint32_t fields[5] = {};
  /// Chunk lines: K-major, per mn the chunks along k; MN-major, per k the
  /// chunks along mn.
  std::vector<std::vector<uint32_t>> chunks;

  int instK() const { return 32 / bytes; }
  /// CUTLASS's address of element (mn, k) of the slice.
  uint32_t address(int m, int k) const {
    int perChunk = 16 / bytes;
    if (mnMajor)
      return chunks[k][m / perChunk] + (m % perChunk) * bytes;
    return chunks[m][k / perChunk] + (k % perChunk) * bytes;
  }
};

std::vector<Slice> readSlices() {
  std::ifstream in = openGolden("wgmma-layouts.txt");
  std::vector<Slice> slices;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream row(line);
    if (line.compare(0, 6, "slice ") == 0) {
      Slice s;
      s.header = line;
      std::string tag, major, swizzle;
      row >> tag >> major >> s.bytes >> swizzle >> s.order >> s.mn >> s.kTile >>
          s.kBlock >> std::hex >> s.bits;
      for (uint32_t &field : s.fields)
        row >> field;
      s.mnMajor = major == "MN";
      s.swizzle = swizzleNamed(swizzle);
      slices.push_back(s);
      continue;
    }
    if (slices.empty())
      continue; // bitfield rows
    int index;
    row >> index;
    std::vector<uint32_t> chunk;
    uint32_t address;
    while (row >> std::hex >> address)
      chunk.push_back(address);
    slices.back().chunks.push_back(chunk);
  }
  return slices;
}

} // namespace

// Every k-block of every tile CUTLASS builds for wgmma: decode its
// descriptor, compare the fields with CUTLASS's bitfield, and compare the
// address of every element with CUTLASS's layout.
TEST(WgmmaAddressTest, CutlassGoldens) {
  std::vector<Slice> slices = readSlices();
  ASSERT_GT(slices.size(), 900u);
  long elements = 0, wrong = 0;
  for (const Slice &s : slices) {
    WgmmaDescriptor d = decodeWgmmaDescriptor(s.bits);
    EXPECT_EQ(d.startAddress, s.fields[0] << 4) << s.header;
    EXPECT_EQ(d.leadingByteOffset, s.fields[1] << 4) << s.header;
    EXPECT_EQ(d.strideByteOffset, s.fields[2] << 4) << s.header;
    EXPECT_EQ(d.baseOffset, s.fields[3]) << s.header;
    EXPECT_EQ(d.swizzle, s.swizzle) << s.header;
    ASSERT_EQ(s.chunks.size(), size_t(s.mnMajor ? s.instK() : s.mn))
        << s.header;
    for (int m = 0; m < s.mn; ++m)
      for (int k = 0; k < s.instK(); ++k) {
        ++elements;
        uint32_t expected = s.address(m, k);
        uint32_t actual = wgmmaElementAddress(d, s.mnMajor, s.bytes, m, k);
        if (actual != expected && ++wrong <= 20)
          ADD_FAILURE() << s.header << ": (mn " << m << ", k " << k
                        << ") CUTLASS 0x" << std::hex << expected << ", ours 0x"
                        << actual;
      }
  }
  EXPECT_EQ(wrong, 0);
  RecordProperty("golden_elements", std::to_string(elements));
  std::printf("[ CUTLASS  ] %zu slices, %ld elements, %ld wrong\n",
              slices.size(), elements, wrong);
}

//===----------------------------------------------------------------------===//
// TMA tile boxes (PTX ISA 5.5.3 "Tensor Tiled Mode", 5.5.7)
//===----------------------------------------------------------------------===//

namespace {

TensorMap tileMap(uint32_t elementBytes, std::array<uint16_t, 5> box,
                  uint32_t rank, Swizzle swizzle) {
  TensorMap map;
  map.rank = rank;
  map.elementBytes = elementBytes;
  map.boxDim = box;
  map.elementStrides = {1, 1, 1, 1, 1};
  map.swizzle = swizzle;
  return map;
}

} // namespace

TEST(TileTest, PacksInnermostFirst) {
  // A 4-D box (8, 3, 2, 5) of 4-byte elements, no swizzle: element
  // (1, 2, 1, 4) is at ((4*2 + 1)*3 + 2)*8 + 1 = 233 elements = 932 bytes.
  TensorMap map = tileMap(4, {8, 3, 2, 5, 1}, 4, Swizzle::None);
  EXPECT_EQ(tileElementOffset(map, {1, 2, 1, 4, 0}, 0x400), 932u);
}

TEST(TileTest, TraversalStrides) {
  // boxDim (16, 7), elementStrides (ignored, 3): ceil(7/3) = 3 rows of 16
  // bf16. Loaded row 2 (global row 6) starts at 2 * 32 bytes.
  TensorMap map = tileMap(2, {16, 7, 1, 1, 1}, 2, Swizzle::None);
  map.elementStrides = {4, 3, 1, 1, 1};
  EXPECT_EQ(tileElementOffset(map, {5, 2, 0, 0, 0}, 0), 2 * 32u + 10);
}

TEST(TileTest, Sw128RowsOf128Bytes) {
  // fa4's box: 64 bf16 innermost (128 bytes), 128 rows, 1, 1, at an
  // aligned 0x8000. Element (k 9, row 13): offset 13*128 + 18 = 1682 =
  // 0x692; line 5 (13 % 8), chunk 1 -> 4: 0x6c2.
  TensorMap map = tileMap(2, {64, 128, 1, 1, 1}, 4, Swizzle::B128);
  EXPECT_EQ(tileElementOffset(map, {9, 13, 0, 0, 0}, 0x8000), 0x6c2u);
}

TEST(TileTest, NarrowRowsTakeASpan) {
  // 32 bf16 (64 bytes) innermost under the 128B swizzle: rows are 128 bytes
  // apart (as the H200 did). Element (0, row 1) at 0x800 + 128 = 0x880,
  // line 1: chunk 0 -> 1, offset 0x90; (20, row 3) at 3*128 + 40 = 0x1a8,
  // address 0x9a8, line 3, chunk 2 -> 1: offset 0x198.
  TensorMap map = tileMap(2, {32, 16, 1, 1, 1}, 2, Swizzle::B128);
  EXPECT_EQ(tileElementOffset(map, {0, 1, 0, 0, 0}, 0x800), 0x90u);
  EXPECT_EQ(tileElementOffset(map, {20, 3, 0, 0, 0}, 0x800), 0x198u);
  // Without a swizzle, 48-byte rows stay packed: (5, row 2) = 96 + 10.
  map = tileMap(2, {24, 5, 1, 1, 1}, 2, Swizzle::None);
  EXPECT_EQ(tileElementOffset(map, {5, 2, 0, 0, 0}, 0x800), 106u);
}

// A destination off the 1024-byte repeat keeps the absolute pattern: at
// 0x880 (line 1), element (0, row 0) lands in chunk 1: offset 0x10.
TEST(TileTest, DestinationOffTheRepeat) {
  TensorMap map = tileMap(2, {64, 16, 1, 1, 1}, 2, Swizzle::B128);
  EXPECT_EQ(tileElementOffset(map, {0, 0, 0, 0, 0}, 0x880), 0x10u);
}

// A box whose inner dimension is the swizzle span is the GMMA atom's
// layout tiled over rows: for K-major tiles with KTILE * BYTES = span, box
// (KTILE, MN) element (k, mn) is where CUTLASS puts (mn, k); for MN-major
// tiles with MN * BYTES = span, box (MN, KTILE) element (mn, k) is.
TEST(TileTest, CutlassGoldens) {
  std::vector<Slice> slices = readSlices();
  long checked = 0, wrong = 0;
  for (const Slice &s : slices) {
    int span = swizzleSpanBytes(s.swizzle);
    int inner = s.mnMajor ? s.mn : s.kTile;
    if (s.swizzle == Swizzle::None || inner * s.bytes != span)
      continue;
    const uint32_t tileStart = 0x2c00; // the generator's tile address
    uint32_t outer = s.mnMajor ? s.kTile : s.mn;
    TensorMap map = tileMap(
        s.bytes, {uint16_t(inner), uint16_t(outer), 1, 1, 1}, 2, s.swizzle);
    for (int m = 0; m < s.mn; ++m)
      for (int kk = 0; kk < s.instK(); ++kk) {
        uint32_t k = s.kBlock * s.instK() + kk;
        std::array<uint32_t, 5> index =
            s.mnMajor ? std::array<uint32_t, 5>{uint32_t(m), k, 0, 0, 0}
                      : std::array<uint32_t, 5>{k, uint32_t(m), 0, 0, 0};
        ++checked;
        uint32_t expected = s.address(m, kk) - tileStart;
        uint32_t actual = tileElementOffset(map, index, tileStart);
        if (actual != expected && ++wrong <= 20)
          ADD_FAILURE() << s.header << ": (mn " << m << ", k " << k
                        << ") CUTLASS 0x" << std::hex << expected << ", ours 0x"
                        << actual;
      }
  }
  EXPECT_GT(checked, 100000);
  EXPECT_EQ(wrong, 0);
  std::printf("[ CUTLASS  ] %ld TMA box elements, %ld wrong\n", checked, wrong);
}

//===----------------------------------------------------------------------===//
// What an H200 did (goldens/hw-layouts.txt, gen-hw-goldens.cu)
//===----------------------------------------------------------------------===//

namespace {

/// One record of the hardware golden file: its header line, split, and the
/// lines under it, split (hex values; "x" where nothing was found).
struct HwRecord {
  std::string header;
  std::vector<std::string> fields;
  std::vector<std::vector<std::string>> rows;
};

std::vector<HwRecord> readHwRecords(int *failedCases) {
  std::ifstream in = openGolden("hw-layouts.txt");
  std::vector<HwRecord> records;
  std::string line;
  *failedCases = 0;
  while (std::getline(in, line)) {
    if (line.compare(0, 7, "# case ") == 0)
      ++*failedCases;
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream row(line);
    std::vector<std::string> words;
    for (std::string word; row >> word;)
      words.push_back(word);
    if (words[0] == "tma" || words[0] == "wgmma") {
      records.push_back({line, words, {}});
      continue;
    }
    if (records.empty()) {
      ADD_FAILURE() << "a row before any record: " << line;
      continue;
    }
    words.erase(words.begin()); // the row's index
    records.back().rows.push_back(words);
  }
  return records;
}

uint32_t hex(const std::string &word) { return std::stoul(word, nullptr, 16); }

} // namespace

// Each tile load's box: where each loaded element landed, from the
// destination, against tileElementOffset.
TEST(HardwareTest, TmaTiles) {
  int failedCases;
  std::vector<HwRecord> records = readHwRecords(&failedCases);
  EXPECT_EQ(failedCases, 0);
  long checked = 0, wrong = 0, tiles = 0;
  for (const HwRecord &r : records) {
    if (r.fields[0] != "tma")
      continue;
    ++tiles;
    // tma SWIZZLE BYTES RANK BOX0..4 STRIDE0..4 DST
    TensorMap map;
    int swizzleBytes = std::stoi(r.fields[1]);
    map.swizzle = swizzleBytes == 0 ? Swizzle::None : swizzleNamed(r.fields[1]);
    map.elementBytes = std::stoul(r.fields[2]);
    map.rank = std::stoul(r.fields[3]);
    std::array<uint32_t, 5> loaded;
    for (int i = 0; i < 5; ++i) {
      map.boxDim[i] = std::stoul(r.fields[4 + i]);
      map.elementStrides[i] = std::stoul(r.fields[9 + i]);
      loaded[i] = i == 0 ? map.boxDim[0]
                         : (map.boxDim[i] + map.elementStrides[i] - 1) /
                               map.elementStrides[i];
    }
    uint32_t dst = hex(r.fields[14]);
    for (size_t row = 0; row < r.rows.size(); ++row) {
      ASSERT_EQ(r.rows[row].size(), loaded[0]) << r.header;
      std::array<uint32_t, 5> index{};
      uint32_t rest = row;
      for (uint32_t d = 1; d < map.rank; ++d) {
        index[d] = rest % loaded[d];
        rest /= loaded[d];
      }
      for (uint32_t i0 = 0; i0 < loaded[0]; ++i0) {
        index[0] = i0;
        ++checked;
        const std::string &seen = r.rows[row][i0];
        uint32_t ours = tileElementOffset(map, index, dst);
        if ((seen == "x" || hex(seen) != ours) && ++wrong <= 20)
          ADD_FAILURE() << r.header << ": row " << row << ", element " << i0
                        << ": the H200 put it at " << seen << ", ours 0x"
                        << std::hex << ours;
      }
    }
  }
  EXPECT_GE(tiles, 28);
  EXPECT_EQ(wrong, 0);
  std::printf("[ H200     ] %ld TMA tiles, %ld elements, %ld wrong\n", tiles,
              checked, wrong);
}

// Each wgmma operand descriptor: the address wgmma read for each element
// (mn, k) of an m64n128k16 f16 operand, against wgmmaElementAddress.
TEST(HardwareTest, WgmmaOperands) {
  int failedCases;
  std::vector<HwRecord> records = readHwRecords(&failedCases);
  long checked = 0, wrong = 0, operands = 0;
  for (const HwRecord &r : records) {
    if (r.fields[0] != "wgmma")
      continue;
    ++operands;
    // wgmma OPERAND MAJOR DESC
    bool mnMajor = r.fields[2] == "MN";
    WgmmaDescriptor d =
        decodeWgmmaDescriptor(std::stoull(r.fields[3], nullptr, 16));
    ASSERT_EQ(r.rows.size(), r.fields[1] == "A" ? 64u : 128u) << r.header;
    for (int mn = 0; mn < int(r.rows.size()); ++mn) {
      ASSERT_EQ(r.rows[mn].size(), 16u) << r.header;
      for (int k = 0; k < 16; ++k) {
        ++checked;
        const std::string &seen = r.rows[mn][k];
        uint32_t ours = wgmmaElementAddress(d, mnMajor, 2, mn, k);
        if ((seen == "x" || hex(seen) != ours) && ++wrong <= 20)
          ADD_FAILURE() << r.header << ": (mn " << mn << ", k " << k
                        << ") the H200 read " << seen << ", ours 0x" << std::hex
                        << ours;
      }
    }
  }
  EXPECT_GE(operands, 29);
  EXPECT_EQ(wrong, 0);
  std::printf("[ H200     ] %ld wgmma operands, %ld elements, %ld wrong\n",
              operands, checked, wrong);
}

//===----------------------------------------------------------------------===//
// tcgen05 (sm_100a) descriptors against CUTLASS's UMMA machinery
// (goldens/umma-layouts.txt, written by gen-umma-goldens.cpp)
//===----------------------------------------------------------------------===//

namespace {

/// The words of each line of umma-layouts.txt that starts with `tag`
/// (comments skipped).
std::vector<std::vector<std::string>> readUmmaRows(const std::string &tag) {
  std::ifstream in = openGolden("umma-layouts.txt");
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream row(line);
    std::vector<std::string> words;
    for (std::string word; row >> word;)
      words.push_back(word);
    if (words[0] == tag)
      rows.push_back(words);
  }
  return rows;
}

unsigned number(const std::string &word) { return std::stoul(word); }

/// The 13 InstrDescriptor fields CUTLASS wrote from `first` on (SPARSE_ID2
/// SPARSE SATURATE C_FORMAT A_FORMAT B_FORMAT A_NEGATE B_NEGATE A_MAJOR
/// B_MAJOR N_DIM M_DIM MAX_SHIFT) against decodeTcgen05Instruction.
void expectInstrFields(const Tcgen05Instruction &d,
                       const std::vector<std::string> &w, size_t first,
                       const std::string &line) {
  ASSERT_EQ(w.size(), first + 13) << line;
  // Sparsity selector (bits 0-1) is not modelled: the emulator refuses
  // sparse descriptors.
  EXPECT_EQ(d.sparse, number(w[first + 1]) != 0) << line;
  EXPECT_EQ(d.saturate, number(w[first + 2]) != 0) << line;
  EXPECT_EQ(d.dFormat, int(number(w[first + 3]))) << line;
  EXPECT_EQ(d.aFormat, int(number(w[first + 4]))) << line;
  EXPECT_EQ(d.bFormat, int(number(w[first + 5]))) << line;
  EXPECT_EQ(d.negateA, number(w[first + 6]) != 0) << line;
  EXPECT_EQ(d.negateB, number(w[first + 7]) != 0) << line;
  EXPECT_EQ(d.aMnMajor, number(w[first + 8]) != 0) << line;
  EXPECT_EQ(d.bMnMajor, number(w[first + 9]) != 0) << line;
  EXPECT_EQ(d.n, int(number(w[first + 10])) << 3) << line;
  EXPECT_EQ(d.m, int(number(w[first + 11])) << 4) << line;
  EXPECT_EQ(d.maxShift, int(number(w[first + 12]))) << line;
}

std::string joined(const std::vector<std::string> &words) {
  std::string line;
  for (const std::string &word : words)
    line += (line.empty() ? "" : " ") + word;
  return line;
}

/// The swizzle of a tcgen05 layout type (PTX ISA 9.7.16.4.1, Table 40):
/// 0 none, 2 128B, 4 64B, 6 32B; None for the others.
Swizzle tcgen05Swizzle(unsigned layout) {
  switch (layout) {
  case 2:
    return Swizzle::B128;
  case 4:
    return Swizzle::B64;
  case 6:
    return Swizzle::B32;
  default:
    return Swizzle::None;
  }
}

/// START LBO SBO VERSION BASE LBO_MODE LAYOUT (hex, from `first` on;
/// START, LBO and SBO in 16-byte units) against decodeTcgen05Descriptor;
/// it must accept the descriptor exactly when `modelled`.
void expectDescFields(uint64_t bits, const std::vector<std::string> &w,
                      size_t first, bool modelled, const std::string &line) {
  auto field = [&](size_t i) { return hex(w[first + i]); };
  WgmmaDescriptor d;
  EXPECT_EQ(decodeTcgen05Descriptor(bits, d), modelled) << line;
  EXPECT_EQ(d.startAddress, field(0) << 4) << line;
  EXPECT_EQ(d.leadingByteOffset, field(1) << 4) << line;
  EXPECT_EQ(d.strideByteOffset, field(2) << 4) << line;
  EXPECT_EQ(d.baseOffset, field(4)) << line;
  if (modelled) {
    EXPECT_EQ(d.swizzle, tcgen05Swizzle(field(6))) << line;
  }
}

} // namespace

// Every kind::f16 instruction descriptor CUTLASS's SM100 MMA atoms hold
// (f16 and bf16, both majors of A and B, the negates, M 64/128/256, N
// 8/16/64/128/256 where CUTLASS accepts the shape), decoded field by field
// (PTX ISA 9.7.16.4.2, "Instruction descriptor", Table 42).
TEST(Tcgen05InstructionTest, CutlassDescriptors) {
  std::vector<std::vector<std::string>> rows = readUmmaRows("instr");
  ASSERT_EQ(rows.size(), 576u);
  for (const std::vector<std::string> &w : rows) {
    // instr CTAGROUP ATYPE BTYPE DTYPE AMAJOR BMAJOR NEGA NEGB M N DESC ...
    std::string line = joined(w);
    Tcgen05Instruction d = decodeTcgen05Instruction(hex(w[11]));
    expectInstrFields(d, w, 12, line);
    // And against what the row says CUTLASS was asked for.
    EXPECT_EQ(d.aFormat, w[2] == "bf16" ? 1 : 0) << line;
    EXPECT_EQ(d.bFormat, w[3] == "bf16" ? 1 : 0) << line;
    EXPECT_EQ(d.dFormat, 1) << line; // f32
    EXPECT_EQ(d.aMnMajor, w[5] == "MN") << line;
    EXPECT_EQ(d.bMnMajor, w[6] == "MN") << line;
    EXPECT_EQ(d.negateA, w[7] == "1") << line;
    EXPECT_EQ(d.negateB, w[8] == "1") << line;
    EXPECT_EQ(d.m, int(number(w[9]))) << line;
    EXPECT_EQ(d.n, int(number(w[10]))) << line;
    EXPECT_FALSE(d.sparse) << line;
    EXPECT_FALSE(d.saturate) << line;
    EXPECT_EQ(d.maxShift, 0) << line;
  }
  std::printf("[ CUTLASS  ] %zu tcgen05 instruction descriptors\n",
              rows.size());
}

// The kind::f8f6f4 instruction descriptors CUTLASS's SM100_MMA_F8F6F4_SS
// atoms hold (e4m3 and e5m2 A and B, both majors, A negated, M 64/128, N
// 8-256): the same fields as kind::f16's, the formats MXF8F6F4Format's,
// which mmaOperandValue reads as e4m3 (0) and e5m2 (1).
TEST(Tcgen05InstructionTest, CutlassF8Descriptors) {
  std::vector<std::vector<std::string>> rows = readUmmaRows("instrf8");
  ASSERT_EQ(rows.size(), 84u);
  for (const std::vector<std::string> &w : rows) {
    std::string line = joined(w);
    Tcgen05Instruction d = decodeTcgen05Instruction(hex(w[11]));
    expectInstrFields(d, w, 12, line);
    EXPECT_EQ(d.aFormat, w[2] == "e5m2" ? 1 : 0) << line;
    EXPECT_EQ(d.bFormat, w[3] == "e5m2" ? 1 : 0) << line;
    EXPECT_EQ(d.dFormat, 1) << line;
    EXPECT_EQ(d.aMnMajor, w[5] == "MN") << line;
    EXPECT_EQ(d.bMnMajor, w[6] == "MN") << line;
    EXPECT_EQ(d.negateA, w[7] == "1") << line;
    EXPECT_EQ(d.m, int(number(w[9]))) << line;
    EXPECT_EQ(d.n, int(number(w[10]))) << line;
  }
}

// The 8-bit operands' values: e4m3 (bias 7, 448 the largest, one NaN per
// sign, subnormals in 2^-9) and e5m2 (bias 15, infinities), through the
// format codes of kind::f8f6f4, and 16-bit ones through kind::f16's.
TEST(Tcgen05OperandTest, EightBitFormats) {
  EXPECT_EQ(mmaOperandValue(true, 0, 0x38), 1.0f);
  EXPECT_EQ(mmaOperandValue(true, 0, 0x7e), 448.0f);
  EXPECT_EQ(mmaOperandValue(true, 0, 0xfe), -448.0f);
  EXPECT_EQ(mmaOperandValue(true, 0, 0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(mmaOperandValue(true, 0, 0x08), std::ldexp(1.0f, -6));
  EXPECT_EQ(mmaOperandValue(true, 0, 0x44), 3.0f);
  EXPECT_EQ(mmaOperandValue(true, 0, 0x78), 256.0f);
  EXPECT_TRUE(std::isnan(mmaOperandValue(true, 0, 0x7f)));
  EXPECT_TRUE(std::isnan(mmaOperandValue(true, 0, 0xff)));
  EXPECT_EQ(mmaOperandValue(true, 1, 0x3c), 1.0f);
  EXPECT_EQ(mmaOperandValue(true, 1, 0x7b), 57344.0f);
  EXPECT_EQ(mmaOperandValue(true, 1, 0x01), std::ldexp(1.0f, -16));
  EXPECT_EQ(mmaOperandValue(true, 1, 0xc2), -3.0f);
  EXPECT_TRUE(std::isinf(mmaOperandValue(true, 1, 0x7c)));
  EXPECT_TRUE(std::isnan(mmaOperandValue(true, 1, 0x7d)));
  // Every e4m3 value but the NaNs, exactly: (1 + m / 8) 2^(e - 7), or
  // m 2^-9 at e = 0.
  for (uint32_t bits = 0; bits < 256; ++bits) {
    int e = (bits >> 3) & 0xf, m = bits & 7;
    if (e == 15 && m == 7)
      continue;
    float magnitude =
        e ? std::ldexp(1.0f + m / 8.0f, e - 7) : std::ldexp(float(m), -9);
    EXPECT_EQ(mmaOperandValue(true, 0, bits),
              bits & 0x80 ? -magnitude : magnitude)
        << bits;
  }
  EXPECT_EQ(mmaOperandValue(false, 1, 0x3f80), 1.0f);
  EXPECT_EQ(mmaOperandValue(false, 0, 0x3c00), 1.0f);
}

// An 8-bit A in tensor memory packs four elements a column, the lowest
// byte first, as a 16-bit A packs two.
TEST(Tcgen05OperandTest, EightBitAInTensorMemory) {
  for (uint32_t k = 0; k < 32; ++k) {
    TmemByte at = tmemOperandA8(5, k);
    EXPECT_EQ(at.lane, 5u);
    EXPECT_EQ(at.column, k / 4);
    EXPECT_EQ(at.byte, k % 4);
  }
}

// InstrDescriptor values CUTLASS built field by field: each field, the
// ones kind::f16 leaves at zero included, at its maximum.
TEST(Tcgen05InstructionTest, CutlassBitfields) {
  std::vector<std::vector<std::string>> rows = readUmmaRows("instrbits");
  ASSERT_EQ(rows.size(), 11u);
  for (const std::vector<std::string> &w : rows)
    expectInstrFields(decodeTcgen05Instruction(hex(w[1])), w, 2, joined(w));
}

// SmemDescriptor values CUTLASS built field by field: the positions of the
// fields, and which values the emulator accepts: version 1 (bits 46-47),
// the relative LBO mode (bit 52 clear) and layout types 0, 2, 4, 6 (PTX
// ISA 9.7.16.4.1, "Shared Memory Descriptor", Table 40; type 1, 128B with
// 32B atoms, is valid but not modelled, 3, 5 and 7 are invalid).
// tcgen05.ld/st .32x32b.xN: CUTLASS's SM100_TMEM_{LOAD,STORE}_32dp32b*
// atoms (goldens/tmem-layouts.txt, gen-tmem-goldens.cpp).
TEST(TmemLayoutTest, Cutlass32x32bAtoms) {
  std::ifstream in = openGolden("tmem-layouts.txt");
  std::string line;
  int rows = 0;
  std::set<std::string> shapes;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream row(line);
    std::string what;
    uint32_t columns, thread, reg, lane, column;
    ASSERT_TRUE(bool(row >> what >> columns >> thread >> reg >> lane >> column))
        << line;
    TmemCoord at = tmem32x32b(thread, reg);
    EXPECT_EQ(at.lane, lane) << line;
    EXPECT_EQ(at.column, column) << line;
    shapes.insert(what + std::to_string(columns));
    ++rows;
  }
  // ld and st, .x1 to .x128: 32 threads x (1 + 2 + ... + 128) registers.
  EXPECT_EQ(shapes.size(), 16u);
  EXPECT_EQ(rows, 2 * 32 * 255);
}

// tcgen05.mma's tensor-memory layouts: CUTLASS's MMA traits
// (goldens/tmem-mma-layouts.txt, gen-tmem-mma-goldens.cpp): the f32
// accumulator of cta_group::1 M = 128 and cta_group::2 M = 256, A in tensor
// memory (bf16), and which CTA of a pair holds each row of A and B.
TEST(TmemLayoutTest, CutlassMmaTraits) {
  std::ifstream in = openGolden("tmem-mma-layouts.txt");
  std::string line;
  std::map<std::string, int> rows;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream row(line);
    std::string what;
    row >> what;
    if (what == "d") {
      uint32_t group, m, n, mm, nn, cta, lane, column;
      ASSERT_TRUE(
          bool(row >> group >> m >> n >> mm >> nn >> cta >> lane >> column))
          << line;
      PairRow at = group == 2 ? pairRow(mm, m) : PairRow{0, mm};
      EXPECT_EQ(at.cta, cta) << line;
      TmemCoord slot = tmemAccumulator(at.local, nn);
      EXPECT_EQ(slot.lane, lane) << line;
      EXPECT_EQ(slot.column, column) << line;
    } else if (what == "a") {
      uint32_t group, m, k, mm, kk, lane, column, half;
      ASSERT_TRUE(
          bool(row >> group >> m >> k >> mm >> kk >> lane >> column >> half))
          << line;
      TmemHalf at = tmemOperandA(mm, kk);
      EXPECT_EQ(at.lane, lane) << line;
      EXPECT_EQ(at.column, column) << line;
      EXPECT_EQ(at.half, half) << line;
    } else if (what == "split") {
      uint32_t group, m, n, k, i, j, cta, local;
      std::string operand;
      ASSERT_TRUE(bool(row >> group >> m >> n >> k >> operand >> i >> j >>
                       cta >> local))
          << line;
      PairRow at = pairRow(i, operand == "A" ? m : n);
      EXPECT_EQ(at.cta, cta) << line;
      EXPECT_EQ(at.local, local) << line;
    } else {
      ADD_FAILURE() << "unknown row: " << line;
    }
    ++rows[what];
  }
  // 128 x 64 and 256 x 64 accumulators; 128 x 16 A; A and B of two pairs.
  EXPECT_EQ(rows["d"], 128 * 64 + 256 * 64);
  EXPECT_EQ(rows["a"], 128 * 16);
  EXPECT_EQ(rows["split"], 2 * 256 * 16 + (64 + 256) * 16);
}

TEST(Tcgen05DescriptorTest, CutlassBitfields) {
  std::vector<std::vector<std::string>> rows = readUmmaRows("descbits");
  ASSERT_EQ(rows.size(), 14u);
  int accepted = 0;
  for (const std::vector<std::string> &w : rows) {
    // descbits START LBO SBO VERSION BASE LBO_MODE LAYOUT DESC
    ASSERT_EQ(w.size(), 9u);
    unsigned version = hex(w[4]), lboMode = hex(w[6]), layout = hex(w[7]);
    bool modelled = version == 1 && lboMode == 0 && layout % 2 == 0;
    accepted += modelled;
    expectDescFields(std::stoull(w[8], nullptr, 16), w, 1, modelled, joined(w));
  }
  EXPECT_EQ(accepted, 7);
}

namespace {

/// One slice of umma-layouts.txt: a k-block of an operand tile.
struct UmmaSlice {
  std::vector<std::string> words; // the header
  bool mnMajor = false;
  int bytes = 0, mn = 0;
  /// Chunk lines: K-major, per mn the chunks along k; MN-major, per k the
  /// chunks along mn.
  std::vector<std::vector<uint32_t>> chunks;

  static constexpr int kInstK = 16; // 256 bits of 2-byte elements
  uint32_t address(int m, int k) const {
    int perChunk = 16 / bytes;
    if (mnMajor)
      return chunks[k][m / perChunk] + (m % perChunk) * bytes;
    return chunks[m][k / perChunk] + (k % perChunk) * bytes;
  }
};

std::vector<UmmaSlice> readUmmaSlices() {
  std::ifstream in = openGolden("umma-layouts.txt");
  std::vector<UmmaSlice> slices;
  std::string line;
  bool inSlice = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream row(line);
    std::vector<std::string> words;
    for (std::string word; row >> word;)
      words.push_back(word);
    if (words[0] == "slice") {
      // slice OPERAND MAJOR BYTES SWIZZLE ORDER MN KTILE KBLOCK DESC START
      // LBO SBO VERSION BASE LBO_MODE LAYOUT
      EXPECT_EQ(words.size(), 17u) << line;
      UmmaSlice s;
      s.words = words;
      s.mnMajor = words[2] == "MN";
      s.bytes = std::stoi(words[3]);
      s.mn = std::stoi(words[6]);
      slices.push_back(s);
      inSlice = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(words[0][0]))) {
      inSlice = false; // instr, instrbits, descbits, unmodelled
      continue;
    }
    if (!inSlice) {
      ADD_FAILURE() << "an address line outside a slice: " << line;
      continue;
    }
    std::vector<uint32_t> chunk;
    for (size_t i = 1; i < words.size(); ++i)
      chunk.push_back(hex(words[i]));
    slices.back().chunks.push_back(chunk);
  }
  return slices;
}

} // namespace

// Every k-block of every operand tile CUTLASS builds for tcgen05.mma
// (K- and MN-major, no swizzle and 32/64/128B, A 128 x 16/64/128 and B
// 64/128/256 x 16/64/128, atoms tiled MN or K first): the descriptor
// make_umma_desc gives it (which the operand fragment holds), decoded, and
// the address of every element against CUTLASS's layout. The emulator
// reads tcgen05.mma operands through wgmmaElementAddress (Tcgen05.cpp).
TEST(Tcgen05DescriptorTest, CutlassGoldens) {
  std::vector<UmmaSlice> slices = readUmmaSlices();
  ASSERT_EQ(slices.size(), 516u);
  long elements = 0, wrong = 0;
  for (const UmmaSlice &s : slices) {
    std::string header = joined(s.words);
    uint64_t bits = std::stoull(s.words[9], nullptr, 16);
    expectDescFields(bits, s.words, 10, true, header);
    WgmmaDescriptor d;
    decodeTcgen05Descriptor(bits, d);
    EXPECT_EQ(d.swizzle, swizzleNamed(s.words[4])) << header;
    ASSERT_EQ(s.bytes, 2) << header;
    ASSERT_EQ(s.chunks.size(), size_t(s.mnMajor ? UmmaSlice::kInstK : s.mn))
        << header;
    for (const std::vector<uint32_t> &chunk : s.chunks)
      ASSERT_EQ(chunk.size(),
                size_t(s.mnMajor ? s.mn * s.bytes / 16
                                 : UmmaSlice::kInstK * s.bytes / 16))
          << header;
    for (int m = 0; m < s.mn; ++m)
      for (int k = 0; k < UmmaSlice::kInstK; ++k) {
        ++elements;
        uint32_t expected = s.address(m, k);
        uint32_t actual = wgmmaElementAddress(d, s.mnMajor, s.bytes, m, k);
        if (actual != expected && ++wrong <= 20)
          ADD_FAILURE() << header << ": (mn " << m << ", k " << k
                        << ") CUTLASS 0x" << std::hex << expected << ", ours 0x"
                        << actual;
      }
  }
  EXPECT_EQ(wrong, 0);
  RecordProperty("golden_elements", std::to_string(elements));
  std::printf("[ CUTLASS  ] %zu tcgen05 slices, %ld elements, %ld wrong\n",
              slices.size(), elements, wrong);
}

// The MN-major 128B swizzle with 32-byte atoms (layout type 1): CUTLASS
// builds it (Layout_MN_SW128_32B_Atom), the emulator refuses it.
TEST(Tcgen05DescriptorTest, CutlassUnmodelled) {
  std::vector<std::vector<std::string>> rows = readUmmaRows("unmodelled");
  ASSERT_EQ(rows.size(), 4u);
  for (const std::vector<std::string> &w : rows) {
    ASSERT_EQ(w.size(), 17u);
    EXPECT_EQ(w[16], "1");
    expectDescFields(std::stoull(w[9], nullptr, 16), w, 10, false, joined(w));
  }
}

//===- BinaryAbi.cpp - A manifest checked against its binary --------------===//

#include "BinaryAbi.h"

#include "Error.h"

#include <cuda.h>

using namespace fa4::rt;

size_t fa4::rt::paramBytes(const Param &param) {
  if (std::holds_alternative<TensorMapParam>(param))
    return sizeof(CUtensorMap);
  if (const auto *scalar = std::get_if<ScalarParam>(&param))
    return scalar->type == ScalarType::I64 ? 8 : 4;
  return sizeof(CUdeviceptr); // a pointer, the workspace's or the scratch's
}

void fa4::rt::checkParamsMatchBinary(const std::string &kernel,
                                     const std::vector<Param> &params,
                                     const ParamInfoQuery &query) {
  auto fail = [&](const std::string &what) {
    throw Error(FA4_ERROR_MANIFEST,
                "manifest and binary disagree on kernel '" + kernel +
                    "': " + what +
                    "; the manifest is not the one compiled with this binary");
  };
  size_t index = 0;
  for (size_t offset = 0, bytes = 0; query(index, offset, bytes); ++index) {
    if (index >= params.size())
      fail("the binary takes more than the manifest's " +
           std::to_string(params.size()) + " parameters");
    size_t expected = paramBytes(params[index]);
    if (bytes != expected)
      fail("parameter " + std::to_string(index) + " is " +
           std::to_string(bytes) + " bytes in the binary, but the manifest's " +
           std::to_string(expected));
  }
  if (index != params.size())
    fail("the binary takes " + std::to_string(index) +
         " parameters, but the manifest lists " +
         std::to_string(params.size()));
}

void fa4::rt::checkBlockFitsBinary(const std::string &kernel, int64_t block,
                                   int maxThreadsPerBlock) {
  if (block > maxThreadsPerBlock)
    throw Error(FA4_ERROR_MANIFEST, "manifest and binary disagree on kernel '" +
                                        kernel +
                                        "': the manifest launches blocks of " +
                                        std::to_string(block) +
                                        " threads, but the binary was "
                                        "compiled for at most " +
                                        std::to_string(maxThreadsPerBlock));
}

void fa4::rt::checkRecordMatchesBinary(const Manifest &manifest,
                                       std::string_view binaryRecord) {
  auto fail = [&](const std::string &what) {
    throw Error(FA4_ERROR_MANIFEST, "manifest and binary disagree: " + what +
                                        "; the manifest is "
                                        "not the one compiled with " +
                                        manifest.binaryPath);
  };
  while (!binaryRecord.empty() && binaryRecord.back() == '\0')
    binaryRecord.remove_suffix(1);
  json::Value compiled;
  try {
    compiled = json::parse(binaryRecord);
  } catch (const json::ParseError &error) {
    fail(std::string("the binary's ABI record is not JSON (") + error.what() +
         ")");
  }
  std::optional<std::string> path =
      json::firstDifference(manifest.abiRecord, compiled);
  if (!path)
    return;
  // Lists of another length by their lengths (a dropped or added
  // parameter), anything else by its value.
  const json::Value *mine = json::atPath(manifest.abiRecord, *path);
  const json::Value *its = json::atPath(compiled, *path);
  bool lengths = mine && its && mine->kind == json::Value::Kind::Array &&
                 its->kind == json::Value::Kind::Array;
  auto shown = [&](const json::Value *value) {
    if (!value)
      return std::string("nothing");
    if (lengths)
      return std::to_string(value->array.size()) + " entries";
    return json::render(*value);
  };
  fail("at " + (path->empty() ? std::string("the top") : *path) +
       " the manifest says " + shown(mine) + ", the binary was compiled for " +
       shown(its));
}

// LD_PRELOAD shim: interposes the CuTe-DSL host-runtime entry points so that the
// JIT-compiled host code of a CuTe DSL kernel can run on a machine without a GPU.
// It logs the launch configuration and the raw kernel-argument bytes (including the
// 128-byte CUtensorMap TMA descriptors that the DSL host code encodes inline).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static FILE* logf_(void) {
  static FILE* f = NULL;
  if (!f) { const char* p = getenv("FA4_SHIM_LOG"); f = p ? fopen(p, "w") : stderr; }
  return f;
}
typedef struct { unsigned x, y, z; } dim3_;
typedef struct { int id; char pad[4]; unsigned char val[64]; } launch_attr_;
typedef struct {
  dim3_ gridDim; dim3_ blockDim; size_t dynamicSmemBytes; void* stream;
  launch_attr_* attrs; unsigned numAttrs;
} launch_cfg_;

int cuda_dialect_init_library_once(void* state, void* init, void* load, void* err) {
  fprintf(logf_(), "cuda_dialect_init_library_once(state=%p) -> 0 (stubbed; no module load)\n", state);
  fflush(logf_()); return 0;
}
void cuda_dialect_unload_library_once(void* s) {}
const char* cuda_dialect_get_error_name(int e) { return "shim_error"; }
int _cudaSetDevice(int d) { return 0; }
int _cudaGetDevice(int* d) { *d = 0; return 0; }

int _cudaLaunchKernelEx(const launch_cfg_* cfg, const void* func, void** args) {
  FILE* f = logf_();
  fprintf(f, "LAUNCH grid=(%u,%u,%u) block=(%u,%u,%u) dynamicSmemBytes=%zu stream=%p numAttrs=%u func=%p\n",
          cfg->gridDim.x, cfg->gridDim.y, cfg->gridDim.z, cfg->blockDim.x, cfg->blockDim.y,
          cfg->blockDim.z, cfg->dynamicSmemBytes, cfg->stream, cfg->numAttrs, func);
  for (unsigned i = 0; i < cfg->numAttrs; i++) {
    const unsigned* v = (const unsigned*)cfg->attrs[i].val;
    // ids per cudaLaunchAttributeID: 2=Cooperative, 4=ClusterDimension, 6=ProgrammaticStreamSerialization
    if (cfg->attrs[i].id == 4)
      fprintf(f, "ATTR id=4 (ClusterDimension) value=(%u,%u,%u)\n", v[0], v[1], v[2]);
    else
      fprintf(f, "ATTR id=%d value=%u\n", cfg->attrs[i].id, v[0]);
  }
  const char* sizes = getenv("FA4_PARAM_SIZES");  // comma-separated byte sizes, PTX .param order
  int i = 0;
  while (sizes && *sizes) {
    int n = atoi(sizes);
    const unsigned char* p = (const unsigned char*)args[i];
    fprintf(f, "PARAM %d size=%d hex=", i, n);
    for (int b = 0; b < n; b++) fprintf(f, "%02x", p[b]);
    fprintf(f, "\n");
    i++;
    const char* c = strchr(sizes, ',');
    if (!c) break;
    sizes = c + 1;
  }
  fflush(f);
  return 0;
}

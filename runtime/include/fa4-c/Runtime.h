/*===-- fa4-c/Runtime.h - fa4 kernel runtime C API ----------------*- C -*-===*\
|*                                                                            *|
|* Loads a kernel compiled by fa4 (manifest.json + cubin/fatbin/PTX), checks  *|
|* user tensors against the manifest and launches it through the CUDA driver. *|
|* The driver (libcuda.so.1) is opened on first use, so everything up to and  *|
|* including fa4_validate works on machines without a GPU.                    *|
|*                                                                            *|
|* Errors: every function returns an fa4_status; on failure the calling       *|
|* thread's fa4_last_error() holds a message that says what was expected and  *|
|* what was found. The message stays until the next failing call.            *|
|*                                                                            *|
|* NULL: every function refuses a NULL handle or pointer with                 *|
|* FA4_ERROR_INVALID_ARGUMENT before it touches the driver, except where a    *|
|* NULL is given a meaning below (a stream: the legacy default stream;        *|
|* binary_dir; lse.data; a workspace; fa4_device_free(NULL), a no-op; the     *|
|* memory of a copy or fill of 0 bytes).                                      *|
|*                                                                            *|
|* Ownership: a handle (fa4_module, fa4_launch_record, fa4_event, a stream    *|
|* from fa4_stream_create, fa4_graph) belongs to the caller that created it,  *|
|* who releases it with its destroy function exactly once. destroy(NULL) does *|
|* nothing, as free(NULL). A second destroy of the same handle is undefined,  *|
|* as a second free(): the handle is gone after the first, and its address    *|
|* may already name another object, so it cannot be detected. Set the pointer *|
|* to NULL after destroying it. Strings the library returns                   *|
|* (fa4_last_error, fa4_kernel_info) are the library's; never free them.      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FA4_C_RUNTIME_H
#define FA4_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FA4_RT_API __attribute__((visibility("default")))

/* The manifest versions this runtime reads (manifest key fa4_abi_version):
   version 16 adds the attention backward pass (problem.pass "backward": a
   kernel that reads q, k, v, the forward's o and lse and the gradient dout,
   and writes dq, dk and dv; fa4_serving_args.dout etc.,
   fa4_kernel_info.is_backward); version 15 adds FP8 attention (problem.dtype
   "e4m3": q, k and v in OCP FP8 E4M3FN; problem.output_dtype, o's bf16 or f16;
   problem.q_descale, k_descale and v_descale with their f32 input tensors of
   those names, fa4_serving_args.q_descale etc.; fa4_kernel_info.output_dtype
   and its descales); version 14 adds attention sinks (problem.sinks; the f32
   [hq] input tensor "sinks", fa4_serving_args.sinks;
   fa4_kernel_info.has_sinks); version 13 adds logit softcapping
   (problem.softcap, a positive finite c; fa4_kernel_info.softcap); version 12
   adds the serving forms (problem.sequences: packed sequences through
   cu_seqlens, paged caches through a block table; their i32 index tensors,
   fa4_serving_args, fa4_launch_serving); version 11 adds kernels that build
   their TMA tensor maps themselves (the parameter kind tensor_map_scratch:
   global scratch the runtime passes, part of the launch's workspace); version
   10 lets a persistent launch run in clusters along x, the kernel's or its
   twin's (a clustered kernel beside a twin needs the twin's own launch, whose
   cap keeps whole clusters); version 9 gives a split picked at launch a minimum
   partition count (workspace.split_at_launch.min_partitions: that many
   partitions of one key tile each where the minimum keys per partition would
   leave fewer); version 8 adds a decode variant (decode: a kernel of the same
   attention planned for one query row, whose manifest is nested there and which
   the runtime launches when sq is at most decode.max_seq_q); version 7 lets a
   workspace split-K leave its partition count to the runtime, which picks it
   per launch from the sizes and the device's SMs (workspace.split_at_launch,
   the size symbol "splits"); version 6 gives a persistent twin its own
   parameters and launch (its own tile: tensor-map boxes, block, grid and shared
   memory); version 5 lets a persistent launch name a looped twin kernel it runs
   instead; version 4 adds persistent launches and lets a launch be a
   programmatic dependent launch (the kernel waits for the grids before it on
   the stream itself); version 3 adds a workspace split-K (a workspace the
   runtime allocates and a combine kernel it launches after the attention
   kernel); version 2 gives each tensor its own alignment; version 1, with one
   alignment for every tensor, is still read. */
#define FA4_ABI_VERSION 16
#define FA4_ABI_MIN_VERSION 1
#define FA4_MAX_RANK 4

typedef enum fa4_status {
  FA4_SUCCESS = 0,
  FA4_ERROR_INVALID_ARGUMENT = 1, /* NULL handle or output pointer */
  FA4_ERROR_MANIFEST = 2,         /* manifest unreadable or of a version
                                     this runtime does not read */
  FA4_ERROR_VALIDATION = 3,       /* user tensors do not match the kernel */
  FA4_ERROR_DRIVER_NOT_FOUND = 4, /* libcuda.so.1 missing or too old */
  FA4_ERROR_CUDA = 5,             /* a driver call failed (incl. JIT log) */
  FA4_ERROR_IO = 6,               /* the kernel binary could not be read */
  FA4_ERROR_INTERNAL = 7          /* out of host memory or a runtime bug */
} fa4_status;

typedef enum fa4_dtype {
  FA4_DTYPE_BF16 = 0,
  FA4_DTYPE_F16 = 1,
  FA4_DTYPE_F32 = 2,
  FA4_DTYPE_I32 = 3, /* the serving forms' index tensors (version 12) */
  /* Version 15: OCP FP8 E4M3FN (1 sign, 4 exponent bits of bias 7, 3
     mantissa bits; no infinities, 0x7F and 0xFF NaN, largest finite 448),
     one byte: an FP8 kernel's q, k and v. */
  FA4_DTYPE_E4M3 = 4
} fa4_dtype;

typedef enum fa4_mask_kind {
  FA4_MASK_NONE = 0,
  FA4_MASK_CAUSAL = 1, /* bottom-right aligned: key j <= query i + skv - sq */
  FA4_MASK_WINDOW = 2  /* (left, right) around the same diagonal */
} fa4_mask_kind;

/* A strided view of device memory. Strides are in elements. */
typedef struct fa4_tensor {
  void *data; /* NULL means "not given" */
  fa4_dtype dtype;
  int32_t rank;
  int64_t shape[FA4_MAX_RANK];
  int64_t strides[FA4_MAX_RANK];
} fa4_tensor;

/* The operands of attn.attention, BSHD: q [b, sq, hq, dqk], k [b, skv, hkv,
   dqk], v [b, skv, hkv, dv], o [b, sq, hq, dv], lse [b, hq, sq] (f32, only
   for kernels compiled with has_lse; leave lse.data NULL otherwise). */
typedef struct fa4_attention_args {
  fa4_tensor q, k, v, o, lse;
} fa4_attention_args;

/* Version 12, the serving forms (attn.varlen_attention,
   attn.paged_attention; docs/KernelABI.md, "Serving forms"): `attention`
   holds q, k and v (the key and value caches of a paged kernel), o and lse
   in the form's layout; the index tensors are i32, NULL where the kernel
   takes none. max_seqlen_q bounds every sequence's query rows where the
   queries are packed (FlashAttention's max_seqlen_q; rows past it are not
   computed), else 0. Version 14: `sinks`, f32 [hq], one logit per query head
   that joins each row's softmax (attention sinks), for a kernel compiled with
   sinks, else NULL; a dense kernel with sinks launches through
   fa4_launch_serving. Version 15: the descales of an FP8 kernel's q, k and
   v (the dequantised value is descale * the e4m3 value), f32, each one
   value (rank 0) or [b, hkv] (query head h reads entry h / (hq / hkv)) as
   fa4_kernel_info says, NULL where the kernel takes none; a dense kernel
   with descales launches through fa4_launch_serving too. Version 16: the
   backward pass's tensors, for a kernel with fa4_kernel_info.is_backward
   (else NULL): it reads attention.q, k, v, the forward's attention.o and
   attention.lse, and dout [b, sq, hq, dv] (dO, o's dtype), and writes dq,
   dk and dv (the shapes and dtype of q, k and v; dk and dv summed over the
   query heads of each kv head). A backward kernel launches through
   fa4_launch_serving. */
typedef struct fa4_serving_args {
  fa4_attention_args attention;
  fa4_tensor cu_seqlens_q, cu_seqlens_k, seqused_k, block_table, seqlens_k;
  int64_t max_seqlen_q;
  fa4_tensor sinks;
  fa4_tensor q_descale, k_descale, v_descale;
  fa4_tensor dout, dq, dk, dv;
} fa4_serving_args;

/* What the manifest says about the kernel. Strings live as long as the
   module. Sizes that were dynamic at compile time are -1. */
typedef struct fa4_kernel_info {
  const char *kernel_name;
  const char *chip;
  const char *binary_path;
  fa4_dtype dtype;
  int32_t num_q_heads, num_kv_heads, qk_depth, ov_depth;
  fa4_mask_kind mask;
  int32_t window_left, window_right; /* -1: unbounded on that side */
  double scale;
  int32_t has_lse;
  int64_t batch, seq_q, seq_kv;
  int32_t block[3], cluster[3];
  int32_t dynamic_smem_bytes;
  /* The strictest tensor's rules: a layout that meets them suits every
     tensor. fa4_module_get_tensor_alignment gives each tensor's own. */
  int32_t base_align_bytes;   /* data pointer aligned to this */
  int32_t stride_align_bytes; /* every non-last stride * elemsize a multiple */
  /* 1: launches are programmatic dependent launches (the manifest allows
     it and fa4_module_set_programmatic_launch turned it on). */
  int32_t programmatic_launch;
  /* Version 8: the kernel launched instead when sq <= decode_max_seq_q (the
     same attention planned for decode); NULL and 0 when there is none. */
  const char *decode_kernel_name;
  int64_t decode_max_seq_q;
  /* Version 13: logit softcapping's c (scores s become c * tanh(s / c)
     before the mask); 0 when the kernel has none. */
  double softcap;
  /* Version 14: 1 when the kernel takes attention sinks (the "sinks"
     tensor, fa4_serving_args.sinks). */
  int32_t has_sinks;
  /* Version 15: o's dtype (bf16 or f16 for an e4m3 kernel; dtype for the
     others). */
  fa4_dtype output_dtype;
  /* Version 15: the descale each of q, k and v takes (fa4_serving_args
     .q_descale etc.): 0 none, 1 one value for the tensor, 2 per (batch,
     kv head). */
  int32_t q_descale, k_descale, v_descale;
  /* Version 16: 1 for a backward kernel (problem.pass "backward"): o and
     lse are its inputs, dq, dk and dv (fa4_serving_args) its outputs. */
  int32_t is_backward;
} fa4_kernel_info;

typedef struct fa4_module fa4_module;
typedef struct fa4_event fa4_event;

FA4_RT_API const char *fa4_last_error(void);
/* A value that is no enumerator gives "unknown fa4_status", "unknown
   fa4_dtype" and size 0; fa4_validate refuses such a tensor dtype. */
FA4_RT_API const char *fa4_status_name(fa4_status status);
FA4_RT_API const char *fa4_dtype_name(fa4_dtype dtype);
FA4_RT_API size_t fa4_dtype_size(fa4_dtype dtype);

/* Parses and checks the manifest; the binary is read at the first launch,
   from the manifest's directory. binary.file must be a plain file name (no
   '/', not "." or "..", no control characters, at most 255 bytes); the
   file is opened without following a symbolic link and must be a regular
   file of at most 256 MiB. Needs no GPU. */
FA4_RT_API fa4_status fa4_module_load(const char *manifest_path,
                                      fa4_module **module);
/* Same, from a string; binary.file is looked up in binary_dir (NULL or "":
   the current directory). */
FA4_RT_API fa4_status fa4_module_load_string(const char *manifest_json,
                                             const char *binary_dir,
                                             fa4_module **module);
/* Releases the module; launch records made from it keep its kernel alive,
   so they may be destroyed later. */
FA4_RT_API void fa4_module_destroy(fa4_module *module);
FA4_RT_API fa4_status fa4_module_get_info(const fa4_module *module,
                                          fa4_kernel_info *info);
/* One tensor's alignment rules ("q", "k", "v", "o", "lse", or any other
   tensor of the manifest, e.g. "sinks" or "q_descale"): its data
   pointer must be aligned to *base_bytes, and every stride but the last dim's,
   times the element size, must be a multiple of *stride_bytes.
   FA4_ERROR_INVALID_ARGUMENT if the kernel has no such tensor. */
FA4_RT_API fa4_status fa4_module_get_tensor_alignment(const fa4_module *module,
                                                      const char *tensor,
                                                      int32_t *base_bytes,
                                                      int32_t *stride_bytes);

/* Programmatic dependent launch (CUDA 12 PDL), for kernels whose manifest
   allows it (version 4, launch.programmatic_dependent_launch): the kernel
   may start while the grid before it on the stream drains and waits
   in-kernel (griddepcontrol.wait) before it reads or writes global memory,
   so its launch and prologue can overlap that grid's tail. Off by default:
   on back-to-back fa4 kernels it measured no gain, and on split-K decode
   in CUDA graphs a loss (bench/RESULTS.md). enabled = 1 turns it on for
   later launches of this module (for a kernel that follows a long one of
   another library); ignored where the manifest does not allow it. */
FA4_RT_API fa4_status fa4_module_set_programmatic_launch(fa4_module *module,
                                                         int32_t enabled);

/* Persistent kernels (manifest launch.persistent: a prefill kernel's looped
   twin, persistent decode) run one CTA per SM, each looping over work
   tiles. max_ctas > 0 caps that grid for later launches of this module: to
   leave SMs to work on other streams, or to make every CTA loop over many
   work tiles (tests). 0 restores one per SM; negative is an error. */
FA4_RT_API fa4_status fa4_module_set_persistent_ctas(fa4_module *module,
                                                     int32_t max_ctas);

/* Checks every tensor against the manifest (dtype, shape, strides,
   alignment). Needs no GPU. A backward kernel (version 16), whose dout,
   dq, dk and dv fa4_attention_args cannot name, is refused here, by
   fa4_launch and by fa4_launch_record_create: it goes through
   fa4_validate_serving, fa4_launch_serving and the serving records. */
FA4_RT_API fa4_status fa4_validate(const fa4_module *module,
                                   const fa4_attention_args *args);

/* Validates, then on first use in the current CUDA context (or device 0's
   primary context when none is current) loads the binary, and launches on
   `stream` (a CUstream; NULL is the legacy default stream). Thread-safe. */
FA4_RT_API fa4_status fa4_launch(fa4_module *module,
                                 const fa4_attention_args *args, void *stream);

/* fa4_validate and fa4_launch for every kernel, the serving forms' too
   (version 12; a dense kernel takes args->attention and NULL index
   tensors) and the backward pass (version 16: args->dout, dq, dk, dv). The
   index tensors' values are not read on the host: a kernel clamps each
   sequence's span to its tensors. */
FA4_RT_API fa4_status fa4_validate_serving(const fa4_module *module,
                                           const fa4_serving_args *args);
FA4_RT_API fa4_status fa4_launch_serving(fa4_module *module,
                                         const fa4_serving_args *args,
                                         void *stream);
/* Device bytes a launch of `args` needs as its workspace in the current
   context (0: none): a workspace split-K's partials for the partition count
   the launch picks on this device. Validates `args` as fa4_launch_serving;
   the same shapes give the same count. */
FA4_RT_API fa4_status fa4_serving_workspace_bytes(fa4_module *module,
                                                  const fa4_serving_args *args,
                                                  uint64_t *bytes);
/* fa4_launch_serving with the caller's workspace: NULL (the runtime
   allocates it in stream order), or at least fa4_serving_workspace_bytes
   of device memory, 256-byte aligned, that nothing else touches until the
   launch's kernels have finished on `stream` (e.g. from the caller's
   caching allocator, which a stream-ordered allocation costs more than
   when the driver's pool returns its memory at each synchronisation). */
FA4_RT_API fa4_status fa4_launch_serving_workspace(fa4_module *module,
                                                   const fa4_serving_args *args,
                                                   void *workspace,
                                                   void *stream);

/* Launch records: what fa4_launch works out from the arguments' shapes,
   strides and dtypes (validation, the kernel and its grid, the scalar
   arguments, the TMA descriptors), made once and launched many times with
   other data pointers, as a serving loop or a framework's per-shape cache
   does. A record belongs to the CUDA context current when it was made (or
   device 0's primary context, as fa4_launch) and keeps its module alive, so
   fa4_module_destroy may come first. It takes the module's persistent cap
   and programmatic-launch setting as they are when it is made.
   Thread-safe. */
typedef struct fa4_launch_record fa4_launch_record;
/* Validates `args` as fa4_launch does and loads the kernel. */
FA4_RT_API fa4_status fa4_launch_record_create(fa4_module *module,
                                               const fa4_attention_args *args,
                                               fa4_launch_record **record);
/* Device bytes the launch's workspace needs (0: none): a workspace split-K's
   partials and, for a kernel that builds its tensor maps (version 11), their
   scratch, 128 bytes per map per CTA of the launch. */
FA4_RT_API fa4_status fa4_launch_record_workspace_bytes(
    const fa4_launch_record *record, uint64_t *bytes);
/* Launches the record's kernel(s) on `stream` with data = {q, k, v, o, lse}
   (lse NULL for a kernel without LSE): tensors of the shapes, strides and
   dtypes the record was made with. The pointers are checked (given,
   aligned, outputs overlapping no other tensor); TMA descriptors are
   encoded again only for pointers that changed. `workspace`: NULL (the
   runtime allocates it in stream order, as fa4_launch), or at
   least fa4_launch_record_workspace_bytes of device memory, 256-byte
   aligned, that nothing else touches until the launch's kernels have
   finished on `stream` (e.g. from the caller's caching allocator). */
FA4_RT_API fa4_status fa4_launch_record_run(fa4_launch_record *record,
                                            void *const data[5],
                                            void *workspace, void *stream);
/* Version 14: launch records of the serving arguments, for the kernels
   fa4_attention_args cannot describe (a serving form's index tensors, a
   kernel's sinks). fa4_launch_record_create_serving validates `args` as
   fa4_launch_serving does; fa4_launch_record_run_serving launches with the
   data pointers of `args` (every tensor's `data`, checked as
   fa4_launch_record_run checks its own; the shapes, strides, dtypes and
   max_seqlen_q are the record's and are not read). Records of either
   creation run through either run function only where its arguments can
   name every tensor the kernel takes. */
FA4_RT_API fa4_status fa4_launch_record_create_serving(
    fa4_module *module, const fa4_serving_args *args,
    fa4_launch_record **record);
FA4_RT_API fa4_status fa4_launch_record_run_serving(
    fa4_launch_record *record, const fa4_serving_args *args, void *workspace,
    void *stream);
/* Releases the record (and the module's kernel when it held the last
   reference). Not while another thread runs it. */
FA4_RT_API void fa4_launch_record_destroy(fa4_launch_record *record);

/* Driver helpers so tools need no libcudart. They use the current context,
   or make device 0's primary context current. */
typedef struct fa4_device_info {
  char name[256];
  int32_t compute_major, compute_minor;
  int32_t multiprocessor_count;
  int64_t l2_cache_bytes;
} fa4_device_info;

FA4_RT_API fa4_status fa4_device_get_info(fa4_device_info *info);
FA4_RT_API fa4_status fa4_device_alloc(size_t bytes, void **device_ptr);
/* device_ptr NULL: nothing to free, FA4_SUCCESS. */
FA4_RT_API fa4_status fa4_device_free(void *device_ptr);
FA4_RT_API fa4_status fa4_copy_to_device(void *device_dst, const void *host_src,
                                         size_t bytes);
FA4_RT_API fa4_status fa4_copy_to_host(void *host_dst, const void *device_src,
                                       size_t bytes);
/* Sets `count` 16-bit / 32-bit words to `value` (e.g. NaN poison). */
FA4_RT_API fa4_status fa4_device_fill16(void *device_dst, uint16_t value,
                                        size_t count);
FA4_RT_API fa4_status fa4_device_fill32(void *device_dst, uint32_t value,
                                        size_t count);
FA4_RT_API fa4_status fa4_stream_synchronize(void *stream);
/* Events for timing: an fa4_event is the driver's CUevent. start, end and
   event must be events fa4_event_create made and nobody destroyed. */
FA4_RT_API fa4_status fa4_event_create(fa4_event **event);
FA4_RT_API fa4_status fa4_event_record(fa4_event *event, void *stream);
FA4_RT_API fa4_status fa4_event_elapsed_ms(const fa4_event *start,
                                           const fa4_event *end, float *ms);
FA4_RT_API void fa4_event_destroy(fa4_event *event);

/* Streams and CUDA graphs, for callers without the CUDA runtime (fa4-run's
   --graph timing): a non-blocking stream; fa4_graph_capture_begin and _end
   record the fa4_launch calls made on it in between (a workspace split-K's
   allocation becomes a graph node) into a graph, replayed whole by
   fa4_graph_launch without a host launch per kernel. */
typedef struct fa4_graph fa4_graph;
FA4_RT_API fa4_status fa4_stream_create(void **stream);
FA4_RT_API void fa4_stream_destroy(void *stream);
/* Capture needs a stream fa4_stream_create made: NULL is refused in both. */
FA4_RT_API fa4_status fa4_graph_capture_begin(void *stream);
FA4_RT_API fa4_status fa4_graph_capture_end(void *stream, fa4_graph **graph);
FA4_RT_API fa4_status fa4_graph_launch(fa4_graph *graph, void *stream);
FA4_RT_API void fa4_graph_destroy(fa4_graph *graph);

#ifdef __cplusplus
}
#endif

#endif /* FA4_C_RUNTIME_H */

#!/usr/bin/env bash
# Regenerates runtime/fuzz/corpus/manifest/, the fuzzers' seed corpus: the
# manifest.json of kernels compiled by fa4-compile (no ptxas needed) that
# cover every manifest form the runtime reads (prefill, persistent twin with
# its own launch, kv-multicast clusters, CTA pairs, split-K cluster decode,
# workspace split-K with a fixed count and picked at launch, decode
# variants, the reference kernel, Blackwell, f16 and windows, tensor maps
# the kernel builds, the serving forms, softcap, sinks and FP8), plus
# runtime/selftest/*/manifest.json (among them FP8 forms of version 15
# the compiled one lacks: f16 output, LSE, a window, an absent descale,
# and the backward kernels of version 16).
# The inputs are written here (the lit tests' inputs move), besides
# examples/attention.mlir.
#
#   runtime/fuzz/make-corpus.sh [path/to/fa4-compile]   (default build/bin/)
#
# The corpus is checked in; rerun this after a manifest format change.
# Files without the .json suffix are past findings, kept as regression
# seeds (regress-*): this script leaves them.
set -euo pipefail
cd "$(dirname "$0")/../.."
compile="${1:-build/bin/fa4-compile}"
out=runtime/fuzz/corpus/manifest
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# fn NAME Q K V O LSE MASK: one attn.attention function (LSE "" for none).
fn() {
  local name=$1 q=$2 k=$3 v=$4 o=$5 lse=$6 mask=$7
  local results=$o values="%o"
  if [ -n "$lse" ]; then
    results="$o, $lse"
    values="%o, %lse"
  fi
  cat <<EOF
func.func @$name(%q: $q, %k: $k, %v: $v) -> ($results) {
  $values = attn.attention %q, %k, %v {mask = #attn.mask<$mask>} : $q, $k, $v -> $results
  return $values : $results
}
EOF
}
t() { echo "tensor<$1>"; } # t SHAPE: a tensor type

gqa=("$(t '?x?x32x128xbf16')" "$(t '?x?x8x128xbf16')" "$(t '?x?x8x128xbf16')"
     "$(t '?x?x32x128xbf16')" "$(t '?x32x?xf32')")
fn decode "${gqa[@]}" none >"$work/decode.mlir"
fn gqa "${gqa[@]}" none >"$work/gqa.mlir"
fn gqa "$(t '?x1x32x128xbf16')" "${gqa[1]}" "${gqa[2]}" \
  "$(t '?x1x32x128xbf16')" "$(t '?x32x1xf32')" none >"$work/gqa-sq1.mlir"
fn gqa_window "$(t '?x?x8x128xbf16')" "$(t '?x?x2x128xbf16')" \
  "$(t '?x?x2x128xbf16')" "$(t '?x?x8x128xbf16')" "$(t '?x8x?xf32')" \
  "window(64, 0)" >"$work/window.mlir"
fn mqa "$(t '?x?x8x128xbf16')" "$(t '?x?x1x128xbf16')" \
  "$(t '?x?x1x128xbf16')" "$(t '?x?x8x128xbf16')" "$(t '?x8x?xf32')" \
  none >"$work/mqa.mlir"
fn mqa_decode "$(t '?x1x8x128xbf16')" "$(t '?x?x1x128xbf16')" \
  "$(t '?x?x1x128xbf16')" "$(t '?x1x8x128xbf16')" "$(t '?x8x1xf32')" \
  none >"$work/mqa-decode.mlir"
pair="$(t '4x8192x16x128xbf16')"
fn pair "$pair" "$pair" "$pair" "$pair" "" none >"$work/pair.mlir"
d64="$(t '?x?x16x64xbf16')"
{
  fn d64 "$d64" "$d64" "$d64" "$d64" "" none
  fn d64_causal "$d64" "$d64" "$d64" "$d64" "" causal
} >"$work/twin.mlir"
h128="$(t '?x?x16x128xbf16')"
h256="$(t '?x?x8x256xbf16')"
{
  fn p128 "$h128" "$h128" "$h128" "$h128" "" none
  fn p256 "$h256" "$h256" "$h256" "$h256" "" none
  fn c128 "$h128" "$h128" "$h128" "$h128" "" causal
  fn c256 "$h256" "$h256" "$h256" "$h256" "" causal
} >"$work/kv-multicast.mlir"
fn mha_static "$(t '2x512x16x64xbf16')" "$(t '2x1024x16x64xbf16')" \
  "$(t '2x1024x16x64xbf16')" "$(t '2x512x16x64xbf16')" "" \
  causal >"$work/static-d64.mlir"
fn f16_window "$(t '?x?x16x128xf16')" "$(t '?x?x4x128xf16')" \
  "$(t '?x?x4x128xf16')" "$(t '?x?x16x128xf16')" "$(t '?x16x?xf32')" \
  "window(17, 33)" >"$work/f16-window.mlir"
# The serving forms (ABI version 12), sizes dynamic, with LSE: varlen with
# seqused_k (the chip's kernel: rank-3 maps of packed tensors), a paged
# cache of 16-key pages with packed queries (the reference kernel) and one
# of 64-key pages with dense queries (the chip's kernel: maps of the pages).
cat >"$work/serving.mlir" <<'MLIR'
func.func @varlen(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %su: tensor<?xi32>) -> (tensor<?x8x64xbf16>, tensor<8x?xf32>) {
  %o, %lse = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) seqused_k(%su : tensor<?xi32>) {mask = #attn.mask<causal>} : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>, tensor<8x?xf32>
  return %o, %lse : tensor<?x8x64xbf16>, tensor<8x?xf32>
}
func.func @paged(%q: tensor<?x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<?x?xi32>, %sk: tensor<?xi32>, %cq: tensor<?xi32>) -> (tensor<?x8x64xbf16>, tensor<8x?xf32>) {
  %o, %lse = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<?x?xi32>) seqlens_k(%sk : tensor<?xi32>) cu_seqlens_q(%cq : tensor<?xi32>) : tensor<?x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<?x8x64xbf16>, tensor<8x?xf32>
  return %o, %lse : tensor<?x8x64xbf16>, tensor<8x?xf32>
}
func.func @paged64(%q: tensor<?x?x8x64xbf16>, %kc: tensor<?x64x2x64xbf16>, %vc: tensor<?x64x2x64xbf16>, %bt: tensor<?x?xi32>, %sk: tensor<?xi32>) -> (tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<?x?xi32>) seqlens_k(%sk : tensor<?xi32>) {mask = #attn.mask<causal>} : tensor<?x?x8x64xbf16>, tensor<?x64x2x64xbf16>, tensor<?x64x2x64xbf16> -> tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
}
MLIR

decode="--batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768"
# name | input | options
jobs=(
  "prefill-causal-gqa|examples/attention.mlir|--chip=sm_90a"
  "prefill-plain|examples/attention.mlir|--chip=sm_90a --decode-variants=false"
  "prefill-persistent|examples/attention.mlir|--chip=sm_90a --persistent --decode-variants=false"
  "reference-sm90|examples/attention.mlir|--chip=sm_90a --kernel=reference"
  "reference-sm100|examples/attention.mlir|--chip=sm_100a"
  "blackwell|examples/attention.mlir|--chip=sm_100a --kernel=blackwell"
  "blackwell-decode|$work/decode.mlir|--chip=sm_100a --kernel=blackwell $decode"
  "blackwell-pair|$work/pair.mlir|--chip=sm_100a --kernel=blackwell"
  "window-gqa|$work/window.mlir|--chip=sm_90a"
  "twin-d64|$work/twin.mlir|--chip=sm_90a --decode-variants=false"
  "kv-multicast|$work/kv-multicast.mlir|--chip=sm_90a --decode-variants=false"
  "decode-cluster|$work/decode.mlir|--chip=sm_90a $decode"
  "decode-workspace|$work/mqa.mlir|--chip=sm_90a $decode --split-k-workspace"
  "split-at-launch|$work/gqa-sq1.mlir|--chip=sm_90a"
  "decode-variant|$work/gqa.mlir|--chip=sm_90a"
  "static-d64|$work/static-d64.mlir|--chip=sm_90a"
  "f16-window|$work/f16-window.mlir|--chip=sm_90a"
  "f16-window-sm100|$work/f16-window.mlir|--chip=sm_100a --kernel=blackwell"
  "mqa-decode|$work/mqa-decode.mlir|--chip=sm_90a"
  "mqa-decode-hinted|$work/mqa-decode.mlir|--chip=sm_90a $decode"
  "device-tensor-maps|examples/attention.mlir|--chip=sm_90a --device-tensor-maps"
  "device-tensor-maps-sm100|$work/decode.mlir|--chip=sm_100a --kernel=blackwell $decode --device-tensor-maps"
  "serving|$work/serving.mlir|--chip=sm_90a"
  "serving-sm100|$work/serving.mlir|--chip=sm_100a"
  "serving-static|test/Pipelines/serving-reference.mlir|--chip=sm_100a --seq-q-hint=1"
  "serving-ref|$work/serving.mlir|--chip=sm_90a --kernel=reference"
  "serving-ref-sm100|$work/serving.mlir|--chip=sm_100a --kernel=reference"
  "sinks|test/Pipelines/sinks-ptxas.mlir|--chip=sm_90a"
  "sinks-sm100|test/Pipelines/sinks-ptxas.mlir|--chip=sm_100a"
  "fp8-sm100|test/Pipelines/fp8-ptxas.mlir|--chip=sm_100a"
)

mkdir -p "$out"
rm -f "$out"/*.json
for job in "${jobs[@]}"; do
  IFS='|' read -r name input options <<<"$job"
  # shellcheck disable=SC2086 # options are words
  "$compile" "$input" $options -o "$work/$name" --quiet --ptxas=none >/dev/null
  # A file with several functions gives a kernel directory each.
  manifests=("$work/$name"/*/manifest.json)
  for manifest in "${manifests[@]}"; do
    kernel="$(basename "$(dirname "$manifest")")"
    if [ ${#manifests[@]} -eq 1 ]; then
      cp "$manifest" "$out/$name.json"
    else
      cp "$manifest" "$out/$name-${kernel#fa4_hopper_}.json"
    fi
  done
done
for manifest in runtime/selftest/*/manifest.json; do
  cp "$manifest" "$out/selftest-$(basename "$(dirname "$manifest")").json"
done
ls -l "$out"

#!/usr/bin/env python3
"""GPU check of fa4 as a transformers attention backend (fa4.hf).

    hf-models.py --configs     the kernel pack's configurations
    hf-models.py               on the GPU, $FA4_CACHE_DIR the pack

Small random-weight models (no download): a Llama (GQA 8/2 heads, d = 64,
causal), a Mistral (the same with a 48-key sliding window), a Gemma 2
(the same heads, sliding-window layers alternating with global ones, logit
softcapping), a Gemma 3 (the same layers, no softcap, its QK norms) and a
gpt-oss (the same heads and layers, learned attention
sinks, here drawn around 2 so that they take a visible share of each row,
and a mixture of 2 experts, both always taken), bf16, B = 2 at 150 tokens. Each runs with
attn_implementation "eager", "sdpa" and "fa4" on the same weights; fa4
passes where its logits are within the spread of the two exact attentions:
max |fa4 - x| <= 1.5 max |sdpa - eager| for x in (sdpa, eager). transformers
runs no Gemma 2 or gpt-oss on SDPA (it has no softcap, no sinks): there
the second exact attention is eager's in f32 ("eager32"), and a control,
eager without the softcap ("nocap") or the sinks ("nosinks"), must fail
the check fa4 passes, so that the check can tell them from none. For each,
- the prefill, eager and under torch.compile(fullgraph=True);
- one decode step after the prefill, through a DynamicCache.
fa4's attention function must have run (a call count per layer). A padded
batch (left padding, as generate() pads prompts): the prefill's logits at
the real tokens within the same spread, and generate() of 12 greedy tokens
giving SDPA's tokens where SDPA and eager agree, unless SDPA's two best
logits at the first step where fa4 leaves them lie within 1.5 x the padded
prefill's spread (a near-tie, which greedy decoding may take either way:
printed, not judged). Then fa4 must refuse, with
its own error, a 4D mask, packed sequences (position_ids restarting within
a row) and a padded batch under torch.compile.
Prints a line per check; exits non-zero on any failure.
"""
import copy
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

HEADS, KV_HEADS, HEAD_DIM, WINDOW = 8, 2, 64, 48
CONFIGS = ["bf16:%d:%d:%d:%d:causal" % (HEADS, KV_HEADS, HEAD_DIM, HEAD_DIM),
           "bf16:%d:%d:%d:%d:window(%d,0)" % (HEADS, KV_HEADS, HEAD_DIM,
                                              HEAD_DIM, WINDOW - 1)]
# Gemma 2's attn_logit_softcapping, here 2: the random weights make
# scores of order 1, which Gemma's 50 would not bend.
SOFTCAP = 2.0
CONFIGS += ["bf16:%d:%d:%d:%d:causal:softcap=%r" % (HEADS, KV_HEADS, HEAD_DIM,
                                                    HEAD_DIM, SOFTCAP),
            "bf16:%d:%d:%d:%d:window(%d,0):softcap=%r" % (
                HEADS, KV_HEADS, HEAD_DIM, HEAD_DIM, WINDOW - 1, SOFTCAP)]
# gpt-oss's learned sinks, under the same heads and window.
CONFIGS += ["bf16:%d:%d:%d:%d:causal:sinks" % (HEADS, KV_HEADS, HEAD_DIM,
                                               HEAD_DIM),
            "bf16:%d:%d:%d:%d:window(%d,0):sinks" % (
                HEADS, KV_HEADS, HEAD_DIM, HEAD_DIM, WINDOW - 1)]
# Padded batches run as packed sequences.
CONFIGS += [c + "@varlen" for c in CONFIGS]
MARGIN = 1.5
# The two exact attentions whose spread fa4 must stay within, per family.
EXACT = {"llama": ("sdpa", "eager"), "mistral": ("sdpa", "eager"),
         "gemma2": ("eager32", "eager"), "gemma3": ("sdpa", "eager"),
         "gptoss": ("eager32", "eager")}
# Each family's control: eager without what fa4 must apply.
CONTROL = {"gemma2": "nocap", "gptoss": "nosinks"}


def config(transformers, family):
    common = dict(hidden_size=HEADS * HEAD_DIM, num_attention_heads=HEADS,
                  num_key_value_heads=KV_HEADS, head_dim=HEAD_DIM,
                  num_hidden_layers=3, intermediate_size=1024, vocab_size=1024,
                  max_position_embeddings=4096,
                  # ~1/sqrt(hidden): attention scores of order 1, so the
                  # attention, not the embeddings, shapes the logits.
                  initializer_range=0.05)
    if family == "llama":
        return transformers.LlamaConfig(**common)
    if family == "gemma2":
        # Three layers: sliding, global, sliding.
        return transformers.Gemma2Config(
            sliding_window=WINDOW, query_pre_attn_scalar=HEAD_DIM,
            attn_logit_softcapping=SOFTCAP, final_logit_softcapping=None,
            **common)
    if family == "gemma3":
        return transformers.Gemma3TextConfig(
            sliding_window=WINDOW, query_pre_attn_scalar=HEAD_DIM,
            layer_types=["sliding_attention", "full_attention",
                         "sliding_attention"], **common)
    if family == "gptoss":
        # Three layers: sliding, global, sliding; 2 experts of 256, both
        # taken by every token: a top-k that drops experts would turn the
        # attentions' rounding into other experts, and the logits apart.
        common.update(intermediate_size=256)
        return transformers.GptOssConfig(
            sliding_window=WINDOW, num_local_experts=2, num_experts_per_tok=2,
            layer_types=["sliding_attention", "full_attention",
                         "sliding_attention"], **common)
    return transformers.MistralConfig(sliding_window=WINDOW, **common)


def register_references(transformers):
    """eager32: the model's own eager attention in f32 (gpt-oss's where the
    module has sinks, else Gemma 2's); the controls: nocap, Gemma 2's
    without the softcap, and nosinks, Llama's eager (gpt-oss's but for the
    sink). All take eager's mask."""
    from transformers.masking_utils import AttentionMaskInterface, eager_mask
    from transformers.models.gemma2 import modeling_gemma2
    from transformers.models.gpt_oss import modeling_gpt_oss
    from transformers.models.llama import modeling_llama

    def eager32(module, query, key, value, attention_mask, **kwargs):
        family = (modeling_gpt_oss if getattr(module, "sinks", None)
                  is not None else modeling_gemma2)
        kwargs.pop("s_aux", None)  # gpt-oss's eager reads module.sinks
        out, weights = family.eager_attention_forward(
            module, query.float(), key.float(), value.float(), attention_mask,
            **kwargs)
        return out.to(query.dtype), weights

    def nocap(module, query, key, value, attention_mask, **kwargs):
        kwargs.pop("softcap", None)
        return modeling_gemma2.eager_attention_forward(
            module, query, key, value, attention_mask, **kwargs)

    def nosinks(module, query, key, value, attention_mask, **kwargs):
        kwargs.pop("s_aux", None)
        return modeling_llama.eager_attention_forward(
            module, query, key, value, attention_mask, **kwargs)

    for name, forward in (("eager32", eager32), ("nocap", nocap),
                          ("nosinks", nosinks)):
        transformers.AttentionInterface.register(name, forward)
        AttentionMaskInterface.register(name, eager_mask)


def models(torch, transformers, family):
    """The same weights under each attention implementation."""
    torch.manual_seed(0)
    cfg = config(transformers, family)
    base = transformers.AutoModelForCausalLM.from_config(
        copy.deepcopy(cfg), attn_implementation="eager", dtype=torch.bfloat16).cuda().eval()
    if family == "gptoss":
        # Sinks around 2 (the init's are near 0, a share of about 1/150):
        # the control must be able to tell them from none.
        gen = torch.Generator(device="cuda").manual_seed(3)
        with torch.no_grad():
            for layer in base.model.layers:
                sinks = layer.self_attn.sinks
                sinks.copy_(2.0 + torch.randn(sinks.shape, device="cuda",
                                              generator=gen))
    out = {"eager": base}
    others = (("eager32", CONTROL[family], "fa4") if family in CONTROL
              else ("sdpa", "fa4"))
    for name in others:
        # A config each: from_config records the implementation in it.
        model = transformers.AutoModelForCausalLM.from_config(
            copy.deepcopy(cfg), attn_implementation=name,
            dtype=torch.bfloat16).cuda().eval()
        model.load_state_dict(base.state_dict())
        out[name] = model
    return out


def spread_line(what, logits, exact_pair=("sdpa", "eager")):
    a, b = exact_pair
    exact = (logits[a].float() - logits[b].float()).abs().max().item()
    to = {x: (logits["fa4"].float() - logits[x].float()).abs().max().item()
          for x in exact_pair}
    ok = max(to.values()) <= MARGIN * exact
    print("%-4s %s: |fa4-%s| %.4f, |fa4-%s| %.4f, |%s-%s| %.4f"
          % ("pass" if ok else "FAIL", what, a, to[a], b, to[b], a, b, exact))
    failures = not ok
    for control in ("nocap", "nosinks"):
        if control not in logits:
            continue
        # The control: eager without the softcap or the sinks must fail the
        # check fa4 passes. (A decode step's row sees 149 keys, where a
        # sink's share is small: 3.2x the spread there on the H100.)
        off = (logits[control].float() - logits[b].float()).abs().max().item()
        ok = off > MARGIN * exact
        print("%-4s %s: control |%s-%s| %.4f > %g x |%s-%s|"
              % ("pass" if ok else "FAIL", what, control, b, off, MARGIN,
                 a, b))
        failures += not ok
    return failures


CALLS = [0]


def counting(forward):
    def counted(*args, **kwargs):
        CALLS[0] += 1
        return forward(*args, **kwargs)
    return counted


def check_family(torch, transformers, family):
    failures = 0
    ms = models(torch, transformers, family)
    gen = torch.Generator(device="cuda").manual_seed(1)
    ids = torch.randint(0, 1024, (2, 150), device="cuda", generator=gen)
    with torch.no_grad():
        CALLS[0] = 0
        prefill = {n: m(ids, use_cache=False).logits for n, m in ms.items()}
        layers = ms["fa4"].config.num_hidden_layers
        ran = CALLS[0] == layers
        failures += not ran
        print("%-4s %s: fa4 attention ran %d times for %d layers"
              % ("pass" if ran else "FAIL", family, CALLS[0], layers))
        failures += spread_line("%s prefill 2x150" % family, prefill,
                                EXACT[family])

        compiled = torch.compile(ms["fa4"], fullgraph=True)
        traced = dict(prefill)
        traced["fa4"] = compiled(ids, use_cache=False).logits
        failures += spread_line("%s prefill, torch.compile(fullgraph)"
                                % family, traced, EXACT[family])

        step = {}
        for n, m in ms.items():
            cache = transformers.DynamicCache(config=m.config)
            m(ids[:, :-1], past_key_values=cache, use_cache=True)
            step[n] = m(ids[:, -1:], past_key_values=cache,
                        use_cache=True).logits
        failures += spread_line("%s decode step after 149 (DynamicCache)"
                                % family, step, EXACT[family])
    return failures


def check_padded(torch, transformers, family):
    """A left-padded batch: prefill logits at the real tokens, and greedy
    generate()."""
    failures = 0
    ms = models(torch, transformers, family)
    gen = torch.Generator(device="cuda").manual_seed(2)
    ids = torch.randint(1, 1024, (3, 90), device="cuda", generator=gen)
    mask = torch.ones_like(ids)
    mask[1, :37] = 0
    mask[2, :89] = 0  # one real token
    ids = ids.masked_fill(mask == 0, 0)
    real = mask.bool()
    with torch.no_grad():
        prefill = {n: m(ids, attention_mask=mask, use_cache=False).logits[real]
                   for n, m in ms.items()}
        failures += spread_line("%s padded prefill 3x90 (left padding)"
                                % family, prefill, EXACT[family])
        a, b = EXACT[family]
        spread = (prefill[a].float() - prefill[b].float()).abs().max().item()
        tokens = {n: m.generate(ids, attention_mask=mask, max_new_tokens=12,
                                do_sample=False, pad_token_id=0)[:, 90:]
                  for n, m in ms.items()}
    exact_agree = torch.equal(tokens[a], tokens[b])
    same = torch.equal(tokens["fa4"], tokens[a])
    why = "" if exact_agree else " (%s and %s disagree: not judged)" % (a, b)
    if not same and exact_agree:
        gap = top_two_gap(torch, ms[a], ids, mask, tokens[a], tokens["fa4"])
        if gap <= MARGIN * spread:
            why = (" (a near-tie: %s's top two logits %.4f apart where fa4 "
                   "first differs, within 1.5 x the spread %.4f: not "
                   "judged)" % (a, gap, spread))
        else:
            why = (" (%s's top two logits %.4f apart where fa4 first "
                   "differs, past 1.5 x the spread %.4f)" % (a, gap, spread))
    ok = same or bool(why) and "not judged" in why
    failures += not ok
    print("%-4s %s padded generate(12 tokens): fa4 %s %s%s"
          % ("pass" if ok else "FAIL", family, "==" if same else "!=", a,
             why))
    return failures


def top_two_gap(torch, model, ids, mask, reference, tokens):
    """The gap between `model`'s two largest logits at the first greedy
    step where `tokens` leaves `reference`, in the row where it does."""
    differs = (reference != tokens)
    step = int(differs.any(0).nonzero()[0])
    row = int(differs[:, step].nonzero()[0])
    prefix = torch.cat([ids, reference[:, :step]], 1)
    prefix_mask = torch.cat([mask, torch.ones_like(reference[:, :step])], 1)
    with torch.no_grad():
        logits = model(prefix, attention_mask=prefix_mask,
                       use_cache=False).logits[row, -1].float()
    top = logits.topk(2).values
    return (top[0] - top[1]).item()


def check_refusals(torch, transformers, fa4):
    failures = 0
    model = models(torch, transformers, "llama")["fa4"]
    ids = torch.randint(0, 1024, (2, 40), device="cuda")
    padding = torch.ones_like(ids)
    padding[1, :7] = 0
    mask4d = torch.zeros(2, 1, 40, 40, device="cuda", dtype=torch.bfloat16)
    packed = torch.cat([torch.arange(25), torch.arange(15)]).cuda()
    compiled = torch.compile(model, fullgraph=True)
    for what, kwargs, expected, run in (
            ("a 4D mask", {"attention_mask": mask4d}, "mask", model),
            ("packed sequences", {"position_ids": packed.expand(2, -1)},
             "packed", model),
            ("a padded batch under torch.compile",
             {"attention_mask": padding}, "torch.compile", compiled)):
        try:
            with torch.no_grad():
                run(ids, use_cache=False, **kwargs)
            ok, message = False, "accepted"
        except Exception as error:  # torch.compile wraps the ValueError
            ok = expected in str(error) and (
                run is compiled or isinstance(error, fa4.Fa4ValueError))
            message = "%s: %s" % (type(error).__name__, error)
        failures += not ok
        print("%-4s refuses %s: %s" % ("pass" if ok else "FAIL", what,
                                       message[:200]))
    return failures


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--configs":
        print("\n".join(CONFIGS))
        return 0
    import torch
    import transformers
    import fa4
    import fa4.hf
    fa4.hf.register()
    transformers.AttentionInterface.register(
        "fa4", counting(fa4.hf.attention_forward))
    register_references(transformers)
    failures = 0
    for family in ("llama", "mistral", "gemma2", "gemma3", "gptoss"):
        failures += check_family(torch, transformers, family)
        failures += check_padded(torch, transformers, family)
    failures += check_refusals(torch, transformers, fa4)
    print("hf-models (transformers %s): %d failure(s)"
          % (transformers.__version__, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

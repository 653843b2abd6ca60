"""What a Chinese text may contain in Latin letters (the glossary), shared by the app scan
(``tests/ui/test_i18n_deep.py``) and the PDF scan (``tests/test_report_zh_text.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Words allowed outside a translation in the widget scan (tests/ui/test_i18n_ui.py ALLOWED_WORDS), repeated
# here so this module imports without Qt.
BASE_WORDS = {
    "GiB", "GB", "MB", "TB", "Gb", "TFLOPS", "FLOPs", "MFU", "TP", "PP", "DP", "CP", "EP", "ZeRO", "NVLink",
    "PCIe", "SXM", "CNY", "USD", "EUR", "RMB", "bf", "fp", "BF", "FP", "AdamW", "Adafactor", "Adam", "SGD",
    "Megatron", "DeepSpeed", "FSDP", "LM", "HF", "PyTorch", "LoRA", "QLoRA", "MoE", "GQA", "KV", "MLP", "NVIDIA",
    "AMD", "GPU", "json", "gpuplan", "InfiniBand", "RoCE", "Ethernet", "EFLOP", "PFLOP", "ZFLOP", "TFLOP",
    "FLOP", "kFLOP", "MFLOP", "GFLOP", "YFLOP",
    # fine-tuning tools (product names) and training objectives (algorithm names)
    "LLaMA", "Factory", "Unsloth", "ms", "swift", "SWIFT", "TRL", "Axolotl", "DPO", "IPO", "KTO", "ORPO", "SimPO", "CPO", "DoRA", "Answer",
    "SIMPO", "GRPO", "PPO", "vLLM", "SFT", "RLHF", "OpenRLHF", "verl", "KL", "Beta", "beta", "ID", "generate",
    "Apex", "Engine", "yml", "YAML", "DDP", "cli", "sft", "rlhf", "train", "unsloth", "pip", "install", "trl",
    "axolotl", "llamafactory", "megatron", "Qwen", "VL", "CLIP", "SigLIP", "RoPE",
}

#: Glossary: words that read the same in a Chinese text (units, abbreviations, product and file-format
#: names). Everything else with two or more Latin letters is English that should have been translated.
GLOSSARY = BASE_WORDS | {
    "EFLOP", "PFLOP", "ZFLOP", "TFLOP", "YFLOP", "Gbps", "Gbit", "GT", "GHz", "MHz", "kW", "TDP", "HBM", "ECC",
    "Xid", "NCCL", "CUDA", "ROCm", "RCCL", "HCCL", "NVSwitch", "SXM", "PIX", "PXB", "PHB", "NODE", "SYS", "NV",
    "NIC", "NICs", "IB", "HDR", "NDR", "EDR", "FDR", "RDMA", "GPUs", "ibstat", "ibv", "devinfo", "smi", "npu",
    "rocm", "nvidia", "topo", "kit", "sh", "bash", "torchrun", "Ascend", "Instinct", "MI", "SXM", "OAM", "PCI",
    "DGX", "HGX", "MFU", "HFU", "vpp", "VPP", "SP", "RC", "Llama", "Qwen", "Mixtral", "Meta", "GeForce", "RTX",
    "LLM", "TRT", "vLLM", "NVL", "PSU", "UPS", "BMC", "BIOS", "OS", "SSD", "NVMe", "CPU", "CPUs", "RAM", "DDR",
    "AdamW", "bf", "fp", "int", "ZeRO", "DPO", "GRPO", "SFT", "RLHF", "PPO", "tokens", "ms", "GB", "TB", "PB",
    "MiB", "KiB", "TiB", "IPoIB", "LID", "GUID", "Mbps", "gloo", "nccl", "py", "txt", "json", "csv", "pdf", "png",
    "PNG", "PDF", "JSON", "CSV", "HTML", "SVG", "mlx", "mlx5",
    # terms of the trade kept in Latin letters in Chinese technical writing, keyboard keys, product names
    "token", "Token", "Hugging", "Face", "config", "Transformer", "Ctrl", "Alt", "Shift", "flash", "attention",
    "Flash", "logits", "safetensors", "seq", "dropout", "norm", "layer", "epoch", "Trainer", "Accelerate", "Core",
    "torchtitan", "FlashAttention", "cuDNN", "PUE", "kWh", "calibration", "runs", "jsonl", "Kaplan", "et", "al", "arXiv",
    "Chinchilla",
    # the product NeMo RL and the DAPO algorithm (named as GRPO and PPO are; rlasync15's RL fields)
    "RL", "DAPO",
    "Hoffmann", "Korthikanti", "Narayanan", "Rajbhandari", "Young", "Daly", "LM", "Llama", "Ubuntu", "Docker",
    "IDC", "ISP", "VPC", "SLA", "Python", "info", "NET", "Tokens",
    # nvidia-smi's own names for clock-event reasons, quoted from the pasted output
    "HW", "SW", "Slowdown", "Thermal", "Power", "Cap", "Brake", "Sync", "Boost",
    # a scenario's field path, named so the user can find the setting
    "constraints", "max_gpus",
    # the sample files fed to the Verify page and the bad config's value (shown as data, quoted)
    "multinode", "constructed", "big", "usr", "bin", "python",
    # NUMA terms as nvidia-smi prints them ("CPU Affinity") and an IB port state quoted from ibstat ("Down")
    "Affinity", "NUMA", "Down", "Active", "Polling", "Disabled",
    # Megatron's MoE token dispatchers as its --moe-token-dispatcher-type names them (the collectives all-to-all /
    # all-gather are kept as written, like all-reduce) and the DeepEP / HybridEP kernel libraries (products)
    "gather", "flex", "DeepEP", "HybridEP",
    # the reduce-scatter collective (kept as written, like all-gather), the fused query/key/value projection's
    # usual name and Transformer Engine's userbuffers (its TP-overlap feature, as its docs name it)
    "scatter", "QKV", "userbuffers",
    # the Hugging Face library and PyTorch's attention function as named in their docs (attn_implementation "sdpa"),
    # and LLaMA-Factory's value "fa2" for FlashAttention-2 quoted from its config
    "Transformers", "SDPA", "fa",
    # Transformers' attn_implementation value, as the user types it (the Training page's attention list)
    "eager", "Eager",
    # EasyR1, the RL trainer on verl (a product name, read "EasyR" by the two-letter scan; post18's offload tooltips)
    "EasyR",
    # EleutherAI's Pythia model suite, a product name (the GPT-NeoX parallel-residual tooltip cites its configs)
    "Pythia",
    # NVIDIA's NeMo AutoModel library and the Triton kernel language, product names (the LoRA layer choice)
    "NeMo", "AutoModel", "Triton",
    # training libraries named by the FSDP gradient-sync and LoRA-unit switches (product names: Lightning Fabric,
    # LitGPT, MosaicML Composer, Hugging Face PEFT)
    "Lightning", "Fabric", "LitGPT", "Composer", "PEFT",
    # Prime Intellect's RL library prime-rl, a product name (the logits-held switch cites its SFT trainer)
    "prime",
    # Meta's fine-tuning scripts llama-recipes, a product name (the key/value-cache switch cites them)
    "llama", "recipes",
    # Answer.AI's GitHub organisation, named in the source of the RTX 4090 class's own published run (advice19's ceiling)
    "AnswerDotAI",
}


def catalogue_words() -> set[str]:
    """Words of every string in the shipped GPU, network, price and validation-band catalogues: names and their
    cited sources (the Hardware page's tooltips and the MFU-ceiling rule show a row's source verbatim, as data)."""
    words: set[str] = set()

    def walk(v):
        if isinstance(v, str):
            words.update(re.findall(r"[A-Za-z][A-Za-z]+", v))
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    res = ROOT / "gpuplanner" / "resources"
    for path in [res / n for n in ("gpus.json", "networks.json", "prices.json", "economics.json",
                                   "validation_bands.json")] + sorted(
            (res / "models").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return words


E_NOTATION = re.compile(r"\d(?:\.\d+)?[eE][+-]?\d")




def data_words() -> set[str]:
    """Words of the names the app shows as data (GPU, network, price and model-preset names)."""
    words: set[str] = set()
    res = ROOT / "gpuplanner" / "resources"

    def add(v):
        words.update(re.findall(r"[A-Za-z][A-Za-z]+", str(v)))

    for g in json.loads((res / "gpus.json").read_text(encoding="utf-8")).get("gpus", []):
        for k in ("name", "id", "vendor", "arch", "form_factor", "memory_type"):
            add(g.get(k, ""))
    # the MFU ceilings' citations (publication, table, the run's GPU and layout), quoted as published
    bands = json.loads((res / "validation_bands.json").read_text(encoding="utf-8"))
    for c in (bands.get("mfu_ceilings") or {}).get("ceilings", {}).values():
        for k in ("source", "gpu_type", "layout"):
            add(c.get(k, ""))
    for p in (res / "models").glob("*.json"):
        d = json.loads(p.read_text(encoding="utf-8"))
        for k in ("name", "family", "id"):
            add(d.get(k, ""))
    return words


_CODE = re.compile(r"--[\w-]+|\b\w+_\w+\b|(?:~|\.)?/[\w.\-/]+|\b[\w.-]+\.(?:json|jsonl|yml|yaml|py|sh|md|csv)\b")


def strip_code(text: str) -> str:
    """``text`` without what is typed, not read: command-line flags (``--ref_reward_offload``), config keys and
    identifiers in snake_case (``training.rl.generation_gpu_fraction``), paths and file names."""
    return _CODE.sub(" ", text)


def english_words(text: str, allowed: set[str]) -> list[str]:
    """Words of two or more Latin letters not in ``allowed`` (case-insensitive for all-caps entries), outside
    flags, config keys, paths and file names."""
    return [w for w in re.findall(r"[A-Za-z][A-Za-z]+", strip_code(text))
            if w not in allowed and w.upper() not in allowed]


#: English a Chinese text must not carry even though its words pass the glossary (issue 35 round 13, ux20): the
#: expert all-to-all, which the app's Chinese names 全对全通信 (the step breakdown's "专家全对全通信", the EP
#: explanation's "通过全对全通信到达各自的专家"), was left as "专家并行 all-to-all 重叠" in the Training page's
#: label and in a dozen tooltips and refusals ("all", "to" pass as words of the catalogue's sources); and the English
#: plural unit "tokens/s", which the Project page writes "token/s" as the glossary's "token" (Chinese has no plural).
#: all-gather / all-reduce / reduce-scatter stay as written (NCCL's names, no Chinese choice in the app).
ZH_SLIPS = {
    "all-to-all": re.compile(r"(?<![\w-])[Aa]ll-to-all(?![\w-])"),
    "tokens/s": re.compile(r"(?<![\w.])tokens/s\b"),
}


def zh_slips(text: str) -> list[str]:
    """The :data:`ZH_SLIPS` a Chinese ``text`` carries, outside command-line flags and config keys (not
    :func:`strip_code`, whose paths would take "/s" away)."""
    t = re.sub(r"--[\w-]+|\b\w+_\w+\b", " ", text)
    return [name for name, pat in ZH_SLIPS.items() if pat.search(t)]


#: the header line of a table ``gpuplanner plan`` / ``project`` prints: the row-number column "#" or the phase
#: column first, then columns two or more spaces apart (issue 35 round 13, ux21: the plan table's "zero" column
#: read English in Chinese; the widget scan never saw the CLI)
_CLI_HEAD = re.compile(r"^(?:#|\S+(?: \S+)*)(?: {2,}\S+(?: \S+)*){3,}\s*$")


def cli_table_headers(text: str) -> list[str]:
    """The header lines of the tables in a CLI ``text``: a line of four or more columns followed by rows of the
    same column count (the line before a table's first row)."""
    lines = text.splitlines()
    return [ln for i, ln in enumerate(lines[:-1]) if _CLI_HEAD.match(ln) and not ln[:1].isdigit()
            and _CLI_HEAD.match(lines[i + 1]) and lines[i + 1][:1].isdigit()]


def zh_cli_english(text: str, allowed: set[str]) -> list[str]:
    """English words (:func:`english_words`) in the table headers of a Chinese CLI ``text``, and the slips
    (:func:`zh_slips`) anywhere in it."""
    return [w for h in cli_table_headers(text) for w in english_words(h, allowed)] + zh_slips(text)

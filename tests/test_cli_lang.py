"""Every command takes ``--lang``; in Chinese its output has no untranslated English sentence and no
scientific notation (the words left are names, units and trade abbreviations)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplanner.cli import build_parser, run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
SCI = re.compile(r"\d[eE][+-]?\d")
# names, units and trade abbreviations that read the same in Chinese
ALLOWED = {
    "GiB", "GB", "MB", "TB", "Gb", "TFLOPS", "FLOP", "FLOPs", "EFLOP", "ZFLOP", "PFLOP", "MFU", "HFU", "GPU",
    "token", "tokens", "NVLink", "PCIe", "SXM", "ZeRO", "FSDP", "Megatron", "DeepSpeed", "LoRA", "QLoRA", "MoE",
    "NVIDIA", "AMD", "CNY", "USD", "SXM5", "SXM4", "PCIe5", "HBM3", "Hopper", "Ampere", "Blackwell", "Ada",
    "InfiniBand", "RoCE", "Ethernet", "megatron", "fsdp", "deepspeed", "hf", "PUE", "CPU", "GPUs", "DPO", "IPO", "KTO", "ORPO", "SIMPO", "GRPO", "PPO", "REWARD", "trl", "llamafactory",
    "unsloth", "axolotl", "swift",
    # framework product names (Hugging Face Trainer / Accelerate, PyTorch FSDP2 (torchtitan), Megatron-Core)
    "Hugging", "Face", "Trainer", "Accelerate", "PyTorch", "FSDP2", "torchtitan", "Core", "Megatron-Core",
    # torchtune (LoRA on FSDP2), Huawei's MindSpeed adapter and what it replaces on Ascend
    "torchtune", "MindSpeed", "Transformer", "Engine", "Apex",
    # the published runs behind a likely range, by their products' names (core/evaluate.BAND_RUNS)
    "Megatron-LM", "MosaicML", "llm-foundry", "FSDP",
    "CUDA", "NCCL",
    # a rental vendor named in a price line (its quote's source is a citation)
    "Lambda",
    # Megatron-FSDP and the flags that run it, as the user types them (core/search.py's layout line)
    "Megatron-FSDP", "use-megatron-fsdp", "data-parallel-sharding-strategy", "optim_grads_params", "fsdp_dtensor",
    # serving engines' product names (inference.engine)
    "vLLM", "SGLang", "TensorRT", "LLM",
    # NCCL collective names, kept as written in Chinese ML documentation (the .ts keeps all-reduce and all-to-all):
    # the expert all-to-all is its own share of the step since issue 35 r4
    "all-to-all", "all-reduce",
}


def _subcommands() -> dict:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices


def test_every_command_takes_lang():
    for name, p in _subcommands().items():
        opts = [a for a in p._actions if "--lang" in a.option_strings]
        assert opts and set(opts[0].choices) == {"en", "zh_CN"}, name


def _english_words(text: str, names: set[str]) -> list[str]:
    text = re.sub(r"\[[^\]]*\]", " ", text)  # [sources] are citations, quoted as published
    # (source, date) citations: "（HF dataset … (… column …), via gpu-catalog.md §3.1，2026）"
    text = re.sub(r"（[^（）]*(?:§|dataset|arXiv|http)[^（）]*）", " ", text)
    text = re.sub(r"\([^()]*(?:§|dataset|arXiv|http)[^()]*\)", " ", text)
    # a price's (source, year) citation: "的默认价格（cnBeta (cnbeta.com.tw) article 1449972, …，2024）"
    text = re.sub(r"（(?:[^（）()]|\([^()]*\)|（[^（）]*）)*，\d{4}(?:-\d\d-\d\d)?）", " ", text)
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, " ")
    words = [w.strip("-") for w in re.findall(r"[A-Za-z][A-Za-z_\-]{2,}", text)]
    return [w for w in words if w not in ALLOWED]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_estimate_in_chinese_reads_as_chinese(path, capsys):
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.io.scenario_files import load_scenario

    assert run_cli(["estimate", str(path), "--lang", "zh_CN"]) == 0
    out = capsys.readouterr().out
    ev = evaluate(*load_scenario(path))
    assert not SCI.search(out), out
    assert "¥" in out or "$" in out or "请输入报价" in out
    # the layout line is configuration syntax (tp=… pp=…), shown as typed in a scenario file
    # and so are the keys the line under it explains, by their names ("（tp：每层权重切分到的 GPU 数；…）", cli18)
    body = "\n".join(ln for ln in out.splitlines() if "tp=" not in ln and not ln.lstrip().startswith("（tp："))
    from gpuplanner.formatting import gpu_display_name

    names = {ev.model_name, ev.gpu_name, gpu_display_name(ev.gpu_name, lang="zh_CN")}
    if ev.scenario.hardware.inter_node:  # a catalogue name, as data (the NIC-count note names the fabric)
        from gpuplanner.core.catalog_hw import get_network

        names.add(get_network(ev.scenario.hardware.inter_node).name.split(" (")[0])
    left = _english_words(body, names)
    assert not left, (left, out)
    assert run_cli(["estimate", str(path), "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert "Memory per GPU (GiB)" in en and "单卡" not in en


def test_plan_in_chinese_reads_as_chinese(capsys):
    path = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
    assert run_cli(["plan", str(path), "--lang", "zh_CN", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert not SCI.search(out), out
    assert "~10B 档：" in out and "日历时间" in out and "¥" in out  # the tier line (ux17: no "档位 10B：" before it)
    # the table rows and rule ids are identifiers (catalog ids, tp/pp, rule ids) a script reads back; the
    # sentences around them must be Chinese
    sentences = [ln for ln in out.splitlines() if ln.startswith(("~10B 档", "评估", "   - ", "   • ", "1. ", "2. "))]
    assert sentences
    from gpuplanner.core.catalog_hw import load_gpus

    from gpuplanner.formatting import gpu_display_name

    names = {g.name for g in load_gpus().values()} | {gpu_display_name(g.name, lang="zh_CN")
                                                       for g in load_gpus().values()} | {
        "Megatron-Core", "Hugging Face Trainer / Accelerate",
                                                       "PyTorch FSDP2 (torchtitan)", "DeepSpeed"}
    left = _english_words("\n".join(sentences), names)
    assert not left, (left, out)


def test_project_and_gpus_in_chinese(capsys):
    from gpuplanner.core.catalog_hw import load_gpus

    path = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"
    assert run_cli(["project", str(path), "--lang", "zh_CN"]) == 0
    out = capsys.readouterr().out
    assert not SCI.search(out) and "合计" in out and "¥" in out
    import json

    phases = [p["name"] for p in json.loads(path.read_text(encoding="utf-8"))["project"]["phases"]]
    names = set(phases) | {g.name for g in load_gpus().values()} | {"Alibaba Cloud ECI (elastic container instance)"}
    # the model a serving phase names (issue 35 round 6: "Serves {model} …") is data, like the GPU names
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    names.add(resolve(scenario_from_dict({"model": {"preset": "qwen2.5-7b"}})).arch.name)
    # the serving engine's own flags, quoted as its docs spell them so a user can type them (servadv17's stall advice)
    from gpuplanner.core.serving_facts import STALL_FLAGS

    names |= {w for flags, _src in STALL_FLAGS.values() for w in flags.split() if w.startswith("--") or "-" in w}
    # the what-if layout changes are scenario fields (num_gpus 4→8, dp, grad_accum) a user types back
    body = "\n".join(ln for ln in out.splitlines() if "→" not in ln)
    assert not _english_words(body, names), out
    assert run_cli(["gpus", "--lang", "zh_CN"]) == 0
    out = capsys.readouterr().out
    assert "显存" in out and not SCI.search(out)


@pytest.mark.parametrize("argv", [
    ["net", "tests/data/net/roce-100-ibstat.txt", "--plan", "tests/data/net/plan-16x-h100.json"],
    ["net", "tests/data/net/ib-hdr-200-port-down-ibstat.txt", "--network", "ib-ndr-400", "--nics", "8"],
    ["health", "tests/data/health/constructed-nvidia-smi-q-h100-throttled-ecc.txt"],
    ["health", "tests/data/health/dmesg-xid.txt"],
], ids=["net-roce", "net-port-down", "health-nvidia", "health-dmesg"])
def test_verify_commands_print_findings_in_chinese(argv, capsys):
    argv = [argv[0]] + [str(ROOT / a) if a.startswith("tests/") else a for a in argv[1:]]
    code = run_cli(argv + ["--lang", "zh_CN"])
    assert code in (0, 1)
    out = capsys.readouterr().out
    findings = [ln for ln in out.splitlines() if ln.startswith(("[ok]", "[info]", "[warn]", "[BAD]"))]
    assert findings, out
    for ln in findings:  # every finding is a Chinese sentence (names and identifiers inside it stay as they are)
        assert re.search(r"[\u4e00-\u9fff]", ln), ln
    assert not SCI.search(out), out


def test_kit_and_topo_in_chinese(tmp_path, capsys):
    ex = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
    assert run_cli(["kit", str(ex), "-o", str(tmp_path / "kit.sh"), "--lang", "zh_CN"]) == 0
    err = capsys.readouterr().err
    assert "已写入" in err
    code = run_cli(["kit-import", str(ex), str(ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json"),
                    "--lang", "zh_CN"])
    assert code in (0, 1)
    out = capsys.readouterr().out
    assert "服务器" in out and "偏低" in out and not SCI.search(out)
    assert "LOW" not in out and "Server" not in out
    topo = ROOT / "tests" / "data" / "topo"
    sample = sorted(topo.glob("*.txt"))[0]
    assert run_cli(["topo", str(sample), "--lang", "zh_CN"]) in (0, 1)
    out = capsys.readouterr().out
    findings = [ln for ln in out.splitlines() if ln.startswith(("[ok]", "[warn]", "[BAD]"))]
    assert findings and all(re.search(r"[\u4e00-\u9fff]", ln) for ln in findings), out


def test_plan_file_refusals_read_as_chinese(tmp_path, capsys):
    """A plan file an old schema cannot be upgraded with is refused in the CLI's language (issue 35 r4: the
    upgrade's "expected an object" was English in the Chinese output)."""
    from gpuplanner.cli import run_cli

    bad = tmp_path / "bad.gpuplan"
    bad.write_text('{"schema_version": 1, "scenario": [1]}', encoding="utf-8")
    assert run_cli(["estimate", "--lang", "zh_CN", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "应为对象" in err, err
    assert err.startswith("gpuplanner: 错误："), err  # the prefix in Chinese too (helpzh18)
    body = err.split("gpuplanner: 错误：", 1)[-1].replace("bad.gpuplan", " ").replace("schema", " ")
    assert _english_words(body.replace("scenario", " "), set()) == [], err


def test_multinode_kit_report_reads_as_chinese(capsys):
    """`gpuplanner kit-import` of a multi-node result: the report's labels, sentences and table (cluster, network,
    bandwidths, scaling, before/after) were English f-strings, also with --lang zh_CN (issue 35 r4)."""
    from gpuplanner.cli import run_cli

    data = Path(__file__).parent / "data"
    assert run_cli(["kit-import", "--lang", "zh_CN", str(data / "net" / "plan-16x-h100.json"),
                    str(data / "kit" / "multinode-2x8-h100-ib-constructed.json")]) == 0
    out = capsys.readouterr().out
    assert "集群" in out and "跨节点" in out and "之后" in out
    # the result's own names (hosts, device, backend, torch version, network id) and NCCL's are data
    names = {"node0", "node1", "host-a", "host-b", "cuda", "nccl", "torch", "ib-ndr-400", "NET/IB", "RDMA",
             "MiB", "bfloat16", "tokens/s"}
    assert _english_words(out, names) == [], out

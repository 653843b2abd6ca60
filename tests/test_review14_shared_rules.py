"""Review of issue 35 round 14 (review14): rules the round wrote twice, now read from one place.

* The NVLink domain beyond a server (``catalog_hw.domain_beyond_server``): the search's fabric check
  (``advisor.nvlink_domain``) and the time model's links (``timing.ep_domain_of``) agree on every catalogue card.
* The tools that run their own LoRA linears (``frameworks.own_lora_layers``): the validation of
  ``training.lora_layer``, the search and the time model agree on every framework.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gpuplanner.core import advisor
from gpuplanner.core import timing as T
from gpuplanner.core.catalog_hw import domain_beyond_server, load_gpus
from gpuplanner.core.frameworks import FRAMEWORKS, engine_of, own_lora_layers
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.scenario import scenario_from_dict


def test_domain_beyond_server_by_hand():
    assert domain_beyond_server(SimpleNamespace(nvlink_domain=72, gpus_per_node=4)) == 72  # GB200 NVL72 trays
    assert domain_beyond_server(SimpleNamespace(nvlink_domain=8, gpus_per_node=8)) == 0  # an HGX board
    assert domain_beyond_server(SimpleNamespace(nvlink_domain=8, gpus_per_node=None)) == 0  # no server size
    assert domain_beyond_server(SimpleNamespace(nvlink_domain=None, gpus_per_node=4)) == 0


@pytest.mark.parametrize("gpu", sorted(load_gpus().values(), key=lambda g: g.id), ids=lambda g: g.id)
def test_fabric_check_and_time_model_read_one_domain(gpu):
    nvlink = SimpleNamespace(intra_link="nvlink")
    dom = advisor.nvlink_domain(gpu)
    assert dom == (domain_beyond_server(gpu) if gpu.intra_node_link == "nvlink" else 0)
    if gpu.intra_node_link == "nvlink":
        # a scenario on the card's own servers: the time model spans servers exactly where the search's check does
        per = int(gpu.gpus_per_node or 8)
        assert (T.ep_domain_of(gpu, nvlink, per) or 0) == dom


def _lora(framework: str) -> dict:
    return {"model": {"preset": "llama-3.1-8b"},
            "training": {"framework": framework, "method": "lora", "lora_layer": "automodel"},
            "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS))
def test_own_lora_layers_one_rule(framework):
    assert own_lora_layers(framework) == (engine_of(framework) == "megatron" or framework == "unsloth")
    t = SimpleNamespace(method="lora", framework=framework, lora_layer="automodel")
    assert T.lora_layer_of(t, engine_of(framework)) == ("peft" if own_lora_layers(framework) else "automodel")
    if own_lora_layers(framework):
        with pytest.raises(ScenarioError, match="runs its own LoRA layers"):
            scenario_from_dict(_lora(framework))
    else:
        assert scenario_from_dict(_lora(framework)).training.lora_layer == "automodel"

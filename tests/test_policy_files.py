"""Hostile policy files (``policy:``, ``rllib:``, ``guided:net=``) and untrusted model files are
refused when they are read, with a short ConfigError naming the file and the problem."""

from __future__ import annotations

import zipfile

import pytest

torch = pytest.importorskip("torch")

from agents import make_agent, parse_spec, trusting, weights  # noqa: E402
from agents.policy import FORMAT, Network  # noqa: E402
from tribune_env import ConfigError, Game  # noqa: E402

MAX_MESSAGE = 600  # characters: a refusal names the problem, it never echoes the file


def network_state(fill=None) -> dict:
    """A small policy network's tensors, each filled with `fill` if given."""
    observations, masks = weights.probes()
    state = Network([8], observations.shape[1], masks.shape[1]).modules.state_dict()
    return {name: torch.full_like(t, fill) if fill is not None else t for name, t in state.items()}


def write_policy(path, **changes):
    torch.save(
        {"format": FORMAT.tag, "version": FORMAT.version, "layers": [8], "state": network_state(), **changes}, path
    )
    return path


def refusal(spec: str) -> str:
    """The message of the ConfigError that making the agent raises, checked short."""
    with pytest.raises(ConfigError) as refused:
        make_agent(spec)
    message = str(refused.value)
    assert len(message) <= MAX_MESSAGE, message[:MAX_MESSAGE]
    return message


def test_a_small_policy_file_of_finite_weights_plays(tmp_path):
    agent = make_agent(f"policy:{write_policy(tmp_path / 'good.pt')},deterministic=false")
    observations, masks = weights.probes()
    assert agent.deterministic is False
    assert (agent.probabilities(observations, masks)[~masks] == 0).all()


@pytest.mark.parametrize(
    "fill, tensor, message",
    [
        (float("nan"), "mlp_extractor.policy_net.0.weight", "not finite"),
        (float("inf"), "mlp_extractor.policy_net.0.weight", "not finite"),
        (1e38, None, "action logits are not finite"),  # finite weights whose outputs overflow
    ],
)
@pytest.mark.parametrize("kind", ["policy", "guided"])
def test_a_network_that_cannot_play_is_refused_when_its_file_is_read(tmp_path, fill, tensor, message, kind):
    path = write_policy(tmp_path / "broken.pt", state=network_state(fill))
    spec = f"policy:{path}" if kind == "policy" else f"guided:net={path}"
    text = refusal(spec)
    assert "broken.pt" in text and message in text and (tensor is None or tensor in text)


def test_one_nan_in_the_action_bias_is_refused_by_the_tensors_name(tmp_path):
    state = network_state()
    state["action_net.bias"][3] = float("nan")
    assert "action_net.bias holds values that are not finite" in refusal(
        f"policy:{write_policy(tmp_path / 'b.pt', state=state)}"
    )


def test_an_rllib_network_that_cannot_play_is_refused(tmp_path):
    pytest.importorskip("ray")
    from agents.rllib import build_module, save_policy

    module = build_module([8])
    with torch.no_grad():
        for tensor in module.parameters():
            tensor.fill_(1e38)
    save_policy(module, [8], tmp_path / "huge.pt")
    assert "action logits are not finite" in refusal(f"rllib:{tmp_path / 'huge.pt'}")


def nested_layers(path, depth: int):
    """A policy file whose layers are a list nested `depth` deep (written opcode by opcode: pickling
    such a list would recurse)."""
    write_policy(path, layers="PLACEHOLDER")
    with zipfile.ZipFile(path) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    name = next(n for n in members if n.endswith("data.pkl"))
    nested = b"]" * depth + b"a" * (depth - 1)  # EMPTY_LIST `depth` times, each APPENDed to the one below
    placeholder = b"X\x0b\x00\x00\x00PLACEHOLDER"  # BINUNICODE, as torch.save pickles (protocol 2)
    assert placeholder in members[name]
    members[name] = members[name].replace(placeholder, nested)
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return path


class Payload:
    """An object whose unpickling would run code."""

    def __reduce__(self):
        return (print, ("ran",))


def test_hostile_contents_are_refused_briefly(tmp_path):
    one = torch.zeros(1)
    overflowing = {
        **network_state(),
        "action_net.bias": torch.full_like(network_state()["action_net.bias"], 1e300, dtype=torch.float64),
    }
    cases = {
        "deep.pt": (nested_layers(tmp_path / "deep.pt", 100_000), "layers must be"),
        "keys.pt": (write_policy(tmp_path / "keys.pt", state={0: one}), "named by strings"),
        "extra.pt": (
            write_policy(tmp_path / "extra.pt", state={**network_state(), **{f"x{i}": one for i in range(20_000)}}),
            "20,000 unexpected (x0, x1, x2, ...)",
        ),
        "advisor.pt": (write_policy(tmp_path / "advisor.pt", advisor="h" * 100_000), "a string of 100000 characters"),
        "float64.pt": (
            write_policy(tmp_path / "float64.pt", state=overflowing),
            "action_net.bias holds values that are not finite",
        ),
        "code.pt": (write_policy(tmp_path / "code.pt", advisor=Payload()), "objects other than tensors"),
        "true.pt": (write_policy(tmp_path / "true.pt", version=True), "version 1"),
        "float.pt": (write_policy(tmp_path / "float.pt", version=1.0), "version 1"),
        "rllib.pt": (write_policy(tmp_path / "rllib.pt", format="tribune-rllib-policy"), "not a Tribune policy file"),
        "ints.pt": (
            write_policy(tmp_path / "ints.pt", state={k: t.int() for k, t in network_state().items()}),
            "floating-point",
        ),
    }
    for name, (path, message) in cases.items():
        text = refusal(f"policy:{path}")
        assert name in text and message in text, text


def test_a_file_that_inflates_past_the_limit_is_refused_before_torch_reads_it(tmp_path, monkeypatch):
    monkeypatch.setattr(torch, "load", lambda *args, **kwargs: pytest.fail("the file was read"))
    bomb = tmp_path / "bomb.pt"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("archive/data/0", "w", force_zip64=True) as member:
            for _ in range(101):
                member.write(bytes(2**20))
    assert bomb.stat().st_size < 2**20
    assert "bomb.pt unpacked is larger than 100 MB" in refusal(f"policy:{bomb}")
    crowd = tmp_path / "crowd.pt"
    with zipfile.ZipFile(crowd, "w") as archive:
        for number in range(weights.MAX_MEMBERS + 1):
            archive.writestr(f"archive/data/{number}", b"")
    assert "1,001 members" in refusal(f"policy:{crowd}")


def test_paths_that_name_no_file_are_refused_by_what_is_wrong(tmp_path):
    (tmp_path / "a.pt").symlink_to(tmp_path / "b.pt")
    (tmp_path / "b.pt").symlink_to(tmp_path / "a.pt")
    long = tmp_path / ("x" * 300 + ".pt")
    assert f"no such file: {tmp_path / 'missing.pt'}" in refusal(f"policy:{tmp_path / 'missing.pt'}")
    assert "no such file" in refusal(f"rllib:{tmp_path / 'missing.pt'}")
    assert "a.pt: Too many levels of symbolic links" in refusal(f"policy:{tmp_path / 'a.pt'}")
    assert "File name too long" in refusal(f"guided:net={long}")
    assert "is not a file" in refusal(f"policy:{tmp_path}")
    assert "embedded null byte" in refusal(f"policy:{tmp_path}/a\0.pt")
    for path in (tmp_path / "missing.pt", tmp_path / "a.pt", long):
        with pytest.raises(ConfigError, match="no such file|symbolic links|too long"):
            weights.spec_of(path)


def test_a_files_kind_is_told_by_its_format_tag_in_one_reading(tmp_path, monkeypatch):
    loads, load = [], torch.load
    monkeypatch.setattr(torch, "load", lambda *args, **kwargs: loads.append(1) or load(*args, **kwargs))
    rllib = write_policy(tmp_path / "r.pt", format="tribune-rllib-policy")
    assert weights.spec_of(write_policy(tmp_path / "p.pt")) == f"policy:{tmp_path / 'p.pt'}"
    assert weights.spec_of(rllib) == f"rllib:{rllib}"
    assert loads == [1, 1]
    other = write_policy(tmp_path / "other.pt", format="a-spreadsheet")
    with pytest.raises(ConfigError, match="other.pt is not a Tribune or RLlib policy file: it carries no known format"):
        weights.spec_of(other)


def test_a_file_agents_spec_carries_its_options_after_the_path():
    assert parse_spec("model:runs/a,b/m.zip,trust=true") == ("model", {"path": "runs/a,b/m.zip", "trust": "true"})
    assert parse_spec("policy:x.pt,deterministic=false") == ("policy", {"path": "x.pt", "deterministic": "false"})
    assert trusting("model:m.zip") == "model:m.zip,trust=true"
    assert trusting("model:m.zip,trust=false") == "model:m.zip,trust=false"  # the spec's own word stands
    assert trusting("policy:p.pt") == "policy:p.pt"


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    """A MaskablePPO model file of Tribune's spaces, as tribune train saves one."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from tribune_env.envs import VectorEnv

    path = tmp_path_factory.mktemp("model") / "model.zip"
    MaskablePPO("MlpPolicy", VectorEnv(num_envs=1, num_players=2), policy_kwargs={"net_arch": [8]}).save(path)
    return path


def test_a_model_file_loads_only_when_the_user_trusts_it(monkeypatch, model_file):
    import agents.model

    model = model_file
    monkeypatch.setattr(agents.model, "load_model", lambda path: pytest.fail("the untrusted file was loaded"))
    for spec in (f"model:{model}", f"model:{model},trust=false"):
        text = refusal(spec)
        assert "is not trusted" in text and "trust=true" in text and "policy:PATH.pt" in text
    assert "trust must be true or false, got 1" in refusal(f"model:{model},trust=1")
    with pytest.raises(ConfigError, match="is not trusted"):
        agents.model.ModelAgent(path=str(model))
    monkeypatch.undo()
    assert make_agent(f"model:{model},trust=true").model.observation_space.shape == (Game(2).obs_layout.size,)


def test_the_command_line_loads_model_files_only_with_trust_model_files(model_file):
    from click.testing import CliRunner

    from training.cli import main

    model = model_file
    games = ["--games", "2", "--workers", "1", "--round-limit", "1"]
    refused = CliRunner().invoke(main, ["tournament", f"model:{model}", "random", *games])
    assert refused.exit_code == 1 and "is not trusted" in refused.output
    trusted = CliRunner().invoke(main, ["tournament", f"model:{model}", "random", *games, "--trust-model-files"])
    assert trusted.exit_code == 0, trusted.output
    assert "trust=true" in trusted.output


@pytest.mark.parametrize("command", ["tournament", "evaluate"])
def test_the_command_line_refuses_a_path_too_long_by_name(tmp_path, command):
    from click.testing import CliRunner

    from training.cli import main

    long = str(tmp_path / ("x" * 300 + ".pt"))
    arguments = [f"policy:{long}", "random"] if command == "tournament" else [long, "--opponents", "random"]
    result = CliRunner().invoke(main, [command, *arguments])
    assert result.exit_code == 1 and "File name too long" in result.output and len(result.output) < MAX_MESSAGE


def test_evaluate_says_a_missing_file_is_missing(tmp_path):
    from click.testing import CliRunner

    from training.cli import main

    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "gone.pt")])
    assert result.exit_code == 1 and f"no such file: {tmp_path / 'gone.pt'}" in result.output


def test_a_policy_file_says_the_table_sizes_it_was_trained_at(tmp_path):
    from agents.policy import load_policy
    from agents.trained import POLICIES

    network = load_policy(write_policy(tmp_path / "three.pt"))
    assert network.players == ()  # a file that does not say
    network.players = (3, 5)
    network.save(tmp_path / "saved.pt")
    assert make_agent(f"policy:{tmp_path / 'saved.pt'}").players == (3, 5)
    assert make_agent("policy:shipped-4p").players == (4,)  # the shipped networks by the manifest
    assert make_agent("policy:shipped-3p").players == (3,)  # started from the 2-player one, trained at 3
    assert load_policy(POLICIES[2]).players == (2,) and load_policy(POLICIES[3]).players == (3,)  # as they say
    for bad in ([7], "2", [True], [2.0]):
        message = refusal(f"policy:{write_policy(tmp_path / 'bad.pt', players=bad)}")
        assert "players must be a list of table sizes from 2 to 5" in message


def test_evaluate_warns_when_a_network_plays_another_table_size(tmp_path):
    from click.testing import CliRunner

    from training.cli import main

    runner = CliRunner()
    other = runner.invoke(
        main, ["evaluate", "policy:shipped-4p", "--players", "2", "--games", "2", "--opponents", "random"]
    )
    assert other.exit_code == 0, other.output
    assert "warning: policy:shipped-4p was trained at 4 players; here it plays 2" in other.stderr
    same = runner.invoke(
        main, ["evaluate", "policy:shipped-2p", "--players", "2", "--games", "2", "--opponents", "random"]
    )
    assert same.exit_code == 0 and "warning" not in same.stderr

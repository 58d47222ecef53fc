"""First layers read from the observation's non-zero entries: a dense layer's products and gradients."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.policy import PolicyAgent  # noqa: E402
from agents.sparse_input import FEW, FirstLayers, SparseInput, entries  # noqa: E402


def sparse_rows(rows: int, width: int, seed: int) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    x = torch.rand(rows, width, dtype=torch.float64, generator=generator) * 5
    x *= torch.rand(rows, width, generator=generator) < 0.3
    x[1] = 0  # a row with no entries
    return x


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_entries_are_torchs_non_zero_entries_row_by_row(dtype):
    """Rows, columns and values as torch's nonzero gives them, and each row's first entry (an empty
    row starts where the next does); an array without entries gives empty ones."""
    x = sparse_rows(7, 9, seed=3).to(dtype)
    x[6] = 0  # an empty last row
    rows, cols, values, starts = map(torch.from_numpy, entries(x.numpy()))
    expected_rows, expected_cols = x.nonzero(as_tuple=True)
    assert rows.equal(expected_rows) and cols.equal(expected_cols)
    assert values.equal(x[expected_rows, expected_cols])
    assert starts.tolist() == torch.searchsorted(expected_rows, torch.arange(7)).tolist()
    assert starts[1] == starts[2] and starts[6] == len(rows)
    nothing = entries(np.zeros((3, 4), dtype=np.float32))
    assert [len(part) for part in nothing] == [0, 0, 0, 3] and nothing[3].tolist() == [0, 0, 0]


def test_sparse_inputs_gradients_pass_torchs_numerical_check():
    """Two layers from one input, float64: the gradients of the input, the weights and the biases."""
    generator = torch.Generator().manual_seed(0)
    x = sparse_rows(5, 12, seed=1)
    parameters = [
        torch.randn(shape, dtype=torch.float64, generator=generator) for shape in ((4, 12), (4,), (3, 12), (3,))
    ]

    def layers(x, w1, b1, w2, b2):
        return SparseInput.apply(x, torch.cat([w1.t(), w2.t()], dim=1).detach(), w1, b1, w2, b2)

    torch.autograd.gradcheck(layers, [t.requires_grad_() for t in (x, *parameters)])


def test_first_layers_are_dense_layers_and_follow_their_weights():
    """Outputs as nn.Linear's; the weights kept between passes without gradients follow a change in
    place and a step of a fused Adam that calls forget; a pass with gradients reads them afresh."""
    x = sparse_rows(16, 20, seed=2).float()
    assert len(x) >= FEW  # read sparsely without gradients too
    layers = [torch.nn.Linear(20, 8), torch.nn.Linear(20, 3)]
    first = FirstLayers()

    def same():
        with torch.no_grad():
            for ours, plain in zip(first(x, layers), (layer(x) for layer in layers)):
                torch.testing.assert_close(ours, plain)

    same()
    with torch.no_grad():
        layers[1].weight.mul_(-2)
    same()
    optimizer = torch.optim.Adam([p for layer in layers for p in layer.parameters()], lr=0.1, fused=True)
    optimizer.register_step_post_hook(first.forget)
    sum(out.sum() for out in first(x, layers)).backward()
    optimizer.step()
    same()
    blind = FirstLayers()  # not told of the steps: only its passes with gradients see a fused step
    sum(out.sum() for out in blind(x, layers)).backward()
    optimizer.step()
    for ours, plain in zip(blind(x, layers), (layer(x) for layer in layers)):
        torch.testing.assert_close(ours, plain)


def test_a_policy_files_network_gives_the_plain_layers_outputs():
    """The shipped 2-player network's logits and values, its first layers sparse, are the plain towers'
    on real observations, one at a time and in a batch."""
    from tribune_env.envs.vector_games import VectorGames
    from tribune_env.player import random_legal

    network = PolicyAgent(path="shipped-2p").network
    games, rng = VectorGames(16, num_players=2, seed=5), np.random.default_rng(0)
    for _ in range(30):
        games.step(random_legal(games.masks, rng))
    observations = torch.as_tensor(games.observations)
    m = network.modules
    with torch.no_grad():
        plain_logits = m["action_net"](m["mlp_extractor"]["policy_net"](observations))
        plain_values = m["value_net"](m["mlp_extractor"]["value_net"](observations)).flatten()
        torch.testing.assert_close(network.logits(observations), plain_logits, rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(network.values(observations), plain_values, rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(network.logits(observations[3:4]), plain_logits[3:4], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("width", [9, 11])
def test_an_input_of_another_width_is_refused_by_its_shape(width):
    """Narrower or wider than the layers read: a clear error, never a gather from the wrong rows."""
    with pytest.raises(ValueError, match=rf"read 10 inputs a row; got input of shape \(20, {width}\)"):
        FirstLayers()(torch.ones(20, width), [torch.nn.Linear(10, 4)])

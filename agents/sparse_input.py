"""A network's first layers read from the observation's non-zero entries alone.

A Tribune observation has about one entry in fifteen not zero, and the first layers of a
network (observation x width) are nearly all of its work. Gathering the weights of the
non-zero entries (``embedding_bag``) and scattering their gradients back (a sparse product)
gives the same products as a dense layer, in float32, up to the order of the sums, at a
fraction of the cost. The policy files' networks (:mod:`agents.policy`) and training's
towers compute their first layers so. The entries are found by a compiled scan
(:func:`entries`): torch's ``nonzero`` took as long as the gathering itself.
"""

from __future__ import annotations

import numpy as np
import torch as th
import torch.nn.functional as F
from torch import nn

from .compiled import entry


@entry
def entries(x):
    """A 2-D array's non-zero entries row by row: their rows, columns and values, and where each row's begin."""
    count = 0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            count += x[i, j] != 0
    rows, cols = np.empty(count, np.int64), np.empty(count, np.int64)
    values, starts = np.empty(count, x.dtype), np.empty(x.shape[0], np.int64)
    k = 0
    for i in range(x.shape[0]):
        starts[i] = k
        for j in range(x.shape[1]):
            if x[i, j] != 0:
                rows[k], cols[k], values[k] = i, j, x[i, j]
                k += 1
    return rows, cols, values, starts


class SparseInput(th.autograd.Function):
    """Linear layers of one input, read from its non-zero entries: the forward pass gathers their
    weights (``embedding_bag``), the backward pass scatters the weights' gradients with one sparse
    product. ``apply(x, gathered, weight, bias, ...)`` takes the layers' weights transposed side by
    side (inputs x widths), which the forward pass reads, then a (weight, bias) pair per layer,
    which take the gradients, and gives one output per layer."""

    @staticmethod
    def forward(ctx, x, gathered, *weights_and_biases):
        weights, biases = weights_and_biases[0::2], weights_and_biases[1::2]
        if x.dim() != 2 or x.shape[1] != len(gathered):
            raise ValueError(f"the layers read {len(gathered)} inputs a row; got input of shape {tuple(x.shape)}")
        rows, cols, values, starts = map(th.from_numpy, entries(x.detach().contiguous().numpy()))  # a row is a bag
        out = F.embedding_bag(cols, gathered, starts, mode="sum", per_sample_weights=values) + th.cat(biases)
        ctx.save_for_backward(rows, cols, values, *weights)
        ctx.inputs = x.shape
        return tuple(out.split([len(weight) for weight in weights], dim=1))

    @staticmethod
    def backward(ctx, *grads):
        rows, cols, values, *weights = ctx.saved_tensors
        transposed = th.sparse_coo_tensor(
            th.stack([cols, rows]), values, (ctx.inputs[1], ctx.inputs[0]), check_invariants=False
        )
        weight_grads = th.sparse.mm(transposed, th.cat(grads, dim=1)).t().split([len(w) for w in weights])
        x_grad = sum(grad @ weight for grad, weight in zip(grads, weights)) if ctx.needs_input_grad[0] else None
        return (x_grad, None, *(g for pair in zip(weight_grads, (grad.sum(0) for grad in grads)) for g in pair))


FEW = 12  # fewer observations without gradients: the dense products cost less than SparseInput's steps


class FirstLayers:
    """Linear layers that read the same input, computed together by :class:`SparseInput` (for
    fewer than FEW observations without gradients, as dense layers).

    Their weights, transposed side by side as SparseInput reads them, are read afresh by a pass
    with gradients and kept for the passes without them (a rollout's or a search's, a few
    observations each, would otherwise spend most of their time copying them) until a weight
    changes: in place, which bumps its version, or by an optimizer that calls :meth:`forget`
    after its steps (torch's fused Adam bumps no version)."""

    def __init__(self):
        self._kept = (None, None)  # the transposed weights, and the weights' versions they were read at

    def __call__(self, features: th.Tensor, layers: list[nn.Linear]) -> tuple[th.Tensor, ...]:
        if len(features) < FEW and not th.is_grad_enabled():
            return tuple(layer(features) for layer in layers)
        versions = [(id(layer.weight), layer.weight._version) for layer in layers]
        if th.is_grad_enabled() or self._kept[1] != versions:
            with th.no_grad():
                self._kept = (th.cat([layer.weight.t() for layer in layers], dim=1), versions)
        parameters = [parameter for layer in layers for parameter in (layer.weight, layer.bias)]
        return SparseInput.apply(features, self._kept[0], *parameters)

    def forget(self, *_) -> None:
        """Drop the kept weights (an optimizer's step hook)."""
        self._kept = (None, None)

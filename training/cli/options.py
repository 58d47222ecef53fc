"""What the ``tribune`` commands share: bounded numbers, output paths tried first, errors as messages."""

from __future__ import annotations

import inspect
import math
import re
from contextlib import contextmanager
from pathlib import Path

import click

from tribune_env.errors import ConfigError, TribuneError, install_hint
from tribune_env.files import check_output

from ..arena.terminal import printable
from ..bounds import MAX_SEED, MAX_WORKERS

SEED = click.IntRange(0, MAX_SEED)
WORKERS = click.IntRange(1, MAX_WORKERS)


class FilePath(click.Path):
    """A click.Path that refuses a NUL byte, which no file name holds (click's own checks crash on it)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and "\0" in value:
            self.fail("a path cannot hold a NUL byte", param, ctx)
        return super().convert(value, param, ctx)


RECIPES = Path(__file__).resolve().parents[1] / "configs"  # shipped with the package
RECIPE_NAME = re.compile(r"[A-Za-z0-9_-]+")


class Recipe(FilePath):
    """A TOML file of training settings, or the name of a recipe shipped in ``training/configs``
    (``--config quick``), so that the README's commands work outside a checkout too."""

    def __init__(self):
        super().__init__(exists=True, dir_okay=False)

    def convert(self, value, param, ctx):
        shipped = RECIPES / f"{value}.toml"
        if isinstance(value, str) and RECIPE_NAME.fullmatch(value) and shipped.is_file() and not Path(value).exists():
            return str(shipped)
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            if "\0" in str(value):
                raise
            names = ", ".join(sorted(p.stem for p in RECIPES.glob("*.toml")))
            self.fail(f"{printable(str(value))!r} is neither a file nor a shipped recipe ({names})", param, ctx)


class FiniteRange(click.FloatRange):
    """A FloatRange that refuses nan too (it compares false with any bound)."""

    def convert(self, value, param, ctx):
        value = super().convert(value, param, ctx)
        if math.isnan(value):
            self.fail("nan is not a number", param, ctx)
        return value


def _add_paragraph(command: click.Command, paragraph: str) -> click.Command:
    """End a command's help with one more paragraph."""
    command.help = inspect.cleandoc(command.help) + "\n\n" + paragraph
    return command


def loads_models(command: click.Command) -> click.Command:
    """Say in a command's help that the model files it may load run code."""
    return _add_paragraph(
        command,
        "Model files (a model:PATH.zip spec, a run's checkpoint) are stable-baselines3 zips "
        "of pickled Python objects: loading one runs its code, so load only model files you trust, "
        "and say so: model:PATH.zip,trust=true, or --trust-model-files where a command has it. "
        "Policy files (policy:PATH.pt, guided:net=PATH.pt) and RLlib policies (rllib:PATH.pt) hold tensors "
        "only and run no code.",
    )


def trusts_models(command: click.Command) -> click.Command:
    """The --trust-model-files flag of a command that takes agent specs (see agents.trusting)."""
    return click.option(
        "--trust-model-files",
        is_flag=True,
        help="Load the model:PATH.zip files named by the agent specs (loading one runs its code), "
        "as if each spec ended in ,trust=true.",
    )(command)


def trusted_specs(specs, trust: bool) -> list[str]:
    """The agent specs, each naming a model file marked trusted when --trust-model-files is given."""
    from agents import trusting

    return [trusting(spec) for spec in specs] if trust else list(specs)


def takes_agents(command: click.Command) -> click.Command:
    """List in a command's help every agent spec it accepts, from the agent registry."""
    from agents import spec_forms

    return _add_paragraph(command, "Agent specs: " + ", ".join(spec_forms()) + ".")


def ray_address(help: str):
    """The --ray-address option: where Ray runs the work (see training/cluster.py)."""
    return click.option("--ray-address", metavar="ADDRESS", help=help)


def output(directory: bool = False):
    """A click callback refusing an output path that cannot be written, before the command does any work."""

    def check(ctx, param, value):
        if value is not None:
            try:
                check_output(value, directory)
            except ConfigError as exc:
                raise click.BadParameter(str(exc), ctx, param) from None
        return value

    return check


def run_directory(default: str, holds: str):
    """The --out option of a command that writes a run's directory (`holds`: what it holds), checked before any work."""
    return click.option(
        "--out",
        type=click.Path(file_okay=False),
        default=default,
        show_default=True,
        callback=output(directory=True),
        help=holds,
    )


@contextmanager
def needs_extra(extra: str, what: str):
    """A missing optional package as a message naming the extra that brings it, not a traceback."""
    try:
        yield
    except ImportError as exc:
        raise click.ClickException(f"{exc}; {what} needs {install_hint(extra)}") from None


@contextmanager
def usage_errors():
    """The package's errors (bad configuration, records, illegal actions) as messages, not tracebacks;
    escaped, as they may quote a file."""
    try:
        yield
    except TribuneError as exc:
        raise click.ClickException(printable(str(exc))) from None

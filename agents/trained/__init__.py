"""Models trained with ``tribune train`` and shipped with the package.

``SHIPPED`` is the 2-player self-play model, the best model of the run made by
``tribune train --config training/configs/selfplay-2p.toml --out runs/selfplay-2p`` and
the resume given in that file; play it with ``make_agent(f"model:{SHIPPED}")`` or ``model:PATH`` on the
command line. Its measured strength is in the README.
"""
from pathlib import Path

SHIPPED = Path(__file__).with_name("selfplay-2p.zip")

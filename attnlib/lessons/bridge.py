"""PyTorch for notebook 08, optional: ``torch = attnlib.import_torch()``.

attnlib never needs PyTorch; notebook 08 compares attnlib with it. Where PyTorch
is missing, the notebook's first cell stops with one message saying how to
install the CPU build (a plain ``pip install torch`` on Linux pulls a CUDA build
of several GB), and the stored outputs below it stay in view.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..i18n import tr

__all__ = ["TORCH_CHECKED", "import_torch"]

#: the PyTorch version notebook 08's stored outputs come from (the test install pins it)
TORCH_CHECKED = "2.13.0"

INSTALL = "pip install torch --index-url https://download.pytorch.org/whl/cpu"


def import_torch() -> ModuleType:
    """PyTorch, or an error that says how to install it.

    Returns
    -------
    module
        ``torch``.

    Raises
    ------
    ModuleNotFoundError
        If PyTorch is not installed: the message gives the command for the CPU
        build and says that the outputs shown come from PyTorch 2.13.0.
    """
    try:
        return importlib.import_module("torch")
    except ModuleNotFoundError as missing:
        if missing.name != "torch":  # torch is there but broken: its own error says more
            raise
        raise ModuleNotFoundError(
            tr(
                "PyTorch is not installed in this kernel's environment. The outputs below "
                "come from PyTorch {version} (CPU); to run the cells yourself, install it "
                "in a terminal with\n    {install}\n(about 200 MB), then restart the kernel.",
                version=TORCH_CHECKED,
                install=INSTALL,
            ),
            name="torch",
        ) from None

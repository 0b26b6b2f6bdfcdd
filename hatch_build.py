"""Build hook: compile the play table's optional C kernel (``ddz_rules/_kernel.c``).

The kernel only speeds up listing the plays of hands holding wild cards; ``ddz_rules.table``
does the same in Python where it is missing. So a machine without a C compiler still installs
(``pip install -v`` shows a one-line warning that the kernel was skipped), and
``DDZ_PURE_PYTHON=1`` skips it on purpose. An editable install builds it in place, beside its
source, first removing this Python's earlier build there (so a skipped or failed build never
leaves a stale one behind); a wheel carries it.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = "ddz_rules/_kernel.c"
MODULE = "ddz_rules._kernel"


def compile_kernel(root: Path, inplace: bool, work: Path) -> Path:
    """Compile the kernel with setuptools' ``build_ext`` (the compiler and flags Python was
    built with) and return the extension module's path."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    here = Path.cwd()
    os.chdir(root)  # build_ext places an in-place module by the package's path from here
    try:
        dist = Distribution({"name": "ddz-rules-kernel", "ext_modules": [
            Extension(MODULE, [SOURCE], extra_compile_args=["-O2"])]})
        command = build_ext(dist)
        command.inplace = inplace
        command.build_temp = str(work / "temp")
        command.build_lib = str(work / "lib")
        command.ensure_finalized()
        command.run()
        return Path(command.get_ext_fullpath(MODULE)).resolve()
    finally:
        os.chdir(here)


class KernelHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
            Path(self.root, MODULE.replace(".", "/") + suffix).unlink(missing_ok=True)
        if os.environ.get("DDZ_PURE_PYTHON"):
            return
        self._work = Path(tempfile.mkdtemp(prefix="ddz-kernel-"))  # gone in finalize
        try:
            built = compile_kernel(Path(self.root), version == "editable", self._work)
        except Exception as error:  # no compiler, no headers: the Python path serves
            print(f"ddz-rules: the compiled kernel was not built ({type(error).__name__}: "
                  f"{error}); listing plays with wild cards runs in Python, slower",
                  file=sys.stderr)
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":
            build_data["force_include"][str(built)] = f"ddz_rules/{built.name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the build's scratch folder once the wheel holds the kernel."""
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

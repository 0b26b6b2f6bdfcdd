"""Build hook: compile the optional C modules, ``ddz_rules/_kernel.c`` (the plays of hands
holding wild cards), ``ddz_rules/_moves.c`` (a hand's leads and answers, whole random hands,
and with ``_tables.h`` the environments' tables stepped at once) and
``ddz_rules/_split.c`` (the bots' planning measure).

They only speed up what ``ddz_rules.table``, ``ddz_rules.runner`` and
``ddz_rules.env.vector`` do the same in Python where they are missing.
So a machine without a C compiler still installs (``pip install -v`` shows a one-line warning
that they were skipped, and ``ddz --version`` says which path lists plays), and
``DDZ_PURE_PYTHON=1`` skips them on purpose (and, set when running, switches off a build). They
are compiled with warnings as errors. An editable install builds them in place, beside their
sources, first removing this Python's earlier builds there (so a skipped or failed build never
leaves a stale one behind); a wheel carries them.
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

#: Each compiled module and its source.
MODULES = {"ddz_rules._kernel": "ddz_rules/_kernel.c", "ddz_rules._moves": "ddz_rules/_moves.c",
           "ddz_rules._split": "ddz_rules/_split.c"}
#: Warnings are errors: code that draws one is not shipped (the Python path serves instead).
FLAGS = ["-O2", "-Wall", "-Wextra", "-Werror"]


def compile_kernel(root: Path, inplace: bool, work: Path, flags: list[str] | None = None
                   ) -> list[Path]:
    """Compile the modules with setuptools' ``build_ext`` (the compiler and flags Python was
    built with, and ``flags``, by default :data:`FLAGS`) and return their paths."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    here = Path.cwd()
    os.chdir(root)  # build_ext places an in-place module by the package's path from here
    try:
        dist = Distribution({"name": "ddz-rules-kernel", "ext_modules": [
            Extension(name, [source], extra_compile_args=FLAGS if flags is None else flags)
            for name, source in MODULES.items()]})
        command = build_ext(dist)
        command.inplace = inplace
        command.build_temp = str(work / "temp")
        command.build_lib = str(work / "lib")
        command.ensure_finalized()
        command.run()
        return [Path(command.get_ext_fullpath(name)).resolve() for name in MODULES]
    finally:
        os.chdir(here)


class KernelHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
            for name in MODULES:
                Path(self.root, name.replace(".", "/") + suffix).unlink(missing_ok=True)
        if os.environ.get("DDZ_PURE_PYTHON"):
            return
        self._work = Path(tempfile.mkdtemp(prefix="ddz-kernel-"))  # gone in finalize
        try:
            built = compile_kernel(Path(self.root), version == "editable", self._work)
        except Exception as error:  # no compiler, no headers: the Python path serves
            print(f"ddz-rules: the compiled modules were not built ({type(error).__name__}: "
                  f"{error}); listing plays runs in Python, slower", file=sys.stderr)
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":
            for name, path in zip(MODULES, built, strict=True):
                package = name.rpartition(".")[0].replace(".", "/")
                build_data["force_include"][str(path)] = f"{package}/{path.name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the build's scratch folder once the wheel holds the kernel."""
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

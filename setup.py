"""Build hook: compile the engine's hot modules with mypyc when possible, else keep them pure Python.

All project metadata is in ``pyproject.toml``; this file only adds the optional
extension modules (docs/compiled-engine.md). The modules listed in
``canasta/_engine.py`` (``COMPILED_MODULES``) are compiled by mypyc into
``canasta/<module>.*.so`` plus one shared library ``canasta/_engine__mypyc.*.so``,
for wheels and editable installs alike. The install never fails because of
mypyc: without a working C compiler (or ``Python.h``), without mypyc, with
``CANASTA_PURE_PYTHON=1``, or if mypyc or the compiler fails for any reason,
the build prints one line saying so and installs the pure-Python modules, which
behave the same (``tests/test_compiled_engine.py``). Either way the build
writes ``canasta/_engine_build.json``: the engine it built and, for the
compiled one, a SHA-256 of each compiled source, so that ``canasta`` notices
an edited source whose compiled copy is older (``canasta/_engine.py``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "canasta"
SHARED_LIB = "_engine__mypyc"  # mypyc's shared library of the group "canasta._engine"


def _load_engine() -> ModuleType:
    """``canasta/_engine.py`` on its own (it imports only the standard library)."""
    spec = importlib.util.spec_from_file_location("_canasta_engine_for_build", PACKAGE / "_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENGINE = _load_engine()


def _say(message: str) -> None:
    print(f"canasta: {message}", file=sys.stderr, flush=True)


def _compiler_problem(flags: Sequence[str] = ()) -> str | None:
    """Why no C extension can be built here (``None`` if a test compile with ``Python.h`` and ``flags`` works)."""
    try:
        from distutils import ccompiler, sysconfig  # setuptools' copy (its distutils hack)

        compiler: Any = ccompiler.new_compiler()
        sysconfig.customize_compiler(compiler)
        if flags and compiler.compiler_type != "unix":
            return f"flags {' '.join(flags)} are for gcc and clang, not {compiler.compiler_type}"
        with tempfile.TemporaryDirectory(prefix="canasta-cc-") as tmp:
            source = Path(tmp) / "probe.c"
            source.write_text("#include <Python.h>\nint canasta_probe(void) { return 0; }\n")
            compiler.compile(
                [str(source)], output_dir=tmp, include_dirs=[sysconfig.get_python_inc()], extra_postargs=list(flags)
            )
    except Exception as error:  # any failure means: no compiled engine here (or not with these flags)
        return f"no working C compiler ({' '.join(str(error).split())[:160] or type(error).__name__})"
    return None


#: Compiler flags for the engine's shared library, where the compiler takes them (gcc, clang).
#: mypyc puts every compiled function into one C file as an exported symbol; in a shared
#: library each call between them then goes through the PLT and cannot be inlined, since
#: another library could interpose the symbol (ELF semantics; CPython builds itself with the
#: same flag). Nothing outside the library calls them, so the calls may be direct.
#: ``-fno-plt`` likewise calls into libpython through the GOT without a PLT stub.
FAST_CALL_FLAGS = ("-fno-semantic-interposition", "-fno-plt")


def _pure_reason() -> str | None:
    """Why this build installs the pure-Python engine (``None``: try to compile)."""
    if ENGINE.pure_requested(os.environ):
        return f"{ENGINE.PURE_ENV} is set"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed in the build environment"
    return _compiler_problem()


PURE_REASON = _pure_reason()


def _artefacts(package_dir: Path) -> list[Path]:
    """Compiled engine modules in ``package_dir`` (stale ones must go when the engine is pure)."""
    names = {*ENGINE.COMPILED_MODULES, SHARED_LIB}
    suffixes = (".so", ".pyd")
    if not package_dir.is_dir():
        return []
    return [p for p in package_dir.iterdir() if p.name.endswith(suffixes) and p.name.split(".", 1)[0] in names]


def _write_info(package_dir: Path, compiled: bool, reason: str | None = None) -> None:
    """Record the engine built in ``package_dir`` (see ``canasta/_engine.py``)."""
    info: dict[str, Any] = {"engine": "compiled" if compiled else "pure"}
    if compiled:
        info["sources"] = ENGINE.source_digests(PACKAGE)
    else:
        info["reason"] = reason
        for path in _artefacts(package_dir):
            path.unlink()
    package_dir.mkdir(parents=True, exist_ok=True)
    (package_dir / ENGINE.BUILD_INFO).write_text(json.dumps(info, indent=2, sort_keys=True) + "\n", encoding="utf-8")


class BuildPy(build_py):
    """Also records the engine: compiled (if build_ext then fails, it rewrites the record) or pure."""

    def run(self) -> None:
        """Copy the sources, then write ``_engine_build.json`` (and drop stale compiled modules if pure)."""
        super().run()
        targets = [Path(self.build_lib) / "canasta"]
        if getattr(self, "editable_mode", False):
            targets.append(PACKAGE)
        for target in targets:
            _write_info(target, compiled=PURE_REASON is None, reason=PURE_REASON)
        if PURE_REASON is not None:
            _say(f"building the pure-Python engine, not the compiled one: {PURE_REASON}")


class BuildExt(build_ext):
    """Runs mypyc, then the C compiler; on any failure, falls back to the pure-Python engine."""

    failure: str | None = None

    def finalize_options(self) -> None:
        """Replace the stand-in extension by mypyc's (generating their C code) before setuptools sets them up."""
        if self.distribution.ext_modules and PURE_REASON is None and self.failure is None:
            try:
                from mypyc.build import mypycify

                paths = [f"canasta/{name}.py" for name in ENGINE.COMPILED_MODULES]
                cache = ["--cache-dir", str(ROOT / "build" / "mypy-cache")]
                target = str(ROOT / "build" / "mypyc")
                self.distribution.ext_modules = mypycify(cache + paths, group_name="canasta._engine", target_dir=target)
                if _compiler_problem(FAST_CALL_FLAGS) is None:  # (a compiler without them builds without them)
                    for extension in self.distribution.ext_modules:
                        extension.extra_compile_args = [*extension.extra_compile_args, *FAST_CALL_FLAGS]
            except (Exception, SystemExit) as error:  # mypyc exits on type errors; never fail the install
                self.failure = _failed("mypyc failed", error)
                self.distribution.ext_modules = []
        super().finalize_options()

    def run(self) -> None:
        """Compile mypyc's C code; print one line saying which engine was built."""
        if self.failure is None:
            try:
                super().run()
            except (Exception, SystemExit) as error:  # never fail the install
                self.failure = _failed("compiling failed", error)
        if self.failure is None:
            _say(f"built the compiled engine (mypyc): {len(ENGINE.COMPILED_MODULES)} modules")
            return
        self.extensions = []
        self.distribution.ext_modules = []
        targets = [Path(self.build_lib) / "canasta"]
        if self.inplace or getattr(self, "editable_mode", False):
            targets.append(PACKAGE)
        for target in targets:
            _write_info(target, compiled=False, reason=self.failure)
        _say(f"building the pure-Python engine, not the compiled one: {self.failure}")


def _failed(what: str, error: BaseException) -> str:
    detail = " ".join(str(error).split())[:160] or type(error).__name__
    return f"{what} ({detail})"


# Stands in for mypyc's extensions until build_ext runs mypyc (so that commands
# that only read metadata never run it); none when the engine is pure.
ext_modules = [] if PURE_REASON is not None else [Extension(f"canasta.{SHARED_LIB}", sources=[])]

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPy, "build_ext": BuildExt})

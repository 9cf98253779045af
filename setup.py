"""Build hook: compile the engine's hot modules with mypyc when possible, else keep them pure Python.

All project metadata is in ``pyproject.toml``; this file only adds the optional
extension modules (docs/compiled-engine.md). The modules listed in
``canasta/_engine.py`` (``COMPILED_MODULES``) are compiled by mypyc into
``canasta/<module>.*.so`` plus one shared library ``canasta/_engine__mypyc.*.so``,
for wheels and editable installs alike. mypyc writes one C file per module
(``multi_file``), and the C files are compiled in parallel, one per core, with
link-time optimization where gcc takes it (``LTO_FLAGS``).
A successful build is kept in ``build/engine-cache/`` under a key made of every
source of the package, this file, the Python, mypy and compiler: a build
with an unchanged key (the README's second command after its first, a
reinstall) copies the kept extension modules instead of compiling again
(``CANASTA_ENGINE_CACHE`` names another directory, or ``0`` turns it off).
The install never fails because of
mypyc: without a working C compiler (or ``Python.h``), without mypyc, with
``CANASTA_PURE_PYTHON=1``, or if mypyc or the compiler fails for any reason,
the build prints one line saying so and installs the pure-Python modules, which
behave the same (``tests/test_compiled_engine.py``). Either way the build
writes ``canasta/_engine_build.json``: the engine it built and, for the
compiled one, a SHA-256 of each compiled source, so that ``canasta`` notices
an edited source whose compiled copy is older (``canasta/_engine.py``).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
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


def _compiler_problem(flags: Sequence[str] = (), link: bool = False) -> str | None:
    """Why no C extension can be built here (``None`` if a test compile with ``Python.h`` and ``flags`` works).

    With ``link``, the test also links the object into a shared library with ``flags``.
    """
    try:
        from distutils import ccompiler, sysconfig  # setuptools' copy (its distutils hack)

        compiler: Any = ccompiler.new_compiler()
        sysconfig.customize_compiler(compiler)
        if flags and compiler.compiler_type != "unix":
            return f"flags {' '.join(flags)} are for gcc and clang, not {compiler.compiler_type}"
        with tempfile.TemporaryDirectory(prefix="canasta-cc-") as tmp:
            source = Path(tmp) / "probe.c"
            source.write_text("#include <Python.h>\nint canasta_probe(void) { return 0; }\n")
            objects = compiler.compile(
                [str(source)], output_dir=tmp, include_dirs=[sysconfig.get_python_inc()], extra_postargs=list(flags)
            )
            if link:
                compiler.link_shared_object(objects, str(Path(tmp) / "probe.so"), extra_postargs=list(flags))
    except Exception as error:  # any failure means: no compiled engine here (or not with these flags)
        return f"no working C compiler ({' '.join(str(error).split())[:160] or type(error).__name__})"
    return None


#: Compiler flags for the engine's shared library, where the compiler takes them (gcc, clang).
#: mypyc makes every compiled function an exported symbol of the shared library; in a shared
#: library each call between them then goes through the PLT and cannot be inlined, since
#: another library could interpose the symbol (ELF semantics; CPython builds itself with the
#: same flag). Nothing outside the library calls them, so the calls may be direct.
#: ``-fno-plt`` likewise calls into libpython through the GOT without a PLT stub.
FAST_CALL_FLAGS = ("-fno-semantic-interposition", "-fno-plt")

#: Link-time optimization, where the compiler and linker take it (gcc; the build tries it first).
#: With one C file per module (`MULTI_FILE`) the compiler can no longer inline a function of one
#: module into another: 300 random hands took 2.0 % more instructions than from the single file.
#: With LTO the calls are inlined again at link time (+0.3 %, callgrind), and ``=auto`` runs the
#: link's code generation in parallel too.
LTO_FLAGS = ("-flto=auto",)


#: mypyc writes one C file per compiled module instead of one for all of them: the C compiler
#: takes less time over eleven files than over one large file (28 to 37 s of CPU instead of 41 to
#: 50 s at -O3; 39 to 42 s with `LTO_FLAGS`), and the files compile in parallel.
#: docs/compiled-engine.md has the measurements.
MULTI_FILE = True

#: Where a successful build is kept, keyed by everything that goes into it (``_cache_key``).
CACHE_ENV = "CANASTA_ENGINE_CACHE"
CACHE_KEEP = 3  # builds kept (the newest)


def _cache_dir() -> Path | None:
    """The directory of kept builds (``None``: ``CANASTA_ENGINE_CACHE`` turns the cache off)."""
    value = os.environ.get(CACHE_ENV, "").strip()
    if value.lower() in ("0", "false", "no", "off"):
        return None
    return Path(value) if value else ROOT / "build" / "engine-cache"


def _cache_key() -> str:
    """A digest of what the compiled engine is made from: a change to any of them builds again.

    Every ``.py`` file of the package (mypyc reads the types of the modules the compiled ones
    import), this file (the options and flags), the Python, the versions of mypy and of the
    libraries whose types it reads, the platform and the compiler's settings.
    """
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(hashlib.sha256(Path(__file__).read_bytes()).digest())
    versions = {}
    for name in ("mypy", "setuptools", "attrs", "pluggy", "rich"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    settings = {
        "python": sys.version,
        "executable": sys.base_prefix,
        "suffix": sysconfig.get_config_var("EXT_SUFFIX"),
        "platform": [platform.platform(), platform.machine()],
        "config": {k: sysconfig.get_config_var(k) for k in ("CC", "CFLAGS", "LDSHARED", "CCSHARED")},
        "env": {k: os.environ.get(k) for k in ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS", "LDSHARED", "MYPYC_OPT_LEVEL")},
        "versions": versions,
    }
    digest.update(json.dumps(settings, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:32]


def _cached_build(key: str) -> tuple[Path, dict[str, str]] | None:
    """The kept build for ``key`` (its directory and extension name -> file), if whole and intact."""
    cache = _cache_dir()
    if cache is None:
        return None
    entry = cache / key
    try:
        manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
        files: dict[str, str] = {}
        for name, (file, sha) in manifest["extensions"].items():
            if hashlib.sha256((entry / file).read_bytes()).hexdigest() != sha:
                return None
            files[name] = file
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (entry, files) if files else None


def _keep_build(key: str, built: dict[str, Path]) -> None:
    """Keep the extension modules just built under ``key`` (never fails the install)."""
    cache = _cache_dir()
    if cache is None:
        return
    try:
        cache.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".partial-", dir=cache))
        extensions = {}
        for name, path in built.items():
            shutil.copy2(path, stage / path.name)
            extensions[name] = [path.name, hashlib.sha256(path.read_bytes()).hexdigest()]
        (stage / "manifest.json").write_text(json.dumps({"extensions": extensions}, indent=2) + "\n", encoding="utf-8")
        entry = cache / key
        if entry.exists():
            shutil.rmtree(entry, ignore_errors=True)
        stage.rename(entry)
        kept = sorted((p for p in cache.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[CACHE_KEEP:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as error:
        _say(f"could not keep the compiled engine for the next install ({error})")


def _opt_level(extension: Extension) -> list[str]:
    """The ``-O`` flag mypyc compiles ``extension`` with (the link of an LTO build repeats it)."""
    return [arg for arg in extension.extra_compile_args if arg.startswith("-O")][-1:]


def _jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


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


#: Why building the compiled engine failed in this run (``None``: it has not), for `BuildPy`.
BUILD_FAILURE: str | None = None


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
        reason = PURE_REASON or BUILD_FAILURE  # (build_ext may have failed before this runs)
        for target in targets:
            _write_info(target, compiled=reason is None, reason=reason)
        if PURE_REASON is not None:
            _say(f"building the pure-Python engine, not the compiled one: {PURE_REASON}")


class BuildExt(build_ext):
    """Runs mypyc, then the C compiler (or reuses a kept build); on any failure, the pure-Python engine."""

    failure: str | None = None
    cached: tuple[Path, dict[str, str]] | None = None
    key: str | None = None
    started: float = 0.0

    def finalize_options(self) -> None:
        """Replace the stand-in extension by mypyc's (generating their C code) before setuptools sets them up."""
        if self.distribution.ext_modules and PURE_REASON is None and self.failure is None:
            self.started = time.monotonic()
            try:
                self.key = _cache_key()
                self.cached = _cached_build(self.key)
                if self.cached is not None:
                    # Same sources, options and tools as a kept build: copy it (build_extension).
                    self.distribution.ext_modules = [Extension(name, sources=[]) for name in self.cached[1]]
                else:
                    self.distribution.ext_modules = self._mypycify()
            except (Exception, SystemExit) as error:  # mypyc exits on type errors; never fail the install
                self.failure = _failed("mypyc failed", error)
                self.distribution.ext_modules = []
        super().finalize_options()
        if self.failure is not None:
            # With no extension left, setuptools never calls `run`: record the pure engine now, or a
            # compiled engine built earlier would stay in the tree under the new sources' record.
            self._record_pure()

    @staticmethod
    def _mypycify() -> list[Extension]:
        from mypyc.build import mypycify

        _say(f"compiling the engine with mypyc and the C compiler ({len(ENGINE.COMPILED_MODULES)} modules)")
        paths = [f"canasta/{name}.py" for name in ENGINE.COMPILED_MODULES]
        cache = ["--cache-dir", str(ROOT / "build" / "mypy-cache")]
        target = ROOT / "build" / "mypyc"
        extensions: list[Extension] = mypycify(
            cache + paths, group_name="canasta._engine", target_dir=str(target), multi_file=MULTI_FILE
        )
        flags: list[str] = []  # (a compiler without them builds without them)
        if _compiler_problem(FAST_CALL_FLAGS) is None:
            flags += FAST_CALL_FLAGS
        lto = MULTI_FILE and _compiler_problem([*flags, *LTO_FLAGS], link=True) is None
        for extension in extensions:
            # mypyc writes the group's header under canasta/ but includes it without the directory.
            extension.include_dirs = [*extension.include_dirs, str(target / "canasta")]
            extension.extra_compile_args = [*extension.extra_compile_args, *flags]
            if lto:
                extension.extra_compile_args += LTO_FLAGS
                # (the link generates the code: it needs the optimization level of the compile)
                extension.extra_link_args = [*extension.extra_link_args, *LTO_FLAGS, *_opt_level(extension)]
        return extensions

    def build_extension(self, ext: Any) -> None:
        """Copy the kept module, or compile this extension's C files in parallel (one per core)."""
        destination = Path(self.get_ext_fullpath(ext.name))
        if self.cached is not None:
            entry, files = self.cached
            destination.parent.mkdir(parents=True, exist_ok=True)
            # A fresh modification time (not the kept file's): an editable install copies the build into
            # the source tree only over older files, so an older kept build would leave a newer one there.
            shutil.copy(entry / files[ext.name], destination)
            return
        jobs = min(_jobs(), len(ext.sources))
        if jobs < 2:
            super().build_extension(ext)
            return
        compile_one = self.compiler.compile

        def compile_parallel(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(jobs) as pool:  # each source is one compiler process
                return [
                    obj
                    for objs in pool.map(lambda source: compile_one([source], *args, **kwargs), sources)
                    for obj in objs
                ]

        self.compiler.compile = compile_parallel
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_one

    def run(self) -> None:
        """Compile mypyc's C code (or copy a kept build); print one line saying which engine was built."""
        if self.failure is None:
            try:
                super().run()
            except (Exception, SystemExit) as error:  # never fail the install
                self.failure = _failed("compiling failed", error)
        if self.failure is None:
            took = time.monotonic() - self.started
            if self.cached is not None:
                _say(f"reused the compiled engine kept in {self.cached[0]} (its sources are unchanged)")
                return
            if self.key is not None:
                _keep_build(self.key, {ext.name: Path(self.get_ext_fullpath(ext.name)) for ext in self.extensions})
            _say(f"built the compiled engine (mypyc): {len(ENGINE.COMPILED_MODULES)} modules in {took:.0f} s")
            return
        self.extensions = []
        self.distribution.ext_modules = []
        self._record_pure()

    def _record_pure(self) -> None:
        """Record the pure engine after a failure (dropping compiled modules), here and for `BuildPy`."""
        global BUILD_FAILURE
        BUILD_FAILURE = self.failure
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

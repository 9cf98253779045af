"""`import canasta` never needs numpy or OpenSpiel; `canasta.rl` and `canasta.openspiel` name their extras when
their dependencies are missing (issues 8 and 17)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _import_without(blocked: tuple[str, ...], package: str) -> str:
    """Import canasta, play an action, then import ``package`` with ``blocked`` unimportable; its error text."""
    script = textwrap.dedent(
        f"""
        import sys
        for name in {blocked!r}:
            sys.modules[name] = None  # makes `import name` raise ImportError
        import canasta
        game = canasta.Game("classic", seed=1)
        game.apply(game.legal_actions()[0])
        try:
            import {package}
        except ImportError as exc:
            print(exc)
        else:
            raise SystemExit("{package} imported without its dependencies")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_core_imports_without_numpy_and_rl_names_the_extra() -> None:
    message = _import_without(("numpy", "gymnasium", "pettingzoo"), "canasta.rl")
    assert "pip install 'canasta[rl]'" in message
    assert "numpy" in message and "pettingzoo" in message


def test_core_imports_without_openspiel_and_canasta_openspiel_names_the_extra() -> None:
    message = _import_without(("pyspiel",), "canasta.openspiel")
    assert "pip install 'canasta[openspiel]'" in message and "pyspiel" in message

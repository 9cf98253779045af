"""`import canasta` never needs numpy; `canasta.rl` names the `canasta[rl]` extra when it is missing (issue 8)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_core_imports_without_numpy_and_rl_names_the_extra() -> None:
    script = textwrap.dedent(
        """
        import sys
        for name in ("numpy", "gymnasium", "pettingzoo"):
            sys.modules[name] = None  # makes `import name` raise ImportError
        import canasta
        game = canasta.Game("classic", seed=1)
        game.apply(game.legal_actions()[0])
        try:
            import canasta.rl
        except ImportError as exc:
            print(exc)
        else:
            raise SystemExit("canasta.rl imported without its dependencies")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "pip install 'canasta[rl]'" in done.stdout
    assert "numpy" in done.stdout and "pettingzoo" in done.stdout

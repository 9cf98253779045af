"""Optional dependencies: a clear `ImportError` that names the extra to install."""

from __future__ import annotations

__all__ = ["require_extra"]


def require_extra(extra: str, modules: tuple[str, ...]) -> None:
    """Raise `ImportError` naming the extra if any of its modules cannot be imported.

    Args:
        extra: The extra's name, which is also the subpackage's (``canasta.rl``
            needs ``pip install 'canasta[rl]'``).
        modules: The top-level modules it needs.

    Raises:
        ImportError: Listing the missing modules and the install command.
    """
    missing = []
    for name in modules:
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise ImportError(
            f"canasta.{extra} needs the optional dependencies {', '.join(missing)}; "
            f"install them with: pip install 'canasta[{extra}]'"
        )

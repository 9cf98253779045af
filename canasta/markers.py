"""The pluggy project name of canasta and its two markers.

Hook specifications (`canasta.hookspecs`) are marked with `hookspec`; hook
implementations, in variants, house rules and the core defaults, with
`hookimpl`, which is re-exported as ``canasta.hookimpl``. Both belong to the
project `PROJECT`, which is also the name of the entry-point group in which
plugins are found.
"""

from __future__ import annotations

import pluggy

__all__ = ["PROJECT", "hookimpl", "hookspec"]

#: The pluggy project name, and the entry-point group of plugins.
PROJECT = "canasta"

#: Marker for the hook specifications of `canasta.hookspecs`.
hookspec = pluggy.HookspecMarker(PROJECT)

#: Marker for hook implementations: ``@canasta.hookimpl``.
hookimpl = pluggy.HookimplMarker(PROJECT)

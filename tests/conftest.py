"""Test configuration: hypothesis profiles.

``dev`` is the default; ``ci`` (hypothesis's built-in profile, extended here) is
loaded when the ``CI`` environment variable is set; ``thorough`` is a heavy run
for hunting rare bugs. Pick one with ``HYPOTHESIS_PROFILE=thorough`` or
``pytest --hypothesis-profile=thorough``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

# Extend the built-in `ci` profile (derandomized, no deadline, no database) instead of replacing it.
settings.register_profile(
    "ci", settings(settings.get_profile("ci"), max_examples=15, suppress_health_check=_SLOW_OK)
)
settings.register_profile("dev", max_examples=25, deadline=None, suppress_health_check=_SLOW_OK)
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=_SLOW_OK)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

"""The example plugin runs canasta's conformance suite on its own variant and house rule."""

import pytest

pytest.importorskip(
    "canasta_example_viennese", reason="example plugin not installed; run `pip install ./tests/example_plugin`"
)

from canasta.testing import conformance_machine

TestVienneseConformance = conformance_machine("viennese").TestCase
TestVienneseWildCanastaConformance = conformance_machine("viennese", ("viennese-wild-canasta",)).TestCase

"""The verifiers plugin name of navworld: ``vf-eval navworld-travel ...`` imports this module.

It only re-exports :mod:`navworld.integrations.verifiers` (the taskset and its in-process harness,
found by verifiers through ``__all__``). Needs ``pip install 'navworld[verifiers]'``.
"""

from navworld.integrations.verifiers import NavworldHarness, NavworldTaskset, load_environment

__all__ = ["NavworldHarness", "NavworldTaskset", "load_environment"]

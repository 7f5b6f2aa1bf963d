"""Adapters to other frameworks — the top layer: each module may import anything of navworld,
nothing of navworld imports them. Each needs its framework, installed by an extra:

* :mod:`navworld.integrations.verifiers` — ``pip install 'navworld[verifiers]'``
* :mod:`navworld.integrations.openenv` — ``pip install 'navworld[openenv]'``
* :mod:`navworld.integrations.trl` — TRL's ``environment_factory`` over the OpenEnv adapter (``[openenv]``)
* :mod:`navworld.integrations.inspect` — ``pip install 'navworld[inspect]'``

See ``docs/integrations.md``.
"""

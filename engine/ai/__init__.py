"""AIs: the interface, the built-in ones and external programs speaking the contest's file protocol.

- ``engine.ai.base``: the chooser interface (``AI`` protocol, ``BaseAI`` base class, ``ai_name``).
- ``engine.ai.reference``: the contest's reference AI (the first five cards, in dealt order).
- ``engine.ai.external``: ``ExternalAI`` / ``run_ai_once`` run any program through
  ``board.txt``/``cards.txt``/``bot.txt`` -> ``ccards.txt``, with a timeout and a capped log.
- ``engine.ai.registry``: ``resolve_ai(spec)`` turns ``--ai NAME|PROGRAM`` into a chooser;
  ``list_ais()`` for help texts.

Nothing is imported here, so importing one AI module never loads the others.
"""

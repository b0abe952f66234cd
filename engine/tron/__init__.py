"""Tron: the 2014 freiesMagazin contest's lightcycle game, second game of the product.

``arena`` reads and writes the contest's board files, ``rules`` is the exact, pure game step,
``server`` plays programs over the contest's line protocol, ``record`` keeps and re-checks games,
``bots`` holds the built-in AIs and ``cli`` is ``robots-tron``.  Nothing here imports a front end.
"""

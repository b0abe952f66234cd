"""The Tron arena editor: ``document`` (the arena with undo), ``validate``, ``controller`` (keys and
mouse to edits, no GL), ``window`` (pyglet), ``cli`` (``robots-edit`` on a Tron arena)."""

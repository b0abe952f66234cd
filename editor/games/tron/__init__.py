"""The Tron game in the shared editor: ``grid`` (the arena as cells, to and from the engine's
``Arena``), ``art`` (the fields' pictures) and ``game`` (the ``EditorGame`` the registry serves)."""

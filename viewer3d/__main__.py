"""``python3 -m viewer3d``: the same as ``robots-view``."""

from viewer3d.cli import main

raise SystemExit(main())

"""``python -m editor``: the same as ``robots-edit``."""

import sys

from editor.cli import main

sys.exit(main())

"""``python -m engine.contest`` is ``robots-contest``."""

import sys

from engine.contest import main

sys.exit(main())

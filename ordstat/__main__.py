"""``python -m ordstat``: the ``ordstat`` command."""

import sys

from .cli import main

sys.exit(main())

"""``python -m tasksvc_run`` is the ``tasksvc`` command."""

import sys

from tasksvc_run.cli import main

sys.exit(main())

import sys

from chunkview.cli import main

sys.exit(main())

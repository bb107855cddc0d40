import multiprocessing
import sys

if __name__ == "__main__":
    # a bundled chunkview starts its chunking processes by running itself again
    multiprocessing.freeze_support()
    from chunkview.cli import main

    sys.exit(main())

"""The headless subcommands, one module each (``chunkview run`` is ``commands/run.py``,
``eval`` is ``evaluate.py``, ``list`` is ``list_entries.py``): each has ``parse(argv)``
for its arguments and ``main(argv)``, which returns the exit status. ``chunkview.cli``
imports a command's module only when that command runs, so this package imports nothing.
"""

"""Allow ``python -m engram``."""

from engram.cli import main

main()

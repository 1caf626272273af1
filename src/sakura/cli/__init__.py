"""The ``sakura`` command line (Typer): simulate, replay and show games."""

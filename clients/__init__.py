"""The programs users run: config, agent loops, time management, fallbacks, the CLI."""

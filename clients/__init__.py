"""The programs users run: config, agent loops, time management, fallbacks, the CLI."""

import os

# One BLAS thread in corvid's processes (set before numpy loads OpenBLAS; a value the user set
# is kept). Our matrices are small, and on a busy machine OpenBLAS's worker threads spin
# against the search: the opponent models' 24,000 x 36 Hessian took 1 s with two threads
# under load and 0.01 s with one, enough to time a UECda client out after a game.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

"""A misbehaving GTP engine for referee tests: ``python fake_engine.py MODE``.

Modes (what ``genmove`` does): pass, resign, a1 (always A1: illegal the second time),
crash (exits), silent (never answers), garbage (writes non-GTP), refuse (fails every
``play``), badvertex (answers Z99), slow (passes after 0.3 s, and resigns once it has been
sent a clock command); scorer answers ``final_score`` with B+3.5.
"""

import sys
import time

mode = sys.argv[1]
out = sys.stdout
clocked = False
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "quit":
        out.write("= \n\n")
        out.flush()
        break
    if cmd == "name":
        answer = f"= fake-{mode}"
    elif cmd == "genmove":
        if mode == "crash":
            sys.exit(3)
        if mode == "silent":
            sys.stdin.read()  # wait for the end of input, never answer
            break
        if mode == "slow":
            time.sleep(0.3)
            mode = "resign" if clocked else mode
        if mode == "garbage":
            out.write("hello there\n\n")
            out.flush()
            continue
        answer = {"pass": "= pass", "resign": "= resign", "a1": "= A1",
                  "badvertex": "= Z99"}.get(mode, "= pass")
    elif cmd in ("time_settings", "time_left"):
        clocked = True
        answer = "= "
    elif cmd == "final_score" and mode == "scorer":
        answer = "= B+3.5"
    elif cmd == "play" and mode == "refuse":
        answer = "? illegal move"
    else:
        answer = "= "
    out.write(answer + "\n\n")
    out.flush()

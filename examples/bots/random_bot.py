#!/usr/bin/env python3
"""A draftsim external bot: plays a uniformly random legal move (standard library only).

draftsim writes one JSON object a line on stdin (docs/protocol.md); the bot answers
each "decide" with one line, {"move": ID, "n": N}, and nothing else on stdout (log to
stderr).
Seeding from each unit's "seed" keeps results reproducible whatever the thread count.

    draftsim run --game sevens --seats 'ext{cmd="python3 examples/bots/random_bot.py"},tight' --rounds 200
"""

import json
import random
import sys


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if msg["protocol"] != 1:
                sys.exit(f"random_bot: protocol {msg['protocol']} is not 1")
        elif kind == "start":
            rng = random.Random(msg["seed"])
        elif kind == "decide":
            choice = rng.randrange(len(msg["legal"]))
            # Naming the decision ("n") keeps a late answer from being taken for the next one.
            print(json.dumps({"move": msg["legal"][choice]["id"], "n": msg["n"]}), flush=True)
        elif kind == "bye":
            break
        # "end" and any later message types need no answer.


if __name__ == "__main__":
    main()

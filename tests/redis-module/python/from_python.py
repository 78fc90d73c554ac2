#!/usr/bin/python3
"""A Python service beside a Node one, on Debian's python3-redis: it checks
the items Node added to a filter and adds its own, through the cuckoo
module's commands. Usage: from_python.py PORT NAME; prints a JSON summary."""

import json
import sys

import redis


def main(port: str, name: str) -> None:
    server = redis.Redis(host="127.0.0.1", port=int(port))
    strings = [f"node-{k}" for k in range(1000)]
    # Node's numbers are 8-byte little-endian integers, as the core hashes them.
    numbers = [k.to_bytes(8, "little", signed=True) for k in range(-250, 250)]
    found_strings = server.execute_command("CUCKOO.MEXISTS", name, *strings)
    found_numbers = server.execute_command("CUCKOO.MEXISTS", name, *numbers)
    strangers = server.execute_command("CUCKOO.MEXISTS", name, *[f"stranger-{k}" for k in range(1000)])
    added = server.execute_command("CUCKOO.MADD", name, *[f"python-{k}" for k in range(1000)])
    single = server.execute_command("CUCKOO.ADD", name, "from python")
    info = server.execute_command("CUCKOO.INFO", name)
    fields = dict(zip(info[0::2], info[1::2])) if isinstance(info, list) else info
    print(json.dumps({
        "strings": sum(found_strings),
        "numbers": sum(found_numbers),
        "strangers": sum(strangers),
        "added": added,
        "single": single,
        "size": fields[b"size"],
    }))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

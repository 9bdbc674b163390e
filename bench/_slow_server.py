"""A minimal keep-alive HTTP/1.1 JSON server on 127.0.0.1 that answers every POST after a delay.

Used by bench/http_concurrency.py; runs in its own process so its CPU is not the runner's.
Usage: python bench/_slow_server.py PORT_FILE DELAY_S
"""

from __future__ import annotations

import asyncio
import json
import sys


async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    loop = asyncio.get_running_loop()
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            arrived = loop.time()
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            body = await reader.readexactly(length) if length else b"{}"
            prompt = json.loads(body or b"{}").get("prompt", "")
            await asyncio.sleep(max(0.0, arrived + delay - loop.time()))  # answer `delay` after arrival
            reply = json.dumps({"output": f"echo: {prompt}", "trusys": {"context": ["bench"]}}).encode()
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                         + str(len(reply)).encode() + b"\r\n\r\n" + reply)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main(port_file: str, delay: float) -> None:
    server = await asyncio.start_server(lambda r, w: handle(r, w, delay), "127.0.0.1", 0, backlog=1024)
    port = server.sockets[0].getsockname()[1]
    with open(port_file, "w") as handle_:
        handle_.write(str(port))
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))

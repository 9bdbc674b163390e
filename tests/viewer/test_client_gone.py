"""A client that hangs up while the viewer answers costs no traceback on the console (issue 58: the test
run printed a BrokenPipeError traceback); any other error in a request is still reported."""

from __future__ import annotations

import socket
import struct
import threading
import time
from urllib.parse import quote

from agentunit.viewer import make_server
from tests.viewer.hostile import HOSTILE_RUN


def _error_output(server, error: BaseException, capfd) -> str:
    try:
        raise error
    except BaseException:
        server.handle_error(None, ("127.0.0.1", 1))
    return capfd.readouterr().err


def test_a_client_gone_mid_reply_is_not_reported_but_a_bug_is(results, capfd):
    server = make_server(results["db"], port=0)
    try:
        for gone in (BrokenPipeError(32, "Broken pipe"), ConnectionResetError(104, "Connection reset by peer"),
                     ConnectionAbortedError(103, "Software caused connection abort")):
            assert _error_output(server, gone, capfd) == "", gone
        assert "Traceback" in _error_output(server, ValueError("a bug"), capfd)
    finally:
        server.server_close()


def test_hanging_up_on_a_large_page_prints_nothing(results, capfd):
    server = make_server(results["db"], port=0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        for _ in range(5):  # the hostile run's page is large: the reply is cut short by the reset
            client = socket.create_connection((host, port))
            client.sendall(f"GET /run/{quote(HOSTILE_RUN, safe='')} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
                           .encode())
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.close()  # an RST: the server's next write fails
        time.sleep(1.0)
    finally:
        server.shutdown()
        server.server_close()
    assert "Traceback" not in capfd.readouterr().err

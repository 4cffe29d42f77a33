"""The production server (gunicorn with service.gunicorn_conf, as make run starts it; the
``server`` fixture of tests/conftest.py), over real sockets."""

import http.client
import socket
import threading
import time


def get(port, path, timeout=5.0):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


def test_slow_clients_do_not_shut_out_others(server):
    """Twenty connections that send their headers a byte at a time; /healthz still answers at once."""
    get(server, "/healthz", timeout=30)  # both workers up
    slow = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", server))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: referee\r\n")
        slow.append(s)
    stop = threading.Event()

    def drip():
        while not stop.is_set():
            for s in slow:
                try:
                    s.sendall(b"X")
                except OSError:
                    pass
            stop.wait(0.3)

    dripper = threading.Thread(target=drip)
    dripper.start()
    try:
        time.sleep(1)
        answered = [get(server, "/healthz", timeout=2)[0] for _ in range(8)]
    finally:
        stop.set()
        dripper.join()
        for s in slow:
            s.close()
    assert answered == [200] * 8


def test_slow_bodies_do_not_shut_out_others(server):
    """Twenty requests that send their bodies a byte at a time (more than the threads Flask's views
    run on): the bodies are read on the event loop, and /healthz still answers at once."""
    get(server, "/healthz", timeout=30)
    slow = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", server))
        s.sendall(b"POST /v1/ask HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 1000\r\n\r\n{")
        slow.append(s)
    try:
        for s in slow:
            s.sendall(b" ")
        time.sleep(1)
        answered = [get(server, "/healthz", timeout=2)[0] for _ in range(8)]
    finally:
        for s in slow:
            s.close()
    assert answered == [200] * 8


def test_a_chunked_body_over_the_limit_is_413_over_the_wire(server):
    body = b'{"question": "' + b"a" * (256 * 1024) + b'"}'
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    connection.request("POST", "/v1/ask", body=iter([body[:1000], body[1000:]]),
                       headers={"Content-Type": "application/json"}, encode_chunked=True)
    response = connection.getresponse()
    assert response.status == 413
    assert response.getheader("Content-Type") == "application/problem+json"


def test_a_small_chunked_body_is_answered(server):
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    connection.request("POST", "/v1/ask", body=iter([b'{"question": "How many ', b'cards?", "lang": "en"}']),
                       headers={"Content-Type": "application/json"}, encode_chunked=True)
    assert connection.getresponse().status == 200


def read_all(s, timeout=15.0) -> bytes:
    s.settimeout(timeout)
    said = b""
    while chunk := s.recv(65536):
        said += chunk
    return said


def test_a_head_over_the_limit_is_431_at_once_and_the_worker_goes_on(server):
    """uvicorn's worker ignores gunicorn's limit_request_*: service.http_guard limits the head itself."""
    get(server, "/healthz", timeout=30)
    s = socket.create_connection(("127.0.0.1", server))
    started = time.monotonic()
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: referee\r\nX-Big: ")
    for _ in range(40):  # 2.5 MB of one header, as fast as it goes: read and dropped after the refusal
        s.sendall(b"a" * 65536)
    said = read_all(s)
    s.close()
    assert said.startswith(b"HTTP/1.1 431 ") and b"application/problem+json" in said
    assert time.monotonic() - started < 5
    assert get(server, "/healthz")[0] == 200


def test_a_head_or_a_body_that_stops_coming_is_408_after_the_deadline(server):
    get(server, "/healthz", timeout=30)
    head = socket.create_connection(("127.0.0.1", server))
    head.sendall(b"GET /healthz HTTP/1.1\r\nHost: ref")  # and nothing more
    body = socket.create_connection(("127.0.0.1", server))
    body.sendall(b"POST /v1/ask HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{")
    silent = socket.create_connection(("127.0.0.1", server))  # says nothing: closed without a word
    started = time.monotonic()
    for s, status in ((head, b"408"), (body, b"408"), (silent, None)):
        said = read_all(s)
        s.close()
        assert said.startswith(b"HTTP/1.1 408 ") if status else said == b""
    assert 3 < time.monotonic() - started < 12  # REFEREE_HEAD_SECONDS and REFEREE_BODY_SECONDS are 4 here

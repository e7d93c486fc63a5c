#!/usr/bin/env python3
"""Unit test of chromium_play.py's RFC 6455 client framing (no browser needed)."""
import os
import socket
import struct
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import chromium_play as cp  # noqa: E402


def frame(op, payload, fin=True, mask=None):
    b0 = (0x80 if fin else 0) | op
    n = len(payload)
    mbit = 0x80 if mask else 0
    if n < 126:
        hdr = bytes([b0, mbit | n])
    elif n < 65536:
        hdr = bytes([b0, mbit | 126]) + struct.pack(">H", n)
    else:
        hdr = bytes([b0, mbit | 127]) + struct.pack(">Q", n)
    if mask:
        return hdr + mask + cp._xor_mask(payload, mask)
    return hdr + payload


def client_pair():
    a, b = socket.socketpair()
    ws = cp.WebSocket.__new__(cp.WebSocket)
    ws.sock, ws.buf, ws.closed, ws._frag_op, ws._frag = a, bytearray(), False, None, []
    return ws, b


def read_frame(sock):
    def exact(n):
        out = b""
        while len(out) < n:
            out += sock.recv(n - len(out))
        return out
    b0, b1 = exact(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", exact(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", exact(8))[0]
    assert b1 & 0x80, "client frames must be masked"
    mask = exact(4)
    return b0 & 0x0F, cp._xor_mask(exact(n), mask)


class WebSocketFraming(unittest.TestCase):
    def test_small_16bit_64bit(self):
        ws, srv = client_pair()
        for size in (5, 300, 70000, 200000):
            msg = ("x" * size).encode()
            srv.sendall(frame(0x1, msg))
            self.assertEqual(ws.recv(5), msg.decode())

    def test_fragmented_with_interleaved_ping(self):
        ws, srv = client_pair()
        srv.sendall(frame(0x1, b"hel", fin=False) + frame(0x9, b"pp") + frame(0x0, b"lo ", fin=False)
                    + frame(0x0, b"world"))
        self.assertEqual(ws.recv(5), "hello world")
        op, payload = read_frame(srv)  # the pong
        self.assertEqual((op, payload), (0xA, b"pp"))

    def test_split_delivery_and_timeout(self):
        ws, srv = client_pair()
        data = frame(0x1, b'{"id":1}')
        srv.sendall(data[:3])
        self.assertIsNone(ws.recv(0.2))
        srv.sendall(data[3:])
        self.assertEqual(ws.recv(1), '{"id":1}')

    def test_client_send_is_masked(self):
        ws, srv = client_pair()
        ws.send_text("é" * 40000)
        op, payload = read_frame(srv)
        self.assertEqual(op, 0x1)
        self.assertEqual(payload.decode(), "é" * 40000)

    def test_close(self):
        ws, srv = client_pair()
        srv.sendall(frame(0x8, struct.pack(">H", 1000)))
        with self.assertRaises(cp.WebSocketError):
            ws.recv(1)


if __name__ == "__main__":
    unittest.main()

"""A WebSocket client that misbehaves on purpose: it speaks the protocol by hand over a plain
socket, so a test decides exactly what it sends and whether it ever reads (a real client
library reads in the background and answers pings by itself)."""

from __future__ import annotations

import base64
import os
import socket
import struct
from urllib.parse import urlsplit


class RawWebSocket:
    def __init__(self, url: str, *, receive_buffer: int | None = None, origin: str | None = None) -> None:
        parts = urlsplit(url)
        self.sock = socket.socket()
        if receive_buffer is not None:  # a small window: the server's sends back up at once
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect((parts.hostname or "127.0.0.1", parts.port or 80))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {parts.path} HTTP/1.1",
            f"Host: {parts.netloc}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if origin is not None:
            lines.append(f"Origin: {origin}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(1)
            if not chunk:
                break
            response += chunk
        self.status = int(response.split(b" ", 2)[1]) if response else 0

    def send_frame(self, payload: bytes, opcode: int = 0x1) -> None:
        """One masked frame, as a client must send it."""
        mask = os.urandom(4)
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send_text(self, text: str) -> None:
        self.send_frame(text.encode())

    def closed_by_server(self, timeout: float) -> bool:
        """Reads (and throws away) until the server closes or aborts the socket, or ``timeout``."""
        self.sock.settimeout(timeout)
        try:
            while self.sock.recv(65536):
                pass
        except TimeoutError:
            return False
        except OSError:  # reset: aborted
            return True
        return True

    def close(self) -> None:
        self.sock.close()

"""Connects to 127.0.0.1 (the port in port.txt beside it, else 8000) at import. Expected: import failed, Network is down (strategies have no network)."""

import socket
from pathlib import Path

port_file = Path(__file__).with_name("port.txt")
port = int(port_file.read_text()) if port_file.exists() else 8000
socket.create_connection(("127.0.0.1", port), timeout=1).sendall(b"pwned")


def final_strategy(score, opponent_score):
    return 4

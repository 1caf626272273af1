"""One table of the server, composed of small parts (:mod:`.table` says which); the names the
rest of the server uses come from here."""

from sakura.server.errors import TableError
from sakura.server.table.outbox import Connection, seen
from sakura.server.table.seats import Seat, hash_token
from sakura.server.table.table import Table

_seen = seen  # benchmarks/server_work.py measures the per-viewer conversion under this name

__all__ = ["Connection", "Seat", "Table", "TableError", "hash_token"]

"""The web app: ``sakura serve`` lets people play Sakura in the browser, against bots or friends.

Layers point inward: the server uses the engine, bots and records through their public APIs
and holds no rules. See ``docs/web.md`` for the design and ``docs/protocol.md`` for the
WebSocket protocol.
"""

from sakura.server.app import create_app

__all__ = ["create_app"]

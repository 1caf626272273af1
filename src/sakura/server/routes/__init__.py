"""The app's routes, one router per resource, mounted by :func:`sakura.server.app.create_app`.

* :mod:`.pages`: the HTML pages, the favicon and the guided first game's script;
* :mod:`.tables`: the lobby's API, tables listed, created, looked at and joined;
* :mod:`.archive`: finished games, their records, replays and analyses;
* :mod:`.people`: players' pages and the leaderboards;
* :mod:`.play`: the WebSocket of a table, where the game is played;
* :mod:`.games`: the routes one game adds for itself (keyed by the game's name).

Every route takes what it needs through :mod:`.deps` (``Depends``) and lets a
:class:`~sakura.server.errors.TableError` go: the app's one handler turns it into its HTTP
status with ``{"detail", "code"}``.
"""

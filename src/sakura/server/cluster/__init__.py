"""Many server processes for one site: Redis for presence, table ownership and fan-out,
PostgreSQL (or one SQLite file) for the durable events, as with one process.

``sakura serve --redis-url redis://...`` (or ``create_app(url, redis_url=...)``) turns this on;
without it nothing here is imported and one process serves everything, as before.

* Each unfinished table has one **owner** process, which holds it in memory and runs its
  engine, bots and timer exactly as a lone process does. Ownership is a lease in Redis
  (:mod:`.lease`): set-if-absent with an expiry, renewed while the owner lives.
* The lease number comes from the database (:mod:`.fencing`): taking a table raises its row's
  ``lease``, and every action is written with its writer's lease, refused by the database when
  it is not the table's (a stale owner, paused past its lease, cannot write).
* A client may reach any process. On a process that does not own its table, the connection is
  relayed (:mod:`.relay`): its hello, actions and leaving go to the owner through Redis, and
  the owner's messages for that connection come back through Redis pub/sub, built by the
  owner's table for that connection's seat alone, so the wire format and the hidden
  information are exactly as with one process.
* When an owner dies, its leases expire; another process takes each table, rebuilds it from
  the database's events and carries on (:mod:`.owner`); relayed connections are closed so that
  their pages reconnect (they do by themselves) and get the table's state afresh.
"""

from sakura.server.cluster.owner import ClusterLobby

__all__ = ["ClusterLobby"]

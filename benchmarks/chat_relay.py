"""Chat relayed to the watchers of one table: messages a second and the latency from a
speaker's send to each watcher's receipt (p50/p99).

Starts ``sakura``'s app under uvicorn in a subprocess (as ``sakura serve`` configures it, with
the per-address and chat limits lifted: every client comes from one address and one speaker
talks far faster than a person may), creates one table, connects ``--watchers`` spectators
and ``--speakers`` speakers (seated players and spectators), and has each speaker send
``--messages`` chat messages, ``--rate`` a second each (0: as fast as the server answers).
Every message is stored before it is relayed (as in play), so the rate includes a database
commit per message. Prints numbers; asserts nothing. Loopback only, bounded in count.

    python benchmarks/chat_relay.py --watchers 50 --messages 500
    python benchmarks/chat_relay.py --watchers 50 --messages 200 --rate 20 --speakers 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time

import httpx
import websockets

from loopback import serve


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def run(base: str, args: argparse.Namespace) -> None:
    created = httpx.post(f"{base}/api/tables", json={"players": 2}).json()
    table_id = created["table"]["id"]
    url = f"{base.replace('http', 'ws')}/ws/{table_id}"
    latencies: list[float] = []
    expected = args.speakers * args.messages
    done = asyncio.Event()
    counts = [0] * args.watchers

    async def watcher(i: int, ready: asyncio.Event) -> None:
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "chat_history":
                    ready.set()
                elif message["type"] == "chat" and message["text"] and message["text"].startswith("t="):
                    latencies.append(time.perf_counter() - float(message["text"][2:].split(" ")[0]))
                    counts[i] += 1
                    if counts[i] == expected:
                        return

    async def speaker(k: int) -> int:
        token = created["token"] if k == 0 else None
        refused = 0
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            pending = 0
            for n in range(args.messages):
                await ws.send(json.dumps({"type": "chat", "text": f"t={time.perf_counter()!r} {k}/{n}"}))
                pending += 1
                if args.rate:
                    await asyncio.sleep(1 / args.rate)
                while pending > args.window:  # a speaker waits for its own words to come back
                    message = json.loads(await ws.recv())
                    if message["type"] == "chat" and message["text"].endswith(f" {k}/{n - pending + 1}"):
                        pending -= 1
                    elif message["type"] == "error":
                        refused += 1
                        pending -= 1
            while pending:
                message = json.loads(await ws.recv())
                mine = message["type"] == "chat" and (message["text"] or "").startswith("t=")
                if mine and f" {k}/" in message["text"]:
                    pending -= 1
                elif message["type"] == "error":
                    refused += 1
                    pending -= 1
        return refused

    readies = [asyncio.Event() for _ in range(args.watchers)]
    watchers = [asyncio.create_task(watcher(i, readies[i])) for i in range(args.watchers)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
    start = time.perf_counter()
    refused = sum(await asyncio.gather(*(speaker(k) for k in range(args.speakers))))
    try:
        await asyncio.wait_for(asyncio.gather(*watchers), 120)
    except TimeoutError:
        print("some watchers did not get every message within 120 s")
    elapsed = time.perf_counter() - start
    done.set()
    sent = expected - refused
    print(
        f"watchers {args.watchers}, speakers {args.speakers}, messages {sent} sent ({refused} refused), "
        f"{elapsed:.2f} s"
    )
    print(
        f"messages relayed: {sent / elapsed:.0f} a second, deliveries {len(latencies) / elapsed:.0f} a second"
    )
    print(
        f"latency send -> watcher: p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--speakers", type=int, default=1)
    parser.add_argument("--messages", type=int, default=500, help="messages per speaker")
    parser.add_argument("--rate", type=float, default=0.0, help="messages a second per speaker (0: flat out)")
    parser.add_argument("--window", type=int, default=8, help="messages a speaker may have in flight")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    limits = (
        "connections_per_address=100_000, creates_per_minute=100_000, messages_per_second=100_000, "
        "message_burst=100_000, chat_burst=1_000_000, chat_window=1.0"
    )
    with tempfile.TemporaryDirectory() as tmp, serve(limits, args.database_url, tmp) as (base, _pid):
        asyncio.run(run(base, args))


if __name__ == "__main__":
    main()

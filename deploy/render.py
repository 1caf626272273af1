"""Fill in deploy/nginx/sakura.conf for a site: its processes' ports, its name, its certificate.

    python deploy/render.py --ports 8001 8002 8003 --server-name play.example.org \\
        --cert /etc/letsencrypt/live/play.example.org/fullchain.pem \\
        --key /etc/letsencrypt/live/play.example.org/privkey.pem > /etc/nginx/sites-available/sakura

Only the ``${NAME}`` placeholders are replaced; nginx's own ``$variables`` are left as they are.
tests/deploy/test_topology.py renders the same file with :func:`render` and runs nginx with it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from string import Template

TEMPLATE = Path(__file__).resolve().parent / "nginx" / "sakura.conf"


def render(  # noqa: PLR0913 (the site's facts, each by keyword)
    ports: list[int],
    *,
    server_name: str,
    cert: str,
    key: str,
    https_port: int = 443,
    http_port: int = 80,
    upstream_host: str = "127.0.0.1",
    max_fails: int = 1,
    fail_timeout: int = 5,
) -> str:
    """The site's configuration: one upstream ``server`` line a process, passive checks on each."""
    servers = "\n".join(
        f"    server {upstream_host}:{port} max_fails={max_fails} fail_timeout={fail_timeout}s;"
        for port in ports
    )
    values = {
        "UPSTREAM_SERVERS": servers,
        "SERVER_NAME": server_name,
        "TLS_CERT": cert,
        "TLS_KEY": key,
        "HTTPS_PORT": str(https_port),
        "HTTP_PORT": str(http_port),
    }
    text = Template(TEMPLATE.read_text()).safe_substitute(values)
    missing = [name for name in values if "${" + name + "}" in text]
    assert not missing, missing
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ports", type=int, nargs="+", default=[8001, 8002, 8003])
    parser.add_argument("--server-name", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--https-port", type=int, default=443)
    parser.add_argument("--http-port", type=int, default=80)
    args = parser.parse_args()
    print(
        render(
            args.ports,
            server_name=args.server_name,
            cert=args.cert,
            key=args.key,
            https_port=args.https_port,
            http_port=args.http_port,
        ),
        end="",
    )


if __name__ == "__main__":
    main()

"""nginx (Debian's package) in front of hall processes on loopback, configured as
docs/deploy.md tells an operator to: HTTP and WebSockets proxied, the client's address passed
on in X-Forwarded-For, long-lived sockets not cut."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# The part an operator copies (docs/deploy.md, "nginx in front"): {upstreams} and {port} filled.
SITE = """
map $http_upgrade $connection_upgrade {{
    default upgrade;
    ''      close;
}}

upstream dominohall {{
{upstreams}
}}

server {{
    listen 127.0.0.1:{port};

    location / {{
        proxy_pass http://dominohall;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 1h;
        proxy_send_timeout 1h;
    }}
}}
"""

# What only a test needs: nginx run by the test, in the foreground, every file in its folder.
MAIN = """
daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{}}
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
{site}
}}
"""


def nginx_available() -> bool:
    return Path(NGINX).exists()


class LoadBalancer:
    """nginx on a free loopback port, proxying to ``ports`` (one hall process each)."""

    def __init__(self, root: Path, ports: list[int]) -> None:
        self.root = root
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        upstreams = "\n".join(f"    server 127.0.0.1:{p};" for p in ports)
        site = SITE.format(upstreams=upstreams, port=self.port)
        self.config = root / "nginx.conf"
        self.config.write_text(MAIN.format(root=root, site=site))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.root), "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited at start:\n{self.errors()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen within 10 s:\n{self.errors()}")

    def errors(self) -> str:
        log = self.root / "error.log"
        return log.read_text() if log.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])

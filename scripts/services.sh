#!/usr/bin/env bash
# Starts the PostgreSQL and Redis servers the tests use (127.0.0.1:5432 and :6379) when they are
# not running, installing Debian's packages first where they are missing (nginx too, which the
# tests start themselves). Prints what it did.
set -u

postgres_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

apt_install() {
    [ -n "${APT_UPDATED:-}" ] || { apt-get update -qq && APT_UPDATED=1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! postgres_up; then
    command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql
    version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$version" ]; then
        echo "services: starting PostgreSQL $version"
        pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
        for _ in $(seq 50); do postgres_up && break; sleep 0.2; done
        # Trust on loopback, as the tests expect (a machine of this kind comes so).
        psql -h 127.0.0.1 -U postgres -d postgres -c "select 1" >/dev/null 2>&1 \
            || echo "services: PostgreSQL is up but 'postgres' cannot sign in on 127.0.0.1 without a password"
    fi
fi
if ! redis_up; then
    command -v redis-server >/dev/null 2>&1 || apt_install redis-server
    echo "services: starting Redis"
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
        --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
    for _ in $(seq 50); do redis_up && break; sleep 0.2; done
fi
# nginx for the load balancer's tests: installed when missing, never started here (each test
# runs its own on a spare loopback port).
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || apt_install nginx-light || apt_install nginx
[ -x /usr/sbin/nginx ] && echo "services: nginx at /usr/sbin/nginx" || echo "services: no nginx: the load balancer's tests will be skipped"
postgres_up && echo "services: PostgreSQL on 127.0.0.1:5432" || echo "services: PostgreSQL is NOT reachable: its tests will be skipped"
redis_up && echo "services: Redis on 127.0.0.1:6379" || echo "services: Redis is NOT reachable: its tests will be skipped"
exit 0

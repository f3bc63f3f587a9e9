#!/usr/bin/env bash
# Make sure what the test suite talks to is there: a Redis server on 127.0.0.1:6379 and
# Debian's chromium for the dashboard's browser test, with the fonts it needs to draw
# Chinese and emoji (without them screenshots show boxes). Idempotent; safe to run twice.
set -euo pipefail

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  if ! command -v redis-server >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] && { apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; }
  fi
  redis-server --daemonize yes --port 6379 --save "" --appendonly no
  for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "ensure-services: chromium is missing and we are not root; install it with: sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi
FONTS="fonts-noto-cjk fonts-noto-color-emoji"
if ! dpkg -s $FONTS >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $FONTS >/dev/null
  else
    echo "ensure-services: install the fonts screenshots need: sudo apt-get install -y $FONTS" >&2
  fi
fi
echo "services ready: redis $(redis-cli -h 127.0.0.1 -p 6379 info server | grep -m1 redis_version | tr -d '\r'), $(chromium --version 2>/dev/null | head -1)"

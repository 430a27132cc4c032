#!/usr/bin/env bash
# The keychain tests (vitest project "keychain") in two passes:
#   1. a real Secret Service: a private gnome-keyring, unlocked, inside its own D-Bus session;
#   2. no keychain at all: the session bus points nowhere.
# CI has no desktop session to borrow, and a developer's own keyring must never be touched, so each
# pass gets HOME, the XDG dirs, TMPDIR and the data dir inside a temporary sandbox, removed on exit.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
vitest="$repo/node_modules/.bin/vitest"

for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null; then
    echo "test:keychain: $tool is missing; install the Debian packages dbus, dbus-x11 and gnome-keyring" >&2
    exit 1
  fi
done

root="$(mktemp -d "${TMPDIR:-/tmp}/citewise-keychain.XXXXXX")"
root="$(cd "$root" && pwd -P)"
cleanup() {
  local pidfile
  # The daemon dies with its D-Bus session; this is for a run cut short before that.
  for pidfile in "$root"/*/keyring.pid; do
    [[ -f $pidfile ]] && kill "$(<"$pidfile")" 2>/dev/null || true
  done
  rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Makes a pass's sandbox and exports the environment that confines it.
enter_sandbox() {
  local dir="$root/$1"
  mkdir -p "$dir"/{home,data,config,cache,state,runtime,tmp,citewise}
  chmod 700 "$dir/runtime" # the XDG spec, and gnome-keyring, insist on it
  export PASS_DIR="$dir"
  export CITEWISE_KEYCHAIN_SANDBOX="$dir"
  export HOME="$dir/home"
  export XDG_DATA_HOME="$dir/data" XDG_CONFIG_HOME="$dir/config" XDG_CACHE_HOME="$dir/cache"
  export XDG_STATE_HOME="$dir/state" XDG_RUNTIME_DIR="$dir/runtime"
  export TMPDIR="$dir/tmp" CITEWISE_DATA_DIR="$dir/citewise"
  # Nothing may reach a desktop session's bus or prompt.
  unset DISPLAY WAYLAND_DISPLAY GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
}

# One line per pass; fails when a test failed or when none ran (say, the expectation never arrived).
summarise() {
  local label="$1" report="$2" code="$3"
  node -e '
    const [label, file, code] = process.argv.slice(1);
    let r;
    try { r = JSON.parse(require("node:fs").readFileSync(file, "utf8")); }
    catch { console.log(`test:keychain: ${label}: FAILED (no test report; vitest exit ${code})`); process.exit(1); }
    const ok = code === "0" && r.numFailedTests === 0 && r.numPassedTests > 0;
    console.log(`test:keychain: ${label}: ${ok ? "ok" : "FAILED"} (${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped)`);
    process.exit(ok ? 0 : 1);
  ' "$label" "$report" "$code"
}

summaries=()
failed=0

# Pass 1: a real keychain.
(
  enter_sandbox real
  export CITEWISE_KEYCHAIN_EXPECT=real VITEST="$vitest"
  # Inside the session: start the daemon ourselves (so we know its pid), unlock the login keyring
  # with a throwaway password, and wait until it owns the Secret Service name; a test that asked
  # first would make D-Bus activate a second, locked daemon.
  dbus-run-session -- bash -c '
    set -euo pipefail
    printf pw | gnome-keyring-daemon --foreground --unlock --components=secrets >"$PASS_DIR/keyring.log" 2>&1 &
    daemon=$!
    echo "$daemon" >"$PASS_DIR/keyring.pid"
    trap "kill $daemon 2>/dev/null || true" EXIT
    for _ in $(seq 100); do
      if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; then
        break
      fi
      if ! kill -0 "$daemon" 2>/dev/null; then
        echo "test:keychain: gnome-keyring-daemon exited early:" >&2
        cat "$PASS_DIR/keyring.log" >&2
        exit 1
      fi
      sleep 0.1
    done
    "$VITEST" run --project keychain --reporter=default --reporter=json --outputFile="$PASS_DIR/report.json" </dev/null
  ' && code=0 || code=$?
  echo "$code" >"$PASS_DIR/exit"
) || true
if line="$(summarise "real gnome-keyring in a D-Bus session" "$root/real/report.json" "$(cat "$root/real/exit" 2>/dev/null || echo 1)")"; then :; else failed=1; fi
summaries+=("$line")

# Pass 2: no keychain. The bus address names a socket that does not exist, so libsecret fails at once.
(
  enter_sandbox none
  export CITEWISE_KEYCHAIN_EXPECT=none DBUS_SESSION_BUS_ADDRESS="unix:path=$PASS_DIR/no-bus"
  "$vitest" run --project keychain --reporter=default --reporter=json --outputFile="$PASS_DIR/report.json" </dev/null && code=0 || code=$?
  echo "$code" >"$PASS_DIR/exit"
) || true
if line="$(summarise "no keychain (session-only fallback)" "$root/none/report.json" "$(cat "$root/none/exit" 2>/dev/null || echo 1)")"; then :; else failed=1; fi
summaries+=("$line")

printf '%s\n' "${summaries[@]}"
exit "$failed"

# Debian's Chromium for the web UI's end-to-end tests and benchmark (sourced by .ci/run and
# scripts/test.sh). The registry builds of browsers cannot be downloaded here; playwright-core
# drives /usr/bin/chromium instead. chromium_install installs the Debian package when missing (root).

chromium_install() {
  [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] && return 0
  if [ "$(id -u)" != 0 ]; then echo "Chromium is not installed and we are not root: apt-get install chromium" >&2; return 1; fi
  echo "installing the Debian package chromium" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
}

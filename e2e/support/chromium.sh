#!/usr/bin/env bash
# Starts Chromium (HEARTH_CHROMIUM) with Playwright's arguments, its --disable-features merged with
# ours: Chromium honours only the last --disable-features switch, so a second one would silently
# drop every feature Playwright turns off (e2e/support/browser.ts says which ones we add and why).
set -eu
args=()
features=()
for arg in "$@"; do
  case $arg in
  --disable-features=*) features+=("${arg#--disable-features=}") ;;
  *) args+=("$arg") ;;
  esac
done
if ((${#features[@]})); then
  joined=$(IFS=,; echo "${features[*]}")
  args+=("--disable-features=$joined")
fi
exec "${HEARTH_CHROMIUM:?}" "${args[@]}"

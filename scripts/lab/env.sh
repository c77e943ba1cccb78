#!/usr/bin/env bash
# Prints the lines to eval so that kubectl (the lab's own) talks to the lab:
#   eval "$(npm run --silent lab -- env)"
source "$(dirname "$0")/lib.sh"
printf 'export KUBECONFIG=%q\n' "$KUBECONFIG_LAB"
printf 'export PATH=%q:"$PATH"\n' "$LAB_BIN"

#!/usr/bin/env bash
# Stops only the processes the lab started (its pid files), newest first, then removes the lab directory.
source "$(dirname "$0")/lib.sh"
source "$LAB_SCRIPTS/components.sh"

[[ -d "$LAB_DIR" ]] || { log "not running"; exit 0; }
for ((i = ${#COMPONENTS[@]} - 1; i >= 0; i--)); do stop_component "${COMPONENTS[i]}"; done
rm -rf "$LAB_DIR"
log "down"

#!/usr/bin/env bash
# seed SCENARIO: resets the lab's workloads and nodes, applies the scenario's steps
# (scripts/lab/scenarios/SCENARIO.steps) and waits after each step until it has settled. The work is
# done by seed.ts, which talks to the API server itself (see there); this sets up its environment.
source "$(dirname "$0")/lib.sh"
node="$LAB_SCRIPTS/../../node_modules/.bin/node" # Node 26, which runs TypeScript as it is
[[ -x "$node" ]] || node=node
LAB_KUBECONFIG=$KUBECONFIG_LAB LAB_KUBECTL=$LAB_BIN/kubectl exec "$node" "$LAB_SCRIPTS/seed.ts" "$@"

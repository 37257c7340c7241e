#!/bin/bash
# Fetches the JSON summary of every shard of the Indexed Job deploy/k8s/simulate-job.yaml
# from its succeeded pod's log, then merges them (needs kubectl >= 1.28 labels and a local
# carcassonne binary: CARCASSONNE, default target/release/carcassonne).
set -euo pipefail
JOB=${JOB:-carcassonne-simulate}
OUT=${OUT:-results}
CARCASSONNE=${CARCASSONNE:-target/release/carcassonne}
shards=$(kubectl get job "$JOB" -o jsonpath='{.spec.completions}')
mkdir -p "$OUT"
for ((i = 0; i < shards; i++)); do
    pod=$(kubectl get pods -l "job-name=$JOB,batch.kubernetes.io/job-completion-index=$i" \
        --field-selector=status.phase=Succeeded -o name | head -n 1)
    if [ -z "$pod" ]; then
        echo "collect.sh: shard $i has no succeeded pod" >&2
        exit 1
    fi
    kubectl logs "$pod" > "$OUT/shard-$i-of-$shards.json.part"
    mv "$OUT/shard-$i-of-$shards.json.part" "$OUT/shard-$i-of-$shards.json"
done
"$CARCASSONNE" merge "$OUT"/shard-*-of-"$shards".json --json --output "$OUT/summary.json"
"$CARCASSONNE" merge "$OUT"/shard-*-of-"$shards".json

#!/bin/sh
# Runs one shard of a distributed `carcassonne simulate` run (docs/distributed.md) and
# writes its JSON summary: to $OUT/shard-I-of-N.json when OUT is set, else to stdout.
#
# Shard index I: $SHARD_INDEX, else $JOB_COMPLETION_INDEX (Kubernetes Indexed Job), else
# $SLURM_ARRAY_TASK_ID - $SLURM_ARRAY_TASK_MIN (Slurm job array).
# Shard count N: $SHARDS, else $SLURM_ARRAY_TASK_COUNT.
# The run: GAMES (default 100000), SEED (1), BOTS (random), PLAYERS, THREADS (default: all
# cores), RULES (space-separated rule-set files, default: the embedded default rule set).
# CARCASSONNE: the binary (default: carcassonne on the PATH).
set -eu

index=${SHARD_INDEX:-${JOB_COMPLETION_INDEX:-}}
if [ -z "$index" ] && [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    index=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
fi
if [ -z "$index" ]; then
    echo "run-shard.sh: no shard index (set SHARD_INDEX, JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)" >&2
    exit 2
fi
shards=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:-}}
if [ -z "$shards" ]; then
    echo "run-shard.sh: no shard count (set SHARDS)" >&2
    exit 2
fi

set -- simulate --json --games "${GAMES:-100000}" --seed "${SEED:-1}" --bots "${BOTS:-random}" \
    --shard "$index/$shards"
if [ -n "${PLAYERS:-}" ]; then set -- "$@" --players "$PLAYERS"; fi
if [ -n "${THREADS:-}" ]; then set -- "$@" --threads "$THREADS"; fi
for r in ${RULES:-}; do set -- "$@" --rules "$r"; done
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    # Written atomically: a shard that dies leaves no file behind.
    set -- "$@" --output "$OUT/shard-$index-of-$shards.json"
fi
exec "${CARCASSONNE:-carcassonne}" "$@"

#!/bin/bash
# Submits the shard array and the merge that waits for it. Run from the repository root:
#     GAMES=1000000 SEED=7 deploy/slurm/submit.sh
set -euo pipefail
mkdir -p "${OUT:-results}"
array=$(sbatch --parsable --export=ALL deploy/slurm/simulate.sbatch)
merge=$(sbatch --parsable --export=ALL --dependency=afterok:"${array%%;*}" deploy/slurm/merge.sbatch)
echo "shards: job ${array%%;*}; merge: job $merge (writes ${OUT:-results}/summary.txt)"

#!/usr/bin/env bash
# Four chains of examples/eight-schools.ts as a Slurm job array, one chain per task, then a merge.
# Each task runs `stochax sample` without --chain-index: the CLI takes the chain index from
# SLURM_ARRAY_TASK_ID, so task i writes chain i of 4 — exactly the draws chain i has in a
# single `--chains 4` run — and the merged draws.json equals that run's byte for byte.
#
#   sbatch examples/cluster/slurm-array.sh          # the array; then, once it has finished:
#   sbatch --dependency=afterok:<jobid> --wrap 'npx stochax merge runs/eight-schools/c*/draws.json --out runs/eight-schools/draws.json'
#
# (test/cli/cluster.slow.test.ts runs the same command lines locally with SLURM_ARRAY_TASK_ID set.)
#SBATCH --job-name=eight-schools
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --time=00:10:00
set -euo pipefail
npx stochax sample examples/eight-schools.ts --chains 4 --seed 0 --out "runs/eight-schools/c${SLURM_ARRAY_TASK_ID}"

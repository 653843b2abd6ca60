#!/bin/bash
# usage: serve18-run.sh TREE OUTDIR
cd "$1"; O="$2"; mkdir -p "$O"
R=docs/notes/2026-12-08/issue-35-r18-advice21-requests
export QT_QPA_PLATFORM=offscreen GPUPLANNER_CACHE_DIR=/tmp/gpc-serve18-$(basename $O)
for f in examples/*.gpuplan examples/*.json $R/*.gpuplan $R/*.json; do
  b=$(basename "$f"); b=${b%.*}
  /work/main/.venv/bin/python -m gpuplanner plan "$f" --top 5 > "$O/$b.plan.txt" 2>&1
  /work/main/.venv/bin/python -m gpuplanner project "$f" > "$O/$b.project.txt" 2>&1
done

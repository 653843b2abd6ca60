#!/bin/bash
# usage: helpzh18_dump.sh OUTFILE  (run in a tree's root)
out=$1; : > $out
for lang in en zh_CN; do
 for c in "" estimate gpus health kit kit-import net plan project quotes report topo; do
  echo "===== gpuplanner $c --help --lang $lang" >> $out
  if [ -z "$c" ]; then COLUMNS=100 GPUPLANNER_CACHE_DIR=/tmp/gpc-helpzh18 QT_QPA_PLATFORM=offscreen /work/main/.venv/bin/python -m gpuplanner --help --lang $lang >> $out 2>&1
  else COLUMNS=100 GPUPLANNER_CACHE_DIR=/tmp/gpc-helpzh18 QT_QPA_PLATFORM=offscreen /work/main/.venv/bin/python -m gpuplanner $c --help --lang $lang >> $out 2>&1; fi
 done
done
for lang in en zh_CN; do
  echo "===== gpuplanner plan examples/llama3-8b-full.json --top x --lang $lang" >> $out
  GPUPLANNER_CACHE_DIR=/tmp/gpc-helpzh18 QT_QPA_PLATFORM=offscreen /work/main/.venv/bin/python -m gpuplanner plan examples/llama3-8b-full.json --top x --lang $lang >> $out 2>&1
done

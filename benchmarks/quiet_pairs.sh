#!/bin/bash
# The default job (`chronoeval run --no-progress`) of two source trees, one job at a time, each
# pair started only when no other process has used more than 15% of a core in three checks 5 s
# apart (a shared machine: wait for a quiet moment instead of measuring the neighbours). The
# order alternates per pair. Prints wall, user and system seconds (/usr/bin/time), the 1-min load
# average before each job, and how many other processes used more than 15% at its end (keep only
# pairs with 0 there). Datasets come from $CHRONOEVAL_CACHE: run the job once first to fill it.
#
#   CHRONOEVAL_CACHE=/tmp/cache bash benchmarks/quiet_pairs.sh /tmp/before/src src [seconds] [pairs]
set -u
before=$(realpath "$1"); after=$(realpath "$2"); budget=${3:-900}; pairs=${4:-6}
work=$(mktemp -d /tmp/chronoeval-quiet-XXXX)
hogs() { ps -eo pcpu=,cmd= --sort=-pcpu | awk '$1>15' | grep -vc "ps -eo"; }
end=$(( $(date +%s) + budget ))
n=0
while [ "$(date +%s)" -lt $end ] && [ $n -lt "$pairs" ]; do
  ok=0
  while [ $ok -lt 3 ] && [ "$(date +%s)" -lt $end ]; do
    sleep 5
    if [ "$(hogs)" -eq 0 ]; then ok=$((ok + 1)); else ok=0; fi
  done
  [ $ok -lt 3 ] && break
  if [ $((n % 2)) -eq 0 ]; then order="after before"; else order="before after"; fi
  for t in $order; do
    if [ "$t" = before ]; then src=$before; else src=$after; fi
    d=$work/${n}_$t
    mkdir -p "$d"
    load=$(cut -d' ' -f1 /proc/loadavg)
    res=$(cd "$d" && PYTHONPATH=$src /usr/bin/time -f "%e %U %S" python -m chronoeval run --no-progress 2>&1 >/dev/null | tail -1)
    echo "pair $n $t: wall/user/sys $res, load before $load, other hogs at end $(hogs)"
  done
  n=$((n + 1))
done
echo "$n pair(s) measured; the job directories are under $work"

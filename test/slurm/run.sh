#!/usr/bin/env bash
# A sweep as a Slurm job array on a real single-node Slurm (munge, slurmctld, slurmd on localhost):
# emits the array script with `ccasim sweep --emit slurm`, submits it with sbatch, merges the four
# shards with `ccasim sweep merge` (twice: the second adds nothing), and checks that the merged
# study holds the same contents as a local `--jobs 2` run. Needs root and Debian's slurm-wlm and
# munge packages; `npm run build` must have run. Stops every daemon it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
CCASIM="node $ROOT/dist/cli/main.js"
SWEEP="$ROOT/test/scenarios/sweeps/small.sweep.yaml"
WORK=$(mktemp -d /tmp/ccasim-slurm.XXXXXX)
chmod 755 "$WORK"
HOST=$(hostname -s)
PIDS=()

for tool in munged slurmctld slurmd sbatch sinfo; do
  command -v "$tool" >/dev/null || { echo "test:slurm: '$tool' is missing: apt-get install -y slurm-wlm munge" >&2; exit 1; }
done
[ -f "$ROOT/dist/cli/main.js" ] || { echo "test:slurm: run 'npm run build' first" >&2; exit 1; }

cleanup() {
  local code=$?
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  if [ $code -ne 0 ]; then
    echo "--- slurmctld log"; tail -n 30 "$WORK/slurmctld.log" 2>/dev/null || true
    echo "--- slurmd log"; tail -n 30 "$WORK/slurmd.log" 2>/dev/null || true
    for f in "$WORK"/study-shards/slurm-*.out; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
  fi
  rm -rf "$WORK"
  exit $code
}
trap cleanup EXIT

# munge: a key of our own and a daemon with its own socket.
mkdir -p "$WORK/munge"
chown munge:munge "$WORK/munge" 2>/dev/null || true
chmod 711 "$WORK/munge"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1 count=1024 status=none
chown munge:munge "$WORK/munge/munge.key" 2>/dev/null || true
chmod 400 "$WORK/munge/munge.key"
SOCKET="$WORK/munge/munge.socket"
runuser -u munge -- munged --key-file="$WORK/munge/munge.key" --socket="$SOCKET" \
  --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/munged.seed"
for _ in $(seq 50); do [ -s "$WORK/munge/munged.pid" ] && break; sleep 0.1; done
PIDS+=("$(cat "$WORK/munge/munged.pid")")

# Slurm: one node (this machine), configuration in our own folder.
NODE=$(slurmd -C | head -n 1)
mkdir -p "$WORK/state" "$WORK/spool"
cat > "$WORK/slurm.conf" <<CONF
ClusterName=ccasim-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
$NODE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$WORK/slurm.conf"
slurmctld -f "$SLURM_CONF"
for _ in $(seq 100); do [ -s "$WORK/slurmctld.pid" ] && break; sleep 0.1; done
PIDS+=("$(cat "$WORK/slurmctld.pid")")
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do [ -s "$WORK/slurmd.pid" ] && break; sleep 0.1; done
PIDS+=("$(cat "$WORK/slurmd.pid")")
for _ in $(seq 120); do
  state=$(sinfo -h -n "$HOST" -o %t 2>/dev/null || true)
  case "$state" in idle*|mix*|alloc*) break ;; esac
  sleep 0.5
done
echo "test:slurm: node $HOST is '$(sinfo -h -n "$HOST" -o %t)'"

# The same sweep, locally and as a 4-task array.
cd "$WORK"
$CCASIM sweep "$SWEEP" --db "$WORK/local.db" --jobs 2 --quiet
$CCASIM sweep "$SWEEP" --emit slurm --tasks 4 --db "$WORK/study.db" --shards "$WORK/study-shards" --script "$WORK/array.sh"
grep -q -- "--array=0-3" "$WORK/array.sh"
sbatch --wait "$WORK/array.sh"
shards=("$WORK"/study-shards/shard-*.db)
[ "${#shards[@]}" -eq 4 ] || { echo "test:slurm: expected 4 shards, found ${#shards[@]}" >&2; exit 1; }
$CCASIM sweep merge "$WORK/study.db" "${shards[@]}"
second=$($CCASIM sweep merge "$WORK/study.db" "${shards[@]}" 2>/dev/null)
echo "$second"
echo "$second" | grep -q ": 0 points added" || { echo "test:slurm: a second merge added points" >&2; exit 1; }

node --input-type=module -e "
import { StudyStore, studyDigest } from '$ROOT/dist/index.js';
const digest = async (f) => { const s = await StudyStore.open(f, { readOnly: true }); try { return await studyDigest(s); } finally { s.close(); } };
const a = await digest('$WORK/local.db');
const b = await digest('$WORK/study.db');
let same = 0, differ = 0;
for (const t of Object.keys(a)) {
  const ok = a[t].sha256 === b[t].sha256 && a[t].rows === b[t].rows;
  console.log((ok ? 'same   ' : 'DIFFERS') + ' ' + t + ' (' + a[t].rows + ' rows local, ' + b[t].rows + ' merged)');
  ok ? same++ : differ++;
}
if (a.point.rows !== 12) { console.log('expected 12 points, got ' + a.point.rows); differ++; }
console.log(same + ' passed, ' + differ + ' failed');
process.exitCode = differ === 0 ? 0 : 1;
"

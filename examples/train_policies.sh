#!/bin/sh
# The shipped policies: 2, 4 and 6 players, ~9 minutes each, one after another (one core).
set -e
cd "$(dirname "$0")/.."
. .venv/bin/activate
for p in 2 4 6; do
  key=sakura-${p}p; [ "$p" = 2 ] && key=sakura-2p-court
  python examples/train_ppo.py --players $p --minutes 9 --imitate 600 --imitate-epochs 5 \
    --eval-every 30000 --eval-games 200 --seed 1 --checkpoint runs/$key \
    --export src/sakura/rl/policies/$key.npz --out docs/img/rl-ppo-${p}p.png > runs/$key.log 2>&1
done
echo all done > runs/done

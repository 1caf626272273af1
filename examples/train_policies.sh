#!/bin/sh
# The shipped policies (docs/rl.md, "Training"): 2, 4 and 6 players, ~9 minutes each, one after
# another on one core, then 6 more minutes for the four-player one (--resume). Checkpoints go to
# runs/; each run exports its best checkpoint to src/sakura/rl/policies/.
set -e
cd "$(dirname "$0")/.."
for p in 2 4 6; do
  key=sakura-${p}p; [ "$p" = 2 ] && key=sakura-2p-court
  python examples/train_ppo.py --players $p --minutes 9 --imitate 600 --imitate-epochs 5 \
    --eval-every 30000 --eval-games 200 --seed 1 --checkpoint runs/$key \
    --export src/sakura/rl/policies/$key.npz --out docs/img/rl-ppo-${p}p.png > runs/$key.log 2>&1
done
python examples/train_ppo.py --players 4 --minutes 6 --eval-every 30000 --eval-games 200 --seed 1 \
  --checkpoint runs/sakura-4p --resume --export src/sakura/rl/policies/sakura-4p.npz \
  --out docs/img/rl-ppo-4p.png > runs/sakura-4p-resume.log 2>&1
python examples/plot_training.py docs/img/rl-ppo-2p.json docs/img/rl-ppo-4p.json docs/img/rl-ppo-6p.json \
  --out docs/img/rl-ppo-curves.png

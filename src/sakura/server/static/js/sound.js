// Short synthesized cues (Web Audio; no sound files): reveal, your turn to decide, bump,
// scoring, game end. Off until the player turns them on; the choice is remembered.
const STORE = "sakuraSound";
let context = null;

export const soundOn = () => localStorage.getItem(STORE) === "on";

export function setSound(on) {
  localStorage.setItem(STORE, on ? "on" : "off");
  if (on) cue("turn");
}

// Each cue: notes as [frequency Hz, start s, length s], and a wave shape.
const CUES = {
  reveal: { wave: "triangle", notes: [[660, 0, 0.08], [880, 0.07, 0.1]] },
  turn: { wave: "sine", notes: [[523, 0, 0.12], [784, 0.12, 0.18]] },
  bump: { wave: "square", notes: [[220, 0, 0.1], [150, 0.09, 0.16]] },
  score: { wave: "triangle", notes: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.22]] },
  end: { wave: "sine", notes: [[392, 0, 0.18], [523, 0.18, 0.18], [659, 0.36, 0.18], [784, 0.54, 0.4]] },
};

export function cue(name) {
  if (!soundOn() || !CUES[name]) return;
  try {
    context ??= new AudioContext();
    const now = context.currentTime;
    const { wave, notes } = CUES[name];
    for (const [frequency, start, length] of notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = wave;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.12, now + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.05);
    }
  } catch {
    // no audio device: the cue is only a nicety
  }
}

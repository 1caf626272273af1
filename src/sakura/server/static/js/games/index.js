// The game modules by the engine's game name. Each draws its own game (board, hand, facts,
// log, result) behind the same few functions, so the table and replay pages serve any game.
const MODULES = {
  sakura: () => import("./sakura.js"),
  "sakura-cards": () => import("./cards.js"),
};

export async function gameModule(name) {
  const load = MODULES[name] ?? MODULES.sakura;
  return load();
}

// Shared by the renderer-state tests: a wait for what a state class's asynchronous loads settle to.

/** Polls `check` every 20 ms until it holds; fails naming `what` after `ms`. */
export async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A terminal-like stream that records what is written (progress bars draw on it as on a terminal). */
export function fakeTerminal(): NodeJS.WriteStream & { text: string } {
  const s = {
    text: '',
    isTTY: true,
    columns: 120,
    write(chunk: string) {
      s.text += chunk;
      return true;
    },
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    on: () => s,
    removeListener: () => s,
  };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

/** A clock that moves `stepMs` on every reading: work "lasts" as long as it asks the time. */
export function steppingClock(stepMs: number): () => number {
  let t = 0;
  return () => {
    t += stepMs;
    return t;
  };
}

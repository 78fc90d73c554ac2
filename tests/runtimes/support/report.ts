// Timings and sizes a test file prints: collected during its tests and
// printed once at its end, as one block.
export function reportAtEnd(title: string): (line: string) => void {
  const lines: string[] = [];
  afterAll(() => {
    if (lines.length > 0) console.log(`${title}\n${lines.map((line) => `  ${line}`).join('\n')}`);
  });
  return (line) => {
    lines.push(line);
  };
}

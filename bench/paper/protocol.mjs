// protocol.json, the paper's protocol as data, for the JavaScript side (paper_native gets it through bench/CMakeLists.txt).
import { readFileSync } from 'node:fs';

export const protocol = JSON.parse(readFileSync(new URL('./protocol.json', import.meta.url), 'utf8'));

// Gives the package's WebAssembly exports the short names of
// bindings/export-names.json, in the modules and in the JavaScript that calls
// them, so that a browser downloads `e.core.x(` rather than
// `e.core.cuckoo_has(` and an export section of one- and two-letter names.
// The sources keep the readable names (bindings/*_exports.cpp,
// ts/src/core-exports.ts); only dist/ has the short ones:
//   - each dist/wasm/*.wasm: its export section, names mapped, and without
//     the exports Emscripten gives every module that no JavaScript here reads
//     ("unused": the lean module's stack and errno calls). An export the map
//     neither shortens, keeps nor drops stops the build: a new CUCKOO_EXPORT
//     needs a short name there, the next free one;
//   - the full module's glue (dist/wasm/cuckoo-full.mjs, .cjs): where it reads
//     an export, Module["asm"]["name"], so that its Module._name wrappers
//     still reach theirs;
//   - the compiled TypeScript (dist/esm/**/*.mjs, dist/cjs/**/*.js): every
//     property access .name. A readable name left anywhere else in it (a
//     string, a destructuring) stops the build, since it would no longer
//     name an export.
//   node scripts/export-names.mjs dist
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = process.argv[2];
if (dist === undefined) throw new Error('usage: node scripts/export-names.mjs <dist folder>');

const mapFile = new URL('../bindings/export-names.json', import.meta.url);
const { kept, unused, short } = JSON.parse(readFileSync(mapFile, 'utf8'));
const keptNames = new Set(kept);
const unusedNames = new Set(unused);
const shortNames = new Set(Object.values(short));
const readableNames = Object.keys(short);

/** Files under `folder` (recursively) whose names end with one of `endings`. */
function filesUnder(folder, endings) {
  return readdirSync(folder, { recursive: true })
    .map((name) => join(folder, String(name)))
    .filter((path) => endings.some((ending) => path.endsWith(ending)) && !path.endsWith('.d.ts') && !path.endsWith('.d.mts'));
}

// --- The modules' export sections (the WebAssembly binary format, section 7).

function readUnsigned(bytes, offset) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[offset++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return { value, offset };
}

function unsigned(value) {
  const bytes = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return Buffer.from(bytes);
}

const EXPORT_SECTION = 7;

/** The export section's entries, each name mapped, the unused left out; throws on a name the map does not know. */
function renamedExports(section, file) {
  let { value: count, offset } = readUnsigned(section, 0);
  const entries = [];
  const mapped = [];
  while (count-- > 0) {
    const length = readUnsigned(section, offset);
    const name = section.subarray(length.offset, length.offset + length.value).toString('utf8');
    offset = length.offset + length.value;
    const kind = section[offset];
    const index = readUnsigned(section, offset + 1);
    const entryTail = section.subarray(offset, index.offset);
    offset = index.offset;
    if (unusedNames.has(name)) continue;
    let renamed = name;
    if (Object.hasOwn(short, name)) {
      renamed = short[name];
      mapped.push(name);
    } else if (!keptNames.has(name) && !shortNames.has(name)) {
      throw new Error(
        `${file} exports ${name} (kind ${kind}), which bindings/export-names.json neither shortens nor keeps: ` +
          'give a new CUCKOO_EXPORT the next free short name there, or list an export of Emscripten\'s own under "kept" or "unused"',
      );
    }
    const nameBytes = Buffer.from(renamed, 'utf8');
    entries.push(unsigned(nameBytes.length), nameBytes, entryTail);
  }
  return { section: Buffer.concat([unsigned(entries.length / 3), ...entries]), mapped };
}

/** Rewrites `file`'s export section; the readable names it exported. */
function renameModuleExports(file) {
  const bytes = readFileSync(file);
  const parts = [bytes.subarray(0, 8)];
  let mapped = [];
  let offset = 8;
  while (offset < bytes.length) {
    const id = bytes[offset];
    const size = readUnsigned(bytes, offset + 1);
    const content = bytes.subarray(size.offset, size.offset + size.value);
    if (id === EXPORT_SECTION) {
      const renamed = renamedExports(content, file);
      mapped = renamed.mapped;
      parts.push(Buffer.from([id]), unsigned(renamed.section.length), renamed.section);
    } else {
      parts.push(bytes.subarray(offset, size.offset + size.value));
    }
    offset = size.offset + size.value;
  }
  writeFileSync(file, Buffer.concat(parts));
  return mapped;
}

// --- The full module's glue and the compiled TypeScript.

const anyReadableName = new RegExp(`\\b(?:${readableNames.join('|')})\\b`);

function renameInGlue(file, exported) {
  let text = readFileSync(file, 'utf8');
  for (const name of exported) {
    const reads = `Module["asm"]["${name}"]`;
    if (!text.includes(reads)) throw new Error(`${file} does not read the export ${name} as ${reads}: its glue changed, see ${import.meta.url}`);
    text = text.replaceAll(reads, `Module["asm"]["${short[name]}"]`);
  }
  writeFileSync(file, text);
}

const propertyAccess = new RegExp(`(?<=[^.]\\.)(${readableNames.join('|')})\\b`, 'g');

function renameInJavaScript(file) {
  const text = readFileSync(file, 'utf8').replace(propertyAccess, (name) => short[name]);
  const left = anyReadableName.exec(text);
  if (left !== null) {
    const line = text.slice(0, left.index).split('\n').length;
    throw new Error(`${file}:${line} names the export ${left[0]} other than as a property (.${left[0]}): it cannot be given its short name`);
  }
  writeFileSync(file, text);
}

const wasmFolder = join(dist, 'wasm');
const exportedByFull = [];
for (const file of filesUnder(wasmFolder, ['.wasm'])) {
  const exported = renameModuleExports(file);
  if (file.endsWith('cuckoo-full.wasm')) exportedByFull.push(...exported);
}
for (const file of filesUnder(wasmFolder, ['.mjs', '.cjs'])) renameInGlue(file, exportedByFull);
for (const file of [...filesUnder(join(dist, 'esm'), ['.mjs']), ...filesUnder(join(dist, 'cjs'), ['.js'])]) renameInJavaScript(file);

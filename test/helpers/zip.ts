import { readFileSync } from 'node:fs';

/** Entry names of a zip archive (a .vsix), read from its central directory. */
export function zipEntries(file: string): string[] {
  const data = readFileSync(file);
  const END_OF_DIRECTORY = 0x06054b50;
  const DIRECTORY_ENTRY = 0x02014b50;
  let end = data.length - 22;
  while (end >= 0 && data.readUInt32LE(end) !== END_OF_DIRECTORY) end--;
  if (end < 0) throw new Error(`${file} is not a zip archive`);
  const count = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (data.readUInt32LE(offset) !== DIRECTORY_ENTRY) throw new Error(`corrupt central directory in ${file}`);
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    names.push(data.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

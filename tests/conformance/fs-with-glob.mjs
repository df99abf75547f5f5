// `node:fs` plus `globSync(pattern, { cwd })` for Node 20 (see node20-fs-globsync.mjs).
// Enough for what the conformance CLI asks (`**/checks.json`): patterns of `/`-separated
// segments where `**` is any number of directories and `*` / `?` match within a name.
// Results are paths relative to cwd, like Node 22's fs.globSync with string patterns.
import fs from "node:fs";
import path from "node:path";

export * from "node:fs";
export default { ...fs, globSync };

function segmentRegExp(segment) {
  const body = segment.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]");
  return new RegExp(`^${body}$`);
}

export function globSync(pattern, options = {}) {
  const cwd = options.cwd === undefined ? process.cwd() : String(options.cwd);
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  const found = new Set();
  for (const p of patterns) {
    walk(cwd, "", String(p).split("/").filter((s) => s !== ""), found);
  }
  return [...found];
}

function entries(dir) {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function walk(base, rel, segments, found) {
  if (segments.length === 0) {
    if (rel !== "") found.add(rel);
    return;
  }
  const [head, ...rest] = segments;
  const dir = path.join(base, rel);
  if (head === "**") {
    walk(base, rel, rest, found);
    for (const entry of entries(dir)) {
      if (entry.isDirectory()) walk(base, path.join(rel, entry.name), segments, found);
    }
    return;
  }
  const re = segmentRegExp(head);
  for (const entry of entries(dir)) {
    if (!re.test(entry.name)) continue;
    if (rest.length > 0 && !entry.isDirectory()) continue;
    walk(base, path.join(rel, entry.name), rest, found);
  }
}

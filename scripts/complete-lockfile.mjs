// Re-adds the lock entries of optional per-platform packages that the registry reachable from our
// development machines does not serve (it 404s their non-Linux builds), so `npm install` here
// drops them and `npm ci` then refuses the lock as "out of sync" on every machine. The entries are
// os/cpu-gated optional packages: npm fetches them only on their own platform.
// Run it after `npm install` has rewritten package-lock.json: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const optionalPlatformPackages = {
  '@msgpackr-extract/msgpackr-extract': ['darwin-arm64', 'darwin-x64', 'linux-arm', 'linux-arm64', 'linux-x64', 'win32-x64'],
};
let added = 0;
for (const [prefix, platforms] of Object.entries(optionalPlatformPackages)) {
  const parent = lock.packages[`node_modules/${prefix.split('/')[1]}`];
  if (!parent) continue;
  for (const platform of platforms) {
    const key = `node_modules/${prefix}-${platform}`;
    if (lock.packages[key]) continue;
    const [os, cpu] = platform.split('-');
    lock.packages[key] = { version: parent.version, cpu: [cpu], license: 'MIT', optional: true, os: [os] };
    added += 1;
  }
}
const ordered = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync('package-lock.json', `${JSON.stringify({ ...lock, packages: ordered }, null, 2)}\n`);
console.log(`package-lock.json: ${added} optional platform entr${added === 1 ? 'y' : 'ies'} added`);

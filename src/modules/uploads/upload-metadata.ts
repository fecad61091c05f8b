/**
 * The TUS Upload-Metadata header: comma-separated `key base64(value)` pairs, a value may be absent.
 * Keys are matched case-insensitively (clients send `workspaceid`, `workspaceId`, `filetype`...).
 */
export function parseUploadMetadata(header: string | undefined): Map<string, string | null> {
  const entries = new Map<string, string | null>();
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(/\s+/, 2);
    if (!key) continue;
    entries.set(key.toLowerCase(), value === undefined ? null : Buffer.from(value, 'base64').toString('utf8'));
  }
  return entries;
}
